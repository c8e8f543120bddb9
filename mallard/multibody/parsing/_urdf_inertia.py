"""The spatial inertias of a URDF document's links, read all at once: the values
``_urdf._UrdfParser.parse_inertial`` reads one link at a time (``_common.parse_spatial_inertia``:
the same operations, element by element, in arrays), for the links whose ``<inertial>`` needs
no message and no rotation: plain decimal numbers, no ``rpy`` or one whose rotation
(matrix_from_rpy, as parse_inertial's origin_to_transform makes it) is the identity, a positive
mass and an inertia that passes Drake's validity test before and after MakeFromCentralInertia.
Any other link is left to parse_inertial, so that its messages come in document order."""

import math
import operator
from itertools import repeat

import numpy as np

from mallard.math._roll_pitch_yaw import matrix_from_rpy
from mallard.multibody.parsing._plain_numbers import plain_numbers
from mallard.multibody.tree._rotational_inertia import could_be_physically_valid_batch

_ZERO = "0"
#: The rotation parse_spatial_inertia leaves unapplied (compared as it compares: -0.0 == 0.0).
_IDENTITY = np.eye(3).tolist()
#: Below this many links, parse_inertial reads each (the arrays' fixed cost would not pay).
MIN_LINKS = 8
#: An <inertia>'s six values (a KeyError if one is not given: then each read with its default).
_MOMENTS = operator.itemgetter("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
#: The columns of I (row by row) in a link's numbers [m, ixx, iyy, izz, ixy, ixz, iyz].
_I = [1, 4, 5, 4, 2, 6, 5, 6, 3]
#: The columns of a point mass's unit inertia (row by row) in [y²+z², x²+z², x²+y², −xy,
#: −xz, −yz], and the columns of p (x, y, z) whose squares, then products, make those.
_P = [0, 3, 4, 3, 1, 5, 4, 5, 2]
_SQUARES = ([1, 0, 0], [2, 2, 1])
_PRODUCTS = ([0, 0, 1], [1, 2, 2])


def spatial_inertias(links):
    """[the (rows, j) of M_BBo_B in an array of rows as SpatialInertia._from_row reads, or
    None where parse_inertial must read it] for the ``<link>`` Elements ``links`` (None for a
    link without ``<inertial>``)."""
    inertias = [None] * len(links)
    if len(links) < MIN_LINKS:
        return inertias
    found, positions, scalars = [], [], []  # (the links read here; their texts: the
    # origin's xyz; mass, ixx, iyy, izz, ixy, ixz, iyz)
    rotated, angles = [], []  # (those whose origin has rpy, by their place in found; its text)
    for k, link in enumerate(links):
        inertial = link.find("inertial")  # (its Elements: no ElementView made for them)
        if inertial is None:
            continue
        origin = inertial.find("origin")
        xyz, rpy = "0 0 0", None
        if origin is not None:
            attrib = origin.attrib
            xyz, rpy = attrib.get("xyz", xyz), attrib.get("rpy")
        mass = inertial.find("mass")
        inertia = inertial.find("inertia")
        if mass is None or inertia is None or "value" not in mass.attrib:
            continue
        if rpy is not None:
            rotated.append(len(found))
            angles.append(rpy)
        positions.append(xyz)
        scalars.append(mass.attrib["value"])
        attrib = inertia.attrib
        try:
            scalars += _MOMENTS(attrib)
        except KeyError:
            get = attrib.get
            scalars += (
                get("ixx", _ZERO), get("iyy", _ZERO), get("izz", _ZERO), get("ixy", _ZERO),
                get("ixz", _ZERO), get("iyz", _ZERO),
            )  # fmt: skip
        found.append(k)
    n = len(found)
    if n < MIN_LINKS:
        return inertias
    positions, scalars = plain_numbers(positions, 3), plain_numbers(scalars, 1)
    angles = plain_numbers(angles, 3) if rotated else []
    if positions is None or scalars is None or angles is None:  # (an unusual number somewhere:
        return inertias  # link by link)
    angles = angles.reshape(-1, 3) if rotated else angles
    return inertia_rows(
        len(links), found, positions.reshape(-1, 3), scalars.reshape(-1, 7), rotated, angles
    )


def inertia_rows(count, found, p, scalars, rotated, angles):
    """spatial_inertias' list (of ``count`` links) from the numbers of the links it reads
    (``found``, their places; the (n, 3) p_BBcm of each ``<origin>``'s xyz, the (n, 7) mass
    and ixx, iyy, izz, ixy, ixz, iyz of each, those of the links at ``rotated`` (places in
    found) rotated by the rpy rows ``angles``): None where parse_inertial must read it, all
    None if a number is out of range. (The math of parse_inertial in arrays, for the reader
    and its fast path, _urdf_fast.)"""
    inertias = [None] * count
    n = len(found)
    if not (np.isfinite(p).all() and np.isfinite(scalars).all()):  # (out of range)
        return inertias
    m = scalars[:, :1]
    I = scalars[:, _I]  # (each link's row by row, as the columns below)
    with np.errstate(all="ignore"):  # (a link of no mass, or of overflowing values, fails)
        # MakeFromCentralInertia(m, p, I): G = I/m + point_mass(p), checked again as I = (G − P)·m.
        squares = p * p
        P = np.concatenate(
            (
                squares[:, _SQUARES[0]] + squares[:, _SQUARES[1]],
                -p[:, _PRODUCTS[0]] * p[:, _PRODUCTS[1]],
            ),
            axis=1,
        )[:, _P]
        G = I / m + P
        both = np.concatenate((I, (G - P) * m)).T  # (the two tests' matrices, in one call)
        valid = could_be_physically_valid_batch(*both)
    ok = (m[:, 0] > 0) & valid[:n] & valid[n:]
    if rotated:  # (an rpy whose rotation is not the identity re-expresses I: link by link;
        # one of zeros (±0.0) makes the identity)
        turned = (angles != 0.0).any(axis=1)
        rotated, angles = np.array(rotated)[turned].tolist(), angles[turned]
        for j, rpy in zip(rotated, angles.tolist(), strict=True):
            if not all(map(math.isfinite, rpy)) or matrix_from_rpy(*rpy).tolist() != _IDENTITY:
                ok[j] = False
    # (the links' inertia rows [m, p, G]: each body reads its row when asked, Finalize all)
    rows = np.concatenate((m, p, G), axis=1)
    rows.flags.writeable = False
    if n == count and ok.all():
        return list(zip(repeat(rows), range(n)))
    for j in np.flatnonzero(ok).tolist():
        inertias[found[j]] = (rows, j)
    return inertias
