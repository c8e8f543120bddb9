"""Compiled helpers of the integrators: the linear combinations of Runge-Kutta stages and
the weighted error norm, fused into one call each (numpy would take one call per term, and
these vectors are short).

Sums are formed in the order Drake's VectorBase::PlusEqScaled forms them, so that results
agree with Drake's to the last bit: a leaf system's state (a BasicVector) adds the terms to x
one at a time; a Diagram's (a Supervector) adds their sum, accumulated from zero.

Each is compiled by numba at its first call (importing mallard does not import numba), and
runs interpreted on object arrays (the states of AutoDiffXd and Expression systems)."""

import functools
import math


def _njit_on_first_call(fn):
    """``fn``, compiled by numba (cached on disk) when it is first called; run as plain
    Python when its first argument is an object array (AutoDiffXd or Expression states)."""
    dispatcher = None

    @functools.wraps(fn)
    def call(*args):
        nonlocal dispatcher
        if args[0].dtype == object:
            return fn(*args)
        if dispatcher is None:
            import numba

            dispatcher = numba.njit(cache=True)(fn)
        return dispatcher(*args)

    return call


@_njit_on_first_call
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


@_njit_on_first_call
def combine_error(err, K, scales, m):
    """err = |scales[0]·K[0] + ... + scales[m-1]·K[m-1]|."""
    for i in range(err.shape[0]):
        value = 0.0
        for j in range(m):
            value = value + scales[j] * K[j, i]
        err[i] = abs(value)


@_njit_on_first_call
def rk3_error(err, x0, k, x, h):
    """err = |x0 + h·k − x| (the explicit midpoint solution minus RK3's)."""
    for i in range(err.shape[0]):
        err[i] = abs(x0[i] + h * k[i] - x[i])


@_njit_on_first_call
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
