"""kernels._python_frames: CPython's frame chunks (its assumption, counted in page faults, not
timed), and calls run with room for their frames once per thread (numba's compilations so:
test_numba_internals.py::test_28_compilations_run_with_room)."""

import resource
import sys
import threading
import types

import pytest

from mallard.multibody._kernels._python_frames import (
    ROOM_WORDS,
    call_with_room,
    with_room_for_frames,
)

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


def rooms_on_stack():
    """How many frames of call_with_room the current thread's stack holds."""
    frame, rooms = sys._getframe(), 0
    while frame is not None:
        rooms += frame.f_code is call_with_room.__code__
        frame = frame.f_back
    return rooms


def test_with_room_once_per_thread():
    """A function with room, called within another, runs in the one frame of call_with_room;
    in another thread, in its own; after, in none; an exception goes through."""

    @with_room_for_frames
    def inner():
        return rooms_on_stack()

    @with_room_for_frames
    def outer():
        return rooms_on_stack(), inner()

    @with_room_for_frames
    def failing():
        raise KeyError("raised")

    assert outer() == (1, 1) and inner() == 1 and rooms_on_stack() == 0
    result = []
    thread = threading.Thread(target=lambda: result.append(outer()))
    thread.start()
    thread.join()
    assert result == [(1, 1)]
    with pytest.raises(KeyError, match="raised"):
        failing()
    assert inner() == 1
