"""Room for Python's frames while numba compiles: no memory mapped and unmapped per call.

CPython 3.11 keeps the frames of Python functions on a stack of chunks, 16 KiB each
(``_PyThreadState_PushFrame``, Python/pystate.c): a call whose frame (9 words plus the code's
locals and ``co_stacksize``) does not fit in what is left of the current chunk maps a new
chunk (``mmap``, through the object arena allocator), and the chunk is unmapped as soon as
that frame returns. A call made again and again at a depth where a chunk ends maps, touches
and unmaps a chunk each time. numba's compilation recurses deeply and makes millions of
calls, so wherever a chunk's end falls it falls below some busy caller: a first ``mallard
simulate`` made 95 000 ``mmap``/``munmap`` pairs (``strace -c``) and 150 000 page faults,
0.7 s of system time of its ~9.5 s of CPU (docs/compilation.md, "Room for Python's frames
while numba compiles"). Moving a call elsewhere only moves the ends.

kernels._numba_internals.compile_with_room_for_frames runs numba's outermost compilation (of
each thread) through :func:`with_room_for_frames`: in a frame given :data:`ROOM_WORDS` words of
value stack it never uses. That frame gets a chunk of its own twice that size, and the
compilation's frames fit in the half after it, so no chunk is mapped while it runs (the one
chunk is mapped and unmapped once per outermost compilation); the pages of the unused stack
are never touched. The assumption (CPython 3.11's, tested in
tests/multibody/kernels/test_python_frames.py): a frame takes its code's ``co_stacksize``
words on the chunk stack, and a chunk is sized for the frame that needs it, in powers of two
of 16 KiB.
"""

import functools
import threading
import types

#: The words of unused value stack of the frame an outermost compilation runs in: 1 MiB, so
#: that its chunk is 2 MiB and about 1 MiB (131 000 words, some thousand frames) is left for
#: the frames the compilation makes.
ROOM_WORDS = 1 << 17


def _call(fn, args, kwargs):
    return fn(*args, **kwargs)


#: ``fn(*args, **kwargs)``, called from a frame of ROOM_WORDS words more than it needs.
call_with_room = types.FunctionType(
    _call.__code__.replace(co_stacksize=_call.__code__.co_stacksize + ROOM_WORDS),
    globals(),
    "call_with_room",
)

_THREAD = threading.local()  # .inside: this thread runs in call_with_room's frame


def with_room_for_frames(fn):
    """``fn`` run in :data:`call_with_room`'s frame, unless the thread already is."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_THREAD, "inside", False):
            return fn(*args, **kwargs)
        _THREAD.inside = True
        try:
            return call_with_room(fn, args, kwargs)
        finally:
            _THREAD.inside = False

    wrapper._mallard_room = True
    return wrapper
