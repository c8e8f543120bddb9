"""A one-line progress bar on stderr for long simulations."""

import sys
import time

_WIDTH = 30
_DELAY = 0.5  # s of wall time before the bar appears: short runs show none
_INTERVAL = 0.1  # s of wall time between redraws


class ProgressBar:
    """Draws ``[#####.....]  42%  t = 4.2 / 10 s`` on stderr, redrawn at most every 0.1 s,
    once a run has taken 0.5 s; does nothing when stderr is not a terminal."""

    def __init__(self, duration, stream=None):
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = self._stream.isatty()
        self._duration = duration
        self._start = time.perf_counter()
        self._last_draw = -1.0
        self._drawn = False

    def monitor(self, context):
        """Redraws the bar for ``context``'s time (also a Simulator monitor: it never stops
        the run)."""
        if not self._enabled:
            return None
        now = time.perf_counter()
        if now - self._start < _DELAY or now - self._last_draw < _INTERVAL:
            return None
        self._last_draw = now
        t = context.get_time()
        fraction = min(t / self._duration, 1.0) if self._duration > 0 else 1.0
        done = int(round(fraction * _WIDTH))
        self._stream.write(
            f"\r[{'#' * done}{'.' * (_WIDTH - done)}] {fraction:4.0%}  "
            f"t = {t:.3g} / {self._duration:g} s"
        )
        self._stream.flush()
        self._drawn = True
        return None

    def close(self):
        """Erases the bar, if drawn."""
        if self._drawn:
            self._stream.write("\r\033[K")
            self._stream.flush()
