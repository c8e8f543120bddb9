"""The MJCF fast path's math compiled (numba): the documents the compiled XML scan reads
(_mjcf_scan: numba is then loaded) have their geoms' inertias computed here, geom by geom, by
the element reader's own scalar functions compiled (the shapes' unit inertias, unit_turn_rows,
_reexpress, point_mass_rows, shifted_to_origin: its bits, numba emitting no fused
multiply-add); expat's tables (a process's first large document: no numba) by the same
functions on arrays (_mjcf_inertias)."""

import math

import numpy as np

from mallard._compiled import entry_point
from mallard.common._angle_axis import cos_sin_axis_rows
from mallard.common._quaternion import hamilton_product
from mallard.common._quaternion_rotation import quaternion_rotation
from mallard.math._rotation_matrix import ORTHONORMALITY_TOLERANCE
from mallard.multibody._kernels import rotation  # noqa: F401 (quaternion_rotation compiled)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody.parsing._mujoco_geometry import (
    _reexpress,
    euler_step,
    shifted_to_origin,
    unit_turn_rows,
    xyaxes_columns,
)
from mallard.multibody.parsing._xml_scan import VALUE, VALUE_END, _name_id, own_numbers
from mallard.multibody.tree._rotational_inertia import point_mass_rows
from mallard.multibody.tree._spatial_inertia import (
    solid_box_mass,
    solid_capsule_mass,
    solid_cylinder_mass,
    solid_ellipsoid_mass,
    solid_sphere_mass,
)
from mallard.multibody.tree._unit_inertia import (
    axial_moments,
    solid_box_moments,
    solid_capsule_moments,
    solid_cylinder_moments,
    solid_ellipsoid_moments,
    solid_sphere_moment,
)

for _fn in (_reexpress, shifted_to_origin, unit_turn_rows, point_mass_rows, solid_box_mass,
            cos_sin_axis_rows, hamilton_product, euler_step, xyaxes_columns,
            solid_capsule_mass, solid_cylinder_mass, solid_ellipsoid_mass, solid_sphere_mass,
            axial_moments, solid_box_moments, solid_capsule_moments, solid_cylinder_moments,
            solid_ellipsoid_moments, solid_sphere_moment):  # fmt: skip
    jitable(_fn)

#: The shape codes (_mjcf_inertias' order), and the statuses of the kernels.
SPHERE, CAPSULE, CYLINDER, BOX, ELLIPSOID = range(5)
DONE, DECLINED, OPPOSITE = range(3)
#: The orientation codes of mjcf_rotations (NONE: the identity, or zaxis: not computed).
NONE, QUAT, AXISANGLE, EULER, XYAXES = range(-1, 4)
_EPS = float(np.finfo(float).eps)
_DEGREE = math.pi / 180.0
_HALF_TOLERANCE = ORTHONORMALITY_TOLERANCE / 2


@jitable
def _normalized(x, y, z):
    """(x, y, z) / |(x, y, z)| (a zero norm: NaN or ±inf, as numpy divides)."""
    norm = math.sqrt(x * x + y * y + z * z)
    return x / norm, y / norm, z / norm


@entry_point
def mjcf_rotations(codes, quat, axisangle, euler, xyaxes, degree, axes, moving, R):
    """_mjcf_frames.rotations element by element: the rows of R_PF (n, 9) of each element's
    orientation (``codes``: QUAT..., its numbers that kind's row of ``quat`` (n, 4),
    ``axisangle`` (n, 4), ``euler`` (n, 3), ``xyaxes`` (n, 6)), as the element reader's
    Frames.rows computes them (angles in degrees if ``degree``; the Euler sequence's axes'
    places in wxyz ``axes`` (3,), whether each is ``moving``); NONE: the identity. Returns
    DONE, or DECLINED where the reader fails (a zero quaternion or axis, an xyaxes axis of
    norm < 1e-12 or a result not a rotation matrix: with a margin, half the tolerance)."""
    for k in range(codes.shape[0]):
        code = codes[k]
        if code == NONE:
            r = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
        elif code == QUAT or code == EULER:
            if code == QUAT:
                w, x, y, z = quat[k, 0], quat[k, 1], quat[k, 2], quat[k, 3]
            else:
                q = (1.0, 0.0, 0.0, 0.0)
                for i in range(3):
                    angle = euler[k, i] * _DEGREE if degree else euler[k, i]
                    half = angle / 2.0
                    q = euler_step(q, math.cos(half), math.sin(half), axes[i], moving[i])
                w, x, y, z = q
            squared_norm = w * w + x * x + y * y + z * z
            if not squared_norm > 0:
                return DECLINED
            r = quaternion_rotation(w, x, y, z, 2.0 / squared_norm)
        elif code == AXISANGLE:
            x, y, z = axisangle[k, 0], axisangle[k, 1], axisangle[k, 2]
            angle = axisangle[k, 3] * _DEGREE if degree else axisangle[k, 3]
            norm = math.sqrt(x * x + y * y + z * z)
            if not norm > 0:
                return DECLINED
            r = cos_sin_axis_rows(math.cos(angle), math.sin(angle), x / norm, y / norm, z / norm)
        else:
            x0, x1, x2 = xyaxes[k, 0], xyaxes[k, 1], xyaxes[k, 2]
            y0, y1, y2 = xyaxes[k, 3], xyaxes[k, 4], xyaxes[k, 5]
            if not (
                math.sqrt(x0 * x0 + x1 * x1 + x2 * x2) >= 1e-12
                and math.sqrt(y0 * y0 + y1 * y1 + y2 * y2) >= 1e-12
            ):
                return DECLINED
            r = xyaxes_columns(x0, x1, x2, y0, y1, y2, _normalized)
            if not _is_rotation(r):
                return DECLINED
        for i in range(9):
            R[k, i] = r[i]
    return DONE


@jitable
def _is_rotation(r):
    """Whether the rows ``r`` (9) are a rotation matrix's with a margin: max |R Rᵀ − I| ≤
    half the tolerance, a positive determinant (False for NaN)."""
    error = 0.0
    for i in range(3):
        for j in range(3):
            d = r[3 * i] * r[3 * j] + r[3 * i + 1] * r[3 * j + 1] + r[3 * i + 2] * r[3 * j + 2]
            e = abs(d - (1.0 if i == j else 0.0))
            if e > error or math.isnan(e):  # (NaN kept)
                error = e
    det = (
        r[0] * (r[4] * r[8] - r[5] * r[7])
        - r[1] * (r[3] * r[8] - r[5] * r[6])
        + r[2] * (r[3] * r[7] - r[4] * r[6])
    )
    return error <= _HALF_TOLERANCE and det > 0


@jitable
def _unit_density_inertia(code, a, b, c):
    """unit_density_inertia of the shape of ``code`` of measures (a, b, c) (those past its
    constructor's count unused): (volume, (Ixx, Iyy, Izz, Ixy, Ixz, Iyz))."""
    if code == BOX:
        x, y, z = solid_box_moments(a, b, c)
        return solid_box_mass(1.0, a, b, c), (x, y, z, 0.0, 0.0, 0.0)
    if code == SPHERE:
        I = solid_sphere_moment(a)
        return solid_sphere_mass(1.0, a), (I * 1.0, I * 1.0, I * 1.0, I * 0.0, I * 0.0, I * 0.0)
    if code == ELLIPSOID:
        x, y, z = solid_ellipsoid_moments(a, b, c)
        return solid_ellipsoid_mass(1.0, a, b, c), (x, y, z, 0.0, 0.0, 0.0)
    if code == CYLINDER:
        J, K = solid_cylinder_moments(a, b)
        return solid_cylinder_mass(1.0, a, b), axial_moments(J, K, 0.0, 0.0, 1.0)
    J, K = solid_capsule_moments(a, b, 3 * b + 4 * a)
    return solid_capsule_mass(1.0, a, b), axial_moments(J, K, 0.0, 0.0, 1.0)


@entry_point
def mjcf_geom_inertias(codes, fromto, size, ends, given_mass, density, R_BG, p_BG, G_out,
                       p_out, mass_out, I_out):  # fmt: skip
    """_mjcf_inertias.geom_inertias of n geoms, geom by geom: the shape ``codes``, whether a
    geom has a ``fromto`` (its ``ends`` (n, 6)), its ``size`` (n, 3; NaN past its numbers),
    its given mass and density (NaN: none), the poses of those without fromto (rows of
    R_BG (n, 9), p_BG (n, 3)). Writes G_GBo_B rows (n, 9), p_BoGcm_B (n, 3), the masses and
    the moments I (6, n: xx, yy, zz, xy, xz, yz) that the caller checks. Returns DONE,
    DECLINED (a measure not positive and finite, a fromto of zero length) or OPPOSITE (a
    fromto along −z: the reader's two_vector_rows, on the arrays)."""
    for k in range(codes.shape[0]):
        code = codes[k]
        s0, s1, s2 = size[k, 0], size[k, 1], size[k, 2]
        if code == BOX:
            a, b, c = 2.0 * s0, 2.0 * s1, 2.0 * s2
        else:
            a, b, c = s0, s1, s2
        if fromto[k]:
            x0, y0, z0, x1, y1, z1 = (
                ends[k, 0],
                ends[k, 1],
                ends[k, 2],
                ends[k, 3],
                ends[k, 4],
                ends[k, 5],
            )
            p = ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)
            dx, dy, dz = x0 - x1, y0 - y1, z0 - z1
            b = math.sqrt((dx * dx + dy * dy) + dz * dz)
            ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
            squared_norm = (ux * ux + uy * uy) + uz * uz
            if not squared_norm > 0:
                return DECLINED
            norm = math.sqrt(squared_norm)
            vx, vy, vz = ux / norm, uy / norm, uz / norm
            cosine = vx * 0.0 + vy * 0.0 + vz * 1.0
            if cosine < -1.0 + _EPS:
                return OPPOSITE
            R = unit_turn_rows(0.0, 0.0, 1.0, vx, vy, vz, cosine, math.sqrt)
        else:
            if code == CAPSULE or code == CYLINDER:
                b = 2 * s1
            p = (p_BG[k, 0], p_BG[k, 1], p_BG[k, 2])
            R = (R_BG[k, 0], R_BG[k, 1], R_BG[k, 2], R_BG[k, 3], R_BG[k, 4], R_BG[k, 5],
                 R_BG[k, 6], R_BG[k, 7], R_BG[k, 8])  # fmt: skip
        if code == SPHERE:
            b = 1.0
        if code != BOX and code != ELLIPSOID:
            c = 1.0
        if not (
            a > 0 and b > 0 and c > 0 and math.isfinite(a) and math.isfinite(b) and math.isfinite(c)
        ):
            return DECLINED
        volume, (xx, yy, zz, xy, xz, yz) = _unit_density_inertia(code, a, b, c)
        mass = given_mass[k]
        if math.isnan(mass):
            rho = density[k]
            mass = volume * (1000.0 if math.isnan(rho) else rho)
        mass_out[k] = mass
        I_out[0, k], I_out[1, k], I_out[2, k] = xx * mass, yy * mass, zz * mass
        I_out[3, k], I_out[4, k], I_out[5, k] = xy * mass, xz * mass, yz * mass
        q, G = _reexpress(R, (0.0, 0.0, 0.0), ((xx, xy, xz), (xy, yy, yz), (xz, yz, zz)))
        q, ((g0, g1, g2), (g3, g4, g5), (g6, g7, g8)) = shifted_to_origin(
            q, G, point_mass_rows(q[0], q[1], q[2]), p
        )
        p_out[k, 0], p_out[k, 1], p_out[k, 2] = q
        G_out[k, 0], G_out[k, 1], G_out[k, 2] = g0, g1, g2
        G_out[k, 3], G_out[k, 4], G_out[k, 5] = g3, g4, g5
        G_out[k, 6], G_out[k, 7], G_out[k, 8] = g6, g7, g8
    return DONE


@entry_point
def mjcf_body_rows(owners, G_B, p_BGcm, mass, rows):
    """_mjcf_inertias.body_rows geom by geom: each geom of positive ``mass`` (its body
    ``owners``, geoms in document order; p_BoGcm_B, G_GBo_B rows) added to its body's row of
    ``rows`` ((bodies, 13) [m, p_BoBcm_B, G_BBo_B], zeros at first) as composite_step adds it:
    each number (a·m1 + b·m2) / m, m = m1 + m2."""
    for g in range(owners.shape[0]):
        m2 = mass[g]
        if not m2 > 0:
            continue
        b = owners[g]
        m1 = rows[b, 0]
        m = m1 + m2
        for j in range(3):
            rows[b, 1 + j] = (rows[b, 1 + j] * m1 + p_BGcm[g, j] * m2) / m
        for j in range(9):
            rows[b, 4 + j] = (rows[b, 4 + j] * m1 + G_B[g, j] * m2) / m
        rows[b, 0] = m


@entry_point
def mjcf_inertial_rows(m, moments, products, turned, turned_at, p, rows, central):
    """_mjcf_inertias.inertial_rows element by element: each ``<inertial>``'s I_BBcm (its
    ``moments`` (n, 3) where given, else its ``products`` (n, 6: xx, yy, zz, xy, xz, yz);
    re-expressed ones given: the rows ``turned[turned_at[k]]`` where turned_at[k] ≥ 0), its
    mass ``m`` and p_BoBcm ``p`` (n, 3) made into its row of ``rows`` (n, 13) [m, p, G_BBo =
    I/m + pm(p)] as SpatialInertia._from_central_rows makes it, and I_SScm = (G − pm(p))·m
    into ``central`` (9, n) for the caller's check. Returns DONE, or DECLINED for a mass not
    positive."""
    for k in range(m.shape[0]):
        mass = m[k]
        if not mass > 0:
            return DECLINED
        t = turned_at[k]
        if t >= 0:
            i0, i1, i2, i3, i4, i5 = (
                turned[t, 0],
                turned[t, 1],
                turned[t, 2],
                turned[t, 3],
                turned[t, 4],
                turned[t, 5],
            )
            i6, i7, i8 = turned[t, 6], turned[t, 7], turned[t, 8]
        elif not math.isnan(moments[k, 0]):
            i0, i1, i2, i3, i4, i5 = moments[k, 0], 0.0, 0.0, 0.0, moments[k, 1], 0.0
            i6, i7, i8 = 0.0, 0.0, moments[k, 2]
        else:
            xx, yy, zz = products[k, 0], products[k, 1], products[k, 2]
            xy, xz, yz = products[k, 3], products[k, 4], products[k, 5]
            i0, i1, i2, i3, i4, i5, i6, i7, i8 = xx, xy, xz, xy, yy, yz, xz, yz, zz
        x, y, z = p[k, 0], p[k, 1], p[k, 2]
        (q0, q1, q2), (q3, q4, q5), (q6, q7, q8) = point_mass_rows(x, y, z)
        G = (i0 / mass + q0, i1 / mass + q1, i2 / mass + q2, i3 / mass + q3, i4 / mass + q4,
             i5 / mass + q5, i6 / mass + q6, i7 / mass + q7, i8 / mass + q8)  # fmt: skip
        P = (q0, q1, q2, q3, q4, q5, q6, q7, q8)
        rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3] = mass, x, y, z
        for j in range(9):
            rows[k, 4 + j] = G[j]
            central[j, k] = (G[j] - P[j]) * mass
    return DONE


@entry_point
def mjcf_table(rows, counts, attributes, values, classes, holds, by_class, bad, oriented,
               own_oriented, default_row, required, out, slow):  # fmt: skip
    """_mjcf_scan.ScanColumns.table's numbers, element by element: of each element i and spec
    j (counts[j] numbers, from column sum(counts[:j]) of ``out`` (n, sum(counts))), its own
    attribute's (the scan's attribute row rows[i, j] ≥ 0: its numbers in ``values``), else
    its class's default's where the class holds it (``holds[classes[i], j]``; classes[i] -1:
    the last row, none) and, for an orientation (``oriented[j]``), the element sets none
    itself (``own_oriented``): ``by_class``'s row (declined where that text is ``bad``), else
    ``default_row``'s (NaN: none; declined where ``required``). Returns how many cells
    (i·m + j, written to ``slow``) hold a word not a fast-path number (their texts are the
    caller's), or -1: declined (a present one of another count, a required one absent, a
    bad default used)."""
    n, m = rows.shape
    found = 0
    for i in range(n):
        c = classes[i]
        at = 0
        for j in range(m):
            k, r = counts[j], rows[i, j]
            if r >= 0:
                copied = own_numbers(attributes, values, r, k, out, i, at)
                if copied < 0:
                    return -1
                if copied == 0:
                    slow[found] = i * m + j
                    found += 1
            elif holds[c, j] and not (oriented[j] and own_oriented[i]):
                if bad[c, j]:
                    return -1
                for q in range(k):
                    out[i, at + q] = by_class[c, at + q]
            elif required[j]:
                return -1
            else:
                for q in range(k):
                    out[i, at + q] = default_row[at + q]
            at += k
    return found


@entry_point
def mjcf_name_ids(buf, rows, attributes, names, lengths, buckets, out):
    """The row of each value of the attribute rows ``rows`` of the document ``buf`` in the
    padded name table ``names`` (name_table's ``lengths``, ``buckets``; -1: another name) into
    ``out``; False (``out`` unfinished) where one is empty."""
    for k in range(rows.shape[0]):
        r = rows[k]
        start, end = attributes[r, VALUE], attributes[r, VALUE_END]
        if start == end:
            return False
        out[k] = _name_id(buf, start, end, names, lengths, buckets)
    return True
