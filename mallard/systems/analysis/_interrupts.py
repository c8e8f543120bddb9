"""Holding Ctrl+C (SIGINT) while a simulation advances: Simulator.AdvanceTo(interruptible=False)."""

import contextlib
import signal
import threading


@contextlib.contextmanager
def keyboard_interrupt_held():
    """Within the block, a SIGINT is held and raised as KeyboardInterrupt when the block ends
    (in the main thread; elsewhere Python delivers no signals, so nothing is held)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt
