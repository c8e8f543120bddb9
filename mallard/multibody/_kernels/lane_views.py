"""Lane views: kernels written for arrays of scalars, run on L states at once.

A lane view (:class:`Lanes`) of an array whose last dimension holds L lanes (kernels.lanes)
is what a kernel written for scalars sees: its ``shape`` leaves the lanes out; indexing it by
one integer per dimension gives the lane value of that element (compiled, one vector load;
interpreted, a copy),
assigning one stores its lanes (a scalar: in every lane); indexing by fewer, or with slices,
gives a view of the rest. The batched entry points (kernels.batch) pass the kinematics and
dynamics kernels lane views of a workspace, and those compute L states at once, unchanged.
The few calls that lanes can't take (the mobilizers' functions of the joint types computed
outside the kinematics' main loop) go lane by lane: ``for j in range(lane_count(q))`` with
``lane(a, j)``, a no-op on arrays of scalars but for their type: compiled, an array of any
layout (:func:`strided`), as a lane is, so that those functions are compiled once for lanes
and plain arrays, not once per layout.

Compiled, a view is a numba struct holding its array (:class:`LanesType`); interpreted, an
object whose elements are numpy copies (float or object).
"""

import operator

from numba import types
from numba.extending import (
    box,
    intrinsic,
    lower_builtin,
    models,
    overload,
    overload_attribute,
    register_model,
    type_callable,
)

from mallard.multibody._kernels._machinery import reshaped
from mallard.multibody._kernels._numba_internals import (
    box_value,
    c_view,
    element_pointer,
    incref,
    none_value,
    product,
    struct_field,
    struct_proxy,
)
from mallard.multibody._kernels.lanes import (
    VECTOR_TYPE,
    F64xL,
    L,
    as_lanes,
    f64xL,
    is_scalar_type,
)


class Lanes:
    """An array of lanes as a kernel written for scalars sees it: ``array`` has one more
    dimension than the view, the last, of its lanes. Indexing by one integer per dimension
    gives the lanes of that element (a copy; compiled, one vector value); by fewer, or with
    slices, a view of the rest; ``shape`` is the view's. Assigning an element writes its lanes
    (a scalar: to every lane)."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    @property
    def shape(self):
        return self.array.shape[:-1]

    def __getitem__(self, index):
        items = index if isinstance(index, tuple) else (index,)
        value = self.array[index]
        if len(items) == self.array.ndim - 1 and not any(isinstance(i, slice) for i in items):
            return value.copy()
        return Lanes(value)

    def __setitem__(self, index, value):
        self.array[index] = value

    def reshape(self, shape):
        """The view of the array reshaped to ``shape`` + (its lanes,)."""
        return Lanes(self.array.reshape((*shape, self.array.shape[-1])))


def lane_view(array):
    """The :class:`Lanes` view of ``array`` (its last dimension: its lanes); of an array of
    one lane, interpreted, the plain view of its scalars (``array[..., 0]``)."""
    return array[..., 0] if array.shape[-1] == 1 else Lanes(array)


class LanesType(types.Type):
    """numba's type of a :class:`Lanes` view of an array of type ``array_type``."""

    def __init__(self, array_type):
        self.array_type = array_type
        self.ndim = array_type.ndim - 1
        super().__init__(name=f"Lanes({array_type})")


@register_model(LanesType)
class _LanesViewModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("array", fe_type.array_type)])


@intrinsic
def _wrap(typingctx, array):
    def codegen(context, builder, signature, args):
        view = struct_proxy(signature.return_type, context, builder)
        view.array = args[0]
        incref(context, builder, signature.args[0], args[0])
        return view._getvalue()

    return LanesType(array)(array), codegen


@box(LanesType)
def _box_lanes(typ, value, c):
    """Lane views returned to Python: their arrays."""
    array = struct_proxy(typ, c.context, c.builder, value).array
    return box_value(c, typ.array_type, array)


@intrinsic
def _unwrap(typingctx, view):
    def codegen(context, builder, signature, args):
        array = struct_proxy(signature.args[0], context, builder, args[0]).array
        incref(context, builder, signature.return_type, array)
        return array

    return view.array_type(view), codegen


@overload(lane_view)
def _lane_view_compiled(array):
    if isinstance(array, types.Array) and array.dtype == types.float64:
        return lambda array: _wrap(array)
    return None


def _is_element(view, index):
    """Whether ``index`` names one element of the LanesType ``view`` (an integer per
    dimension)."""
    items = index.types if isinstance(index, types.BaseTuple) else (index,)
    return len(items) == view.ndim and all(isinstance(i, types.Integer) for i in items)


@overload(operator.getitem)
def _lanes_getitem(view, index):
    if isinstance(view, LanesType) and not _is_element(view, index):
        return lambda view, index: _wrap(_unwrap(view)[index])
    return None


# An element's lanes are loaded and stored where numba's indexing would find them (a negative
# index counts from the end, unchecked), typed and lowered as numba's own indexing is: one
# address and one vector load or store at each use, not an overload's call of a function of
# its own, nor a view of the element's lanes made and dropped (docs/compilation.md).
def _element_pointer(context, builder, signature, view, index):
    """A ``<L x double>*`` to the lanes of element ``index`` of the lane view ``view``
    (types: signature.args[:2]): numba's address of the element's first lane in the view's
    array (of a C-contiguous one, elements counted from the shape, whose lanes' dimension, and
    often more, LLVM knows: constant offsets, loads and stores it tells apart)."""
    view_type, index_type = signature.args[:2]
    array = struct_field(context, builder, view_type, view, "array")
    pointer = element_pointer(context, builder, view_type.array_type, array, index_type, index)
    return builder.bitcast(pointer, VECTOR_TYPE.as_pointer())


@type_callable(operator.getitem)
def _type_element(context):
    def typer(view, index):
        return f64xL if isinstance(view, LanesType) and _is_element(view, index) else None

    return typer


@lower_builtin(operator.getitem, LanesType, types.Integer)
@lower_builtin(operator.getitem, LanesType, types.BaseTuple)
def _lower_element(context, builder, signature, args):
    return builder.load(_element_pointer(context, builder, signature, *args), align=8)


@type_callable(operator.setitem)
def _type_set_element(context):
    def typer(view, index, value):
        if not (isinstance(view, LanesType) and _is_element(view, index)):
            return None
        return types.none if isinstance(value, F64xL) or is_scalar_type(value) else None

    return typer


@lower_builtin(operator.setitem, LanesType, types.Integer, types.Any)
@lower_builtin(operator.setitem, LanesType, types.BaseTuple, types.Any)
def _lower_set_element(context, builder, signature, args):
    lanes = as_lanes(context, builder, args[2], signature.args[2])
    builder.store(lanes, _element_pointer(context, builder, signature, *args[:2]), align=8)
    return none_value(context)


@overload_attribute(LanesType, "shape")
def _lanes_shape(view):
    return lambda view: _unwrap(view).shape[:-1]


def lane_count(a):
    """The lanes of a lane view, 1 for an array: with :func:`lane`, how kernels run scalar
    code (a call that lanes can't take) lane by lane."""
    return a.array.shape[-1] if isinstance(a, Lanes) else 1


def lane_width():
    """The lanes batched kernels use: L compiled, 1 interpreted (where the lane view of one
    lane is the plain array of its scalars, faster than numpy arrays of several)."""
    return 1


def lane(a, index):
    """Lane ``index`` of a lane view (a strided array of scalars); an array is its only lane
    (compiled, as :func:`strided`: the type of a lane)."""
    return a.array[..., index] if isinstance(a, Lanes) else a


def strided(a):
    """The array ``a``; compiled, typed as an array of any layout (numba's "A"), the type of a
    lane of a lane view (:func:`lane`), the same memory: a kernel that lanes call lane by lane
    (the mobilizers' functions) and plain kernels call with contiguous arrays is then typed
    and compiled once, not once per layout (numba compiles a kernel once per argument types)."""
    return a


@overload(lane_width)
def _lane_width_compiled():
    return lambda: L


@overload(lane_count)
def _lane_count_compiled(a):
    count = L if isinstance(a, LanesType) else 1
    return lambda a: count


@overload(lane)
def _lane_compiled(a, index):
    if isinstance(a, LanesType):
        return lambda a, index: _unwrap(a)[..., index]
    return lambda a, index: strided(a)


@overload(strided)
def _strided_compiled(a):
    if isinstance(a, types.Array) and a.layout != "A":
        return lambda a: a[::1]  # (a slice with a step: layout "A"; the step of 1 folds away)
    return lambda a: a


def lane_array(view):
    """The array of a lane view (its last dimension: its lanes); of a plain array (a view of
    one lane, interpreted), the array with a last dimension of one."""
    return view.array if isinstance(view, Lanes) else view[..., None]


@overload(lane_array)
def _lane_array_compiled(view):
    if isinstance(view, LanesType):
        return lambda view: _unwrap(view)
    return None


@overload(reshaped)
def _reshaped_lanes(a, shape):
    """A 1-D lane view of a C-contiguous array, reshaped: its array viewed as shape + (L,)."""
    if not (isinstance(a, LanesType) and a.ndim == 1 and a.array_type.layout == "C"):
        return None

    def impl(a, shape):
        if product(shape) != a.shape[0]:
            raise ValueError("reshaped: the shape does not match the lane view's size")
        return _wrap(c_view(_unwrap(a), shape + (L,)))

    return impl
