"""Kernel compilation seen from the command line: a progress line while numba compiles (the
first run after install; a run whose kernels load from numba's on-disk cache prints none),
and the time it took, kept apart from the simulation's wall time."""

import sys
import time

#: The line printed on stderr when the first kernel starts compiling.
NOTICE = "mallard: compiling kernels (first run only)…"


class CompilationWatch:
    """While entered, watches numba's "numba:compile" events (fired for a kernel that is
    compiled, not for one loaded from the on-disk cache): prints NOTICE on ``stream``
    (default stderr) when the first one starts, and adds up the wall time spent compiling
    (nested compilations counted once) in ``seconds``."""

    def __init__(self, stream=None):
        self._stream = stream
        self.seconds = 0.0
        self.compiled = False
        self._depth = 0
        self._start = 0.0
        self._installed = None

    def __enter__(self):
        from mallard.multibody._kernels._numba_internals import compilation_listener

        self._installed = compilation_listener(self._started, self._ended)
        self._installed.__enter__()
        return self

    def __exit__(self, *exc):
        self._installed.__exit__(*exc)
        self._installed = None
        return False

    def _started(self):
        if not self.compiled:
            self.compiled = True
            stream = self._stream if self._stream is not None else sys.stderr
            print(NOTICE, file=stream, flush=True)
        if self._depth == 0:
            self._start = time.perf_counter()
        self._depth += 1

    def _ended(self):
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._start
