"""The MJCF reader's fast path: a document read into tables (by the compiled XML scan from
MIN_BYTES: _mjcf_scan; else by expat: _mjcf_tables), its ``<default>``s resolved once per class
(_mjcf_defaults), its bulk kinds read by columns (_mjcf_columns), its numbers, frames and
inertias computed over whole element kinds (_mjcf_frames, _mjcf_inertias) by the element
reader's own scalar functions called with arrays, and its elements made in bulk and added in
Drake's order (_mjcf_registration): the plant the element reader (_mujoco) makes, to the bit,
with its warnings (text, file, line, order).

It reads a subset of MJCF (_mjcf_tables' whitelist) without a SceneGraph; it declines (``parse``
returns None) anything else and any error: the Parser then rolls the plant back and the
element reader reads the document, and gives Drake's located messages."""

import math
import re
from itertools import repeat
from operator import itemgetter

import numpy as np

from mallard.math import RigidTransform
from mallard.multibody.parsing._mjcf_assets import assets
from mallard.multibody.parsing._mjcf_defaults import Defaults
from mallard.multibody.parsing._mjcf_equality import add_equalities
from mallard.multibody.parsing._mjcf_frames import (
    Declining,
    Node,
    Recording,
    numbers,
    poses,
)
from mallard.multibody.parsing._mjcf_inertias import (
    body_rows,
    geom_checks,
    geom_inertias,
    inertial_rows,
)
from mallard.multibody.parsing._mjcf_registration import (
    add_actuators,
    add_elements,
    transform,
)
from mallard.multibody.parsing._mjcf_tables import CHILDREN, Declined, Tables
from mallard.multibody.parsing._mjcf_warnings import (
    actuator_key,
    geom_key,
    joint_key,
    unsupported,
    warnings,
)
from mallard.multibody.parsing._mujoco_geometry import Frames, GeomParser
from mallard.multibody.parsing._scan_gate import scan_wanted
from mallard.multibody.tree._joint_axis import EPSILON
from mallard.multibody.tree._rotational_inertia import fmt

_DEGREE = math.pi / 180.0
_JOINT_TYPES = frozenset(("hinge", "slide", "ball", "free"))
_SINGLE = ("hinge", "slide")
_LIMITED = frozenset((None, "true", "false", "auto"))
#: Documents of fewer bodies go to the element reader: the fast path's numpy work costs
#: ~0.5–1 ms a document whatever its size (the benchmark's robot, fast path / reader in one
#: process, 03:14, load 5: 1.28 at 12 bodies, 1.17 at 16, 1.02 at 18, 0.99 at 20, 0.97 at 24;
#: V3's first version: 1.04–1.09 at 16, 0.96–1.05 at 20).
MIN_BODIES = 20
#: The tags the fast path declines wherever they are (so that a document with them, as most
#: real models, costs no read into expat's tables; other declines are found in the tables),
#: counted before such a read with bodies and includes.
_DECLINED = ("tendon", "sensor", "keyframe", "visual", "statistic", "extension", "deformable",
             "custom", "camera", "frame", "replicate", "composite", "flexcomp", "plugin",
             "attach")  # fmt: skip
_SCAN = f"<(body|include|{'|'.join(_DECLINED)})[\\s/>]"
_SCANS = {str: (re.compile(_SCAN), "body", "include", "<include"),
          bytes: (re.compile(_SCAN.encode()), b"body", b"include", b"<include")}  # fmt: skip
#: Those of them the compiled scan's tables hold (the whitelist's: CHILDREN; the others decline
#: its tables).
_HELD_DECLINED = frozenset(_DECLINED).intersection(set().union(*CHILDREN.values()))
#: Bytes from which a document is read by the compiled scan (_mjcf_scan), as the URDF fast
#: path's gate: below it expat's tables cost less than loading numba at a first parse.
MIN_BYTES = 32 * 1024
_FLAGS = frozenset(("true", "false", "auto"))
_REVERSED = "lower limit > upper limit; these limits will be ignored."
_ASYMMETRIC = (
    "lower limit != -upper limit. Asymmetrical effort limits are not supported yet, so the "
    "larger of the values {} will be used."
)
_LOOK = ("contype", "conaffinity", "condim", "group", "material", "rgba", "friction")
_MATERIAL = _LOOK.index("material")
#: Whether the reader's GeomParser._look warns of each look without a material that it read
#: without error (a function of its texts alone), at most _MAX_WARNS (then read anew).
_WARNS, _MAX_WARNS = {}, 1024


def parse(workspace, data, file):
    """[the ModelInstanceIndex] of the MJCF document ``data`` (str or bytes; ``file`` names it
    in messages) added to the workspace's plant, or None where the fast path declines (the
    plant may have been changed: the caller rolls it back)."""
    if workspace.geometries is not None:  # (a SceneGraph: the element reader's)
        return None
    try:
        with np.errstate(all="ignore"):  # (what overflows is the reader's inf too, or declined)
            tables = _read(data, file)
            return None if tables is None else [_parse(workspace, tables, file)]
    except Exception:  # (Declined, or an error: the element reader's, with its message)
        return None


class Plan:
    """The bodies and joints of a document in Drake's order, as columns; a place: an
    element's position among those of its kind the document adds. Bodies: ``names`` (the
    chained joints' massless bodies among them), ``inertia_rows``, ``frame_slots`` (their
    body frames' places among the frames). Revolute, prismatic and ball joints, in their
    order: ``ks`` (their joints in the document), ``parents`` and ``children`` (bodies'
    places, -1: World), ``joint_frame_slots`` (the place of each joint's frame on the
    parent; on the child: the next), ``joint_slots``, ``owned`` and ``owners`` (those whose
    X_PC is their MJCF body's X_PB, by their position here, and those MJCF bodies; the others'
    is the identity), ``frame_names`` (each one's two frames'). ``joint_names``: every
    document joint's (None: a free one's). Welds: ``welds`` ((joint place, parent place,
    child place, MJCF body) each), ``weld_names``; floating bodies: ``free`` ((place, MJCF
    body) each). ``num_frames``, ``num_joints``: the frames' and joints' count. The MJCF
    bodies' poses in their parents: rows R_PB (n, 9), p_PB (n, 3)."""

    def __init__(self, body_names, given_joint_names, joint_counts, freejointed, parent_body,
                 free_bodies, first_number, rows, R_PB, p_PB):  # fmt: skip
        """The plan of the MJCF bodies of names ``body_names`` and joints of names
        ``given_joint_names`` (None: not given; by body, in document order),
        ``joint_counts``: each body's joints' count, ``freejointed``: the bodies of a
        ``<freejoint>``, ``parent_body``: each body's
        parent's (-1: World; parents first), ``free_bodies``: those of a free joint (its
        only one), ``first_number``: the plant's body count (an unnamed body's number),
        ``rows``: the bodies' inertia rows. Declined where AddRigidBody, AddFrame or
        AddJoint would raise (a name empty or taken)."""
        self.R_PB, self.p_PB = R_PB, p_PB
        self._parent_body = parent_body
        self._X_WB = {}
        names, frame_slots, place_of, massless_places, free_ks = [], [], [], [], []
        ks, parents, children, joint_frame_slots, joint_slots = [], [], [], [], []
        owned, owners, welds, weld_names, floating = [], [], [], [], []
        joint_names = list(given_joint_names)  # (a free joint's: None, below)
        f = j = k = 0  # (the next frame's and joint's places; the body's first joint)
        for b, (name, count, at) in enumerate(
            zip(body_names, joint_counts, parent_body, strict=True)
        ):
            last = place_of[at] if at >= 0 else -1
            place = len(names)
            place_of.append(place)
            if name is None:
                name = f"body{first_number + place}"
            names.append(name)
            frame_slots.append(f)
            f += 1
            if b in free_bodies:
                floating.append((place, b))
                free_ks.append(k)
                k += 1
                continue
            if not count:
                if b in freejointed:
                    floating.append((place, b))
                else:
                    weld_names.append(f"{'world' if last < 0 else names[last]}_welds_to_{name}")
                    welds.append((j, last, place, b))
                    j += 1
                continue
            if count > 1:
                for n in range(1, count):  # (chained: a massless child)
                    child = len(names)
                    names.append(f"{name}{n - 1}")
                    massless_places.append(child)
                    frame_slots.append(f)
                    if joint_names[k] is None:
                        joint_names[k] = f"{'world' if last < 0 else names[last]}-{names[child]}"
                    ks.append(k)
                    parents.append(last)
                    children.append(child)
                    joint_frame_slots.append(f + 1)
                    joint_slots.append(j)
                    last, k, f, j = child, k + 1, f + 3, j + 1
            if joint_names[k] is None:
                joint_names[k] = f"{'world' if last < 0 else names[last]}-{name}"
            owned.append(len(ks))
            owners.append(b)
            ks.append(k)
            parents.append(last)
            children.append(place)
            joint_frame_slots.append(f)
            joint_slots.append(j)
            k, f, j = k + 1, f + 2, j + 1
        for k in free_ks:
            joint_names[k] = None
        inertia_rows = list(zip(repeat(rows), range(len(body_names))))
        if massless_places:  # (in increasing places: each inserted where it stays)
            massless = np.zeros((1, 13))
            massless.flags.writeable = False
            massless_row = (massless, 0)
            for place in massless_places:
                inertia_rows.insert(place, massless_row)
        frame_names = [None] * (2 * len(ks))
        moving_names = [joint_names[k] for k in ks]
        if ks:  # (each kind of name made by one join and split: no NUL in XML)
            frame_names[0::2] = ("_parent\0".join(moving_names) + "_parent").split("\0")
            frame_names[1::2] = ("_child\0".join(moving_names) + "_child").split("\0")
        frames, joints = set(names), set(moving_names)
        frames.update(frame_names)
        joints.update(weld_names)
        if (
            "" in frames
            or "" in joints
            or len(frames) != len(names) + len(frame_names)
            or len(joints) != len(moving_names) + len(weld_names)
        ):
            raise Declined  # (AddRigidBody's, AddFrame's or AddJoint's error)
        self.names, self.inertia_rows, self.frame_slots = names, inertia_rows, frame_slots
        self.ks, self.parents, self.children = ks, parents, children
        self.joint_frame_slots, self.joint_slots = joint_frame_slots, joint_slots
        self.owned, self.owners, self.frame_names = owned, owners, frame_names
        self.joint_names, self.welds, self.weld_names = joint_names, welds, weld_names
        self.free, self.num_frames, self.num_joints = floating, f, j

    def X_WB(self, b):
        """X_WB of MJCF body ``b``: X_WP·X_PB down from World, as the element reader's
        _WorldPose computes it."""
        chain = []
        while b >= 0 and b not in self._X_WB:
            chain.append(b)
            b = self._parent_body[b]
        X_WP = RigidTransform() if b < 0 else self._X_WB[b]
        for b in reversed(chain):
            X_WP = self._X_WB[b] = X_WP @ transform(self.R_PB[b], self.p_PB[b])
        return X_WP


def _compiler(tables, frames):
    """Sets ``frames``' angle unit and Euler sequence from the ``<compiler>`` (at most one);
    returns (whether inertias are computed from the geoms even where a body has an
    ``<inertial>``, the mesh directory or None: meshdir, else assetdir). Declined for what
    the fast path does not read (autolimits other than true, inertiafromgeom other than auto
    or true)."""
    from_geoms, meshdir = False, None
    compilers = tables.kinds.get("compiler", ())
    if len(compilers) > 1:
        raise Declined
    for i in compilers:
        a = tables.attrs[i]
        angle = a.get("angle")
        if angle not in (None, "radian", "degree"):
            raise Declined
        if angle is not None:
            frames.degree = angle == "degree"
        if a.get("autolimits", "true") != "true":
            raise Declined
        if a.get("inertiafromgeom", "auto") not in ("auto", "true"):
            raise Declined
        from_geoms = a.get("inertiafromgeom") == "true"
        eulerseq = a.get("eulerseq")
        if eulerseq is not None:
            if len(eulerseq) != 3 or any(c not in "xyzXYZ" for c in eulerseq):
                raise Declined
            frames.eulerseq = eulerseq
        meshdir = a.get("meshdir", a.get("assetdir"))
    return from_geoms, meshdir


def _read(data, file):
    """The tables of the document ``data``, or None where the fast path declines it (a
    declined tag, fewer than MIN_BODIES bodies): the compiled scan's (_mjcf_scan) for a
    document of at least MIN_BYTES without includes that it reads (not the process's first
    such ones: _scan_gate; its tags then counted in the tables: a declined document is
    scanned, ~0.3 ms of the reader's ~30), else expat's (_mjcf_tables) once the tags are
    counted (one pass in C: ~2% of a read)."""
    pattern, body, include, include_tag = _SCANS[type(data)]
    if len(data) >= MIN_BYTES and include_tag not in data and scan_wanted():
        from mallard.multibody.parsing import _mjcf_scan  # (numba: for a large document)

        tables = _mjcf_scan.read(data, file)  # (Declined for a tag it gives no id)
        if tables is not None:
            kinds = tables.kinds
            if _HELD_DECLINED.isdisjoint(kinds) and len(kinds.get("body", ())) >= MIN_BODIES:
                return tables
            return None
    tags = pattern.findall(data)
    bodies, includes = tags.count(body), tags.count(include)
    if bodies + includes != len(tags) or (bodies < MIN_BODIES and not includes):
        return None  # (a declined tag, or few bodies; with includes, counted once read)
    tables = Tables(data, file, includes > 0)
    if includes and len(tables.kinds.get("body", ())) < MIN_BODIES:
        return None
    return tables


def _parse(workspace, tables, file):
    plant = workspace.plant
    tables.check()
    tags, attrs, parents, kinds = tables.tags, tables.attrs, tables.parents, tables.kinds
    frames = Frames(Declining())
    from_geoms, meshdir = _compiler(tables, frames)
    name = attrs[0].get("model")
    if name is None:
        raise Declined
    model_name = workspace.model_name(name)
    if plant.HasModelInstanceNamed(model_name):
        raise Declined
    defaults = Defaults(tables)
    materials, meshes = assets(tables, defaults, meshdir)

    # ---- bodies and what they hold
    bodies = kinds.get("body", [])
    ordinal = {b: k for k, b in enumerate(bodies)}
    body_columns = tables.columns("body", bodies)
    body_names = body_columns.texts("name")
    child_class = {}
    for b, given in zip(bodies, body_columns.texts("childclass"), strict=True):
        child_class[b] = child_class.get(parents[b], "") if given is None else given
    joints, joint_bodies = _held(kinds, "joint", parents, ordinal)
    geoms, owners = _held(kinds, "geom", parents, ordinal)
    inertial, inertial_bodies = _held(kinds, "inertial", parents, ordinal)
    freejoint_bodies = _held(kinds, "freejoint", parents, ordinal)[1]
    freejointed, with_inertial = set(freejoint_bodies), set(inertial_bodies)
    if len(with_inertial) < len(inertial) or len(freejointed) < len(freejoint_bodies):
        raise Declined  # (two in a body)
    if from_geoms:  # (the inertials not read)
        inertial, inertial_bodies, with_inertial = [], [], set()
    joint_counts = [0] * len(bodies)
    for b in joint_bodies:
        joint_counts[b] += 1

    # ---- joints
    joint_columns = tables.columns(
        "joint", joints, defaults, [child_class[parents[j]] or "main" for j in joints]
    )
    given_joint_names = joint_columns.texts("name")
    types = joint_columns.texts("type", "hinge")
    axis, refs, p_CJ, damping, armature, value_rows = joint_columns.table((
        ("axis", 3, "0 0 1"), ("ref", 1, "0"), ("pos", 3, None), ("damping", 1, "0"),
        ("armature", 1, "0"), ("range", 2, None),
    ))  # fmt: skip
    p_CJ[np.isnan(p_CJ)] = 0.0  # (NaN only where absent)
    squares = axis * axis  # (the sums of squares left to right, as the reader's)
    norm = np.sqrt((squares[:, 0] + squares[:, 1]) + squares[:, 2])
    if not ((norm > 0) & np.isfinite(norm)).all():
        raise Declined  # (the reader's zero axis)
    unit = axis / norm[:, None]  # (the reader's, then unit_axis' again)
    if not (np.abs(unit).max(axis=1, initial=0.0) > EPSILON).all():
        raise Declined
    squares = unit * unit
    axes = list(unit / np.sqrt((squares[:, 0] + squares[:, 1]) + squares[:, 2])[:, None])
    if frames.degree:
        refs[[k for k, kind in enumerate(types) if kind == "hinge"]] *= _DEGREE
    has_pos = joint_columns.has("pos").tolist()
    if not (damping >= 0).all():
        raise Declined
    limited = joint_columns.texts("limited")
    if not (_JOINT_TYPES.issuperset(types) and _LIMITED.issuperset(limited)):
        raise Declined
    ranged = joint_columns.has("range").tolist()
    on = [  # (limited: true, or auto (none given) with a range)
        k for k, (given, r) in enumerate(zip(limited, ranged, strict=True))
        if given == "true" or (r and given != "false")
    ]  # fmt: skip
    more = [  # (warnings of the joints and actuators: (key, element, message) each)
        ((*joint_key(parents, joints[k]), -1), joints[k], unsupported("range", "joint"))
        for k in on
        if ranged[k] and types[k] == "ball"
    ]  # (a free joint's limits ignored, as the reader ignores them)
    bounded = [k for k in on if types[k] in _SINGLE]
    limits = np.empty((len(joints), 6))
    limits[:] = (-math.inf, math.inf) * 3
    if bounded:
        bounds = value_rows[bounded]
        bounds[np.isnan(bounds)] = 0.0  # (limited without a range: [0, 0])
        if frames.degree:
            bounds[[m for m, k in enumerate(bounded) if types[k] == "hinge"]] *= _DEGREE
        if not (bounds[:, 0] <= bounds[:, 1]).all():
            raise Declined
        limits[bounded, :2] = bounds
    limits.flags.writeable = False

    # ---- frames (of the bodies, geoms but fromto's, inertials: each orientation kind at
    # once); inertias: an <inertial>'s, else the composite of the body's geoms
    geom_columns = tables.columns(
        "geom", geoms, defaults, [child_class[parents[g]] or "main" for g in geoms]
    )
    meshed, codes = geom_checks(geom_columns)
    looks = GeomParser(Declining(), frames, materials, meshes, make_shapes=False)
    more += _look_warnings(
        lambda: GeomParser(Recording(), frames, materials, meshes, make_shapes=False),
        geoms, geom_columns, parents,
    )  # fmt: skip
    inertial_columns = tables.columns("inertial", inertial)
    solid, solid_columns = range(len(geoms)), geom_columns
    if meshed:
        solid = sorted(set(solid).difference(meshed))
        solid_columns, codes = geom_columns.take(solid), codes[solid]
    placed = np.flatnonzero(~solid_columns.has("fromto"))
    framed = body_columns.joined((body_columns, solid_columns.take(placed), inertial_columns))
    compiled = not isinstance(tables, Tables)  # (numba loaded: the compiled scan's tables)
    R, p = poses(framed, frames, compiled)
    nb, ng = len(bodies), len(placed)
    R_PB, p_PB = R[:nb], p[:nb]
    G_B, p_BGcm, mass = geom_inertias(
        solid_columns, codes, placed, R[nb : nb + ng], p[nb : nb + ng], compiled
    )
    if meshed:  # (element by element, by the reader's GeomParser.parse: a rare kind)
        G_B, p_BGcm, mass = _with_meshes(
            looks, geom_columns, solid, meshed, (G_B, p_BGcm, mass),
            [owners[k] not in with_inertial for k in meshed],
        )  # fmt: skip
    weighed = [g for g, b in enumerate(owners) if b not in with_inertial]
    at = np.array(weighed, dtype=np.intp)  # (made once: a list is converted each use)
    rows = body_rows(
        len(bodies), [owners[g] for g in weighed], G_B[at], p_BGcm[at], mass[at], compiled
    )
    rows[inertial_bodies] = inertial_rows(inertial_columns, R[nb + ng :], p[nb + ng :], compiled)
    rows.flags.writeable = False

    # ---- the plan: bodies and joints in Drake's order, their names
    armatured = np.flatnonzero(joint_columns.has("armature")).tolist()
    free = [k for k, kind in enumerate(types) if kind == "free"]
    free_bodies = set()
    if free:  # (a free joint a body's only joint, undamped)
        if not (damping[free] == 0.0).all():
            raise Declined
        free_bodies = {joint_bodies[k] for k in free}
        if any(joint_counts[b] > 1 for b in free_bodies):
            raise Declined
    plan = Plan(
        body_names, given_joint_names, joint_counts, freejointed,
        [ordinal.get(parents[b], -1) for b in bodies], free_bodies, plant.num_bodies(), rows,
        R_PB, p_PB,
    )  # fmt: skip
    joint_names = plan.joint_names

    # ---- actuators: motors, then positions (of each <actuator> in turn where several)
    by_tag = [[i for i in kinds.get(tag, ()) if tags[parents[i]] == "actuator"]
              for tag in ("motor", "position")]  # fmt: skip
    actuators = by_tag[0] + by_tag[1]
    parts = [tables.columns(tag, mine, defaults, ["main"] * len(mine))
             for tag, mine in zip(("motor", "position"), by_tag, strict=True) if mine]  # fmt: skip
    actuator_columns = type(parts[0]).joined(parts) if parts else tables.columns("motor", [])
    if len(kinds.get("actuator", ())) > 1:
        order = sorted(
            range(len(actuators)),
            key=lambda k: (parents[actuators[k]], k >= len(by_tag[0]), actuators[k]),
        )
        actuators = [actuators[k] for k in order]
        actuator_columns = actuator_columns.take(order)
    actuator_names = actuator_columns.texts("name")
    specs = (("ctrlrange", 2, None), ("forcerange", 2, None), ("kp", 1, "1"), ("kd", 1, "0"))
    try:  # (gears of one number each, as usual: in the same gather)
        *ranges, gears = actuator_columns.table((*specs, ("gear", 1, None)))
        ratios = np.where(actuator_columns.has("gear"), gears, 1.0).tolist()
    except Declined:  # (a gear of six numbers; or a text declined again below)
        ranges = actuator_columns.table(specs)
        ratios = _gear_ratios(actuator_columns.texts("gear"))
    effort_limits = np.full(len(actuators), math.inf)
    first_actuator, after = plant.num_actuators(), len(tags)
    held_names = actuator_columns.names
    for order, (range_name, limited_name) in enumerate(
        (("ctrlrange", "ctrllimited"), ("forcerange", "forcelimited"))
    ):
        if held_names.isdisjoint((range_name, limited_name)):
            continue  # (no actuator limited by this range)
        effort_limits, range_warnings = _effort_limits(
            actuator_columns, ranges[order], effort_limits, range_name, limited_name
        )
        for place, message in range_warnings:
            name = actuator_names[place]
            if name is None:
                name = f"motor{first_actuator + place}"
            more.append((
                (*actuator_key(after, place), order - 2), actuators[place],
                f"The motor '{name}' specified a {range_name} attribute where {message}",
            ))  # fmt: skip
    positions = [k for k, i in enumerate(actuators) if tags[i] == "position"]
    kp, kd = ranges[2][positions].tolist(), ranges[3][positions].tolist()  # (a motor has none)
    gains = dict(zip(positions, zip(kp, kd, strict=True), strict=True))  # (place: (kp, kd))

    # ---- <option>: gravity
    options = kinds.get("option", ())
    if len(options) > 1:
        raise Declined
    gravity = [numbers([attrs[i]["gravity"]], 3)[0] for i in options if "gravity" in attrs[i]]

    # ---- Drake's warnings, in the reader's order
    warned = warnings(tables, (bodies, body_columns), (geoms, geom_columns),
                      (joints, joint_columns), (actuators, actuator_columns), more)  # fmt: skip
    diagnostics = workspace.diagnostics
    if warned and diagnostics.strict:
        raise Declined

    # ---- the plant
    instance = plant.AddModelInstance(model_name)
    moving = add_elements(
        plant, instance, plan, (types, axes, limits, damping, p_CJ, has_pos, refs.tolist(), unit)
    )
    given = armature[armatured].tolist()
    armatures = dict(zip([joint_names[k] for k in armatured], given, strict=True))  # (by name)
    add_actuators(
        plant, (actuator_names, actuator_columns.texts("joint")), moving, armatures, ratios,
        effort_limits.tolist(), gains,
    )  # fmt: skip
    if gravity:  # (undone if the Parser's call fails: the reader's undo)
        field = plant.mutable_gravity_field()
        previous = field.gravity_vector()
        workspace.undo.append(lambda: field.set_gravity_vector(previous))
        field.set_gravity_vector(gravity[0])
    warned += add_equalities(tables, defaults, plant, instance)  # (the reader's last)
    if warned and diagnostics.strict:
        raise Declined
    lines = tables.lines([at for at, _ in warned])
    for (at, message), line in zip(warned, lines, strict=True):
        diagnostics.warning(None, message, file=tables.files.get(at, file), line=line)
    return instance


def _held(kinds, tag, parents, ordinal):
    """(the elements of ``tag`` that bodies hold, by body (their places: ``ordinal``), each
    body's in document order; their bodies' places)."""
    mine = kinds.get(tag, [])
    bodies = list(map(ordinal.get, map(parents.__getitem__, mine)))
    if None in bodies:  # (some not a body's: World's, a default's)
        kept = [k for k, b in enumerate(bodies) if b is not None]
        mine, bodies = [mine[k] for k in kept], [bodies[k] for k in kept]
    if bodies != sorted(bodies):  # (one after a nested body: by body, stable)
        order = sorted(range(len(bodies)), key=bodies.__getitem__)
        mine, bodies = [mine[k] for k in order], [bodies[k] for k in order]
    return mine, bodies


def _with_meshes(looks, geoms, solid, meshed, solid_inertias, weighed):
    """(G_GBo_B rows (n, 9), p_BoGcm_B (n, 3), mass (n,)) of all the geoms of Columns
    ``geoms``: those at places ``solid`` given (``solid_inertias``: geom_inertias'), the
    meshes (places ``meshed``) read by the reader's GeomParser ``looks``, their inertias
    where ``weighed`` (their bodies' composites; else only checked, as the reader does)."""
    n = len(geoms)
    G_B, p_BGcm, mass = np.zeros((n, 9)), np.zeros((n, 3)), np.zeros(n)
    G_B[solid], p_BGcm[solid], mass[solid] = solid_inertias
    for k, compute_inertia in zip(meshed, weighed, strict=True):
        M_GBo_B = looks.parse(Node(geoms.attrib(k)), 0, compute_inertia).M_GBo_B
        if M_GBo_B is not None:
            mass[k], p, G = M_GBo_B
            if p is not None:  # (else massless: left out of the composite)
                p_BGcm[k], G_B[k] = p, [g for row in G for g in row]
    return G_B, p_BGcm, mass


def _look_warnings(make_checker, geoms, geom_columns, parents):
    """The warnings of the looks (roles, appearance) of ``geoms`` (their Columns
    ``geom_columns``), each keyed (its body, the geoms' phase, itself, -1, its place): each
    distinct look checked once by the reader's ``_look`` (of the GeomParser ``make_checker()``
    makes when first needed, whose diagnostics record warnings: Recording; a look without a
    material once per process: _WARNS), those that warn again geom by geom (their messages
    name the geom)."""
    looks = geom_columns.looks(_LOOK)
    warning, checker = set(), None
    for look in set(looks):
        warns = _WARNS.get(look) if look[_MATERIAL] is None else None
        if warns is None:
            if checker is None:
                checker = make_checker()
            a = {k: v for k, v in zip(_LOOK, look, strict=True) if v is not None}
            checker.diagnostics.messages = []
            checker._look(_node(a), _Geom(), "box", [1.0])  # (an error: Declined)
            warns = bool(checker.diagnostics.messages)
            if look[_MATERIAL] is None:
                if len(_WARNS) >= _MAX_WARNS:
                    _WARNS.clear()
                _WARNS[look] = warns
        if warns:
            warning.add(look)
    out = []
    if not warning:
        return out
    if checker is None:
        checker = make_checker()
    diagnostics = checker.diagnostics
    index, owner = 0, None
    for k, (g, look) in enumerate(zip(geoms, looks, strict=True)):
        index = index + 1 if parents[g] == owner else 0  # (the geom's place in its body)
        owner = parents[g]
        if look in warning:
            a = geom_columns.attrib(k)
            geom = _Geom()
            geom.name = a.get("name", f"geom{index}")
            diagnostics.messages = []
            checker._look(_node(a), geom, "box", [1.0])
            key = (*geom_key(parents, g), -1)
            out += [((*key, n), g, m) for n, m in enumerate(diagnostics.messages)]
    return out


def _node(a):
    """A Node of a geom's attribute dict ``a`` (its tag in the reader's messages)."""
    node = Node(a)
    node.tag = "geom"
    return node


class _Geom:
    """What GeomParser._look sets (roles and appearance) of one look."""

    name = "geom"
    visual = collision = True
    rgba = (0.5, 0.5, 0.5, 1.0)
    friction = (1.0, 1.0)


def _effort_limits(columns, values, limits, range_name, limited_name):
    """The effort ``limits`` (an array) of the actuators of Columns ``columns``, each the
    smaller of its limit and the larger magnitude of its range ``range_name`` (``values``: its
    rows, NaN where absent) where limited (its flag ``limited_name``), as the element reader's
    effort_limit (max, min and the comparisons exact: the same floats at once); and its
    warnings: [(place, Drake's message's end)] (a range reversed: ignored; not symmetric)."""
    flags = columns.texts(limited_name, "auto")
    given = set(flags)
    if not _FLAGS.issuperset(given):
        raise Declined
    ranged = columns.has(range_name)  # (auto: limited where a range is given)
    limited = ranged.copy()
    for flag in given.difference(("auto",)):
        limited[[k for k, f in enumerate(flags) if f == flag]] = flag == "true"
    lower, upper = np.where(ranged[:, None], values, 0.0).T
    larger = np.maximum(upper, -lower)
    ignored = limited & (lower > upper)
    taken = limited & ~ignored
    out = np.where(taken, np.minimum(limits, larger), limits)
    warned = [(k, _REVERSED) for k in np.flatnonzero(ignored).tolist()]
    for k in np.flatnonzero(taken & (-lower != upper)).tolist():
        warned.append((k, _ASYMMETRIC.format(fmt(larger[k].item()))))
    warned.sort(key=itemgetter(0))
    return out, warned


def _gear_ratios(gears):
    """The gear ratio of each gear text of ``gears`` (1 or 6 plain numbers: the first; None:
    1.0)."""
    given = [k for k, text in enumerate(gears) if text is not None]
    texts = [gears[k] for k in given]
    counts = [len(text.split()) for text in texts]
    ratios = [1.0] * len(gears)
    for count in (1, 6):
        ks = [k for k, n in enumerate(counts) if n == count]
        for k, values in zip(ks, numbers([texts[k] for k in ks], count).tolist(), strict=True):
            ratios[given[k]] = values if count == 1 else values[0]
    if not set(counts).issubset((1, 6)):
        raise Declined
    return ratios
