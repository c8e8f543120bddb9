"""paused_collection: Python's cyclic garbage collector paused while a plant is built."""

import gc


class paused_collection:
    """Pauses Python's cyclic garbage collector (if it runs) for the block: building a plant
    (a parse, Finalize) allocates many objects that all stay alive, and each collection their
    allocation triggers would scan them, and the objects before them, again (~15% of the time
    of a 2000-link file). The collection the block's allocations made due (of the young
    objects: they all stay alive, it scans each once) runs as the block ends, not at the next
    allocation of whatever code follows. Reference counting still frees what is dropped.
    (A class named as the function it was, not a contextlib generator: a quarter of its
    cost, part of the fixed cost of every parse and Finalize.)"""

    __slots__ = ("_was_enabled",)

    def __enter__(self):
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info):
        if self._was_enabled:
            gc.enable()
            _Allocation()  # (runs the collection now due, if one is)


class _Allocation:
    """An object whose allocation (of a collected type, made from no free list) runs the
    collection that is due, as any such allocation does."""

    __slots__ = ()
