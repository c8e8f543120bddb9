"""Numbers and frames of whole element kinds for the MJCF fast path (_mjcf_fast): each
attribute kind's texts read in one call, and each orientation kind's rotations over all its
elements at once by the element reader's own scalar functions called with arrays (its bits:
numpy's elementwise + − × ÷ sqrt round as floats do; cosines and sines by math's, of all
kinds in one call), quaternions (quat, euler) rotated in one call, or element by element
through its Frames.rows where a kind has few elements."""

import math

import numpy as np

from mallard.common._angle_axis import cos_sin_axis_rows
from mallard.common._quaternion_rotation import quaternion_rotation
from mallard.math._rotation_matrix import ORTHONORMALITY_TOLERANCE
from mallard.multibody.parsing._mjcf_tables import ORIENTATIONS, Declined
from mallard.multibody.parsing._mujoco_geometry import (
    _AXIS_INDEX,
    euler_quaternion,
    xyaxes_columns,
)
from mallard.multibody.parsing._plain_numbers import plain_numbers

IDENTITY_ROW = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
#: Below this many elements, an orientation kind is computed element by element in floats:
#: the arrays' fixed cost exceeds the work below ~30 quat or axisangle, ~24 euler, ~10 xyaxes
#: elements (2026-11-28, load 5); other kinds _FEW_OTHERS.
FEW = {"xyaxes": 8}
_FEW_OTHERS = 24
#: The numbers of each orientation attribute.
_COUNTS = {"quat": 4, "axisangle": 4, "euler": 3, "xyaxes": 6, "zaxis": 3}
_DEGREE = math.pi / 180.0


class Node:
    """An element as the element reader's functions read it (its attributes; no place: the
    fast path gives no messages, it declines)."""

    __slots__ = ("attrib", "file", "line", "tag")

    def __init__(self, attrib):
        self.attrib, self.file, self.line, self.tag = attrib, None, None, "element"

    def get(self, name, default=None):
        return self.attrib.get(name, default)

    def find(self, tag):  # (no children: the fast path declines an element's unread ones)
        return None


class Declining:
    """Diagnostics for the element reader's functions called by the fast path: an error or
    a warning declines the document."""

    strict = True
    warnings = 0

    def error(self, *args, **kwargs):
        raise Declined

    warning = error


class Recording(Declining):
    """Diagnostics for the element reader's functions called by the fast path: an error
    declines the document, warnings are recorded (``messages``)."""

    strict = False

    def __init__(self):
        self.messages = []

    def warning(self, node, message, *args, **kwargs):
        self.messages.append(message)
        self.warnings += 1


def numbers(texts, count):
    """The numbers of ``texts``, each ``count`` plain finite decimals: an (n, count) array, (n,)
    for one; Declined for any other text."""
    if not texts:
        return np.empty((0, count)) if count > 1 else np.empty(0)
    values = plain_numbers(texts, count)
    if values is None or not np.isfinite(values).all():
        raise Declined
    return values.reshape(-1, count) if count > 1 else values


def column(dicts, name, count, default):
    """numbers() of attribute ``name`` of each of ``dicts`` (the text ``default`` where
    absent)."""
    return numbers([a.get(name, default) for a in dicts], count)


def _cosines_sines(angles):
    """(cosines, sines) of ``angles`` (an array) by math's, in one call each."""
    values = angles.tolist()
    return (np.fromiter(map(math.cos, values), float, len(values)),
            np.fromiter(map(math.sin, values), float, len(values)))  # fmt: skip


def poses(framed, frames, compiled=False):
    """(the rows of R_PF (n, 9), p_PF (n, 3)) of each element of Columns ``framed``: of its
    orientation attribute (rotations; the identity where none) and its pos (0 where none);
    ``compiled``: the rotations by the kernel (_mjcf_kernels.mjcf_rotations; numba loaded),
    their numbers and the positions in one gather; else by numpy."""
    if not compiled:
        return rotations(framed, frames), framed.numbers("pos", 3, "0 0 0")
    from mallard._compiled import kernels
    from mallard.multibody.parsing import _mjcf_kernels as K

    by_kind, places = _orientations(framed)
    n = len(framed)
    codes = np.full(n, K.NONE, np.intp)
    for kind, code in (("quat", K.QUAT), ("axisangle", K.AXISANGLE), ("euler", K.EULER),
                       ("xyaxes", K.XYAXES)):  # fmt: skip
        codes[by_kind[kind]] = code
    quat, axisangle, euler, xyaxes, p = framed.table(
        [(kind, _COUNTS[kind], None) for kind in ("quat", "axisangle", "euler", "xyaxes")]
        + [("pos", 3, "0 0 0")]
    )
    sequence = frames.eulerseq
    axes = np.array([_AXIS_INDEX[axis] for axis in sequence], np.intp)
    moving = np.array([axis.islower() for axis in sequence])
    R = np.empty((n, 9))
    status = kernels(np.float64).mjcf_rotations(
        codes, quat, axisangle, euler, xyaxes, frames.degree, axes, moving, R
    )
    if status != K.DONE:
        raise Declined
    for k in places["zaxis"].tolist():  # (rare: two_vector_rows, cached)
        R[k] = frames.rows(Node(framed.attrib(k)), "zaxis")
    return R, p


def _orientations(framed):
    """({kind: whether each element of Columns ``framed`` has it}, {kind: their places}) of
    the orientation kinds; Declined for an element of several (the reader's error)."""
    by_kind = {kind: framed.has(kind) for kind in sorted(ORIENTATIONS)}
    if (sum(by_kind.values()) > 1).any():  # (the reader's error)
        raise Declined
    return by_kind, {kind: np.flatnonzero(present) for kind, present in by_kind.items()}


def rotations(framed, frames):
    """The rows of R_PF (n, 9) of the orientation attribute of each element of Columns
    ``framed`` (the identity where none), as the element reader's ``frames`` (a Frames)
    computes them, by numpy over each kind."""
    _, places = _orientations(framed)
    R = np.empty((len(framed), 9))
    R[:] = IDENTITY_ROW
    many = [kind for kind, ks in places.items()
            if kind != "zaxis" and len(ks) >= FEW.get(kind, _FEW_OTHERS)]  # fmt: skip
    columns = framed.table([(kind, _COUNTS[kind], None) for kind in many])
    quaternions = []  # (each kind's places and quaternions: one rotation of them all)
    turns = {}  # (euler's halves and axisangle's angles: their cosines and sines at once)
    for kind, ks in places.items():
        if kind not in many:
            for k in ks.tolist():
                R[k] = frames.rows(Node(framed.attrib(k)), kind)
            continue
        values = columns[many.index(kind)][ks].T
        if kind == "quat":
            quaternions.append((ks, values))
        elif kind == "xyaxes":
            R[ks] = np.stack(_xyaxes_rows(*values), axis=1)
        else:
            angles = values[:3] if kind == "euler" else values[3:]
            if frames.degree:
                angles = angles * _DEGREE
            turns[kind] = (ks, values, angles / 2.0 if kind == "euler" else angles)
    if turns:
        cosines, sines = _cosines_sines(np.concatenate([a.ravel() for _, _, a in turns.values()]))
        at = 0
        for kind, (ks, values, angles) in turns.items():
            c, s = (x[at : at + angles.size].reshape(angles.shape) for x in (cosines, sines))
            at += angles.size
            if kind == "euler":
                quaternions.append((ks, euler_quaternion(c, s, frames.eulerseq)))
                continue
            x, y, z = values[:3]
            norm = np.sqrt(x * x + y * y + z * z)
            if not (norm > 0).all():
                raise Declined
            R[ks] = np.stack(cos_sin_axis_rows(c[0], s[0], x / norm, y / norm, z / norm), axis=1)
    if quaternions:
        ks = np.concatenate([ks for ks, _ in quaternions])
        w, x, y, z = np.concatenate([q for _, q in quaternions], axis=1)
        squared_norm = w * w + x * x + y * y + z * z
        if not (squared_norm > 0).all():
            raise Declined
        R[ks] = np.stack(quaternion_rotation(w, x, y, z, 2.0 / squared_norm), axis=1)
    return R


def _normalized(x, y, z):
    """(x, y, z) / |(x, y, z)|, arrays (Frames.xyaxes_rows' _normalized for nonzero norms)."""
    norm = np.sqrt(x * x + y * y + z * z)
    if not (norm > 0).all():
        raise Declined
    return x / norm, y / norm, z / norm


def _xyaxes_rows(x0, x1, x2, y0, y1, y2):
    """Frames.xyaxes_rows of arrays: Declined where it fails (an axis too small or along the
    other, a result not a rotation matrix, with a margin: the check's matmul is a stack's)."""
    for a, b, c in ((x0, x1, x2), (y0, y1, y2)):
        if not (np.sqrt(a * a + b * b + c * c) >= 1e-12).all():
            raise Declined
    rows = xyaxes_columns(x0, x1, x2, y0, y1, y2, _normalized)
    R = np.stack(rows, axis=1).reshape(-1, 3, 3)
    error = np.abs(R @ R.transpose(0, 2, 1) - np.eye(3)).max(initial=0.0)
    if not (error <= ORTHONORMALITY_TOLERANCE / 2 and (np.linalg.det(R) > 0).all()):
        raise Declined
    return rows
