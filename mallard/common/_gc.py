"""paused_collection: Python's cyclic garbage collector paused while a plant is built."""

import contextlib
import gc


@contextlib.contextmanager
def paused_collection():
    """Pauses Python's cyclic garbage collector (if it runs) for the block: building a plant
    (a parse, Finalize) allocates many objects that all stay alive, and each collection their
    allocation triggers would scan them, and the objects before them, again (~15% of the time
    of a 2000-link file). One collection of the young objects follows the block, as the first
    allocation after it triggers. Reference counting still frees what is dropped."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
