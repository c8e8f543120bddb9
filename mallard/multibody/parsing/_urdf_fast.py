"""The URDF reader's fast path, for large documents (:data:`MIN_BYTES`) and a plant without a
SceneGraph: the document read by the compiled scan (_xml_scan) into arrays, its links' and
joints' numbers gathered as columns and given to the reader's own math (_urdf_inertia.
inertia_rows, _urdf_joints.joint_columns), its bodies and joints added in bulk by the reader's
own steps (_urdf._UrdfParser: _add_bodies_in_rows, checked_at_once, add_joints_at_once), and
the few elements read one by one (materials, transmissions, mimics, the joints it warns of, a
link without a row) read by the reader's functions through :class:`ScanView`s: the plant the
reader makes, to the bit, with its warnings (text, file, line, order).

A process's first large document is the reader's (_scan_gate): the scan is loaded from the
second on, so that a process that parses one model does not load numba for it.

It declines (``parse`` returns None; the Parser rolls the plant back and the reader reads the
document, giving Drake's located messages) a document the scan does not read, a root with
``version``, root elements it does not read (``drake:joint``, ``loop_joint``, ``frame``,
``drake:`` force elements and constraints), links with ``drake_ignore``, names missing or
empty, joints other than the fixed, revolute, continuous and prismatic ``<joint>``s that
joint_columns reads (with ``drake_ignore``, a zero axis, reversed limits...), numbers not plain,
and any error. Visual and collision elements, ``<gazebo>`` and other unknown elements are
ignored, as the reader ignores them without a SceneGraph. Links named "world", repeated or
with ``type``, and joints to World, are added one by one by the reader's steps (parse_link,
add_joints_one_by_one), as the reader adds them."""

from itertools import repeat

import numpy as np

from mallard.multibody.parsing._diagnostics import Diagnostics
from mallard.multibody.parsing._scan_gate import scan_wanted
from mallard.multibody.parsing._urdf import WORLD, _UrdfParser
from mallard.multibody.parsing._urdf_geometry import parse_material
from mallard.multibody.parsing._urdf_inertia import inertia_rows
from mallard.multibody.parsing._urdf_joints import _TYPES, joint_columns
from mallard.multibody.parsing._xml import ElementQueries

#: Documents of fewer bytes go to the reader: the scan's first use in a process costs numba's
#: import and code generator (~0.4 s, docs/performance_history.md), paid only where it pays:
#: a document of tens of links (the 200-link chain of issue 24: 70 kB; PR2, TALOS: 110-130 kB),
#: not the models of ``mallard simulate`` (≤ 2 kB) nor the tests' (≤ 10 kB).
MIN_BYTES = 32 * 1024

#: The tags and attribute names the scan gives ids (others: -1): those the fast path reads,
#: and the children of a ``<transmission>`` (a ScanView's tag is then its id's name).
TAGS = (
    "robot", "link", "joint", "inertial", "origin", "mass", "inertia", "parent", "child",
    "axis", "limit", "dynamics", "mimic", "calibration", "safety_controller", "material",
    "transmission", "actuator", "type", "mechanicalReduction",
)  # fmt: skip
#: The root's children the fast path declines (the reader reads them; it reads all others,
#: or ignores them as the reader does without a SceneGraph): tags without an id.
_DECLINED = frozenset((
    "drake:joint", "loop_joint", "frame", "drake:linear_bushing_rpy",
    "drake:linear_spring_damper", "drake:ball_constraint", "drake:tendon_constraint",
))  # fmt: skip
#: The first letters of the declined tags (a root child's tag of another is not one).
_INITIALS = np.zeros(256, bool)
_INITIALS[[ord(tag[0]) for tag in _DECLINED]] = True
ATTRIBUTES = (
    "name", "type", "xyz", "rpy", "value", "ixx", "iyy", "izz", "ixy", "ixz", "iyz", "link",
    "lower", "upper", "velocity", "drake:acceleration", "effort", "damping", "friction",
    "coulomb_window", "drake_ignore", "version",
)  # fmt: skip
_T = {tag: k for k, tag in enumerate(TAGS)}
_A = {name: k for k, name in enumerate(ATTRIBUTES)}
#: The attributes and children read of a kind of element, in the order the readers read them.
_LINK = [_A[name] for name in ("drake_ignore", "type", "name")]
_ORIGIN = [_A[name] for name in ("xyz", "rpy")]
_MOMENTS = [_A[name] for name in ATTRIBUTES[5:11]]
_JOINT = [_A[name] for name in ("drake_ignore", "name", "type")]
_ENDS = [_T[tag] for tag in ("parent", "child")]
_KIDS = [
    _T[tag] for tag in ("origin", "axis", "limit", "dynamics", "calibration", "safety_controller")
]
_LIMITS = [_A[name] for name in ATTRIBUTES[12:17]]
_DYNAMICS = [_A[name] for name in ("damping", "friction", "coulomb_window")]
_INERTIAL = [_T[tag] for tag in ("origin", "mass", "inertia")]
#: The numbers of each of a link's columns read at once (origin xyz, rpy, mass, moments) and
#: a joint's (origin xyz, axis xyz, origin rpy, limits, damping, friction).
_INERTIAL_COUNTS = (3, 3, 1, 1, 1, 1, 1, 1, 1)
_JOINT_COUNTS = (3, 3, 3, 1, 1, 1, 1, 1, 1, 1)
_tables = None  # (the scan's name tables, made at the first read)


class Declined(Exception):
    """The fast path does not read the document (the reader will)."""


class ScanView(ElementQueries):
    """An element of a read document (``scan``: an _xml_scan.Scan; ``element``: its row) as
    the reader's functions read an ElementView: ``tag``, ``attrib``, ``children`` (both read
    at the first use), ``text`` (Declined where it holds markup or a carriage return),
    ``file``, ``line``. (Made often: its tag is the scan's name of its id, or read from the
    text for a tag without one; ``attrib`` and ``children`` are kept in slots, not by
    functools.cached_property, which takes a lock per read before Python 3.12.)"""

    __slots__ = ("_scan", "_element", "file", "tag", "_attrib", "_children")

    def __init__(self, scan, element, file, tag=-1):
        """``tag``: the element's tag id, if known (-1: looked up)."""
        self._scan, self._element, self.file = scan, element, file
        if tag < 0:
            tag = scan.elements[element, 0]
        self.tag = scan.tags[-1][tag] if tag >= 0 else scan.tag(element)
        self._attrib = self._children = None

    @property
    def attrib(self):
        attrib = self._attrib
        if attrib is None:
            attrib = self._attrib = self._scan.attrib(self._element)
        return attrib

    @property
    def children(self):
        children = self._children
        if children is None:
            scan, file = self._scan, self.file
            rows = scan.children_of(self._element)
            children = self._children = list(
                map(ScanView, repeat(scan), rows.tolist(), repeat(file),
                    scan.elements[rows, 0].tolist())
            )  # fmt: skip
        return children

    @property
    def text(self):
        content = self._scan.content(self._element)
        if b"<" in content or b"\r" in content:
            raise Declined
        return content.decode().strip() or None

    @property
    def line(self):
        return self._scan.line(self._element)


class _Deferred(Diagnostics):
    """The fast path's diagnostics: its warnings kept, given by the workspace's once the
    document is read (a declined document's are the reader's to give); with strict parsing,
    a warning declines (the reader's error)."""

    def __init__(self, strict):
        super().__init__(strict)
        self.kept = []

    def warning(self, element, message, file=None, line=None):
        if self.strict:
            raise Declined
        if element is not None:
            file, line = element.file, element.line
        self.kept.append((message, file, line))


class _ScanParser(_UrdfParser):
    """The reader's steps on ScanViews (its views already)."""

    def views(self, elements):
        return list(elements)


def parse(workspace, data, file):
    """[the ModelInstanceIndex] of the URDF document ``data`` (str or bytes; ``file`` names it
    in messages) added to the workspace's plant, or None where the fast path declines (the
    plant may have been changed: the caller rolls it back) or leaves the document to the
    reader (a small one, one with a SceneGraph, the process's first large ones: _scan_gate)."""
    global _tables
    if workspace.geometries is not None or len(data) < MIN_BYTES:
        return None
    if not scan_wanted():
        return None
    from mallard.multibody.parsing import _xml_scan  # (numba: imported here)

    if _tables is None:
        _tables = (
            (*_xml_scan.name_table(TAGS), TAGS),
            (*_xml_scan.name_table(ATTRIBUTES), ATTRIBUTES),
        )
    text = data.encode() if isinstance(data, str) else data
    scan = _xml_scan.Scan(text, *_tables)
    if scan.status != _xml_scan.OK:
        return None
    diagnostics = workspace.diagnostics
    workspace.diagnostics = deferred = _Deferred(diagnostics.strict)
    try:
        with np.errstate(all="ignore"):  # (what overflows is declined, or the reader's inf too)
            instance = _parse(workspace, scan, file)
    except Exception:  # (Declined, or an error: the reader's, with its message)
        return None
    finally:
        workspace.diagnostics = diagnostics
    for message, file, line in deferred.kept:
        diagnostics.warning(None, message, file, line)
    return [instance]


def _strings(scan, rows):
    """The values of the attribute rows ``rows`` ((n, m)) as m lists of n, declined if one is
    absent or empty (decoded at once)."""
    n = len(rows)
    values = scan.strings(rows.T.reshape(-1))
    if values is None:
        raise Declined
    return [values[j : j + n] for j in range(0, len(values), n)] if n else [[]] * rows.shape[1]


def _numbers(scan, rows, counts, absent):
    """The numbers of the attribute rows ``rows`` ((n, m)), counts[j] of each of column j, as
    (n, sum(counts)), ``absent`` where -1; declined if one is not plain decimal numbers."""
    values = scan.numbers(rows, counts, absent)
    if values is None:
        raise Declined
    return values


def _parse(workspace, scan, file):
    """The model instance of the document ``scan`` added to the workspace's plant."""
    from mallard.multibody.parsing._xml_scan import OFFSET  # (imported by parse)

    elements = scan.elements
    if elements[0, 0] != _T["robot"] or scan.attribute(0, _A["version"]) >= 0:
        raise Declined
    root = ScanView(scan, 0, file)
    first = scan.first[0]  # (the root's first child of each tag id)
    children = np.flatnonzero(elements[:, 1] == 0)
    tags = elements[children, 0]
    others = children[tags < 0]  # (tags without an id: declined, or ignored as <gazebo>)
    others = others[_INITIALS[scan.buffer[elements[others, OFFSET] + 1]]].tolist()
    if others and not _DECLINED.isdisjoint(map(scan.tag, others)):
        raise Declined
    parser = _ScanParser(workspace, root)
    name = root.get("name")
    if name is None:
        raise Declined
    plant = workspace.plant
    instance = parser.model_instance = plant.AddModelInstance(workspace.model_name(name))
    materials = {}
    if first[_T["material"]] >= 0:
        for node in children[tags == _T["material"]].tolist():
            parse_material(workspace, ScanView(scan, node, file), True, materials)
    _add_links(parser, scan, file, instance, materials, children[tags == _T["link"]])
    effort_limits, transmissions = {}, first[_T["transmission"]] >= 0
    if first[_T["joint"]] >= 0:
        joints = children[tags == _T["joint"]]
        effort_limits = _add_joints(parser, scan, file, joints, transmissions)
    if transmissions:
        for node in children[tags == _T["transmission"]].tolist():
            parser.parse_transmission(ScanView(scan, node, file), effort_limits)
    return instance


def _add_links(parser, scan, file, instance, materials, links):
    """The bodies of the root's ``<link>``s ``links`` (rows), as the reader adds them (in rows
    where inertia_rows reads them, else by its add_links_at_once or parse_link)."""
    attribute, child = scan.attribute, scan.child
    ignored, typed, names = attribute(links, _LINK).T
    if (ignored >= 0).any():
        raise Declined
    (names,) = _strings(scan, names[:, None])
    # ("world", a name repeated or a type warned of: each link by the reader's steps)
    one_by_one = (typed >= 0).any() or WORLD in names or len(set(names)) != len(names)
    inertial = child(links, _T["inertial"])
    origin, mass, inertia = child(inertial, _INERTIAL).T
    value = attribute(mass, _A["value"])
    found = np.flatnonzero((inertial >= 0) & (inertia >= 0) & (value >= 0))
    # (each found link's origin xyz, rpy, its mass and moments: 0 where absent)
    origins, moments = attribute(origin[found], _ORIGIN), attribute(inertia[found], _MOMENTS)
    rows = np.concatenate((origins, value[found, None], moments), axis=1)
    numbers = _numbers(scan, rows, _INERTIAL_COUNTS, 0.0)
    rotated = np.flatnonzero(rows[:, 1] >= 0)
    inertias = inertia_rows(
        len(links), found.tolist(), numbers[:, :3], numbers[:, 6:], rotated.tolist(),
        numbers[rotated, 3:6],
    )  # fmt: skip
    if None not in inertias and not one_by_one:
        bodies = parser.plant._add_bodies_in_rows(names, instance, inertias)
        parser.bodies.update(zip(names, bodies, strict=True))
    else:
        views = [ScanView(scan, link, file) for link in links.tolist()]
        if not parser.add_links_at_once(views, inertias, materials):
            for node, row in zip(views, inertias, strict=True):
                parser.parse_link(node, materials, row)
    parser.add_pending()


def _add_joints(parser, scan, file, joints, transmissions):
    """Adds the root's ``<joint>``s ``joints`` (rows) as the reader's add_joints adds those
    joint_values reads, then reads their ``<mimic>``s; returns their effort limits by name
    (for the document's ``transmissions``, if it has: else those of the joints added one by
    one only)."""
    attribute, child = scan.attribute, scan.child
    ignored, names, types = attribute(joints, _JOINT).T
    if (ignored >= 0).any():
        raise Declined
    ends = child(joints, _ENDS)
    if (ends < 0).any():
        raise Declined
    names, types, parents, children = _strings(
        scan, np.concatenate((names[:, None], types[:, None], attribute(ends, _A["link"])), 1)
    )
    if not set(types) <= set(_TYPES):
        raise Declined
    n = len(joints)
    fixed = np.fromiter(map("fixed".__eq__, types), bool, n)
    kids = child(joints, _KIDS)  # (origin, axis, limit, dynamics, calibration, safety_controller)
    limit, dynamics = kids[:, 2], kids[:, 3]
    limit[fixed] = dynamics[fixed] = -1  # (a fixed joint's are not read)
    damping, friction, window = attribute(dynamics, _DYNAMICS).T
    # (each joint's origin xyz, its axis's xyz, origin rpy, limits, damping and friction: NaN
    # where absent)
    xyz, rpy = attribute(kids[:, 0], _ORIGIN).T
    axes = attribute(kids[:, 1], _A["xyz"])
    vector_rows, friction_rows = np.stack((xyz, axes, rpy), 1), np.stack((damping, friction), 1)
    rows = np.concatenate((vector_rows, attribute(limit, _LIMITS), friction_rows), axis=1)
    numbers = _numbers(scan, rows, _JOINT_COUNTS, np.nan)
    vectors = numbers[:, :6]
    vectors[xyz < 0, :3] = 0.0
    vectors[(axes < 0) | fixed, 3:] = (1.0, 0.0, 0.0)  # (the default axis; a fixed joint's)
    rotated = np.flatnonzero(rpy >= 0)
    angles = numbers[rotated, 6:9]
    limits = numbers[:, 9:14]
    damped = np.flatnonzero(dynamics >= 0)
    frictions = numbers[damped, 14:16]
    warned = (kids[:, 4] >= 0) | (kids[:, 5] >= 0) | (window >= 0)
    read, ok, warned = joint_columns(
        np.flatnonzero(fixed).tolist(), set(np.flatnonzero(warned).tolist()), vectors, limits,
        rotated.tolist(), angles, damped.tolist(), frictions,
    )  # fmt: skip
    if not ok.all():
        raise Declined
    columns = [names, parents, children, *read]  # (joint_values' columns)
    checked = parser.checked_at_once(columns)
    mimics = child(joints, _T["mimic"])
    if checked is not None:
        for k in warned:
            parser.warn_read(ScanView(scan, int(joints[k]), file))
        parser.add_joints_at_once(types, columns, *checked)
        effort_limits = dict(zip(columns[0], columns[6], strict=True)) if transmissions else {}
        mimics = [
            (ScanView(scan, int(joints[k]), file), ScanView(scan, int(mimics[k]), file))
            for k in np.flatnonzero(mimics >= 0).tolist()
        ]
    else:  # (a joint to World, or one add_joints_one_by_one adds by the plant's methods)
        views = [ScanView(scan, joint, file) for joint in joints.tolist()]
        mimics = [None if k < 0 else ScanView(scan, k, file) for k in mimics.tolist()]
        effort_limits = {}
        values = list(zip(*columns, strict=True))
        mimics = parser.add_joints_one_by_one(views, values, warned, mimics, effort_limits)
    parser.add_pending()
    for joint, mimic in mimics:
        parser.parse_mimic(joint, mimic)
    return effort_limits
