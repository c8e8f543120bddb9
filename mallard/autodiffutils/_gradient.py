"""Matrices of AutoDiffXd: seeding (InitializeAutoDiff) and reading back values and gradients.

As in pydrake, matrices are 2-D: a 1-D input is a column vector (n×1). The gradient of an m×n
matrix has one row per entry, in column-major (Eigen's) order: row r + c·m holds the
derivatives of entry (r, c). Real numbers in an object array are constants (no derivatives).
"""

import numbers

import numpy as np

from mallard.autodiffutils._autodiff import _EMPTY, AutoDiffXd


def _matrix(a, function):
    """``a`` as a 2-D array (a 1-D array as a column); TypeError for other ranks."""
    a = np.asarray(a)
    if a.ndim == 1:
        return a.reshape(-1, 1)
    if a.ndim != 2:
        raise TypeError(
            f"{function}(): expected a vector or a matrix, got an array of shape {a.shape}"
        )
    return a


def _float_matrix(a, function):
    a = _matrix(a, function)
    if a.dtype == object or a.dtype.kind not in "biuf":
        raise TypeError(f"{function}(): expected an array of real numbers, got dtype {a.dtype}")
    return a.astype(float)


def _column_major(a):
    """The entries of 2-D array ``a`` in column-major order."""
    return a.T.reshape(-1)


def InitializeAutoDiff(value, num_derivatives=None, deriv_num_start=None, *, gradient=None):
    """The matrix ``value`` as AutoDiffXd: entry i (in column-major order) gets derivative
    vector e_{deriv_num_start + i} of size ``num_derivatives`` (default: the number of
    entries). ``InitializeAutoDiff(value, gradient)`` instead gives entry i row i of
    ``gradient``."""
    value = _float_matrix(value, "InitializeAutoDiff")
    if num_derivatives is not None and not isinstance(num_derivatives, (int, np.integer)):
        gradient, num_derivatives = num_derivatives, None
    flat = _column_major(value)
    out_flat = np.empty(flat.size, dtype=object)
    if gradient is not None:
        gradient = _float_matrix(gradient, "InitializeAutoDiff")
        if gradient.shape[0] != flat.size:
            raise ValueError(
                f"InitializeAutoDiff(): the gradient must have one row per entry of value "
                f"({flat.size}), got {gradient.shape[0]} rows"
            )
        for i, v in enumerate(flat):
            out_flat[i] = AutoDiffXd(v, gradient[i])
    else:
        start = 0 if deriv_num_start is None else int(deriv_num_start)
        n = flat.size if num_derivatives is None else int(num_derivatives)
        if start < 0 or start + flat.size > n:
            raise ValueError(
                f"InitializeAutoDiff(): {flat.size} entries starting at derivative "
                f"{start} do not fit in num_derivatives = {n}"
            )
        seeds = np.eye(n)
        for i, v in enumerate(flat):
            out_flat[i] = AutoDiffXd(v, seeds[start + i])
    return out_flat.reshape(value.shape[1], value.shape[0]).T.copy()


def InitializeAutoDiffTuple(*args):
    """Each argument (a vector or matrix) as AutoDiffXd, all seeded together: the derivative
    vectors have the total number of entries, numbered across the arguments in order."""
    matrices = [_float_matrix(a, "InitializeAutoDiffTuple") for a in args]
    total = sum(m.size for m in matrices)
    out, start = [], 0
    for m in matrices:
        out.append(InitializeAutoDiff(m, total, start))
        start += m.size
    return tuple(out)


def _parts(x):
    """(value, derivatives) of one scalar of an object array."""
    if type(x) is AutoDiffXd:
        return x._v, x._d
    if isinstance(x, numbers.Real):
        return float(x), _EMPTY
    raise TypeError(f"expected AutoDiffXd or real numbers, got {type(x).__name__}")


def ExtractValue(auto_diff_matrix):
    """The values of a matrix of AutoDiffXd, as a float matrix of the same shape (a 1-D input
    gives a column)."""
    a = _matrix(auto_diff_matrix, "ExtractValue")
    if a.dtype != object:
        return a.astype(float)
    out = np.empty(a.shape)
    for index, x in np.ndenumerate(a):
        out[index] = _parts(x)[0]
    return out


def ExtractGradient(auto_diff_matrix, num_derivatives=None):
    """The derivatives of a matrix of AutoDiffXd: one row per entry in column-major order,
    one column per derivative. Entries without derivatives count as zeros; entries with
    different non-zero numbers of derivatives raise RuntimeError. ``num_derivatives`` gives
    the number of columns when no entry has derivatives (and must match otherwise)."""
    a = _matrix(auto_diff_matrix, "ExtractGradient")
    flat = _column_major(a)
    rows = [_parts(x)[1] for x in flat] if a.dtype == object else [_EMPTY] * flat.size
    sizes = {d.size for d in rows if d.size}
    if len(sizes) > 1:
        first, second = sorted(sizes)[:2]
        raise RuntimeError(
            "ExtractGradient(): Input matrix has elements with inconsistent, non-zero numbers "
            f"of derivatives ({first} and {second})."
        )
    n = sizes.pop() if sizes else (0 if num_derivatives is None else int(num_derivatives))
    if num_derivatives is not None and n != int(num_derivatives):
        raise RuntimeError(
            f"ExtractGradient(): Input matrix has {n} derivatives, but num_derivatives was "
            f"specified as {int(num_derivatives)}. Either the input matrix should have zero "
            "derivatives, or the number should match num_derivatives."
        )
    out = np.zeros((flat.size, n))
    for i, d in enumerate(rows):
        if d.size:
            out[i] = d
    return out
