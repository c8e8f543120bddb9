"""mallard: Drake's multibody dynamics (MultibodyPlant and the tree beneath it) in Python.

Module paths mirror pydrake (``mallard.math``, ``mallard.multibody.tree``, ...), so a pydrake
script ports by changing its imports. Importing this package is cheap: numba is imported only
when a compiled kernel is first needed.
"""

__version__ = "0.1.0.dev0"
