"""Kernels' views of the flat model and of the workspaces, made from the layouts declared in
mallard.multibody._layout.

For each layout, a kernel of (mi, a) returns the layout's View (a namedtuple) of the sections
of the array ``a``, each shaped, at the offsets mi holds: ``w = workspace(mi, ws)``, then
``w.M`` (the SAP layouts' offsets and sizes are in a SAP header instead of mi).
Compiled, a view is a few integer operations with no reference counting, and the views
a kernel does not use cost nothing (the compiler drops them). ``a`` may be a lane view
(kernels.lane_views): the sections are then lane views too.
"""

import math

from numba import types
from numba.extending import overload

from mallard.multibody import _layout
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._numba_internals import c_view_at
from mallard.multibody._kernels.lane_views import LanesType, _unwrap, _wrap
from mallard.multibody._kernels.lanes import L
from mallard.multibody._layout import SIZE, Model


def section(a, offset, shape):
    """The view, shaped ``shape``, of the elements of ``a`` from ``offset`` on (unchecked:
    a layout's sections fit its array by construction)."""
    return a[offset : offset + math.prod(shape)].reshape(shape)


@overload(section)
def _section_compiled(a, offset, shape):
    if isinstance(a, types.Array) and a.layout == "C":
        return lambda a, offset, shape: c_view_at(a, offset, shape)
    if isinstance(a, LanesType) and a.array_type.layout == "C":
        return lambda a, offset, shape: _wrap(c_view_at(_unwrap(a), offset, shape + (L,)))
    return None


def _views_kernel(layout, inline=True):
    """The kernel (mi, a) → layout.View of the array ``a``'s sections (see the module);
    ``inline``: numba's (kernels._machinery.jitable), else LLVM's inlining."""
    items = []
    for i, shape in enumerate(layout.shapes):
        dims = "".join(
            f"{d}, " if isinstance(d, int) else f"mi[{layout.size_index[d]}], " for d in shape
        )
        items.append(f"        section(a, mi[{layout.base + i}], ({dims})),")
    source = "\n".join(
        [f"def {layout.name}(mi, a):", f'    """Views of {layout.name}."""', "    return View("]
        + items
        + ["    )"]
    )
    namespace = {"View": layout.View, "section": section}
    exec(compile(source, f"<mallard.multibody._layout.{layout.name.upper()}>", "exec"), namespace)
    kernel = namespace[layout.name]
    kernel.__module__ = __name__
    kernel.__doc__ = f"The {layout.View.__name__} views of the array's sections (_layout)."
    kernel.source = source
    return jitable(kernel, inline=inline, llvm_inline=not inline)


model_tables = _views_kernel(_layout.MODEL, inline=False)
parameters = _views_kernel(_layout.PARAMETERS, inline=False)
workspace = _views_kernel(_layout.WORKSPACE, inline=False)
derivatives = _views_kernel(_layout.DERIVATIVES)
batch_row = _views_kernel(_layout.BATCH_ROW)
lane_row = _views_kernel(_layout.LANE_ROW)
# (of a SAP header ``si``: sap_table(si, si), sap_workspace(si, sw); see kernels.sap)
sap_table = _views_kernel(_layout.SAP_TABLE)
sap_workspace = _views_kernel(_layout.SAP_WORKSPACE)
derivative_row = _views_kernel(_layout.DERIVATIVE_ROW)

_N, _NQ, _NV, _NU = SIZE["n"], SIZE["nq"], SIZE["nv"], SIZE["nu"]


@jitable(llvm_inline=True)
def model(mi, mf):
    """The Model of the flat model (mi, mf): sizes, tables and the joints' constants."""
    n = mi[_N]
    t = model_tables(mi, mi)
    jparam = section(mf, 0, (n, 4))
    return Model(
        n,
        mi[_NQ],
        mi[_NV],
        mi[_NU],
        t.tree,
        jparam,
        t.actuated_v,
        t.gravity_mask,
        t.v_end,
        t.dof_parent,
    )
