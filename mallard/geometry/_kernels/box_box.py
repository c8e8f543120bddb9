"""The penetration of two boxes, as FCL's boxBox2 (ODE's separating-axis test) finds it: of the
15 axes (the boxes' face normals and the cross products of their edges) the one of least
overlap gives the depth and normal (an edge-edge axis only if 5% shallower than the faces');
for an edge-edge contact the point midway between the edges' closest points, for a face the
deepest point of the other box's incident face clipped to the reference face. Of FCL's contact
points, Drake takes the deepest.
"""

import numpy as np

from mallard.multibody._kernels._machinery import jitable

_EPS = 2.220446049250313e-16
#: ODE's 0.0001f, as a double.
_PARALLEL = 9.999999747378752e-05


@jitable
def _col(X, j):
    """Column j of the rotation of the 4×3 pose X."""
    return X[0, j], X[1, j], X[2, j]


@jitable
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@jitable
def _axpy(y, a, x):
    """y + a·x."""
    return y[0] + a * x[0], y[1] + a * x[1], y[2] + a * x[2]


@jitable
def _clip_rect_quad(h0, h1, S):
    """ODE's intersectRectQuad2: clips the quadrilateral S[0:8] (x, y pairs) to the
    rectangle [−h0, h0] × [−h1, h1]; the points go to S[8:24] (S[24:40] is scratch);
    returns their count."""
    h = (h0, h1)
    ret, buffer = 8, 24
    q, r = 0, ret
    nq, nr = 4, 0
    done = False
    for d in range(2):
        if done:
            break
        for sign in (-1.0, 1.0):
            pq, pr = q, r
            nr = 0
            for i in range(nq, 0, -1):
                inside = sign * S[pq + d] < h[d]
                if inside:
                    S[pr], S[pr + 1] = S[pq], S[pq + 1]
                    pr += 2
                    nr += 1
                    if nr & 8:
                        q = r
                        done = True
                        break
                nextq = pq + 2 if i > 1 else q
                if inside != (sign * S[nextq + d] < h[d]):
                    S[pr + 1 - d] = S[pq + 1 - d] + (S[nextq + 1 - d] - S[pq + 1 - d]) / (
                        S[nextq + d] - S[pq + d]
                    ) * (sign * h[d] - S[pq + d])
                    S[pr + d] = sign * h[d]
                    pr += 2
                    nr += 1
                    if nr & 8:
                        q = r
                        done = True
                        break
                pq += 2
            if done:
                break
            q = r
            r = buffer if q == ret else ret
            nq = nr
    if q != ret:
        for k in range(2 * nr):
            S[ret + k] = S[q + k]
    return nr


@jitable
def box_box(hA, X1, hB, X2, S):
    """(found, depth, normal, position) of boxes of half sizes hA at X1 and hB at X2 (4×3
    poses): the deepest of FCL's contacts, the normal pointing from box 1 into box 2 (World).
    ``S`` is 40 floats of scratch."""
    zero = (0.0, 0.0, 0.0)
    T1 = (X1[3, 0], X1[3, 1], X1[3, 2])
    T2 = (X2[3, 0], X2[3, 1], X2[3, 2])
    p = (T2[0] - T1[0], T2[1] - T1[1], T2[2] - T1[2])
    pp = (_dot(_col(X1, 0), p), _dot(_col(X1, 1), p), _dot(_col(X1, 2), p))
    A, B = hA, hB
    # R = R1ᵀ·R2 and Q = |R|.
    R00, R01, R02 = (
        _dot(_col(X1, 0), _col(X2, 0)),
        _dot(_col(X1, 0), _col(X2, 1)),
        _dot(_col(X1, 0), _col(X2, 2)),
    )
    R10, R11, R12 = (
        _dot(_col(X1, 1), _col(X2, 0)),
        _dot(_col(X1, 1), _col(X2, 1)),
        _dot(_col(X1, 1), _col(X2, 2)),
    )
    R20, R21, R22 = (
        _dot(_col(X1, 2), _col(X2, 0)),
        _dot(_col(X1, 2), _col(X2, 1)),
        _dot(_col(X1, 2), _col(X2, 2)),
    )
    Q00, Q01, Q02 = abs(R00), abs(R01), abs(R02)
    Q10, Q11, Q12 = abs(R10), abs(R11), abs(R12)
    Q20, Q21, Q22 = abs(R20), abs(R21), abs(R22)
    s = -1.7976931348623157e308
    best_col = -1
    normal_is_R1 = True
    invert = False
    code = 0
    normal_C = zero
    # Box 1's face normals.
    face_tmp = (pp[0], pp[1], pp[2])
    face_s2 = (
        abs(pp[0]) - (Q00 * B[0] + Q01 * B[1] + Q02 * B[2] + A[0]),
        abs(pp[1]) - (Q10 * B[0] + Q11 * B[1] + Q12 * B[2] + A[1]),
        abs(pp[2]) - (Q20 * B[0] + Q21 * B[1] + Q22 * B[2] + A[2]),
    )
    for i in range(3):
        if face_s2[i] > 0:
            return False, 0.0, zero, zero
        if face_s2[i] > s:
            s, best_col, normal_is_R1, invert, code = face_s2[i], i, True, face_tmp[i] < 0, i + 1
    # Box 2's face normals.
    face_tmp = (_dot(_col(X2, 0), p), _dot(_col(X2, 1), p), _dot(_col(X2, 2), p))
    face_s2 = (
        abs(face_tmp[0]) - (Q00 * A[0] + Q10 * A[1] + Q20 * A[2] + B[0]),
        abs(face_tmp[1]) - (Q01 * A[0] + Q11 * A[1] + Q21 * A[2] + B[1]),
        abs(face_tmp[2]) - (Q02 * A[0] + Q12 * A[1] + Q22 * A[2] + B[2]),
    )
    for i in range(3):
        if face_s2[i] > 0:
            return False, 0.0, zero, zero
        if face_s2[i] > s:
            s, best_col, normal_is_R1, invert, code = face_s2[i], i, False, face_tmp[i] < 0, i + 4
    # Edge-edge axes, with Q padded for the rounding of parallel edges.
    largest = max(max(max(A[0], A[1]), A[2]), max(max(B[0], B[1]), B[2]))
    pad = max(largest, 1.0) * 10.0 * _EPS
    Q00, Q01, Q02 = Q00 + pad, Q01 + pad, Q02 + pad
    Q10, Q11, Q12 = Q10 + pad, Q11 + pad, Q12 + pad
    Q20, Q21, Q22 = Q20 + pad, Q21 + pad, Q22 + pad
    tmps = (
        pp[2] * R10 - pp[1] * R20,
        pp[2] * R11 - pp[1] * R21,
        pp[2] * R12 - pp[1] * R22,
        pp[0] * R20 - pp[2] * R00,
        pp[0] * R21 - pp[2] * R01,
        pp[0] * R22 - pp[2] * R02,
        pp[1] * R00 - pp[0] * R10,
        pp[1] * R01 - pp[0] * R11,
        pp[1] * R02 - pp[0] * R12,
    )
    radii = (
        A[1] * Q20 + A[2] * Q10 + B[1] * Q02 + B[2] * Q01,
        A[1] * Q21 + A[2] * Q11 + B[0] * Q02 + B[2] * Q00,
        A[1] * Q22 + A[2] * Q12 + B[0] * Q01 + B[1] * Q00,
        A[0] * Q20 + A[2] * Q00 + B[1] * Q12 + B[2] * Q11,
        A[0] * Q21 + A[2] * Q01 + B[0] * Q12 + B[2] * Q10,
        A[0] * Q22 + A[2] * Q02 + B[0] * Q11 + B[1] * Q10,
        A[0] * Q10 + A[1] * Q00 + B[1] * Q22 + B[2] * Q21,
        A[0] * Q11 + A[1] * Q01 + B[0] * Q22 + B[2] * Q20,
        A[0] * Q12 + A[1] * Q02 + B[0] * Q21 + B[1] * Q20,
    )
    axes = (
        (0.0, -R20, R10),
        (0.0, -R21, R11),
        (0.0, -R22, R12),
        (R20, 0.0, -R00),
        (R21, 0.0, -R01),
        (R22, 0.0, -R02),
        (-R10, R00, 0.0),
        (-R11, R01, 0.0),
        (-R12, R02, 0.0),
    )
    for k in range(9):
        s2 = abs(tmps[k]) - radii[k]
        if s2 > 0:
            return False, 0.0, zero, zero
        n = axes[k]
        length = np.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
        if length > _EPS:
            s2 /= length
            if s2 * 1.05 > s:
                s, best_col, invert, code = s2, -1, tmps[k] < 0, k + 7
                normal_C = (n[0] / length, n[1] / length, n[2] / length)
    if code == 0:
        return False, 0.0, zero, zero
    if best_col != -1:
        normal = _col(X1, best_col) if normal_is_R1 else _col(X2, best_col)
    else:
        normal = (
            X1[0, 0] * normal_C[0] + X1[0, 1] * normal_C[1] + X1[0, 2] * normal_C[2],
            X1[1, 0] * normal_C[0] + X1[1, 1] * normal_C[1] + X1[1, 2] * normal_C[2],
            X1[2, 0] * normal_C[0] + X1[2, 1] * normal_C[1] + X1[2, 2] * normal_C[2],
        )
    if invert:
        normal = (-normal[0], -normal[1], -normal[2])
    depth = -s
    if code > 6:
        # An edge of box 1 against an edge of box 2: the point midway between them.
        pa = T1
        for j in range(3):
            pa = _axpy(pa, A[j] * (1.0 if _dot(_col(X1, j), normal) > 0 else -1.0), _col(X1, j))
        pb = T2
        for j in range(3):
            pb = _axpy(pb, B[j] * (-1.0 if _dot(_col(X2, j), normal) > 0 else 1.0), _col(X2, j))
        ua, ub = _col(X1, (code - 7) // 3), _col(X2, (code - 7) % 3)
        d = (pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])
        uaub = _dot(ua, ub)
        q1, q2 = _dot(ua, d), -_dot(ub, d)
        det = 1 - uaub * uaub
        if det <= _PARALLEL:
            alpha = beta = 0.0
        else:
            det = 1 / det
            alpha = (q1 + uaub * q2) * det
            beta = (uaub * q1 + q2) * det
        pa = _axpy(pa, alpha, ua)
        pb = _axpy(pb, beta, ub)
        return (
            True,
            depth,
            normal,
            ((pa[0] + pb[0]) * 0.5, (pa[1] + pb[1]) * 0.5, (pa[2] + pb[2]) * 0.5),
        )
    # A face of one box (the reference, a) against the other's incident face (b).
    if code <= 3:
        Xa, Xb, Ta, Tb, Sa, Sb = X1, X2, T1, T2, A, B
        normal2 = normal
        codeN = code - 1
    else:
        Xa, Xb, Ta, Tb, Sa, Sb = X2, X1, T2, T1, B, A
        normal2 = (-normal[0], -normal[1], -normal[2])
        codeN = code - 4
    nr = (_dot(_col(Xb, 0), normal2), _dot(_col(Xb, 1), normal2), _dot(_col(Xb, 2), normal2))
    anr = (abs(nr[0]), abs(nr[1]), abs(nr[2]))
    if anr[1] > anr[0]:
        if anr[1] > anr[2]:
            a1, lanr, a2 = 0, 1, 2
        else:
            a1, a2, lanr = 0, 1, 2
    elif anr[0] > anr[2]:
        lanr, a1, a2 = 0, 1, 2
    else:
        a1, a2, lanr = 0, 1, 2
    col_l = _col(Xb, lanr)
    base = (Tb[0] - Ta[0], Tb[1] - Ta[1], Tb[2] - Ta[2])
    center = _axpy(base, Sb[lanr] if nr[lanr] < 0 else -Sb[lanr], col_l)
    if codeN == 0:
        code1, code2 = 1, 2
    elif codeN == 1:
        code1, code2 = 0, 2
    else:
        code1, code2 = 0, 1
    ra1, ra2 = _col(Xa, code1), _col(Xa, code2)
    rb1, rb2 = _col(Xb, a1), _col(Xb, a2)
    c1, c2 = _dot(ra1, center), _dot(ra2, center)
    m11, m12 = _dot(rb1, ra1), _dot(rb2, ra1)
    m21, m22 = _dot(rb1, ra2), _dot(rb2, ra2)
    k1, k2 = m11 * Sb[a1], m21 * Sb[a1]
    k3, k4 = m12 * Sb[a2], m22 * Sb[a2]
    S[0], S[1] = c1 - k1 - k3, c2 - k2 - k4
    S[2], S[3] = c1 - k1 + k3, c2 - k2 + k4
    S[4], S[5] = c1 + k1 + k3, c2 + k2 + k4
    S[6], S[7] = c1 + k1 - k3, c2 + k2 - k4
    n_intersect = _clip_rect_quad(Sa[code1], Sa[code2], S)
    if n_intersect < 1:
        return False, 0.0, zero, zero
    det1 = 1.0 / (m11 * m22 - m12 * m21)
    m11, m12, m21, m22 = m11 * det1, m12 * det1, m21 * det1, m22 * det1
    found = False
    best_depth = 0.0
    best_point = zero
    for j in range(n_intersect):
        x, y = S[8 + 2 * j] - c1, S[9 + 2 * j] - c2
        k1 = m22 * x - m12 * y
        k2 = -m21 * x + m11 * y
        point = _axpy(_axpy(center, k1, rb1), k2, rb2)
        dep = Sa[codeN] - _dot(normal2, point)
        if dep >= 0 and (not found or dep > best_depth):
            found, best_depth, best_point = True, dep, point
    if not found:
        return False, 0.0, zero, zero
    offset = best_depth / 2 if code < 4 else -best_depth / 2
    position = (
        best_point[0] + Ta[0] + normal[0] * offset,
        best_point[1] + Ta[1] + normal[1] * offset,
        best_point[2] + Ta[2] + normal[2] * offset,
    )
    return True, best_depth, normal, position
