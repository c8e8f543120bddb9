"""Scalar-type plumbing shared by the value types (RigidTransform, SpatialInertia, ...).

mallard's value types hold numpy arrays of one of two dtypes: ``float64`` for plain doubles, or
``object`` for the non-double scalars (AutoDiffXd, symbolic Expression). Numeric input of any
other dtype (ints, bools, float32) is promoted to ``float64``; an array holding any non-number
Python object stays ``object``. Code written with numpy operators works for both dtypes.

Validity checks (orthonormality, physical validity) run on the double values of the scalars:
``values_or_none`` returns them, or ``None`` when a scalar has no numeric value (a symbolic
Expression with free variables), in which case checks are skipped as Drake skips them.
"""

import numbers

import numpy as np

from mallard._scalar_value import scalar_value


def as_array(x, shape=None, name="argument"):
    """Returns ``x`` as a float64 array (numbers) or an object array (other scalars).

    Raises ValueError naming ``name`` if ``shape`` is given and ``x`` cannot take that shape.
    A 1-D shape accepts any array with that many elements (a 3x1 column for a 3-vector), as
    pybind11's Eigen conversion does.
    """
    a = np.asarray(x)
    if a.dtype != np.float64:
        if a.dtype == object:
            if all(isinstance(e, numbers.Real) for e in a.flat):
                a = a.astype(np.float64)
            else:
                a = _variables_as_expressions(a)
        elif a.dtype.kind in "biuf":
            a = a.astype(np.float64)
        else:
            raise TypeError(f"{name}: expected numbers, got an array of dtype {a.dtype}")
    if shape is not None and a.shape != tuple(shape):
        if len(shape) == 1 and a.size == shape[0] and a.ndim == 2 and 1 in a.shape:
            a = a.reshape(shape)
        else:
            raise ValueError(f"{name}: expected shape {tuple(shape)}, got {a.shape}")
    return a


def _variables_as_expressions(a):
    """Object array ``a`` with its symbolic Variables made Expressions (as pydrake stores a
    Variable given where an Expression goes)."""
    if not any(type(e).__name__ == "Variable" for e in a.flat):
        return a
    from mallard.symbolic import Expression, Variable

    out = np.empty(a.shape, dtype=object)
    for i, e in enumerate(a.flat):
        out.flat[i] = Expression(e) if isinstance(e, Variable) else e
    return out


def as_scalar(x, name="argument"):
    """Returns a Python float for a real number, or ``x`` itself for a non-double scalar."""
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, np.ndarray) and x.size == 1 and x.dtype.kind in "biuf":
        return float(x.reshape(-1)[0])
    if type(x).__name__ == "Variable":
        return _variables_as_expressions(np.array([x], dtype=object))[0]
    if hasattr(x, "value") or hasattr(x, "Evaluate"):
        return x
    raise TypeError(f"{name}: expected a scalar, got {type(x).__name__}")


def values_or_none(a):
    """The float64 values of array ``a`` (any dtype), or None if some element has no value."""
    a = np.asarray(a)
    if a.dtype == np.float64:
        return a
    out = np.empty(a.shape)
    for i, e in enumerate(a.flat):
        v = scalar_value(e)
        if v is None:
            return None
        out.flat[i] = v
    return out


def result_dtype(*arrays):
    """``object`` if any input array is an object array, else ``float64``."""
    return object if any(np.asarray(a).dtype == object for a in arrays) else np.float64
