"""The kernels these tests compile with ``njit_cached`` (test_by_address's callers of
mallard's kernels, ...) are cached under the stamps of the mallard modules their file imports
(SourceGraph.stamp_of_importer), not of their file alone: after an edit of a kernel they link,
a warm cache compiles them again instead of loading the code of the kernel as it was."""

import os

from mallard.multibody._kernels._machinery import SOURCES
from mallard.multibody._kernels._numba_internals import manage_caches

manage_caches(os.path.dirname(os.path.abspath(__file__)), SOURCES.stamp_of_importer)
