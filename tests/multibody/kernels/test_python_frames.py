"""kernels._python_frames: CPython's frame chunks (its assumption, counted in page faults, not
timed) and numba's compilations run with room for their frames."""

import resource
import sys
import threading
import types

import numba
import pytest
from numba.core import event

from mallard.multibody._kernels import _machinery  # noqa: F401 (installs the room)
from mallard.multibody._kernels._python_frames import ROOM_WORDS, call_with_room

#: Calls of the leaf at each depth of the recursion.
CALLS = 50


def _leaf():
    return None


#: A leaf whose frame is 500 words: larger than a frame of _recurse (about 20).
_wide_leaf = types.FunctionType(_leaf.__code__.replace(co_stacksize=500), globals(), "wide")


def _recurse(depth):
    for _ in range(CALLS):
        _wide_leaf()
    if depth:
        _recurse(depth - 1)


def _page_faults(fn, *args):
    """The minor page faults of the process while fn(*args) runs."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    fn(*args)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's frame chunks")
def test_frame_chunks_mapped_per_call_without_room():
    """The assumption: at the depths where less than the leaf's frame is left of a 16 KiB
    chunk (a few dozen of the 300), each call of the leaf maps a chunk, touches it and unmaps
    it on return (3 355 page faults in all, CPython 3.11.7); in call_with_room's frame the
    frames go into the room's chunk, mapped once (10)."""
    without = _page_faults(_recurse, 300)
    with_room = _page_faults(call_with_room, _recurse, (300,), {})
    assert without >= 10 * CALLS and with_room < CALLS, (without, with_room)
    assert call_with_room.__code__.co_stacksize > ROOM_WORDS


def _rooms_on_stack():
    """How many frames of call_with_room the current thread's stack holds."""
    frame, rooms = sys._getframe(), 0
    while frame is not None:
        rooms += frame.f_code is call_with_room.__code__
        frame = frame.f_back
    return rooms


def test_compilations_run_with_room_once():
    """A compilation (a function and, within it, the function it calls) runs in one frame of
    call_with_room, in the main thread and in another."""

    def compile_two():
        seen = []

        class Listener(event.Listener):
            def on_start(self, started):
                seen.append(_rooms_on_stack())

            def on_end(self, ended):
                pass

        inner = numba.njit(lambda x: x + 1.0)
        outer = numba.njit(lambda x: inner(x) * 2.0)
        with event.install_listener("numba:compile", Listener()):
            assert outer(1.0) == 4.0
        return seen

    assert compile_two() == [1, 1]
    assert _rooms_on_stack() == 0
    result = []
    thread = threading.Thread(target=lambda: result.append(compile_two()))
    thread.start()
    thread.join()
    assert result == [[1, 1]]
