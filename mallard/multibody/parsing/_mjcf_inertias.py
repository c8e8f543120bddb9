"""Geom and body inertias of whole kinds for the MJCF fast path (_mjcf_fast), by the element
reader's own functions called with arrays (its bits): each shape kind's unit-density inertia
over its geoms (unit_density_inertia), re-expressed in the body frame B and shifted to Bo as
GeomParser._inertia does (_reexpress and shifted_to_origin on the rows of all geoms); the
bodies' composites geom place by geom place (composite_step, the 12 numbers of all bodies as
one array); the ``<inertial>``s as SpatialInertia._from_central_rows makes them. On the
compiled scan's path (``compiled``: numba loaded), by kernels of the same scalar functions,
element by element (_mjcf_kernels)."""

from collections import defaultdict
from itertools import repeat

import numpy as np

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, Sphere
from mallard.multibody.parsing._mjcf_frames import IDENTITY_ROW
from mallard.multibody.parsing._mjcf_tables import ORIENTATIONS, Declined
from mallard.multibody.parsing._mujoco_geometry import (
    _reexpress,
    composite_step,
    shifted_to_origin,
    two_vector_rows,
    unit_turn_rows,
)
from mallard.multibody.parsing._plain_numbers import plain_numbers
from mallard.multibody.tree._calc_spatial_inertia import unit_density_inertia
from mallard.multibody.tree._rotational_inertia import (
    could_be_physically_valid_batch,
    point_mass_rows,
    reexpress,
)

SHAPES = {"sphere": Sphere, "capsule": Capsule, "cylinder": Cylinder, "box": Box,
          "ellipsoid": Ellipsoid}  # fmt: skip
#: How many size numbers each shape needs (capsules and cylinders: one with fromto).
_SIZES = {"sphere": 1, "capsule": 2, "cylinder": 2, "box": 3, "ellipsoid": 3}
#: The shapes by code (their places in _SIZES), and their size counts.
_KINDS = tuple(_SIZES)
_CODES = {kind: c for c, kind in enumerate(_KINDS)}
_COUNTS = np.array(list(_SIZES.values()))
#: A mesh's code (geom_checks'), past the primitive shapes'; every type's.
MESH = len(_KINDS)
_ALL_CODES = {**_CODES, "mesh": MESH}
#: How many measures each shape's constructor takes, by code.
_MEASURES = np.array([1, 2, 2, 3, 3])
#: Below this many geoms, a shape kind's unit inertias are computed geom by geom in floats
#: (numpy's fixed cost a call exceeds the work).
FEW_SHAPES = 24
_EPS = float(np.finfo(float).eps)
_HALF_MAX = float(np.finfo(float).max) / 2


def sizes(texts, counts):
    """The size numbers of each of ``texts`` (rows of NaN past a text's count): an (n, 3)
    array, the texts of each expected count of ``counts`` (one a text) read in one call,
    those of another count by their own; Declined for a text not plain or not of 1 to 3
    numbers."""
    out = np.full((len(texts), 3), np.nan)
    by_count = defaultdict(list)
    for k, count in enumerate(counts):
        by_count[count].append(k)
    others = defaultdict(list)
    for count, ks in by_count.items():
        values = plain_numbers([texts[k] for k in ks], count)
        if values is None:  # (a text of another count, or not plain)
            for k in ks:
                others[len(texts[k].split())].append(k)
            continue
        if not np.isfinite(values).all():
            raise Declined
        out[ks, :count] = values.reshape(-1, count)
    for count, ks in others.items():
        if not 1 <= count <= 3:
            raise Declined
        values = plain_numbers([texts[k] for k in ks], count)
        if values is None or not np.isfinite(values).all():
            raise Declined
        out[ks, :count] = values.reshape(-1, count)
    return out


def geom_checks(geoms):
    """(the places of the mesh geoms of Columns ``geoms`` (without fromto), the shape codes
    of all (MESH: a mesh's)); Declined for a geom the element reader would warn of or refuse
    by its type: a shape neither primitive nor a mesh, a mesh attribute on another type, a
    mesh, box or ellipsoid with fromto (its sizes: geom_inertias)."""
    n = len(geoms)
    codes = np.fromiter(
        map(_ALL_CODES.get, geoms.texts("type", "sphere"), repeat(-1, n)), np.intp, n
    )
    fromto, mesh = geoms.has("fromto"), geoms.has("mesh")
    meshes = codes == MESH
    if (
        (codes < 0).any()
        or (mesh & ~meshes).any()
        or (fromto & (meshes | (codes == _CODES["box"]) | (codes == _CODES["ellipsoid"]))).any()
    ):
        raise Declined
    return np.flatnonzero(meshes).tolist(), codes


def geom_inertias(geoms, codes, placed, R_BG_placed, p_BG_placed, compiled=False):
    """(G_GBo_B rows (n, 9), p_BoGcm_B (n, 3), mass (n,)) of the geoms of Columns ``geoms``
    (their primitive shapes' ``codes``: geom_checks') in their bodies at their mass or density
    (1000), the poses of those without fromto (their places ``placed``) given (rows of R (9),
    p); Declined where the reader's _inertia would fail (a measure or mass not valid; opposite
    fromto ends are read one by one: two_vector_rows). ``compiled``: by the kernel
    (_mjcf_kernels; numba loaded), else by numpy."""
    n = len(geoms)
    has_fromto = geoms.has("fromto")
    size = geoms.sizes("size", np.where(has_fromto, 1, _COUNTS[codes]).tolist())
    ends, given_mass, densities = geoms.table(
        (("fromto", 6, None), ("mass", 1, None), ("density", 1, None))
    )
    placed = np.array(placed, dtype=np.intp)  # (made once: a list converts each use)
    if compiled:
        found = _compiled_inertias(
            codes, has_fromto, size, ends, given_mass, densities, placed, R_BG_placed,
            p_BG_placed,
        )  # fmt: skip
        if found is not None:
            return found
    p_BG = np.zeros((3, n))
    R_BG = np.empty((n, 9))
    R_BG[:] = IDENTITY_ROW
    fromto = np.flatnonzero(has_fromto)
    measures = np.where((codes == _CODES["box"])[:, None], 2.0 * size, size)
    if len(fromto):  # (the ends' coordinates by rows: one call for the three of each formula)
        a, b = ends[fromto].T.reshape(2, 3, -1)
        p_BG[:, fromto] = (a + b) / 2
        d = (a - b) * (a - b)
        measures[fromto, 1] = np.sqrt((d[0] + d[1]) + d[2])  # (a capsule's or cylinder's)
        u = b - a  # (z of G along u: the reader's _unit of u)
        d = u * u
        squared_norm = (d[0] + d[1]) + d[2]
        if not (squared_norm > 0).all():
            raise Declined
        bx, by, bz = u / np.sqrt(squared_norm)
        c = bx * 0.0 + by * 0.0 + bz * 1.0
        if len(fromto) < 8 or not (c >= -1.0 + _EPS).all():  # (opposite: the SVD's axis)
            R_BG[fromto] = [two_vector_rows((0.0, 0.0, 1.0), v) for v in u.T.tolist()]
        else:
            rows = unit_turn_rows(0.0, 0.0, 1.0, bx, by, bz, c, np.sqrt)
            R_BG[fromto] = np.stack(rows, axis=1)
    p_BG[:, placed], R_BG[placed] = p_BG_placed.T, R_BG_placed
    # (each shape's constructor's measures: a box's sizes doubled, the length of a capsule or
    # cylinder its fromto's, or twice its half length; 1 where it takes fewer)
    axial = np.flatnonzero((codes == _CODES["capsule"]) | (codes == _CODES["cylinder"]))
    sized = axial[~has_fromto[axial]]
    measures[sized, 1] = 2 * size[sized, 1]
    measures[np.arange(3) >= _MEASURES[codes][:, None]] = 1.0
    if not ((measures > 0).all() and np.isfinite(measures).all()):
        raise Declined  # (a missing or non-positive measure: the shape's error)
    ends = np.cumsum(np.bincount(codes, minlength=len(_KINDS)))[:-1].tolist()
    by_kind = dict(zip(_KINDS, np.split(np.argsort(codes, kind="stable"), ends), strict=True))
    unit = np.empty((7, n))  # (volume, then the moments xx, yy, zz, xy, xz, yz)
    for kind, ks in by_kind.items():
        if not len(ks):
            continue
        count = _MEASURES[_CODES[kind]].item()
        if len(ks) < FEW_SHAPES:  # (in floats: the same function, the same bits)
            rows = [unit_density_inertia(SHAPES[kind], x) for x in measures[ks, :count].tolist()]
            unit[:, ks] = np.array([(v, *m) for v, m in rows]).T
            continue
        v, m = unit_density_inertia(SHAPES[kind], tuple(measures[ks, :count].T))
        unit[0, ks] = v
        for c, x in enumerate(m):  # (a box's products: 0.0 each)
            unit[c + 1, ks] = x
    volume, moments = unit[0], unit[1:]  # (moments: xx, yy, zz, xy, xz, yz rows)
    dense = np.isnan(given_mass)  # (no mass: of its density, 1000 where none)
    mass = np.where(dense, volume * np.where(np.isnan(densities), 1000.0, densities), given_mass)
    _check(mass, moments * mass)
    xx, yy, zz, xy, xz, yz = moments  # (the reader's _reexpress and shift, on the rows)
    p, G = _reexpress(tuple(R_BG.T), (0.0, 0.0, 0.0), ((xx, xy, xz), (xy, yy, yz), (xz, yz, zz)))
    q, G = shifted_to_origin(p, G, point_mass_rows(*p), p_BG)
    return np.stack([g for row in G for g in row], axis=1), np.stack(q, axis=1), mass


def _check(mass, I):
    """Declined unless every geom's mass (n,) and inertia I (moments xx, yy, zz, xy, xz, yz:
    (6, n)) pass the reader's check of a geom's inertia (the batch's check takes finite
    numbers; the reader's refuses the others)."""
    xx, yy, zz, xy, xz, yz = I
    if not (
        (mass >= 0).all()
        and np.isfinite(mass).all()
        and np.isfinite(I).all()
        and could_be_physically_valid_batch(xx, xy, xz, xy, yy, yz, xz, yz, zz).all()
    ):
        raise Declined


def _compiled_inertias(codes, has_fromto, size, ends, given_mass, densities, placed, R_BG_placed,
                       p_BG_placed):  # fmt: skip
    """geom_inertias' results by the kernel (_mjcf_kernels.mjcf_geom_inertias), or None for a
    fromto along −z (numpy's path reads it)."""
    from mallard._compiled import kernels
    from mallard.multibody.parsing import _mjcf_kernels

    n = len(codes)
    R_BG, p_BG = np.empty((n, 9)), np.empty((n, 3))  # (the fromto geoms' rows: unread)
    R_BG[placed], p_BG[placed] = R_BG_placed, p_BG_placed
    G, p, mass, I = np.empty((n, 9)), np.empty((n, 3)), np.empty(n), np.empty((6, n))
    status = kernels(np.float64).mjcf_geom_inertias(
        codes, has_fromto, size, ends, given_mass, densities, R_BG, p_BG, G, p, mass, I
    )
    if status == _mjcf_kernels.OPPOSITE:
        return None
    if status == _mjcf_kernels.DECLINED:
        raise Declined
    _check(mass, I)
    return G, p, mass


def _compiled_inertial_rows(inertials, R, p, m, moments, products, diagonal):
    """inertial_rows' rows by the kernel (_mjcf_kernels.mjcf_inertial_rows), the inertias of
    the oriented diagonal ones re-expressed first (numpy's stacked matmul, the reader's)."""
    from mallard._compiled import kernels
    from mallard.multibody.parsing._mjcf_kernels import DONE

    n = len(inertials)
    turned = np.flatnonzero(diagonal & inertials.any_of(ORIENTATIONS))
    if np.abs(moments[diagonal]).max(initial=0.0) >= _HALF_MAX:
        raise Declined
    I = np.zeros((len(turned), 3, 3))
    I[:, 0, 0], I[:, 1, 1], I[:, 2, 2] = moments[turned].T
    turned_at = np.full(n, -1, np.intp)
    turned_at[turned] = np.arange(len(turned))
    I = reexpress(R[turned].reshape(-1, 3, 3), I).reshape(-1, 9)
    rows, central = np.empty((n, 13)), np.empty((9, n))
    status = kernels(np.float64).mjcf_inertial_rows(
        m, moments, products, I, turned_at, np.ascontiguousarray(p), rows, central
    )
    if status != DONE or not (
        np.isfinite(central).all() and could_be_physically_valid_batch(*central).all()
    ):
        raise Declined  # (_from_central_rows' check: it refuses what is not finite)
    return rows


def body_rows(n, owners, G_B, p_BGcm, mass, compiled=False):
    """The inertia rows (n, 13) [m, p_BoBcm_B, G_BBo_B] of ``n`` bodies, each the composite of
    its geoms of positive mass (``owners``: each geom's body, geoms in document order), as
    composite_inertia sums them: the k-th massive geoms of all bodies at once, k by k; or,
    ``compiled``, geom by geom by the kernel (_mjcf_kernels.mjcf_body_rows)."""
    if compiled:
        from mallard._compiled import kernels

        rows = np.zeros((n, 13))
        owners = np.array(owners, np.intp)
        kernels(np.float64).mjcf_body_rows(owners, G_B, p_BGcm, mass, rows)
        return rows
    massive = np.flatnonzero(mass > 0)
    owner = np.asarray(owners, np.intp)[massive]  # (nondecreasing: geoms by body)
    rank = np.arange(len(massive)) - np.searchsorted(owner, owner)  # (k: the k-th of its body)
    rows = np.zeros((n, 13))  # (m, then the 12 numbers composite_step sums)
    part = np.concatenate((mass[:, None], p_BGcm, G_B), axis=1)[massive]
    for k in range(rank.max(initial=-1) + 1):  # (the 12 numbers as one (bodies, 12) array)
        at = np.flatnonzero(rank == k)
        bs = owner[at]
        row, gs = rows[bs], part[at]
        m, (sums,) = composite_step(row[:, :1], (row[:, 1:],), gs[:, :1], (gs[:, 1:],))
        row[:, :1], row[:, 1:] = m, sums
        rows[bs] = row
    return rows


def inertial_rows(inertials, R, p, compiled=False):
    """The inertia rows [m, p_BoBcm_B, G_BBo_B] of ``<inertial>``s (Columns ``inertials``;
    their frames' rows of R (9) and p), as the element reader's parse_inertial makes them;
    Declined for one it refuses (no mass or inertia, not physically valid). ``compiled``:
    by the kernel (_mjcf_kernels.mjcf_inertial_rows) but for the re-expressions (numpy's
    stacked matmul, the reader's) and the check, else by numpy."""
    m, moments, products = inertials.table(
        (("mass", 1, ""), ("diaginertia", 3, None), ("fullinertia", 6, None))
    )
    diagonal = ~np.isnan(moments[:, 0])
    if not (diagonal | ~np.isnan(products[:, 0])).all():
        raise Declined  # (no inertia)
    if compiled:
        return _compiled_inertial_rows(inertials, R, p, m, moments, products, diagonal)
    I = np.zeros((len(inertials), 3, 3))
    full, diagonal = np.flatnonzero(~diagonal), np.flatnonzero(diagonal)
    xx, yy, zz = moments[diagonal].T
    oriented = inertials.any_of(ORIENTATIONS)
    turned = diagonal[oriented[diagonal]]
    I[diagonal, 0, 0], I[diagonal, 1, 1], I[diagonal, 2, 2] = xx, yy, zz
    if np.abs(I).max(initial=0.0) >= _HALF_MAX:
        raise Declined
    if len(turned):  # (the stacked matmul: the reader's bits, matrix by matrix)
        I[turned] = reexpress(R[turned].reshape(-1, 3, 3), I[turned])
    fxx, fyy, fzz, fxy, fxz, fyz = products[full].T
    I[full] = np.stack((fxx, fxy, fxz, fxy, fyy, fyz, fxz, fyz, fzz), 1).reshape(-1, 3, 3)
    I = I.reshape(-1, 9)
    if not (m > 0).all():
        raise Declined
    x, y, z = p.T
    P = np.stack([q for row in point_mass_rows(x, y, z) for q in row], axis=1)
    G = I / m[:, None] + P
    central = (G - P) * m[:, None]
    if not (np.isfinite(central).all() and could_be_physically_valid_batch(*central.T).all()):
        raise Declined  # (_from_central_rows' check: it refuses what is not finite)
    rows = np.empty((len(inertials), 13))
    rows[:, 0], rows[:, 1:4], rows[:, 4:] = m, p, G
    return rows
