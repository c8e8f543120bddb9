"""mallard's compiled core: kernels, plain functions over arrays (ARCHITECTURE.md §3).

How to write a kernel
---------------------
* Write a plain Python function in the subset numba compiles: loops, scalar arithmetic, numpy
  array indexing, ``np.sin``/``np.cos``/``np.sqrt``, and calls of other kernel functions.
* Allocate no float arrays inside: outputs and temporaries come from arrays passed in, or from
  ``np.zeros_like``/``np.empty_like`` of an input so that they take the input's dtype.
* Decorate it with :func:`jitable`. It stays an ordinary Python function (so it runs on object
  arrays of AutoDiffXd or Expression scalars, interpreted), other kernels can call it from
  compiled code, and it is registered so that ``tests/multibody/kernels`` runs it both ways.
* Callers get the version for their scalar type from :func:`for_dtype` (``compiled(fn)`` for
  float64, ``fn`` itself otherwise) once, not per call. A hot path may call the compiled
  function through :func:`entry_point`, skipping numba's dispatch, when it can guarantee the
  argument types.
* A batched entry point (``kernels.batch``) loops over the batch with ``numba.prange`` and is
  decorated with :func:`batched` instead: :func:`compiled` then compiles it with
  ``parallel=True`` (:func:`compiled_parallel`); interpreted, ``prange`` is plain ``range``.

* Reach other code only through names the module imports (``from ... import name``): a
  kernel's on-disk cache is stamped with the sources of its module and of the modules it
  imports (kernels._sources), so that editing one file recompiles exactly the kernels that
  depend on it.
* Use numba's documented API; anything beyond it (code generation of intrinsics, the cache)
  goes in kernels._numba_internals, with its assumption stated and tested.

Importing this package imports numba; the rest of mallard imports it only when a kernel is
first needed.
"""

from mallard.multibody._kernels._machinery import (
    REGISTRY,
    batched,
    compiled,
    compiled_parallel,
    entry_point,
    for_dtype,
    jitable,
)
