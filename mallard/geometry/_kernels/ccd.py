"""The shapes as the iterative algorithms (GJK, EPA, MPR) see them, and the vector helpers they
use, computed as FCL's libccd bindings and libccd compute them (the answers of those algorithms
then agree with Drake's to rounding):

* an *object* is a tuple of 20 floats: the shape code and measures (gi, gf), the first hull
  vertex and their count, the pose as libccd holds it — the position and the rotation as a
  unit quaternion (x, y, z, w) and its inverse — and the interior point of a Convex in G;
* ``support(o, hv, d)`` is the point of the shape farthest along the direction d (in World);
  ``center(o, hv)`` an interior point;
* a *support point* of the Minkowski difference A ⊖ B is 9 floats: v = v1 − v2, v1 on A, v2
  on B (GJK's and EPA's: a row of a workspace array; MPR's: a tuple (v, v1, v2)).
"""

import numpy as np
from numba import types
from numba.extending import overload

from mallard.geometry._proximity_layout import (
    BOX,
    CAPSULE,
    CONVEX,
    CYLINDER,
    ELLIPSOID,
    HULL_COUNT,
    HULL_START,
    KIND,
    MESH,
    SPHERE,
)
from mallard.multibody._kernels._machinery import KERNEL_OPTIONS, jitable

#: libccd's epsilon (ccd_real_t is double: DBL_EPSILON).
EPS = 2.220446049250313e-16
#: The largest double (CCD_REAL_MAX).
REAL_MAX = 1.7976931348623157e308


# ---- libccd's scalar and vector helpers --------------------------------------------------------
@jitable
def is_zero(x):
    """ccdIsZero: |x| < ε."""
    return abs(x) < EPS


@jitable
def eq(a, b):
    """ccdEq: a and b equal to within ε, absolutely or relatively."""
    ab = abs(a - b)
    if ab < EPS:
        return True
    a, b = abs(a), abs(b)
    return ab < EPS * b if b > a else ab < EPS * a


@jitable
def vec_eq(a, b):
    """ccdVec3Eq."""
    return eq(a[0], b[0]) and eq(a[1], b[1]) and eq(a[2], b[2])


@jitable
def sign(x):
    """ccdSign: 0 for |x| < ε, else ±1."""
    if is_zero(x):
        return 0.0
    return -1.0 if x < 0.0 else 1.0


@jitable
def len2(a):
    return a[0] * a[0] + a[1] * a[1] + a[2] * a[2]


@jitable
def normalized(a):
    """ccdVec3Normalize: a scaled by 1/|a|."""
    k = 1.0 / np.sqrt(len2(a))
    return a[0] * k, a[1] * k, a[2] * k


@jitable
def dist2(a, b):
    d0, d1, d2 = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return d0 * d0 + d1 * d1 + d2 * d2


@jitable
def point_segment_dist2(P, x0, b):
    """(|P − W|², W): W the point of the segment x0–b nearest P (libccd's)."""
    d = (b[0] - x0[0], b[1] - x0[1], b[2] - x0[2])
    a = (x0[0] - P[0], x0[1] - P[1], x0[2] - P[2])
    t = -1.0 * (a[0] * d[0] + a[1] * d[1] + a[2] * d[2])
    t /= len2(d)
    return _on_segment(P, x0, b, d, t)


@jitable(inline=True)
def _on_segment(P, x0, b, d, t):
    """point_segment_dist2's answer from the parameter t of P's projection on the line
    x0 + t·d (d = b − x0). (Inlined: each branch returns.)"""
    if t < 0.0 or is_zero(t):
        return dist2(x0, P), x0
    if t > 1.0 or eq(t, 1.0):
        return dist2(b, P), b
    w = (d[0] * t + x0[0], d[1] * t + x0[1], d[2] * t + x0[2])
    return dist2(w, P), w


@jitable
def point_tri_dist2(P, x0, B, C):
    """(|P − W|², W): W the point of the triangle (x0, B, C) nearest P (libccd's, with Drake's
    relative test for degenerate triangles)."""
    return point_tri_dist2_inlined(P, x0, B, C)


@jitable(llvm_inline=True)
def point_tri_dist2_inlined(P, x0, B, C):
    """:func:`point_tri_dist2`, inlined by LLVM into its caller (GJK's distance loop)."""
    d1 = (B[0] - x0[0], B[1] - x0[1], B[2] - x0[2])
    d2 = (C[0] - x0[0], C[1] - x0[1], C[2] - x0[2])
    a = (x0[0] - P[0], x0[1] - P[1], x0[2] - P[2])
    v = len2(d1)
    w = len2(d2)
    p = a[0] * d1[0] + a[1] * d1[1] + a[2] * d1[2]
    q = a[0] * d2[0] + a[1] * d2[1] + a[2] * d2[2]
    r = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]
    d = w * v - r * r
    if is_zero(d / (w * v)):
        s = t = -1.0
    else:
        s = (q * r - w * p) / d
        t = (-s * r - q) / w
    if (
        (is_zero(s) or s > 0.0)
        and (eq(s, 1.0) or s < 1.0)
        and (is_zero(t) or t > 0.0)
        and (eq(t, 1.0) or t < 1.0)
        and (eq(t + s, 1.0) or t + s < 1.0)
    ):
        W = (
            x0[0] + d1[0] * s + d2[0] * t,
            x0[1] + d1[1] * s + d2[1] * t,
            x0[2] + d1[2] * s + d2[2] * t,
        )
        return dist2(W, P), W
    # (The segments from x0 as point_segment_dist2 computes them: their parameters −p/v and
    # −q/w are its, to the bit.)
    dist, W = _on_segment(P, x0, B, d1, -p / v)
    dist2_, W2 = _on_segment(P, x0, C, d2, -q / w)
    if dist2_ < dist:
        dist, W = dist2_, W2
    dist2_, W2 = point_segment_dist2(P, B, C)
    if dist2_ < dist:
        dist, W = dist2_, W2
    return dist, W


# ---- rotations as libccd holds them --------------------------------------------------------------
@jitable
def quaternion(X):
    """(x, y, z, w) of the rotation R of the 4×3 pose X, as Eigen converts a rotation matrix."""
    t = X[0, 0] + X[1, 1] + X[2, 2]
    if t > 0.0:
        t = np.sqrt(t + 1.0)
        w = 0.5 * t
        t = 0.5 / t
        return (X[2, 1] - X[1, 2]) * t, (X[0, 2] - X[2, 0]) * t, (X[1, 0] - X[0, 1]) * t, w
    i = 0
    if X[1, 1] > X[0, 0]:
        i = 1
    if X[2, 2] > X[i, i]:
        i = 2
    j = (i + 1) % 3
    k = (j + 1) % 3
    t = np.sqrt(X[i, i] - X[j, j] - X[k, k] + 1.0)
    qi = 0.5 * t
    t = 0.5 / t
    w = (X[k, j] - X[j, k]) * t
    qj = (X[j, i] + X[i, j]) * t
    qk = (X[k, i] + X[i, k]) * t
    if i == 0:
        return qi, qj, qk, w
    if i == 1:
        return qk, qi, qj, w
    return qj, qk, qi, w


@jitable
def rotate(q, v):
    """ccdQuatRotVec: v rotated by the quaternion q = (x, y, z, w)."""
    x, y, z, w = q[0], q[1], q[2], q[3]
    c1x = y * v[2] - z * v[1] + w * v[0]
    c1y = z * v[0] - x * v[2] + w * v[1]
    c1z = x * v[1] - y * v[0] + w * v[2]
    c2x = y * c1z - z * c1y
    c2y = z * c1x - x * c1z
    c2z = x * c1y - y * c1x
    return v[0] + 2 * c2x, v[1] + 2 * c2y, v[2] + 2 * c2z


# ---- objects, supports and centers ------------------------------------------------------------
@jitable
def make_object(gi, gf, X, g):
    """The object of geometry g (model rows gi[g], gf[g]) at the 4×3 pose X."""
    qx, qy, qz, qw = quaternion(X)
    k = 1.0 / (qx * qx + qy * qy + qz * qz + qw * qw)
    return (
        float(gi[g, KIND]),
        gf[g, 0],
        gf[g, 1],
        gf[g, 2],
        float(gi[g, HULL_START]),
        float(gi[g, HULL_COUNT]),
        X[3, 0],
        X[3, 1],
        X[3, 2],
        qx,
        qy,
        qz,
        qw,
        -qx * k,
        -qy * k,
        -qz * k,
        qw * k,
        gf[g, 0],
        gf[g, 1],
        gf[g, 2],
    )


@jitable
def point_object(p):
    """The object of a sphere of radius zero at the point p (a query point)."""
    return (
        float(SPHERE), 0.0, 0.0, 0.0, 0.0, 0.0, p[0], p[1], p[2],
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
    )  # fmt: skip


@jitable
def _to_world(o, v):
    """The point of local coordinates v (in the shape's frame) in World."""
    w = rotate((o[9], o[10], o[11], o[12]), v)
    return w[0] + o[6], w[1] + o[7], w[2] + o[8]


@jitable
def _box_sign(x):
    return 1.0 if x >= 0.0 else -1.0


@jitable
def _end(h, z):
    """The end (±h) of a segment along the axis toward which z points (+h for z > 0)."""
    return h if z > 0 else -h


def _hull_support(hv, start, count, e):
    """The first of the hull vertices hv[start : start + count] of largest projection on e."""
    best = start
    best_value = e[0] * hv[start, 0] + e[1] * hv[start, 1] + e[2] * hv[start, 2]
    for i in range(start + 1, start + count):
        value = e[0] * hv[i, 0] + e[1] * hv[i, 1] + e[2] * hv[i, 2]
        if value > best_value:
            best, best_value = i, value
    return hv[best, 0], hv[best, 1], hv[best, 2]


@overload(_hull_support, jit_options=KERNEL_OPTIONS)
def _hull_support_compiled(hv, start, count, e):
    """Compiled, hv may be None: the supports of a pair of primitives, compiled without the
    hulls' array (kernels.mpr), where a hull is never asked for."""
    if isinstance(hv, types.NoneType):

        def no_hull(hv, start, count, e):
            if count > 0:  # (a hull's count: always; the return only types the function)
                raise ValueError("support(): a hull's support point without the hulls' vertices")
            return e

        return no_hull
    return _hull_support


@jitable(llvm_inline=True)
def support(o, hv, d):
    """The support point of object o in the direction d (World), as FCL's support functions
    compute it (for a Convex, the first hull vertex of largest projection). Inlined by LLVM
    into its callers (a call would pass the object's 20 floats): typed and lowered once per
    type of ``hv``, not at each call site."""
    kind = int(o[0])
    e = rotate((o[13], o[14], o[15], o[16]), d)
    # (Each branch's own names: numba's inlining wants no name assigned in two branches.)
    if kind == BOX:
        corner = (_box_sign(e[0]) * o[1], _box_sign(e[1]) * o[2], _box_sign(e[2]) * o[3])
        return _to_world(o, corner)
    if kind == SPHERE:
        radius = o[1]
        k = 1.0 / np.sqrt(len2(e))
        return _to_world(o, (e[0] * radius * k, e[1] * radius * k, e[2] * radius * k))
    if kind == CAPSULE:
        n = normalized(e)
        r = o[1]
        return _to_world(o, (n[0] * r, n[1] * r, _end(o[2], e[2]) + n[2] * r))
    if kind == CYLINDER:
        zdist = np.sqrt(e[0] * e[0] + e[1] * e[1])
        if is_zero(zdist):
            return _to_world(o, (0.0, 0.0, sign(e[2]) * o[2]))
        rad = o[1] / zdist
        return _to_world(o, (rad * e[0], rad * e[1], sign(e[2]) * o[2]))
    if kind == ELLIPSOID:
        a2, b2, c2 = o[1] * o[1], o[2] * o[2], o[3] * o[3]
        s = (a2 * e[0], b2 * e[1], c2 * e[2])
        scale = 1.0 / np.sqrt(s[0] * e[0] + s[1] * e[1] + s[2] * e[2])
        return _to_world(o, (s[0] * scale, s[1] * scale, s[2] * scale))
    if kind == CONVEX or kind == MESH:
        return _to_world(o, _hull_support(hv, int(o[4]), int(o[5]), e))
    raise ValueError("support(): a half space has no support point")


@jitable
def center(o):
    """An interior point of object o (World): its origin, or a Convex's interior point."""
    kind = int(o[0])
    if kind == CONVEX or kind == MESH:
        return _to_world(o, (o[17], o[18], o[19]))
    return o[6], o[7], o[8]


@jitable
def minkowski_support(o1, o2, hv, d, out):
    """out[0:9] = the support point of o1 ⊖ o2 in direction d: (v, v1, v2)."""
    minkowski_support_inlined(o1, o2, hv, d, out)


@jitable(llvm_inline=True)
def minkowski_support_inlined(o1, o2, hv, d, out):
    """:func:`minkowski_support`, inlined by LLVM into its caller: for GJK's distance loop,
    where a call would pass the two objects' 40 floats at each step."""
    v, v1, v2 = minkowski_point(o1, o2, hv, d)
    set_support(out, v, v1, v2)


@jitable(llvm_inline=True)
def minkowski_point(o1, o2, hv, d):
    """The support point of o1 ⊖ o2 in direction d as a tuple (v, v1, v2), inlined by LLVM
    into its caller (MPR's steps: no array and no objects' floats cross a call)."""
    v1 = support(o1, hv, d)
    v2 = support(o2, hv, (-d[0], -d[1], -d[2]))
    return (v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]), v1, v2


@jitable
def set_support(out, v, v1, v2):
    """out[0:9] = (v, v1, v2)."""
    out[0], out[1], out[2] = v[0], v[1], v[2]
    out[3], out[4], out[5] = v1[0], v1[1], v1[2]
    out[6], out[7], out[8] = v2[0], v2[1], v2[2]


@jitable
def copy_support(src, dst):
    for i in range(9):
        dst[i] = src[i]


@jitable
def sv(s):
    """The point v of a support point (a row of 9)."""
    return s[0], s[1], s[2]


@jitable
def sv1(s):
    return s[3], s[4], s[5]


@jitable
def sv2(s):
    return s[6], s[7], s[8]
