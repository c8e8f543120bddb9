"""mallard's compiled core: kernels, plain functions over arrays (docs/architecture.md).

How to write a kernel
---------------------
* Write a plain Python function in the subset numba compiles: loops, scalar arithmetic, numpy
  array indexing, ``np.sin``/``np.cos``/``np.sqrt``, and calls of other kernel functions.
* Allocate no float arrays inside: outputs and temporaries come from arrays passed in (the
  sections of a workspace, declared in mallard.multibody._layout), or from
  ``np.zeros_like``/``np.empty_like`` of an input so that they take the input's dtype.
* Decorate it with :func:`jitable`. It stays an ordinary Python function (so it runs on object
  arrays of AutoDiffXd or Expression scalars, interpreted) and other kernels can call it from
  compiled code. A thin function that passes a workspace's views on is
  ``@jitable(inline=True)``, one called from many kernels that makes them (kernels.views)
  ``@jitable(llvm_inline=True)``: the views then never cross a call.
* Take few arguments: the flat model as ``model`` and a workspace's sections as ``params``
  and ``work`` (namedtuples of views, kernels.views), then the inputs and outputs of your own.
* Python calls a kernel only through an entry point (mallard._compiled: ``@entry_point``,
  then ``kernels(dtype).name(...)``): a driver taking the flat arrays Python holds (see
  kernels.engine). A batched entry point (kernels.batch), which several threads run at once
  on one batch (each taking groups of states in turn), is decorated with :func:`batched`
  instead.

* Reach other code only through names the module imports (``from ... import name``): a
  kernel's on-disk cache is stamped with the sources of its module and of the modules it
  imports (kernels._sources), so that editing one file recompiles exactly the kernels that
  depend on it.
* Use numba's documented API; anything beyond it (code generation of intrinsics, the cache)
  goes in kernels._numba_internals, with its assumption stated and tested.

Importing this package imports numba; the rest of mallard imports it only when a kernel is
first needed.
"""

from mallard.multibody._kernels._machinery import batched, jitable
