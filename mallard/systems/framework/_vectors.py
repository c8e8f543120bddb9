"""VectorBase and BasicVector: the numeric vectors of states, parameters and vector ports.

A vector owned by a Context carries ``_on_change``, a callable the Context uses to mark what
depends on it out of date; every mutating method calls it. ``get_mutable_value()`` calls it
when the view is handed out, as Drake invalidates on mutable access.
"""

import numbers

import numpy as np

from mallard._scalar import as_array
from mallard._template import _is_scalar, _scalar_class, array_to_scalar
from mallard.common._bindings import format_vector, readonly
from mallard.common._pybind import call_form, is_integer, overloads


def _element_type(data):
    """The scalar type (AutoDiffXd, Expression) of the elements of object array ``data``, or
    None if it holds only real numbers."""
    for x in data.flat:
        if _is_scalar(x):
            return _scalar_class(x)
    return None


#: How Drake names the vector class in its messages.
CPP_BASIC_VECTOR = "drake::systems::BasicVector<double>"


def _invalid_size(operand, size):
    return IndexError(
        f"Operand vector size {operand} does not match this {CPP_BASIC_VECTOR} size {size}"
    )


class VectorBase:
    """A vector of scalars, stored as a 1-D numpy array (float64, or object for AutoDiffXd
    and Expression)."""

    __slots__ = ("_data", "_on_change")

    def __init__(self, data):
        self._data = data
        self._on_change = None

    def _changed(self):
        if self._on_change is not None:
            self._on_change()

    def size(self):
        """The number of elements."""
        return self._data.shape[0]

    def get_value(self):
        """A read-only view of the elements."""
        return readonly(self._data)

    def value(self):
        """A read-only view of the elements (pydrake's alias of ``get_value``)."""
        return readonly(self._data)

    def get_mutable_value(self):
        """A writeable view of the elements."""
        self._changed()
        return self._data

    def CopyToVector(self):
        """A copy of the elements."""
        return self._data.copy()

    def _checked(self, value):
        """``value`` as a vector of this size; real numbers given to a vector of AutoDiffXd
        or Expressions become constants of that type (as Drake converts them)."""
        a = as_array(value, name=type(self).__name__)
        a = a.reshape(-1) if a.ndim == 2 and 1 in a.shape else a
        if a.ndim != 1 or a.shape[0] != self._data.shape[0]:
            raise _invalid_size(a.size, self._data.shape[0])
        if self._data.dtype == object and a.dtype != object and a.size:
            T = _element_type(self._data)
            if T is not None:
                a = array_to_scalar(a, T)
        return a

    def SetFromVector(self, value):
        """Sets every element from ``value`` (same size)."""
        self._data[:] = self._checked(value)
        self._changed()

    def set_value(self, value):
        """Sets every element from ``value`` (same size)."""
        self.SetFromVector(value)

    def SetFrom(self, value):
        """Copies the elements of ``value``, another vector of the same size."""
        self.SetFromVector(value.CopyToVector())

    def SetZero(self):
        """Sets every element to zero."""
        self._data[:] = 0.0
        self._changed()

    def _check_index(self, index):
        if not 0 <= index < self._data.shape[0]:
            raise IndexError(
                f"Index {index} is not within [0, {self._data.shape[0]}) while accessing "
                f"{CPP_BASIC_VECTOR}."
            )

    def GetAtIndex(self, index):
        """The element at ``index`` (a Python float for double vectors, as pydrake's)."""
        self._check_index(index)
        return self._data.item(index)

    def SetAtIndex(self, index, value):
        """Sets the element at ``index`` (a real number given to a vector of AutoDiffXd or
        Expressions becomes a constant of that type)."""
        self._check_index(index)
        if self._data.dtype == object and isinstance(value, numbers.Real):
            T = _element_type(self._data)
            value = value if T is None else T(float(value))
        self._data[index] = value
        self._changed()

    def __getitem__(self, index):
        return self.GetAtIndex(index)

    def __setitem__(self, index, value):
        self.SetAtIndex(index, value)

    def Clone(self):
        """A BasicVector copy (not owned by any Context)."""
        return BasicVector(self._data.copy())

    def PlusEqScaled(self, scale, rhs):
        """this += scale · rhs."""
        self._data += scale * self._checked(rhs.CopyToVector() if hasattr(rhs, "size") else rhs)
        self._changed()
        return self

    def __str__(self):
        return format_vector(self._data)

    def __repr__(self):
        return f"{type(self).__name__}({format_vector(self._data)})"


def _data_or_size(form, values):
    """Whether a BasicVector call form fits its argument: ``size`` an integer, ``data`` not."""
    return is_integer(next(iter(values.values()))) == (form == 1)


class BasicVector(VectorBase):
    """A vector of given size (filled with NaN) or holding the given elements."""

    __slots__ = ()

    @overloads("data", "size")
    def __init__(self, *args, **kwargs):
        """``BasicVector(data)`` (its elements) or ``BasicVector(size)`` (NaN-filled); a
        positional integer is the size."""
        if len(args) == 1 and not kwargs:  # (the common call, without binding)
            x = args[0]
        else:
            _, values = call_form(BasicVector.__init__, args, kwargs, accept=_data_or_size)
            (x,) = values.values()
        if is_integer(x):
            if x < 0:
                raise RuntimeError(f"BasicVector: size must be non-negative, got {x}")
            super().__init__(np.full(int(x), np.nan))
        else:
            a = as_array(x, name="BasicVector")
            super().__init__(a.reshape(-1).copy())

    @classmethod
    def _make(cls, data):
        """A BasicVector that takes ownership of the 1-D array ``data``, unchecked."""
        self = object.__new__(cls)
        VectorBase.__init__(self, data)
        return self

    def Clone(self):
        """A copy (not owned by any Context)."""
        return type(self)(self._data.copy())

    def __copy__(self):
        return self.Clone()

    def __deepcopy__(self, memo):
        return self.Clone()
