"""MJCF frames, geoms and mesh assets, as Drake's MuJoCo parser reads them
(detail_mujoco_parser.cc): orientations (quat, axisangle, euler with the compiler's eulerseq,
xyaxes, zaxis), geom shapes with their visual/collision roles, color and friction, and the
spatial inertia of a geom of uniform density (``inertiafromgeom``)."""

import functools
import json
import math
import os
import struct

import numpy as np

from mallard.common._angle_axis import angle_axis_rows
from mallard.common._quaternion import hamilton_product
from mallard.common._quaternion_rotation import quaternion_rotation
from mallard.geometry import (
    Box,
    Capsule,
    Convex,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    Mesh,
    Rgba,
    Sphere,
)
from mallard.math import RigidTransform
from mallard.math._rotation_matrix import check_rotation_matrix
from mallard.multibody.parsing._attributes import (
    convert_to_doubles,
    parse_floats,
    parse_scalar,
    parse_vector,
)
from mallard.multibody.parsing._geometry import GeometryRecord
from mallard.multibody.parsing._proximity import checked_friction
from mallard.multibody.tree import CalcSpatialInertia, SpatialInertia
from mallard.multibody.tree._calc_spatial_inertia import unit_density_inertia
from mallard.multibody.tree._rotational_inertia import point_mass_rows
from mallard.multibody.tree._spatial_inertia import _validity_error

ORIENTATIONS = ("quat", "axisangle", "euler", "xyaxes", "zaxis")
_ORIENTATION_SET = frozenset(ORIENTATIONS)
#: The geom attributes Drake ignores, with a warning.
_UNSUPPORTED = ("shellinertia", "fitscale", "fluidshape", "fluidcoef", "user")
#: The attributes of a geom's roles and of its appearance (absent: their defaults).
_ROLE_ATTRIBUTES = ("contype", "conaffinity", "condim", "group")
_APPEARANCE_ATTRIBUTES = ("material", "rgba", "friction")
_LOOK_ATTRIBUTES = _ROLE_ATTRIBUTES + _APPEARANCE_ATTRIBUTES
_DEGREE = math.pi / 180.0
_IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)  # (rows of R, as 9 floats)
_IDENTITY_ARRAY = np.eye(3)
_EPS = float(np.finfo(float).eps)
_Z = (0.0, 0.0, 1.0)  # (a geom's axis, in its frame)
_ORIGIN = (0.0, 0.0, 0.0)  # (p_GoGcm_G of a primitive shape)
_ORIGIN_ROWS = point_mass_rows(*_ORIGIN)
_NO_TURN = (1.0, 0.0, 0.0, 0.0)  # (a quaternion wxyz)
_AXIS_INDEX = {"x": 1, "y": 2, "z": 3, "X": 1, "Y": 2, "Z": 3}  # (its place in wxyz)
_pack6, _unpack6 = struct.Struct("6d").pack, struct.Struct("6d").unpack
_pack9 = struct.Struct("9d").pack
_new = object.__new__


def _acceptable(measures):
    """Whether the shape measures ``measures`` (floats) are all finite and positive, as every
    shape constructor accepts them."""
    return bool(measures) and min(measures) > 0.0 and math.isfinite(sum(measures))


def _unit(x, y, z):
    """(x, y, z) normalized (Eigen's normalized(): a vector of zero norm is left as is)."""
    squared_norm = x * x + y * y + z * z
    if not squared_norm > 0:
        return x, y, z
    norm = math.sqrt(squared_norm)
    return x / norm, y / norm, z / norm


def _normalized(x, y, z):
    """(x, y, z) divided by its norm as numpy divides: a zero norm gives NaN (0/0) or ±inf."""
    norm = math.sqrt(x * x + y * y + z * z)
    if norm == 0.0:
        return tuple(math.nan if v == 0.0 else math.copysign(math.inf, v) for v in (x, y, z))
    return x / norm, y / norm, z / norm


def _normal_axis(v0, v1):
    """The axis Eigen takes for opposite unit vectors v0 and v1: the right singular vector of
    [v0; v1] of smallest singular value, as 3 floats."""
    return tuple(np.linalg.svd(np.array([v0, v1]))[2][2].tolist())


def two_vector_rows(a, b):
    """The rows (9 floats) of R taking the direction of ``a`` to that of ``b`` (each 3
    numbers: an array or a sequence) by the smallest rotation (Eigen's
    Quaternion::FromTwoVectors; for opposite directions, a half turn about an axis normal to
    ``a``)."""
    a = a.tolist() if isinstance(a, np.ndarray) else a
    b = b.tolist() if isinstance(b, np.ndarray) else b
    return _two_vector_rotation(_pack6(*a, *b))


@functools.lru_cache(maxsize=1024)
def _two_vector_rotation(a_b):
    """two_vector_rows(a, b) for ``a_b``, the float64 bytes of a and b
    one after the other (-0.0 is not 0.0 here). (Cached: MJCF models repeat directions, e.g.
    limbs along -z.)"""
    x0, y0, z0, x1, y1, z1 = _unpack6(a_b)
    (x0, y0, z0), (x1, y1, z1) = _unit(x0, y0, z0), _unit(x1, y1, z1)  # (numpy's arithmetic)
    c = x1 * x0 + y1 * y0 + z1 * z0
    if not c < -1.0 + _EPS:
        return unit_turn_rows(x0, y0, z0, x1, y1, z1, c, math.sqrt)
    c = max(c, -1.0)
    x, y, z = _normal_axis((x0, y0, z0), (x1, y1, z1))
    w2 = (1.0 + c) * 0.5
    s = math.sqrt(1.0 - w2)
    w, x, y, z = math.sqrt(w2), x * s, y * s, z * s
    return quaternion_rotation(w, x, y, z, 2.0 / (w * w + x * x + y * y + z * z))


def unit_turn_rows(x0, y0, z0, x1, y1, z1, c, sqrt):
    """The rows of the smallest rotation taking the unit vector v0 to the unit vector v1, not
    opposite (their cosine ``c`` ≥ -1 + ε), as a 9-tuple: floats with ``sqrt`` math.sqrt, or
    arrays of many (np.sqrt: the MJCF fast path's fromto geoms)."""
    s = sqrt((1.0 + c) * 2.0)
    # (v0 × v1) / s
    w, x, y, z = (
        s * 0.5,
        (y0 * z1 - z0 * y1) / s,
        (z0 * x1 - x0 * z1) / s,
        (x0 * y1 - y0 * x1) / s,
    )
    return quaternion_rotation(w, x, y, z, 2.0 / (w * w + x * x + y * y + z * z))


class Frames:
    """The compiler settings that poses depend on: ``degree`` (angles in degrees, MuJoCo's
    default) and ``eulerseq`` (three of "xyzXYZ"; lower case: moving axes)."""

    def __init__(self, diagnostics):
        self.diagnostics = diagnostics
        self.degree = True
        self.eulerseq = "xyz"

    def transform(self, node):
        """X_PF of the frame ``node`` gives with ``pos`` and at most one orientation
        attribute (none: the identity)."""
        attrib = node.attrib
        pos = np.zeros(3) if "pos" not in attrib else parse_vector(node, "pos", 3)
        if attrib.keys().isdisjoint(_ORIENTATION_SET):  # (no orientation)
            return RigidTransform._make(_IDENTITY_ARRAY.copy(), pos)
        rows = self.rows(node, self.orientation(node))
        return RigidTransform._make(np.array(rows).reshape(3, 3), pos)

    def pose(self, node, rotation=True):
        """transform(node) in floats: (the rows of R_PF as 9 floats, None for a frame
        without orientation; p_PoFo_P as 3 floats). Without ``rotation``, R_PF is None:
        the orientation is only read and checked (its errors, not its arithmetic)."""
        attrib = node.attrib
        p = [0.0, 0.0, 0.0] if "pos" not in attrib else parse_floats(node, "pos", 3)
        if attrib.keys().isdisjoint(_ORIENTATION_SET):  # (no orientation)
            return None, p
        return self.rows(node, self.orientation(node), rotation), p

    def orientation(self, node):
        """The orientation attribute ``node`` gives (it gives one or more); an error for
        several."""
        present = node.attrib.keys() & _ORIENTATION_SET
        if len(present) > 1:
            attributes = "".join(f"{k}={json.dumps(v)} " for k, v in node.attrib.items())
            self.diagnostics.error(
                node,
                f"Element {node.tag} has more than one orientation attribute specified. There "
                "must be no more than one instance of `quat`, `axisangle`, `euler`, `xyaxes`, "
                f"or `zaxis`. Attributes: [{attributes}]",
            )
        (name,) = present
        return name

    def rows(self, node, name, rotation=True):
        """The rows of R_PF as 9 floats, for the orientation attribute ``name`` of ``node``
        (in floats: the arithmetic of the arrays' operations, element by element). Without
        ``rotation``: None, once the attribute is read and checked (xyaxes' check is its
        arithmetic: its rows)."""
        error = self.diagnostics.error
        if name == "quat":
            w, x, y, z = parse_floats(node, "quat", 4)
            squared_norm = w * w + x * x + y * y + z * z
            if not squared_norm > 0:
                error(node, f"The quaternion in 'quat' ({node.get('quat')}) is zero.")
        elif name == "euler":
            angles = parse_floats(node, "euler", 3)
            if not rotation:
                return None
            w, x, y, z = self.euler(angles)
            squared_norm = w * w + x * x + y * y + z * z
        elif name == "axisangle":
            x, y, z, angle = parse_floats(node, "axisangle", 4)
            norm = math.sqrt(x * x + y * y + z * z)
            if not norm > 0:
                error(node, f"The axis in 'axisangle' ({node.get('axisangle')}) is zero.")
            if not rotation:
                return None
            if self.degree:
                angle *= _DEGREE
            return angle_axis_rows(angle, x / norm, y / norm, z / norm)
        elif name == "xyaxes":
            return self.xyaxes_rows(node)
        else:
            x, y, z = parse_floats(node, "zaxis", 3)
            if not x * x + y * y + z * z > 0:
                error(node, f"The 'zaxis' attribute ({node.get('zaxis')}) is zero.")
            return two_vector_rows(_Z, (x, y, z)) if rotation else None
        if not rotation:
            return None
        return quaternion_rotation(w, x, y, z, 2.0 / squared_norm)  # (quaternion_to_matrix's)

    def xyaxes_rows(self, node):
        """The rows of R_PF of ``xyaxes``: its x axis normalized, its y axis made normal to x
        (Gram-Schmidt), z = x × y; an error for an axis of norm < 1e-12 or a result that is
        not a rotation matrix (y along x)."""
        x0, x1, x2, y0, y1, y2 = parse_floats(node, "xyaxes", 6)
        for axis, (a, b, c) in (("x", (x0, x1, x2)), ("y", (y0, y1, y2))):
            if math.sqrt(a * a + b * b + c * c) < 1e-12:
                self.diagnostics.error(
                    node,
                    f"The {axis} axis in the 'xyaxes' attribute '{node.get('xyaxes')}' is too "
                    "small.",
                )
        rows = xyaxes_columns(x0, x1, x2, y0, y1, y2, _normalized)
        check_rotation_matrix(np.array(rows).reshape(3, 3))
        return rows

    def euler(self, angles):
        """The quaternion (wxyz as 4 floats, not normalized) of the Euler ``angles`` (3
        floats) about the axes of ``eulerseq`` (lower case: moving axes, post-multiplied;
        upper case: fixed axes, pre-multiplied)."""
        if self.degree:
            angles = [angle * _DEGREE for angle in angles]
        halves = [angle / 2.0 for angle in angles]
        return euler_quaternion(map(math.cos, halves), map(math.sin, halves), self.eulerseq)


def xyaxes_columns(x0, x1, x2, y0, y1, y2, normalized):
    """The rows of R_PF (9) of the axes x and y: x normalized, y made normal to x
    (Gram-Schmidt), z = x × y, by ``normalized`` (floats: _normalized; or arrays of many, of
    nonzero norms: the MJCF fast path's)."""
    x0, x1, x2 = normalized(x0, x1, x2)
    d = x0 * y0 + x1 * y1 + x2 * y2
    y0, y1, y2 = normalized(y0 - d * x0, y1 - d * x1, y2 - d * x2)
    z0, z1, z2 = normalized(x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0)
    return (x0, y0, z0, x1, y1, z1, x2, y2, z2)  # (the columns x, y, z)


def euler_quaternion(cosines, sines, eulerseq):
    """Frames.euler of the cosines and sines of the halves of the 3 angles (each angle / 2.0)
    about the axes of ``eulerseq``: floats, or arrays of many (the MJCF fast path's, their
    cosines and sines by math's)."""
    q = _NO_TURN
    for c, s, axis in zip(cosines, sines, eulerseq, strict=True):
        q = euler_step(q, c, s, _AXIS_INDEX[axis], axis.islower())
    return q


def euler_step(q, c, s, index, moving):
    """The quaternion ``q`` turned by the half angle of cosine ``c`` and sine ``s`` about the
    axis of place ``index`` in wxyz (1, 2, 3: x, y, z): post-multiplied for a ``moving`` axis,
    else pre-multiplied (floats, arrays of many, or compiled: the MJCF fast path's)."""
    if index == 1:
        step = (c, s, 0.0, 0.0)
    elif index == 2:
        step = (c, 0.0, s, 0.0)
    else:
        step = (c, 0.0, 0.0, s)
    return hamilton_product(q, step) if moving else hamilton_product(step, q)


#: The shape of a geom whose primitive shape is not made (GeomParser.make_shapes).
UNMADE = "unmade"


class Geom:
    """A parsed ``<geom>``: pose X_BG in its body (in floats: R_BG, the rows of its rotation
    as 9 floats or None for the identity, and p_BoGo_B; R_BG is also None where the parser
    needs neither the geom's records nor its inertia), name, shape (None: ignored; UNMADE:
    a primitive not made), color, friction, its spatial inertia M_GBo_B (None unless
    computed; (mass, p_BoGcm_B, G_GBo_B rows) in floats: see composite_inertia; a massless
    geom's (mass, None, None)) and its roles."""

    __slots__ = ("node", "R_BG", "p_BoGo_B", "name", "shape", "rgba", "friction", "M_GBo_B",
                 "visual", "collision")  # fmt: skip

    def __init__(self, node, name):
        self.node = node
        self.R_BG = self.p_BoGo_B = None  # (set by GeomParser.parse)
        self.name = name
        self.shape = None
        self.rgba = (0.5, 0.5, 0.5, 1.0)
        self.friction = (1.0, 1.0)
        self.M_GBo_B = None
        self.visual = True
        self.collision = True

    def records(self, body):
        """The GeometryRecords of the geom's roles on ``body``."""
        R = _IDENTITY_ARRAY.copy() if self.R_BG is None else np.array(self.R_BG).reshape(3, 3)
        X_BG = RigidTransform._make(R, np.array(self.p_BoGo_B))
        records = []
        if self.visual:
            properties = {"phong": {"diffuse": self.rgba}}
            records.append(
                GeometryRecord(body, "visual", self.name, X_BG, self.shape, properties, self.node)
            )
        if self.collision:
            properties = {"material": {"coulomb_friction": self.friction}}
            records.append(
                GeometryRecord(
                    body, "collision", self.name, X_BG, self.shape, properties, self.node
                )
            )
        return records


def _int(diagnostics, node, name, default):
    return int(parse_scalar(node, name, diagnostics, default))


class GeomParser:
    """Reads ``<geom>`` elements of one document: the parser's Frames, its assets (materials
    and meshes by name) and the cache of mesh inertias (unit density, by mesh name)."""

    def __init__(self, diagnostics, frames, materials, meshes, make_shapes=True):
        self.diagnostics = diagnostics
        # Whether primitive shapes are made (else only checked: a document whose geometry
        # is not registered needs its geoms' inertias and messages, not their shapes).
        self.make_shapes = make_shapes
        self.frames = frames
        self.materials = materials
        self.meshes = meshes
        self.mesh_inertia = {}  # (_unit_density_inertia's, by mesh name)
        # The primitive shapes made (immutable: geoms of the same shape share one), by
        # (shape type, measures).
        self.shapes = {}
        # (volume, p_GoGcm_G, G_GGo_G rows, pm(p_GoGcm_G) rows) of a primitive shape at unit
        # density, by (shape type, measures): models repeat their limbs' shapes.
        self.unit_inertia = {}
        # (unit_inertia's key, mass) of the geom inertias checked physically valid.
        self.valid = set()
        # (p_GoGcm_B, G_GGo_B, pm(p_GoGcm_B)) of a primitive's unit-density inertia in its
        # body's frame, by (unit_inertia's key, the bytes of R_BG or None for the identity):
        # models repeat orientations too (e.g. fromto limbs along -z).
        self.oriented = {}
        # (visual, collision, rgba, friction) by the texts of _LOOK_ATTRIBUTES (None where
        # absent) that read without a warning: geoms of one class share them.
        self.looks = {}

    def parse(self, node, index, compute_inertia):
        """The Geom of ``node`` (defaults already applied), the ``index``-th of its body."""
        error, warning = self.diagnostics.error, self.diagnostics.warning
        attrib = node.attrib
        name = attrib.get("name")
        if name is None:
            name = f"geom{index}"
        geom = Geom(node, name)
        kind = attrib.get("type", "sphere")
        size = attrib.get("size")
        size = [] if size is None else convert_to_doubles(size)
        fromto = None if "fromto" not in attrib else parse_floats(node, "fromto", 6)
        length = None
        # R_BG only where it is used: the geometry's records, the geom's inertia (else None;
        # the orientation still read and checked: its messages).
        rotation = compute_inertia or self.make_shapes
        if fromto is not None:
            x0, y0, z0, x1, y1, z1 = fromto
            if rotation:
                geom.R_BG = two_vector_rows(_Z, (x1 - x0, y1 - y0, z1 - z0))
            geom.p_BoGo_B = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2]
            dx, dy, dz = x0 - x1, y0 - y1, z0 - z1
            length = math.sqrt(dx * dx + dy * dy + dz * dz)
        else:
            geom.R_BG, geom.p_BoGo_B = self.frames.pose(node, rotation)
        mesh = attrib.get("mesh")
        if mesh is not None and kind != "mesh":
            if kind in ("sphere", "capsule", "cylinder", "ellipsoid", "box"):
                error(
                    node,
                    f"geom {name} specified type '{kind}' but also has a mesh attribute. The "
                    "intended behavior is to compute the size of the shape from the mesh, but "
                    "this is not supported yet (#22372).",
                )
            error(
                node, f"geom {name} specified a 'mesh', but this is not allowed for type '{kind}'."
            )

        shape_type = measures = None  # (of a primitive shape)
        try:
            if kind == "plane":
                shape_type, measures = HalfSpace, ()
                compute_inertia = False
            elif kind == "sphere":
                if not size:
                    shape_type, measures = Sphere, (0.0,)
                    compute_inertia = False
                else:
                    shape_type, measures = Sphere, (size[0],)
            elif kind in ("capsule", "cylinder"):
                shape_type = Capsule if kind == "capsule" else Cylinder
                if length is not None:
                    if not size:
                        error(
                            node,
                            f"The size attribute for {kind} geom using fromto must have at "
                            "least one element.",
                        )
                    measures = (size[0], length)
                else:
                    if len(size) < 2:
                        error(
                            node,
                            f"The size attribute for {kind} geom must have at least two elements.",
                        )
                    measures = (size[0], 2 * size[1])
            elif kind in ("ellipsoid", "box"):
                if length is not None:
                    warning(
                        node,
                        f"The fromto tag for {kind} is currently unsupported; geom {name} will "
                        "be ignored.",
                    )
                    return geom
                if len(size) < 3:
                    error(
                        node,
                        f"The size attribute for {kind} geom must have at least three elements.",
                    )
                if kind == "box":
                    shape_type, measures = Box, (2.0 * size[0], 2.0 * size[1], 2.0 * size[2])
                else:
                    shape_type, measures = Ellipsoid, (size[0], size[1], size[2])
            elif kind == "mesh":
                if mesh is None:
                    error(
                        node,
                        f"geom {name} specified type 'mesh', but did not set the mesh attribute",
                    )
                if mesh not in self.meshes:
                    warning(node, f"geom {name} specified unknown mesh {mesh} and will be ignored")
                    return geom
                path, scale = self.meshes[mesh]
                geom.shape = Mesh(path, scale)
            elif kind == "hfield":
                warning(
                    node,
                    f"The geom type '{kind}' is currently unsupported and will be ignored.",
                )
                return geom
            else:
                error(node, f"Unrecognized geom type {kind}")
            if shape_type is not None:
                geom.shape = (
                    self.primitive(shape_type, measures) if self.make_shapes
                    else self.checked(shape_type, measures)
                )  # fmt: skip
        except (RuntimeError, ValueError) as e:
            if str(e).startswith(f"{node.file}:"):
                raise
            error(node, str(e))
        self._look(node, geom, kind, size)
        if not attrib.keys().isdisjoint(_UNSUPPORTED):
            for attribute in _UNSUPPORTED:
                warn_unsupported_attribute(self.diagnostics, node, attribute)
        if compute_inertia:
            key = None if shape_type is None else (shape_type, measures)
            geom.M_GBo_B = self._inertia(node, geom, mesh, key)
        return geom

    def primitive(self, shape_type, measures):
        """shape_type(*measures), made once per document (models repeat their limbs' shapes;
        a zero measure, which may be -0.0, is not looked up). Measures (floats) all finite
        and positive, which the constructor would accept, are given to a new shape as its
        pickled state (without the constructor's binding of its overloads)."""
        key = (shape_type, measures)
        shape = self.shapes.get(key)
        if shape is None:
            if _acceptable(measures):
                shape = _new(shape_type)
                shape.__setstate__(measures)
                self.shapes[key] = shape
            else:
                shape = shape_type(*measures)
                if 0.0 not in measures:
                    self.shapes[key] = shape
        return shape

    def checked(self, shape_type, measures):
        """UNMADE, for measures that shape_type(*measures) accepts (else its error)."""
        if not _acceptable(measures):
            shape_type(*measures)
        return UNMADE

    def _look(self, node, geom, kind, size):
        """Sets the geom's roles and appearance (_roles, _appearance), read once per set of
        their attributes' texts (see ``looks``)."""
        key = tuple(map(node.attrib.get, _LOOK_ATTRIBUTES))
        look = self.looks.get(key)
        if look is not None:
            geom.visual, geom.collision, geom.rgba, geom.friction = look
            if geom.collision and kind == "sphere" and not size:
                self._zero_sphere_warning(node, geom)
            return
        warnings = self.diagnostics.warnings
        self._roles(node, geom, kind, size)
        self._appearance(node, geom)
        if self.diagnostics.warnings == warnings:
            self.looks[key] = (geom.visual, geom.collision, geom.rgba, geom.friction)

    def _roles(self, node, geom, kind, size):
        diagnostics = self.diagnostics
        given = not node.attrib.keys().isdisjoint(_ROLE_ATTRIBUTES)  # (else: the defaults)
        contype, conaffinity, condim = (
            (_int(diagnostics, node, "contype", 1), _int(diagnostics, node, "conaffinity", 1),
             _int(diagnostics, node, "condim", 3)) if given else (1, 1, 3)
        )  # fmt: skip
        if contype == 0 and conaffinity == 0:
            geom.collision = False
        elif contype != 1 or conaffinity != 1:
            diagnostics.warning(
                node,
                f"geom {geom.name} specified contype={contype} and conaffinity={conaffinity}; "
                "but collision filter groups are not yet implemented for the mujoco parser.",
            )
        if condim != 3:
            diagnostics.warning(
                node,
                f"geom {geom.name} specified condim={condim}, which is not supported. condim=3 "
                "will be used instead.",
            )
        if geom.collision and kind == "sphere" and not size:
            self._zero_sphere_warning(node, geom)
        if given and _int(diagnostics, node, "group", 0) > 2:
            geom.visual = False

    def _zero_sphere_warning(self, node, geom):
        self.diagnostics.warning(
            node,
            "Using zero-radius spheres (MuJoCo's default geometry) for collision geometry may "
            "not be supported by all features in Drake. Consider specifying a non-zero size "
            f"for geom {geom.name}.",
        )

    def _appearance(self, node, geom):
        if node.attrib.keys().isdisjoint(_APPEARANCE_ATTRIBUTES):
            return  # (the defaults)
        diagnostics = self.diagnostics
        material = node.get("material")
        if material is not None:
            if material in self.materials:
                rgba = parse_vector(self.materials[material], "rgba", 4)
                if rgba is not None:
                    geom.rgba = self._rgba(self.materials[material], rgba)
            else:
                diagnostics.warning(
                    node, f"geom {geom.name} specified an unrecognized material {material}"
                )
        rgba = parse_vector(node, "rgba", 4)
        if rgba is not None:
            geom.rgba = self._rgba(node, rgba)
        friction = convert_to_doubles(node.get("friction", ""))
        if friction:
            geom.friction = checked_friction(diagnostics, node, friction[0], friction[0])
            if any(x != 0.0 for x in friction[1:3]):
                diagnostics.warning(
                    node,
                    "The torsional and rolling friction specified in the friction attribute of "
                    f"{node.tag} are unsupported and will be ignored.",
                )

    def _rgba(self, node, rgba):
        try:
            Rgba(*rgba.tolist())
        except RuntimeError as e:
            self.diagnostics.error(node, str(e))
        return tuple(rgba.tolist())

    def _inertia(self, node, geom, mesh, key):
        """M_GBo_B: the geom's mass (``mass``, or ``density`` (1000) times its volume) spread
        uniformly through its shape, about the body origin Bo, in the body frame B, as
        (mass, p_BoGcm_B, G_GBo_B rows) in floats (SpatialInertia's ReExpress and Shift,
        element by element; (mass, None, None) for a checked mass that is not positive, which
        composite_inertia leaves out). ``key``: (shape type, measures) of a primitive shape,
        else None (a mesh)."""
        volume, p, G, p_rows = self._unit_density_inertia(node, geom, mesh, key)
        mass = parse_scalar(node, "mass", self.diagnostics)
        if mass is None:
            density = parse_scalar(node, "density", self.diagnostics)
            mass = volume * (1000.0 if density is None else density)
        if (key, mass) not in self.valid:  # (a valid (shape, mass) is valid again)
            report = _validity_error(mass, p, None, G, p_rows)
            if report is not None:
                self.diagnostics.error(
                    node,
                    f"geom {geom.name} Spatial inertia fails SpatialInertia::IsPhysicallyValid()."
                    f"\n{report}",
                )
            if key is not None:
                self.valid.add((key, mass))
        if not mass > 0:  # (massless: composite_inertia leaves it out)
            return mass, None, None
        R = geom.R_BG
        if R is not None and R == _IDENTITY:  # (re-expressing in one frame changes no value)
            R = None
        oriented_key = None if key is None else (key, None if R is None else _pack9(*R))
        oriented = self.oriented.get(oriented_key)
        if oriented is None:
            if R is not None:
                p, G = _reexpress(R, p, G)
            oriented = (p, G, point_mass_rows(*p))
            if key is not None:
                self.oriented[oriented_key] = oriented
        p, G, p_rows = oriented  # (p_GoGcm_B, G_GGo_B, pm(p_GoGcm_B))
        return (mass, *shifted_to_origin(p, G, p_rows, geom.p_BoGo_B))

    def _unit_density_inertia(self, node, geom, mesh, key):
        """(volume, p_GoGcm_G, G_GGo_G rows, pm(p_GoGcm_G) rows) of the geom's shape, in
        floats, made once per shape (``key``: see _inertia; a mesh's by its name). (Shared:
        never changed.)"""
        if key is None:
            inertia = self.mesh_inertia.get(mesh)
            if inertia is None:
                M = self._mesh_inertia(node, geom.shape, mesh)
                p = tuple(M.get_com().tolist())
                G = _rows(_moments(M.get_unit_inertia().CopyToFullMatrix3()))
                inertia = (float(M.get_mass()), p, G, point_mass_rows(*p))
                self.mesh_inertia[mesh] = inertia
            return inertia
        inertia = self.unit_inertia.get(key)
        if inertia is None:
            shape_type, measures = key
            if 0.0 in measures:  # (a zero radius sphere: CalcSpatialInertia's error; made
                CalcSpatialInertia(shape_type(*measures), 1.0)  # here: geom.shape may not be)
            volume, moments = unit_density_inertia(shape_type, measures)
            inertia = self.unit_inertia[key] = (volume, _ORIGIN, _rows(moments), _ORIGIN_ROWS)
        return inertia

    def _mesh_inertia(self, node, mesh_shape, mesh):
        """The unit-density spatial inertia of a mesh, or of its convex hull (with Drake's
        warning) when the mesh does not enclose a valid solid."""
        try:
            M = CalcSpatialInertia(mesh_shape, 1.0)
            if M.IsPhysicallyValid():
                return M
        except ValueError:
            pass
        hull = Convex(mesh_shape.filename(), mesh_shape.scale3())
        try:
            M = CalcSpatialInertia(hull, 1.0)
        except (ValueError, RuntimeError, ImportError) as e:
            self.diagnostics.error(
                node,
                "Failed to compute spatial inertia even for the convex hull of "
                f"{mesh_shape.filename()}.\n{e}",
            )
        self.diagnostics.warning(
            node,
            "CalcSpatialInertia() failed to compute a physically valid inertia for mesh "
            f"{mesh} (probably the mesh is not watertight). The spatial inertia was computed "
            "using its convex hull as a fallback.",
        )
        return M


def shifted_to_origin(p, G, p_rows, p_BoGo):
    """(p_BoGcm, G_GBo rows) of a unit inertia G_GGo (rows) with its center of mass at ``p``
    (p_GoGcm; ``p_rows`` its point_mass_rows), all in B, shifted to Bo with ``p_BoGo``:
    p_BoGcm = p_GoGcm + p_BoGo, G += pm(p_BoGcm) - pm(p_GoGcm), in floats (also of arrays of
    many, and compiled: the MJCF fast path's _mjcf_inertias and _mjcf_kernels)."""
    x, y, z = p
    bx, by, bz = p_BoGo
    q = (x + bx, y + by, z + bz)
    (g0, g1, g2), (g3, g4, g5), (g6, g7, g8) = G
    (b0, b1, b2), (b3, b4, b5), (b6, b7, b8) = p_rows
    (a0, a1, a2), (a3, a4, a5), (a6, a7, a8) = point_mass_rows(*q)
    G = (
        (g0 - b0 + a0, g1 - b1 + a1, g2 - b2 + a2),
        (g3 - b3 + a3, g4 - b4 + a4, g5 - b5 + a5),
        (g6 - b6 + a6, g7 - b7 + a7, g8 - b8 + a8),
    )
    return q, G


def _moments(G):
    return tuple(G[[0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]].tolist())


def _rows(moments):
    """The rows (nested tuples) of the symmetric 3x3 of ``moments`` (xx, yy, zz, xy, xz, yz)."""
    xx, yy, zz, xy, xz, yz = moments
    return ((xx, xy, xz), (xy, yy, yz), (xz, yz, zz))


def _reexpress(R, p, G):
    """(R·p, R·G·Rᵀ symmetrized) for R (its rows as 9 floats), G 3x3 (nested tuples) and p 3
    floats: the arithmetic of SpatialInertia.ReExpress, written out in floats (also of
    arrays of many, and compiled: the MJCF fast path's _mjcf_inertias and _mjcf_kernels)."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = R
    (g0, g1, g2), (g3, g4, g5), (g6, g7, g8) = G
    x, y, z = p
    p = (r0 * x + r1 * y + r2 * z, r3 * x + r4 * y + r5 * z, r6 * x + r7 * y + r8 * z)
    # A = R·G, row by row
    a0, a1, a2 = (
        r0 * g0 + r1 * g3 + r2 * g6,
        r0 * g1 + r1 * g4 + r2 * g7,
        r0 * g2 + r1 * g5 + r2 * g8,
    )
    a3, a4, a5 = (
        r3 * g0 + r4 * g3 + r5 * g6,
        r3 * g1 + r4 * g4 + r5 * g7,
        r3 * g2 + r4 * g5 + r5 * g8,
    )
    a6, a7, a8 = (
        r6 * g0 + r7 * g3 + r8 * g6,
        r6 * g1 + r7 * g4 + r8 * g7,
        r6 * g2 + r7 * g5 + r8 * g8,
    )
    # B = A·Rᵀ: B_ij = A_i · R_j
    b0, b1, b2 = (
        a0 * r0 + a1 * r1 + a2 * r2,
        a0 * r3 + a1 * r4 + a2 * r5,
        a0 * r6 + a1 * r7 + a2 * r8,
    )
    b3, b4, b5 = (
        a3 * r0 + a4 * r1 + a5 * r2,
        a3 * r3 + a4 * r4 + a5 * r5,
        a3 * r6 + a4 * r7 + a5 * r8,
    )
    b6, b7, b8 = (
        a6 * r0 + a7 * r1 + a8 * r2,
        a6 * r3 + a7 * r4 + a8 * r5,
        a6 * r6 + a7 * r7 + a8 * r8,
    )
    s1, s2, s5 = (b1 + b3) * 0.5, (b2 + b6) * 0.5, (b5 + b7) * 0.5
    return p, ((b0, s1, s2), (s1, b4, s5), (s2, s5, b8))


def composite_inertia(parts):
    """M_BBo_B of the (mass, p_BoScm_B, G_SBo_B rows) ``parts`` (each of positive mass), as
    SpatialInertia.Zero() += each part computes it."""
    m, total = 0.0, (0.0,) * 12
    for m2, p, ((h0, h1, h2), (h3, h4, h5), (h6, h7, h8)) in parts:
        m, total = composite_step(m, total, m2, (*p, h0, h1, h2, h3, h4, h5, h6, h7, h8))
    x, y, z, g0, g1, g2, g3, g4, g5, g6, g7, g8 = total
    G = np.array(((g0, g1, g2), (g3, g4, g5), (g6, g7, g8)))
    return SpatialInertia._make(m, np.array((x, y, z)), G)


def composite_step(m1, total, m2, part):
    """(m, the 12 numbers p_BoScm_B, G_SBo_B (rows)) of the composite of mass ``m1`` with
    ``total`` and a part of mass ``m2`` > 0 with ``part``: each (a·m1 + b·m2) / m, m = m1 + m2
    (SpatialInertia's +=), for floats or arrays of many bodies (the MJCF fast path's)."""
    m = m1 + m2
    return m, [(a * m1 + b * m2) / m for a, b in zip(total, part, strict=True)]


def warn_unsupported_attribute(diagnostics, node, attribute):
    """Drake's warning for a documented MJCF attribute that Drake ignores."""
    if node.get(attribute) is not None:
        diagnostics.warning(
            node,
            f"The attribute '{attribute}' found in a '{node.tag}' tag is currently unsupported "
            "and will be ignored.",
        )


def warn_unsupported_element(diagnostics, node, tag):
    """Drake's warning for a documented MJCF child element that Drake ignores."""
    child = node.find(tag)
    if child is not None:
        diagnostics.warning(
            child,
            f"The tag '{tag}' found as a child of '{node.tag}' is currently unsupported and will "
            "be ignored.",
        )


def mesh_assets(diagnostics, asset, meshdir, main_dir, meshes):
    """Adds the ``<mesh>`` assets of ``asset`` (defaults applied) to ``meshes`` (name ->
    (path, scale)): a relative file is found in ``meshdir`` (relative to the main file's
    directory ``main_dir`` unless absolute), or in ``main_dir``. Only .obj files."""
    for node in asset.findall("mesh"):
        for attribute in ("smoothnormal", "maxhullvert", "vertex", "refpos", "refquat"):
            warn_unsupported_attribute(diagnostics, node, attribute)
        warn_unsupported_element(diagnostics, node, "plugin")
        file = node.get("file")
        if file is None:
            name = node.get("name", "")
            diagnostics.warning(
                asset,
                f"The mesh asset named {name} did not specify a 'file' attribute and so will be "
                "ignored.",
            )
            continue
        name = node.get("name", os.path.splitext(os.path.basename(file))[0])
        scale = parse_vector(node, "scale", 3)
        scale = np.ones(3) if scale is None else scale
        path = file
        if not os.path.isabs(path):
            if meshdir is not None:
                path = os.path.join(meshdir if os.path.isabs(meshdir) else
                                    os.path.join(main_dir, meshdir), path)  # fmt: skip
            else:
                path = os.path.join(main_dir, path)
        path = os.path.realpath(path)
        if not os.path.exists(path):
            diagnostics.error(node, f'The mesh asset "{path}" could not be found.')
        if os.path.splitext(path)[1].lower() != ".obj":
            diagnostics.error(
                node,
                "Drake's MuJoCo parser currently only supports mesh files in .obj format, but "
                f'the meshfile "{path}" was requested. See '
                "https://drake.mit.edu/troubleshooting.html for additional resources.",
            )
        meshes[name] = (path, scale)
