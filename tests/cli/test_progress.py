"""The progress bar: drawn on a terminal only, after its delay, and erased at the end."""

import io

from mallard.cli import _progress
from mallard.cli._progress import ProgressBar


class _Terminal(io.StringIO):
    def isatty(self):
        return True


class _Context:
    def __init__(self, time):
        self._time = time

    def get_time(self):
        return self._time


def test_draws_on_a_terminal(monkeypatch):
    monkeypatch.setattr(_progress, "_DELAY", 0.0)
    monkeypatch.setattr(_progress, "_INTERVAL", 0.0)
    stream = _Terminal()
    bar = ProgressBar(10.0, stream)
    assert bar.monitor(_Context(2.5)) is None
    assert stream.getvalue() == "\r[########......................]  25%  t = 2.5 / 10 s"
    bar.close()
    assert stream.getvalue().endswith("\r\033[K")


def test_silent_before_the_delay_and_off_a_terminal(monkeypatch):
    stream = _Terminal()
    bar = ProgressBar(10.0, stream)
    bar.monitor(_Context(1.0))  # within the first 0.5 s
    bar.close()
    assert stream.getvalue() == ""
    monkeypatch.setattr(_progress, "_DELAY", 0.0)
    stream = io.StringIO()
    ProgressBar(10.0, stream).monitor(_Context(1.0))
    assert stream.getvalue() == ""
