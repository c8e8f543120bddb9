"""Geom and body inertias of whole kinds for the MJCF fast path (_mjcf_fast), by the element
reader's own functions called with arrays (its bits): each shape kind's unit-density inertia
over its geoms (unit_density_inertia), re-expressed in the body frame B (_reexpress) and
shifted to Bo as GeomParser._inertia does; the bodies' composites geom place by geom place
(composite_step); the ``<inertial>``s as SpatialInertia._from_central_rows makes them."""

from collections import defaultdict

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
    """The places of the mesh geoms of Columns ``geoms`` (without fromto); Declined for a geom
    the element reader would warn of or refuse by its type: a shape neither primitive nor a
    mesh, a mesh attribute on another type, a box or ellipsoid with fromto (its sizes:
    geom_inertias)."""
    meshed = []
    for k, (kind, fromto, mesh) in enumerate(
        zip(geoms.texts("type", "sphere"), geoms.has("fromto").tolist(), geoms.has("mesh").tolist(),
            strict=True)
    ):  # fmt: skip
        if kind == "mesh" and not fromto:
            meshed.append(k)
        elif kind not in SHAPES or mesh or (fromto and kind in ("box", "ellipsoid")):
            raise Declined
    return meshed


def geom_inertias(geoms, placed, R_BG_placed, p_BG_placed):
    """(G_GBo_B rows (n, 9), p_BoGcm_B (n, 3), mass (n,)) of the geoms of Columns ``geoms`` in
    their bodies at their mass or density (1000), the poses of those without fromto (their
    places ``placed``) given (rows of R (9), p); Declined where the reader's _inertia would
    fail (a measure or mass not valid; opposite fromto ends are read one by one:
    two_vector_rows)."""
    n = len(geoms)
    codes = np.fromiter(map(_CODES.__getitem__, geoms.texts("type", "sphere")), np.intp, n)
    has_fromto = geoms.has("fromto")
    size = geoms.sizes("size", np.where(has_fromto, 1, _COUNTS[codes]).tolist())
    p_BG = np.zeros((n, 3))
    R_BG = np.empty((n, 9))
    R_BG[:] = IDENTITY_ROW
    length = np.full(n, np.nan)
    ends, given_mass, densities = geoms.table(
        (("fromto", 6, None), ("mass", 1, None), ("density", 1, None))
    )
    fromto = np.flatnonzero(has_fromto)
    if len(fromto):
        x0, y0, z0, x1, y1, z1 = ends[fromto].T
        p_BG[fromto] = np.stack(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), axis=1)
        dx, dy, dz = x0 - x1, y0 - y1, z0 - z1
        length[fromto] = np.sqrt(dx * dx + dy * dy + dz * dz)
        bx, by, bz = x1 - x0, y1 - y0, z1 - z0  # (z of G along b: the reader's _unit of b)
        squared_norm = bx * bx + by * by + bz * bz
        if not (squared_norm > 0).all():
            raise Declined
        norm = np.sqrt(squared_norm)
        bx, by, bz = bx / norm, by / norm, bz / norm
        c = bx * 0.0 + by * 0.0 + bz * 1.0
        if len(fromto) < 8 or not (c >= -1.0 + _EPS).all():  # (opposite: the SVD's axis)
            R_BG[fromto] = [
                two_vector_rows((0.0, 0.0, 1.0), (u, v, w))
                for u, v, w in zip(x1 - x0, y1 - y0, z1 - z0, strict=True)
            ]
        else:
            rows = unit_turn_rows(0.0, 0.0, 1.0, bx, by, bz, c, np.sqrt)
            R_BG[fromto] = np.stack(rows, axis=1)
    placed = np.array(placed, dtype=np.intp)  # (made once: a list converts each use)
    p_BG[placed], R_BG[placed] = p_BG_placed, R_BG_placed
    volume, moments = np.zeros(n), np.zeros((n, 6))
    by_kind = {_KINDS[c]: np.flatnonzero(codes == c) for c in np.unique(codes).tolist()}
    measures = np.ones((n, 3))  # (each shape's constructor's; 1 where it takes fewer)
    for kind, ks in by_kind.items():
        s = size[ks]
        if kind in ("capsule", "cylinder"):
            measures[ks, 0] = s[:, 0]
            measures[ks, 1] = np.where(np.isnan(length[ks]), 2 * s[:, 1], length[ks])
        elif kind == "box":
            measures[ks] = 2.0 * s
        else:
            measures[ks, : _SIZES[kind]] = s[:, : _SIZES[kind]]
    if not ((measures > 0).all() and np.isfinite(measures).all()):
        raise Declined  # (a missing or non-positive measure: the shape's error)
    for kind, ks in by_kind.items():
        count = 2 if kind in ("capsule", "cylinder") else _SIZES[kind]
        if len(ks) < FEW_SHAPES:  # (in floats: the same function, the same bits)
            made = [unit_density_inertia(SHAPES[kind], x) for x in measures[ks, :count].tolist()]
            volume[ks] = [v for v, _ in made]
            moments[ks] = [m for _, m in made]
            continue
        v, m = unit_density_inertia(SHAPES[kind], tuple(measures[ks, :count].T))
        volume[ks] = v
        for c, x in enumerate(m):
            moments[ks, c] = x
    dense = np.isnan(given_mass)  # (no mass: of its density, 1000 where none)
    mass = np.where(dense, volume * np.where(np.isnan(densities), 1000.0, densities), given_mass)
    xx, yy, zz, xy, xz, yz = moments.T
    if not (
        (mass >= 0).all()
        and np.isfinite(mass).all()
        and could_be_physically_valid_batch(
            xx * mass, xy * mass, xz * mass, xy * mass, yy * mass, yz * mass, xz * mass,
            yz * mass, zz * mass,
        ).all()
    ):  # fmt: skip
        raise Declined  # (the reader's check of the geom's inertia)
    zero = np.zeros(n)
    (px, py, pz), G = _reexpress(R_BG.T, (zero, zero, zero),
                                 [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])  # fmt: skip
    q, G = shifted_to_origin((px, py, pz), G, point_mass_rows(px, py, pz), p_BG.T)
    return np.stack([g for row in G for g in row], axis=1), np.stack(q, axis=1), mass


def body_rows(n, owners, G_B, p_BGcm, mass):
    """The inertia rows (n, 13) [m, p_BoBcm_B, G_BBo_B] of ``n`` bodies, each the composite of
    its geoms of positive mass (``owners``: each geom's body, geoms in document order), as
    composite_inertia sums them: the k-th massive geoms of all bodies at once, k by k."""
    massive = np.flatnonzero(mass > 0)
    owner = np.asarray(owners, np.intp)[massive]  # (nondecreasing: geoms by body)
    rank = np.arange(len(massive)) - np.searchsorted(owner, owner)  # (k: the k-th of its body)
    total, parts = np.zeros(n), np.zeros((12, n))
    part = np.concatenate((p_BGcm, G_B), axis=1).T
    for k in range(rank.max(initial=-1) + 1):
        at = np.flatnonzero(rank == k)
        bs, gs = owner[at], massive[at]
        m, sums = composite_step(total[bs], parts[:, bs], mass[gs], part[:, gs])
        total[bs], parts[:, bs] = m, sums
    rows = np.empty((n, 13))
    rows[:, 0], rows[:, 1:] = total, parts.T
    return rows


def inertial_rows(inertials, R, p):
    """The inertia rows [m, p_BoBcm_B, G_BBo_B] of ``<inertial>``s (Columns ``inertials``;
    their frames' rows of R (9) and p), as the element reader's parse_inertial makes them;
    Declined for one it refuses (no mass or inertia, not physically valid)."""
    m, moments, products = inertials.table(
        (("mass", 1, ""), ("diaginertia", 3, None), ("fullinertia", 6, None))
    )
    diagonal = ~np.isnan(moments[:, 0])
    if not (diagonal | ~np.isnan(products[:, 0])).all():
        raise Declined  # (no inertia)
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
    if not could_be_physically_valid_batch(*((G - P) * m[:, None]).T).all():
        raise Declined  # (_from_central_rows' check)
    rows = np.empty((len(inertials), 13))
    rows[:, 0], rows[:, 1:4], rows[:, 4:] = m, p, G
    return rows
