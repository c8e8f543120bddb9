"""Compiled helpers of the integrators: the linear combinations of Runge-Kutta stages and
the weighted error norm, fused into one call each (numpy would take one call per term, and
these vectors are short).

Sums are formed in the order Drake's VectorBase::PlusEqScaled forms them, so that results
agree with Drake's to the last bit: a leaf system's state (a BasicVector) adds the terms to x
one at a time; a Diagram's (a Supervector) adds their sum, accumulated from zero.

Each is an entry point of mallard._compiled, called as ``kernels(dtype).combine(...)``:
compiled at its first call for float64 (importing mallard does not import numba), interpreted
on object arrays (the states of AutoDiffXd and Expression systems)."""

import math

from mallard._compiled import entry_point


@entry_point
def combine(x, x0, K, scales, m, grouped):
    """x = x0 + scales[0]·K[0] + ... + scales[m-1]·K[m-1]: added to x0 one term at a time,
    or (``grouped``) summed first."""
    for i in range(x.shape[0]):
        if grouped:
            value = 0.0
            for j in range(m):
                value = value + K[j, i] * scales[j]
            x[i] = x0[i] + value
        else:
            value = x0[i]
            for j in range(m):
                value = value + scales[j] * K[j, i]
            x[i] = value


@entry_point
def combine_error(err, K, scales, m):
    """err = |scales[0]·K[0] + ... + scales[m-1]·K[m-1]|."""
    for i in range(err.shape[0]):
        value = 0.0
        for j in range(m):
            value = value + scales[j] * K[j, i]
        err[i] = abs(value)


@entry_point
def rk3_error(err, x0, k, x, h):
    """err = |x0 + h·k − x| (the explicit midpoint solution minus RK3's)."""
    for i in range(err.shape[0]):
        err[i] = abs(x0[i] + h * k[i] - x[i])


@entry_point
def weighted_max_abs(values, weights):
    """max |valuesᵢ|·weightsᵢ, NaN if any value is NaN, 0 for empty vectors."""
    result = 0.0
    for i in range(values.shape[0]):
        v = abs(values[i]) * weights[i]
        if math.isnan(v):
            return math.nan
        if v > result:
            result = v
    return result
