"""sin and cos of many angles at once: compiled, a vector loop (libm's sin and cos are scalar
calls, about 13 ns a pair, the largest single cost of the kinematics of a chain of revolute
joints).

:func:`calc_sin_cos` takes np.sin and np.cos of AutoDiffXd and symbolic scalars. Of floats it
takes :func:`sin_cos_polynomial` (interpreted too, so that compiled and interpreted kernels
agree to the last bit), branch-free arithmetic that compiled becomes vector instructions
across the loop: x = k·π/2 + r with |r| ≤ π/4 (Cody–Waite: π/2 split in three parts, the
first two of 33 significant bits, so that k·P1 and k·P2 are exact for |k| < 2²⁰), then
Taylor polynomials of sin r (to r¹⁷) and cos r (to r¹⁶), whose truncation errors at
|r| = π/4 are below 1e-19, and the quadrant k mod 4 picks and signs them. Results are
within 2 ulp of libm's. From |x| ≥ ``LIMIT`` on (and for inf and NaN), libm's are used.
"""

import math
from fractions import Fraction

import numpy as np
from numba import types
from numba.extending import overload

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._numba_internals import c_view
from mallard.multibody._kernels.lane_views import Lanes, LanesType, lane_array
from mallard.multibody._kernels.lanes import L

#: 2/π and the three parts of π/2 (P1 + P2 + P3 = π/2 to 122 bits), from 80 digits of π.
TWO_OVER_PI = float.fromhex("0x1.45f306dc9c883p-1")
P1 = float.fromhex("0x1.921fb54400000p+0")
P2 = float.fromhex("0x1.0b4611a600000p-34")
P3 = float.fromhex("0x1.3198a2e037073p-69")
#: |x| from which libm's sin and cos are used.
LIMIT = 1e5


def _taylor(first, count):
    """The Taylor coefficients (−1)^i / (first + 2i)! of sin (first = 3) or cos (4)."""
    sign = -1 if first == 3 else 1
    return tuple(
        float(Fraction(sign * (-1) ** i, math.factorial(first + 2 * i))) for i in range(count)
    )


S3, S5, S7, S9, S11, S13, S15, S17 = _taylor(3, 8)
C4, C6, C8, C10, C12, C14, C16 = _taylor(4, 7)


@jitable
def sin_cos_polynomial(x):
    """(sin x, cos x) of a float |x| < LIMIT by the module's branch-free polynomial."""
    k = np.rint(x * TWO_OVER_PI)
    r = ((x - k * P1) - k * P2) - k * P3
    r2 = r * r
    s = S13 + r2 * (S15 + r2 * S17)
    s = S3 + r2 * (S5 + r2 * (S7 + r2 * (S9 + r2 * (S11 + r2 * s))))
    s = r + r * r2 * s
    c = C12 + r2 * (C14 + r2 * C16)
    c = (1.0 - 0.5 * r2) + r2 * r2 * (C4 + r2 * (C6 + r2 * (C8 + r2 * (C10 + r2 * c))))
    quadrant = np.int64(k)
    odd = (quadrant & 1) != 0
    sin_x = c if odd else s
    cos_x = -s if odd else c
    if (quadrant & 2) != 0:
        sin_x = -sin_x
        cos_x = -cos_x
    return sin_x, cos_x


#: The angles a vector loop below takes at a time: the loops go over the angles rounded up to
#: a multiple of it, not over the whole width of the sin_cos section.
BLOCK = 4


@jitable
def _block(n):
    """n rounded up to a multiple of BLOCK."""
    return -(-n // BLOCK) * BLOCK


@jitable
def _pad(q, sc):
    """sc[2] = q followed by zeros to the next multiple of BLOCK (within sc's width, a multiple
    of it); returns that count."""
    n = _block(q.shape[0])
    for i in range(q.shape[0]):
        sc[2, i] = q[i]
    for i in range(q.shape[0], n):
        sc[2, i] = 0.0 * q[0]
    return n


@jitable
def _polynomials(sc, n, count):
    """sc[0, i], sc[1, i] = sin, cos of sc[2, i] for i < ``count`` (a multiple of BLOCK: a
    vector loop), then libm's for those of the first n whose |x| ≥ LIMIT (or inf, NaN)."""
    for i in range(count):
        sc[0, i], sc[1, i] = sin_cos_polynomial(sc[2, i])
    large = 0  # (counted first, in a vector loop: the loop with libm's calls is scalar)
    for i in range(n):
        large += 0 if abs(sc[2, i]) < LIMIT else 1
    if large == 0:
        return
    for i in range(n):
        if not abs(sc[2, i]) < LIMIT:
            sc[0, i] = np.sin(sc[2, i])
            sc[1, i] = np.cos(sc[2, i])


def calc_sin_cos(q, sc):
    """sc[0, i], sc[1, i] = sin q[i], cos q[i] for every i < len(q). ``sc`` is a workspace of
    3 rows of ``sin_cos_width(len(q))`` scalars (mallard.multibody._layout); row 2 holds q
    padded with zeros to a multiple of BLOCK, so that compiled for floats it is one vector
    loop without remainder over the angles (not over the section's whole width: the lanes of
    a chain of a few joints took 128 angles for its 8). Of lane views (kernels.lane_views),
    it takes their arrays' lanes as so many more angles."""
    if isinstance(q, Lanes):
        calc_sin_cos(lane_array(q).reshape(-1), lane_array(sc).reshape(3, -1))
        return
    for i in range(_pad(q, sc)):
        x = sc[2, i]
        if isinstance(x, float) and abs(x) < LIMIT:  # (as compiled, to the last bit)
            sc[0, i], sc[1, i] = sin_cos_polynomial(x)
        else:
            sc[0, i] = np.sin(x)
            sc[1, i] = np.cos(x)


@overload(calc_sin_cos)
def _calc_sin_cos_float(q, sc):
    if isinstance(q, LanesType):  # (sc: a workspace's section, C-contiguous)

        def lanes_loop(q, sc):
            a = lane_array(q)
            flat = c_view(lane_array(sc), (3, sc.shape[1] * L))  # (no reshape's C call)
            nq = a.shape[0]
            for j in range(nq):
                for lane in range(L):
                    flat[2, j * L + lane] = a[j, lane]
            _polynomials(flat, nq * L, nq * L)  # (L a multiple of BLOCK)

        return lanes_loop
    if not (isinstance(q, types.Array) and isinstance(q.dtype, types.Float)):
        return None

    def vector_loop(q, sc):
        _polynomials(sc, q.shape[0], _pad(q, sc))

    return vector_loop
