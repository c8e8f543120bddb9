"""paused_collection: Python's cyclic garbage collector paused while a plant is built."""

import gc


class paused_collection:
    """Pauses Python's cyclic garbage collector (if it runs) for the block: building a plant
    (a parse, Finalize) allocates many objects that all stay alive, and each collection their
    allocation triggers would scan them, and the objects before them, again (~15% of the time
    of a 2000-link file). One collection of the young objects follows the block, as the first
    allocation after it triggers. Reference counting still frees what is dropped.
    (A class named as the function it was, not a contextlib generator: a quarter of its
    cost, part of the fixed cost of every parse and Finalize.)"""

    __slots__ = ("_was_enabled",)

    def __enter__(self):
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info):
        if self._was_enabled:
            gc.enable()
