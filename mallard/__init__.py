"""mallard: Drake's multibody dynamics (MultibodyPlant and the tree beneath it) in Python.

Module paths mirror pydrake (``mallard.math``, ``mallard.multibody.tree``, ...), so a pydrake
script ports by changing its imports. Importing this package is cheap: numba is imported only
when a compiled kernel is first needed.
"""

__version__ = "0.1.0.dev0"

import time as _time

#: When this process imported mallard (``time.time_ns()``): the code of a source file modified
#: since may not be the file's, and is not cached (multibody._kernels._numba_internals).
_IMPORTED = _time.time_ns()
