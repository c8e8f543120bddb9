"""The URDF parser, after Drake's (detail_urdf_parser.cc): the same elements, Drake's
extensions, the same order of elements in the plant, the same names and the same messages.

A document makes one model instance, named after the robot. Elements are added in Drake's
order: links (bodies), joints (with a FixedOffsetFrame "{joint}_parent" on the parent body,
and "{joint}_child" for planar joints), transmissions (actuators), frames, force elements,
constraints (``drake:ball_constraint``, ``drake:tendon_constraint``). Joint mimic elements are
checked as Drake checks them and become coupler constraints.
Geometry is parsed only when the Parser has a scene graph or the plant is a geometry source.
"""

import math
import operator
from itertools import repeat

import numpy as np

from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing._attributes import (
    convert_to_doubles,
    origin_to_transform,
    parse_floats,
    parse_scalar,
    parse_vector,
)
from mallard.multibody.parsing._collision_filter_groups import parse_collision_filter_group
from mallard.multibody.parsing._common import (
    add_ball_constraint,
    add_linear_bushing,
    add_linear_spring_damper,
    add_tendon_constraint,
    parse_spatial_inertia,
)
from mallard.multibody.parsing._urdf_geometry import (
    parse_collision,
    parse_material,
    parse_visual,
    warn_unsupported_attribute,
    warn_unsupported_element,
)
from mallard.multibody.parsing._urdf_inertia import MIN_LINKS, spatial_inertias
from mallard.multibody.parsing._urdf_joints import (
    MIN_JOINTS,
    first_children,
    first_views,
    joint_values,
)
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    PdControllerGains,
    PlanarJoint,
    PrismaticJoint,
    RevoluteJoint,
    RigidBody,
    ScrewJoint,
    SpatialInertia,
    UniversalJoint,
    WeldJoint,
)
from mallard.multibody.tree._rotational_inertia import fmt

WORLD = "world"
_ATTRIB = operator.attrgetter("attrib")
_JOINT_TAGS = frozenset(("joint", "drake:joint"))
#: The tags of the root's children that the parser reads as Elements.
_ELEMENT_TAGS = _JOINT_TAGS | {"link"}
#: The joints' classes of the types joint_values reads.
_JOINT_CLASSES = {
    "revolute": RevoluteJoint,
    "continuous": RevoluteJoint,
    "prismatic": PrismaticJoint,
    "fixed": WeldJoint,
}
_INERTIA_ATTRIBUTES = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
#: limits' (lower, upper, velocity, acceleration, effort) of a joint without ``<limit>``.
_NO_LIMITS = (-math.inf, math.inf, math.inf, math.inf, math.inf)
#: X_PB of a joint without ``<origin>``: the identity, one for all (the frames
#: FixedOffsetFrame._adopting makes keep it; neither they nor the plant change it).
_UNMOVED = RigidTransform()


def parse(workspace, root, model_name=None):
    """Adds the robot of the URDF document ``root`` (its root ElementView: see _xml_view) to
    the workspace's plant; returns [its ModelInstanceIndex]. ``model_name`` overrides the
    robot's name."""
    return [_UrdfParser(workspace, root).parse(model_name)]


def closest_rotation_to_identity_from_unit_z(u):
    """Drake's RotationMatrix::MakeClosestRotationToIdentityFromUnitZ(u): the smallest
    rotation taking z to the unit vector ``u`` (an Eigen AngleAxis, element by element)."""
    axis = np.array([-u[1], u[0], 0.0])  # z × u
    axis_norm = math.sqrt(axis[0] * axis[0] + axis[1] * axis[1])
    n = np.array([1.0, 0.0, 0.0]) if axis_norm < 1e-10 else axis / axis_norm
    angle = math.atan2(axis_norm, u[2])
    s, c = math.sin(angle), math.cos(angle)
    sin_axis, cos1_axis = s * n, (1.0 - c) * n
    R = np.empty((3, 3))
    t = cos1_axis[0] * n[1]
    R[0, 1], R[1, 0] = t - sin_axis[2], t + sin_axis[2]
    t = cos1_axis[0] * n[2]
    R[0, 2], R[2, 0] = t + sin_axis[1], t - sin_axis[1]
    t = cos1_axis[1] * n[2]
    R[1, 2], R[2, 1] = t - sin_axis[0], t + sin_axis[0]
    for i in range(3):
        R[i, i] = cos1_axis[i] * n[i] + c
    return RotationMatrix(R)


class _UrdfParser:
    def __init__(self, workspace, root):
        self.workspace = workspace
        self.diagnostics = workspace.diagnostics
        self.plant = workspace.plant
        self.root = root
        self.model_instance = None
        self.bodies = {}  # link name -> the body this parser added for it
        # Bodies, joint frames and joints built and checked here, not yet in the plant: added
        # at once (plant._add_checked) before the plant is next asked about its elements.
        self.pending = ([], [], [])
        self.pending_frames = set()  # the names of the pending frames
        self.pending_joints = set()  # the names of the pending joints
        self.pending_ends = set()  # the pending joints' _ends
        self.view_of = None  # the root's children's Element -> its ElementView (views)

    def error(self, node, message):
        self.diagnostics.error(node, message)

    def warning(self, node, message):
        self.diagnostics.warning(node, message)

    def document_error(self, message):
        """An error about the document as a whole (Drake reports these at line 1)."""
        self.diagnostics.error(None, message, file=self.root.file, line=1)

    def scalar(self, node, name, default=None):
        return parse_scalar(node, name, self.diagnostics, default)

    # ---- the document ------------------------------------------------------------------------
    def parse(self, model_name):
        root = self.root
        if root.tag != "robot":
            self.document_error("URDF does not contain a robot tag.")
        if "version" in root.attrib:
            warn_unsupported_attribute(self.diagnostics, root, "version")
        name = model_name or root.get("name")
        if name is None:
            self.error(
                root,
                "Your robot must have a name attribute or a model name must be specified.",
            )
        plant = self.plant
        self.model_instance = plant.AddModelInstance(self.workspace.model_name(name))
        groups, children = self.workspace.memo(root, self.outline)
        materials = {}
        for node in children.get("material", ()):
            parse_material(self.workspace, node, True, materials)
        links = groups.get("link", [])
        if len(links) < MIN_LINKS:  # (spatial_inertias reads none: parse_link reads each)
            for node in self.views(links):
                self.parse_link(node, materials)
        else:
            inertias = spatial_inertias(links)
            if not self.add_links_at_once(links, inertias, materials):
                for node, inertia_row in zip(self.views(links), inertias, strict=True):
                    self.parse_link(node, materials, inertia_row)
        self.add_pending()
        if self.workspace.filter_groups is not None:
            for node in children.get("drake:collision_filter_group", ()):
                parse_collision_filter_group(self.workspace, node, self.model_instance)
        joints = groups.get("joint", [])
        if "drake:joint" in groups:  # (both tags, in document order)
            joints = [element for element in root.element if element.tag in _JOINT_TAGS]
        effort_limits = {}
        mimics = self.add_joints(joints, effort_limits)
        self.add_pending()
        for node, mimic in mimics:
            self.parse_mimic(node, mimic)
        if children:  # (the root's children other than links and joints)
            self.parse_others(groups, children, effort_limits)
        return self.model_instance

    def parse_others(self, groups, children, effort_limits):
        """The root's children other than links and joints, after them (``groups`` and
        ``children``: outline's; ``effort_limits``: the joints' by name), in Drake's order:
        transmissions, loop joints' error, frames, force elements, constraints."""
        root, plant = self.root, self.plant
        for node in children.get("transmission", ()):
            self.parse_transmission(node, effort_limits)
        if "loop_joint" in groups:
            self.error(root, "loop joints are not supported in MultibodyPlant")
        for node in children.get("frame", ()):
            self.parse_frame(node)
        for node in children.get("drake:linear_bushing_rpy", ()):
            add_linear_bushing(plant, self.vector_reader(node), self.frame_reader(node))
        for node in children.get("drake:linear_spring_damper", ()):
            add_linear_spring_damper(
                plant, self.vector_reader(node), self.body_reader(node), self.double_reader(node)
            )
        for node in children.get("drake:ball_constraint", ()):
            add_ball_constraint(plant, self.vector_reader(node), self.body_reader(node))
        for node in children.get("drake:tendon_constraint", ()):
            self.parse_tendon_constraint(node)

    def outline(self, root):
        """({tag: the root's children of that tag, in order, as Elements}, the same of the
        tags but the links' and joints' as ElementViews) (one pass; read only)."""
        groups = {}
        for element in root.element:
            groups.setdefault(element.tag, []).append(element)
        children = {}
        if not groups.keys() <= _ELEMENT_TAGS:
            children = {tag: self.views(groups[tag]) for tag in groups.keys() - _ELEMENT_TAGS}
        return groups, children

    def views(self, elements):
        """The ElementViews of ``elements``, children of the root (those of root.children:
        made at the first call, for all; the bulk readers read Elements)."""
        if self.view_of is None:
            self.view_of = {view.element: view for view in self.root.children}
        return list(map(self.view_of.__getitem__, elements))

    # ---- links -------------------------------------------------------------------------------
    def parse_link(self, node, materials, inertia_row=None):
        """A ``<link>``: its body (of the spatial inertia of ``inertia_row``, spatial_inertias'
        (rows, j), if given, else read from its ``<inertial>``) and geometry."""
        attrib = node.attrib
        if attrib.get("drake_ignore") == "true":
            return
        if "type" in attrib:
            warn_unsupported_attribute(self.diagnostics, node, "type")
        name = attrib.get("name")
        if name is None:
            self.error(node, "link tag is missing name attribute.")
        if name == WORLD:
            body = self.plant.world_body()
            if node.find("inertial") is not None:
                self.warning(
                    node,
                    'A URDF file declared the "world" link and then attempted to assign mass '
                    "properties (via the <inertial> tag). Only geometries, <collision> and "
                    "<visual>, can be assigned to the world link. The <inertial> tag is being "
                    "ignored.",
                )
        else:
            M_BBo_B = None
            if inertia_row is None:
                inertial = node.find("inertial")
                if inertial is not None:  # (the body copies it: a model added again shares it)
                    M_BBo_B = self.workspace.memo(inertial, self.parse_inertial)
                else:
                    M_BBo_B = SpatialInertia.Zero()
            body = self.bodies[name] = self.add_body(name, M_BBo_B, inertia_row)
        if self.workspace.geometries is not None:
            self.parse_geometry(node, body, name, materials)

    def add_links_at_once(self, links, inertias, materials):
        """Adds the bodies of all ``links`` (the root's ``<link>`` Elements) at once, pending,
        if nothing parse_link checks one by one: names present, distinct, not "world", no
        ``drake_ignore``; then their geometry. Each body is of its row of spatial_inertias
        (``inertias``: RigidBody._in_rows), or, where a link has none, of its ``<inertial>``
        read by parse_inertial or zero; parse_link's messages (a ``type`` attribute's warning,
        parse_inertial's, the geometry's) come link by link, in its order. Returns whether it
        did (else parse_link reads each); not for a document of no rows."""
        missing = inertias.count(None)
        if missing == len(links) or self.bodies or self.pending != ([], [], []):
            return False
        names, typed = [], False
        for attrib in map(_ATTRIB, links):
            if "drake_ignore" in attrib:
                return False
            if "type" in attrib:
                typed = True
            names.append(attrib.get("name"))
        if None in names or "" in names or WORLD in names or len(set(names)) != len(names):
            return False
        instance, geometries = self.model_instance, self.workspace.geometries
        if not missing and not typed:  # (no message before the geometry's: added now)
            bodies = self.plant._add_bodies_in_rows(names, instance, inertias)
            self.bodies.update(zip(names, bodies, strict=True))
            if geometries is not None:
                for node, body, name in zip(self.views(links), bodies, names, strict=True):
                    self.parse_geometry(node, body, name, materials)
            return True
        links = self.views(links)  # (messages name them)
        rowed = [k for k, row in enumerate(inertias) if row is not None]
        made = iter(
            RigidBody._in_rows([names[k] for k in rowed], instance, [inertias[k] for k in rowed])
        )
        bodies = []
        for node, name, row in zip(links, names, inertias, strict=True):
            if typed and "type" in node.attrib:
                warn_unsupported_attribute(self.diagnostics, node, "type")
            if row is not None:
                body = next(made)
            else:
                inertial = node.find("inertial")
                M_BBo_B = SpatialInertia.Zero()
                if inertial is not None:  # (the body keeps it: a model added again shares it)
                    M_BBo_B = self.workspace.memo(inertial, self.parse_inertial)
                body = RigidBody._adopting(name, instance, M_BBo_B)
            bodies.append(body)
            if geometries is not None:
                self.parse_geometry(node, body, name, materials)
        self.pending[0].extend(bodies)
        self.bodies.update(zip(names, bodies, strict=True))
        return True

    def parse_geometry(self, node, body, name, materials):
        """The ``<visual>`` and ``<collision>`` geometry of the link ``node`` (of ``body``,
        named ``name``), for the workspace's geometries."""
        geometries = self.workspace.geometries
        names = set()
        for visual in node.findall("visual"):
            record = parse_visual(self.workspace, body, name, visual, materials, names)
            if record is not None:
                geometries.append(record)
        names = set()
        for collision in node.findall("collision"):
            geometries.append(parse_collision(self.workspace, body, name, collision, names))

    def add_body(self, name, M_BBo_B, inertia_row=None):
        """plant.AddRigidBody(name, model_instance, M_BBo_B) (M_BBo_B that of
        ``inertia_row``, spatial_inertias' (rows, j), if given); added with the document's
        other links when nothing AddRigidBody checks can fail (a str name, new in the
        document's new model instance)."""
        if type(name) is str and name != "" and name not in self.bodies:
            if inertia_row is None:
                body = RigidBody._adopting(name, self.model_instance, M_BBo_B)
            else:
                body = RigidBody._in_row(name, self.model_instance, inertia_row)
            self.pending[0].append(body)
            return body
        self.add_pending()
        if inertia_row is not None:
            M_BBo_B = SpatialInertia._from_row(*inertia_row)
        return self.plant.AddRigidBody(name, self.model_instance, M_BBo_B)

    def add_pending(self):
        """Adds the pending bodies, frames and joints to the plant (in their order)."""
        bodies, frames, joints = self.pending
        if bodies or frames or joints:
            self.plant._add_checked(bodies, frames, joints)
            self.pending = ([], [], [])
            self.pending_frames.clear()
            self.pending_joints.clear()
            self.pending_ends.clear()

    def parse_inertial(self, node):
        """M_BBo_B of an ``<inertial>``: origin (the COM and inertia frame), mass, inertia."""
        origin = node.find("origin")
        X_BBi = origin_to_transform(origin) if origin is not None else RigidTransform()
        diagnostics = self.diagnostics
        mass_node = node.find("mass")
        mass = parse_scalar(mass_node, "value", diagnostics, 0.0) if mass_node is not None else 0.0
        inertia = node.find("inertia")
        values = [0.0] * 6
        if inertia is not None:
            values = [parse_scalar(inertia, n, diagnostics, 0.0) for n in _INERTIA_ATTRIBUTES]
        return parse_spatial_inertia(diagnostics, node, X_BBi, mass, values)

    def body_for_element(self, element_name, link_name):
        """The body of link ``link_name`` ("world": the world body); an error if none."""
        if link_name == WORLD:
            return self.plant.world_body()
        body = self.bodies.get(link_name)
        if body is not None:  # (the common case: one of the document's links)
            return body
        try:
            return self.plant.GetBodyByName(link_name, self.model_instance)
        except RuntimeError:  # (no such body)
            pass
        self.document_error(
            f"Could not find link named '{link_name}' with model instance ID "
            f"{int(self.model_instance)} for element '{element_name}'."
        )

    # ---- joints ------------------------------------------------------------------------------
    def joint_key_params(self, node, first):
        """(name, type, parent link, child link) of the joint ``node``, whose first child of
        each tag is the ElementView ``first[tag]``."""
        attrib = node.attrib
        name = attrib.get("name")
        if name is None:
            self.error(node, "joint tag is missing name attribute")
        joint_type = attrib.get("type")
        if joint_type is None:
            self.error(node, f"joint '{name}' is missing type attribute")
        links = []
        for role in ("parent", "child"):
            child = first.get(role)
            if child is None:
                self.error(node, f"joint '{name}' doesn't have a {role} node!")
            link = child.attrib.get("link")
            if link is None:
                self.error(
                    node.view(child), f"joint {name}'s {role} does not have a link attribute!"
                )
            links.append(link)
        return name, joint_type, *links

    def limits(self, limit):
        """(lower, upper, velocity, acceleration, effort) of a joint's ``<limit>`` (or None)."""
        if limit is None:
            return _NO_LIMITS
        diagnostics, inf = self.diagnostics, math.inf
        return (
            parse_scalar(limit, "lower", diagnostics, -inf),
            parse_scalar(limit, "upper", diagnostics, inf),
            parse_scalar(limit, "velocity", diagnostics, inf),
            parse_scalar(limit, "drake:acceleration", diagnostics, inf),
            parse_scalar(limit, "effort", diagnostics, inf),
        )

    def damping(self, dynamics):
        """The damping of a joint's ``<dynamics>`` (or None; friction and coulomb_window
        warn)."""
        damping = 0.0
        if dynamics is not None:
            damping = self.scalar(dynamics, "damping", 0.0)
            friction = self.scalar(dynamics, "friction")
            if friction is not None and friction != 0.0:
                self.warning(
                    dynamics,
                    "A joint has specified a non-zero value for the 'friction' attribute of a "
                    "joint/dynamics tag. MultibodyPlant does not currently support non-zero joint "
                    "friction.",
                )
            if self.scalar(dynamics, "coulomb_window") is not None:
                self.warning(
                    dynamics,
                    "A joint has specified a value for the 'coulomb_window' attribute of a "
                    "<joint> tag. Drake no longer makes use of that attribute; all instances will "
                    "be ignored.",
                )
        return damping

    def add_joint(self, joint_type, name, parent, X_PF, child, X_BM, *args):
        """Drake's AddJoint<JointType>(name, parent, X_PF, child, X_BM, args...): a frame
        "{name}_parent" at X_PF on the parent (and "{name}_child" at X_BM on the child, if
        given), both in the child's model instance; returns the joint."""
        plant, instance = self.plant, child._model_instance
        # (FixedOffsetFrame._adopting: the parser's own pose; name, frame, pose checked here)
        frame_on_parent = FixedOffsetFrame._adopting(
            f"{name}_parent", parent._body_frame, X_PF, instance
        )
        ends = self.checked_ends(name, frame_on_parent, parent, child, X_BM)
        if ends is None:
            self.add_pending()
            plant.AddFrame(frame_on_parent)
        frame_on_child = child._body_frame
        if X_BM is not None:
            frame_on_child = plant.AddFrame(
                FixedOffsetFrame._adopting(f"{name}_child", frame_on_child, X_BM, instance)
            )
        if joint_type in (RevoluteJoint, PrismaticJoint):  # (args: axis, lower, upper, damping)
            axis, lower, upper, damping = args
            joint = joint_type._new(
                name, frame_on_parent, frame_on_child, axis, damping, lower, upper
            )
        else:
            joint = joint_type(name, frame_on_parent, frame_on_child, *args)
        if ends is None:
            return plant.AddJoint(joint)
        self.pend(frame_on_parent, joint, ends)
        return joint

    def pend(self, frame_on_parent, joint, ends):
        """Adds ``joint`` and its ``frame_on_parent`` (of checked_ends ``ends``) to the
        pending elements."""
        pending = self.pending
        pending[1].append(frame_on_parent)
        pending[2].append(joint)
        self.pending_frames.add(frame_on_parent._name)
        self.pending_joints.add(joint._name)
        self.pending_ends.add(ends)

    def checked_ends(self, name, frame_on_parent, parent, child, X_BM):
        """The _ends of the joint ``name`` from ``parent`` to ``child`` (a link of this
        document, with no frame on it) if AddFrame(``frame_on_parent``) and AddJoint can add
        it with the pending elements: its names new, its bodies the plant's, distinct and
        without a joint between them; else None (the plant's methods add it, or raise)."""
        plant, instance = self.plant, self.model_instance._value
        frame_name = frame_on_parent._name
        if (
            X_BM is not None
            or child._model_instance._value != instance
            or child._plant is not plant
            or parent._plant is not plant
            or parent is child
            or name in self.pending_joints
            or frame_name in self.pending_frames
            or (instance, name) in plant._names["Joint"]
            or (instance, frame_name) in plant._names["Frame"]
        ):
            return None
        a, b = parent._index._value, child._index._value
        ends = (a, b) if a <= b else (b, a)
        if ends in plant._joint_between or ends in self.pending_ends:
            return None
        return ends

    def pose_and_axis(self, name, joint_type, first):
        """(X_PB, the unit axis) of the joint ``name`` of type ``joint_type``, whose first
        child of each tag is the ElementView ``first[tag]``."""
        origin = first.get("origin")  # (FixedOffsetFrame._adopting keeps X_PB: never changed)
        X_PB = _UNMOVED if origin is None else self.workspace.memo(origin, origin_to_transform)
        axis_node = first.get("axis")
        if axis_node is None or joint_type in ("fixed", "floating", "ball"):
            return X_PB, np.array([1.0, 0.0, 0.0])
        x, y, z = parse_floats(axis_node, "xyz", 3) or (1.0, 0.0, 0.0)
        norm = math.sqrt(x * x + y * y + z * z)  # (np.linalg.norm's arithmetic)
        if norm < 1e-8:
            self.error(axis_node, f"Joint '{name}' axis is zero.  Don't do that.")
        return X_PB, np.array([x / norm, y / norm, z / norm])

    def add_joints(self, joints, effort_limits):
        """Adds the joints of the elements ``joints`` (the root's joint children, as
        Elements), in order: those joint_values reads here (a fixed, revolute or prismatic
        joint with its frame "{name}_parent", pending with the document's other elements when
        checked_at_once passes them all or checked_ends each, else by the plant's methods,
        which raise as Drake's), the others by parse_joint; returns [(the ElementView of a
        joint with a ``<mimic>``, its mimic's)], which parse_mimic reads once all are added."""
        if len(joints) < MIN_JOINTS:  # (joint_values reads none: parse_joint reads each)
            return self.parse_joints(self.views(joints), effort_limits)
        firsts = first_children(joints)
        read, warned = joint_values(joints, firsts)
        checked = None
        if read and None not in read:
            columns = list(zip(*read, strict=True))
            checked = self.checked_at_once(columns)
        if checked is not None:
            if warned:
                views = self.views(joints)
                for k in warned:
                    self.warn_read(views[k])
            types = [node.attrib["type"] for node in joints]
            self.add_joints_at_once(types, columns, *checked)
            effort_limits.update(zip(columns[0], columns[6], strict=True))
            mimics = list(map(dict.get, firsts, repeat("mimic")))
            if mimics.count(None) == len(mimics):
                return []
            return [
                (node, node.view(mimic))
                for node, mimic in zip(self.views(joints), mimics, strict=True)
                if mimic is not None
            ]
        joints = self.views(joints)  # (messages name them)
        mimics = [node.view(first.get("mimic")) for node, first in zip(joints, firsts, strict=True)]
        return self.add_joints_one_by_one(joints, read, warned, mimics, effort_limits)

    def parse_joints(self, joints, effort_limits):
        """parse_joint of each of the joint ElementViews ``joints``, in order; returns [(a
        joint, its ``<mimic>``)] of those of a mimic, which parse_mimic reads once all are
        added."""
        mimics = []
        for node in joints:
            first = first_views(node)
            self.parse_joint(node, first, effort_limits)
            mimic = first.get("mimic")
            if mimic is not None:
                mimics.append((node, mimic))
        return mimics

    def add_joints_one_by_one(self, joints, read, warned, mimics, effort_limits):
        """Adds the joints of the ElementViews ``joints`` one by one, in order: by their
        values ``read`` (joint_values': at their places in ``warned``, given its warnings), or
        where None by parse_joint; returns [(a joint, its ``<mimic>``)] of those of a mimic
        (``mimics``: each one's, or None), which parse_mimic reads once all are added."""
        bodies = self.bodies
        warned = {joints[k] for k in warned} if warned else ()
        for node, values in zip(joints, read, strict=True):
            if values is None:
                self.parse_joint(node, first_views(node), effort_limits)
                continue
            name, parent_name, child_name, pose_row, axis, limit_row, effort, damping = values
            # (parse_joint's warnings, in its order: its children's before its bodies' errors,
            # its dynamics' after)
            warns = node in warned
            if warns:
                self.warn_unsupported(node)
            parent = bodies.get(parent_name)
            if parent is None:
                parent = self.body_for_element(name, parent_name)
            child = bodies.get(child_name)
            if child is None:
                child = self.body_for_element(name, child_name)
            if warns and axis is not None:
                self.damping(node.find("dynamics"))
            # (in the child's instance; X_PB joint_values' row)
            frame_on_parent = FixedOffsetFrame._in_row(
                f"{name}_parent", parent._body_frame, pose_row, child._model_instance
            )
            if axis is None:
                joint = WeldJoint(name, frame_on_parent, child._body_frame, RigidTransform())
            else:
                cls = PrismaticJoint if node.attrib["type"] == "prismatic" else RevoluteJoint
                joint = cls._checked(
                    name, frame_on_parent, child._body_frame, axis, limit_row, damping
                )
            ends = self.checked_ends(name, frame_on_parent, parent, child, None)
            if ends is None:
                self.add_pending()
                self.plant.AddFrame(frame_on_parent)
                self.plant.AddJoint(joint)
            else:
                self.pend(frame_on_parent, joint, ends)
            effort_limits.setdefault(name, effort)
        return [
            (node, mimic) for node, mimic in zip(joints, mimics, strict=True) if mimic is not None
        ]

    def checked_at_once(self, columns):
        """(the names of their frames "{name}_parent", their parent bodies, their child
        bodies) of the joints joint_values read (``columns``: the columns of its values, of
        all of the document's joints) if they pass checked_ends together, before any is added:
        each between two distinct links of this document (bodies of its new model instance,
        whose only elements so far are these links and their frames), no two between the same
        links, their names distinct and no "{name}_parent" a link's; else None."""
        bodies, names = self.bodies, columns[0]
        if self.pending != ([], [], []) or len(set(names)) != len(names):
            return None
        frame_names = [f"{name}_parent" for name in names]
        if not bodies.keys().isdisjoint(frame_names):
            return None
        parents = list(map(bodies.get, columns[1]))
        children = list(map(bodies.get, columns[2]))
        if None in parents or None in children:
            return None
        ends = set()
        for parent, child in zip(parents, children, strict=True):
            if parent is child:
                return None
            a, b = parent._index._value, child._index._value
            ends.add((a, b) if a <= b else (b, a))
        if len(ends) != len(names):
            return None
        return frame_names, parents, children

    def add_joints_at_once(self, types, columns, frame_names, parents, children):
        """Adds the joints of the types ``types`` that joint_values read (``columns``: the
        columns of its values) and checked_at_once passed (``frame_names``, ``parents``,
        ``children``: its answer), with their frames "{name}_parent", to the plant at once
        (its _add_joints_in_rows)."""
        names, _, _, pose_rows, axes, limit_rows, _, dampings = columns
        classes = list(map(_JOINT_CLASSES.__getitem__, types))
        self.plant._add_joints_in_rows(
            frame_names, parents, pose_rows, classes, names, children, axes, limit_rows, dampings
        )

    def parse_joint(self, node, first, effort_limits):
        """Adds the joint of ``node``, whose first child of each tag is the ElementView
        ``first[tag]`` (its ``<mimic>`` read by parse_mimic once all joints are added)."""
        if node.attrib.get("drake_ignore") == "true":
            return
        if "calibration" in first or "safety_controller" in first:
            self.warn_unsupported(node)
        name, joint_type, parent_name, child_name = self.joint_key_params(node, first)
        if "" in (name, joint_type, parent_name, child_name):
            return
        parent = self.body_for_element(name, parent_name)
        child = self.body_for_element(name, child_name)
        X_PB, axis = self.pose_and_axis(name, joint_type, first)
        effort = math.inf
        if joint_type in ("revolute", "continuous", "prismatic"):
            if node.tag != "joint":
                self.require_custom(node, name, joint_type, False)
            cls = PrismaticJoint if joint_type == "prismatic" else RevoluteJoint
            limit, dynamics = first.get("limit"), first.get("dynamics")
            lower, upper, velocity, acceleration, effort = (
                _NO_LIMITS if limit is None else self.limits(limit)
            )
            damping = 0.0 if dynamics is None else self.damping(dynamics)
            joint = self.add_joint(
                cls, name, parent, X_PB, child, None, axis, lower, upper, damping
            )
            if velocity != math.inf:  # (a new joint's limits are infinite)
                joint.set_velocity_limits([-velocity], [velocity])
            if acceleration != math.inf:
                joint.set_acceleration_limits([-acceleration], [acceleration])
        elif joint_type == "fixed":
            self.require_custom(node, name, joint_type, False)
            self.add_joint(WeldJoint, name, parent, X_PB, child, None, RigidTransform())
        elif joint_type == "floating":
            self.require_custom(node, name, joint_type, False)
            self.warning(
                node,
                f"Joint '{name}' specified as type floating which is not supported by "
                f"MultibodyPlant.  Leaving '{child_name}' as a free body.",
            )
        elif joint_type == "ball":
            self.require_custom(node, name, joint_type, True)
            damping = self.damping(first.get("dynamics"))
            self.add_joint(BallRpyJoint, name, parent, X_PB, child, None, damping)
        elif joint_type == "planar":
            # Both <joint> and <drake:joint> spellings are accepted (Drake #18730).
            damping = np.zeros(3)
            dynamics = first.get("dynamics")
            if dynamics is not None:
                value = parse_vector(dynamics, "damping", 3)
                damping = damping if value is None else value
            # Mz along the axis, M as close to B as possible; F coincides with M at zero.
            X_BM = RigidTransform(closest_rotation_to_identity_from_unit_z(axis), np.zeros(3))
            X_PF = X_PB @ X_BM
            self.add_joint(PlanarJoint, name, parent, X_PF, child, X_BM, damping)
        elif joint_type == "screw":
            self.require_custom(node, name, joint_type, True)
            damping = self.damping(first.get("dynamics"))
            pitch_node = node.find("drake:screw_thread_pitch")
            if pitch_node is None:
                self.error(node, "A screw joint is missing the <drake:screw_thread_pitch> tag.")
            pitch = self.scalar(pitch_node, "value")
            if pitch is None:
                self.error(
                    pitch_node,
                    "A screw joint has a <drake:screw_thread_pitch> tag that is missing the "
                    "'value' attribute.",
                )
            self.add_joint(ScrewJoint, name, parent, X_PB, child, None, axis, pitch, damping)
        elif joint_type == "universal":
            self.require_custom(node, name, joint_type, True)
            damping = self.damping(first.get("dynamics"))
            self.add_joint(UniversalJoint, name, parent, X_PB, child, None, damping)
        elif joint_type == "curvilinear":
            self.require_custom(node, name, joint_type, True)
            self.error(
                node,
                f"Joint '{name}' has type 'curvilinear', which mallard does not support yet.",
            )
        else:
            self.error(node, f"Joint '{name}' has unrecognized type: '{joint_type}'")
        effort_limits.setdefault(name, effort)

    def warn_unsupported(self, node):
        """parse_joint's warnings of the joint ``node``'s ``<calibration>`` and
        ``<safety_controller>`` (each if it has one)."""
        warn_unsupported_element(self.diagnostics, node, "calibration")
        warn_unsupported_element(self.diagnostics, node, "safety_controller")

    def warn_read(self, node):
        """The warnings parse_joint gives of the joint ``node`` that joint_values read, when it
        has no other message: of its unsupported children, then of its ``<dynamics>``' friction
        and coulomb_window (a moving joint's)."""
        self.warn_unsupported(node)
        if node.attrib["type"] != "fixed":
            self.damping(node.find("dynamics"))

    def require_custom(self, node, name, joint_type, want_custom):
        """An error unless the joint ``node`` is a <drake:joint> exactly if ``want_custom``."""
        is_custom = node.tag == "drake:joint"
        if want_custom and not is_custom:
            self.error(
                node,
                f"Joint {name} of type {joint_type} is a custom joint type, and should be a "
                "<drake:joint>",
            )
        if not want_custom and is_custom:
            self.error(
                node,
                f"Joint {name} of type {joint_type} is a standard joint type, and should be "
                "a <joint>",
            )

    def parse_mimic(self, node, mimic):
        """The ``<mimic>`` element ``mimic`` of the joint ``node``: checked as Drake checks it,
        then a coupler constraint q_joint = multiplier·q_mimicked + offset, as pydrake adds it
        (for continuous plants too, whose dynamics then raise: Drake's continuous plants allow
        no constraints)."""
        plant, instance = self.plant, self.model_instance
        name = node.get("name", "")
        target = mimic.get("joint")
        if target is None:
            self.error(
                mimic, f"Joint '{name}' mimic element is missing the required 'joint' attribute."
            )
        if not plant.HasJointNamed(target, instance):
            self.error(
                mimic,
                f"Joint '{name}' mimic element specifies joint '{target}' which does not exist.",
            )
        if target == name:
            self.error(
                mimic,
                f"Joint '{name}' mimic element specifies joint '{target}'. Joints cannot mimic "
                "themselves.",
            )
        multiplier = self.scalar(mimic, "multiplier", 1.0)
        offset = self.scalar(mimic, "offset", 0.0)
        if not plant.HasJointNamed(name, instance):
            self.warning(
                mimic,
                f"Drake only supports the mimic element for single-dof joints. The mimic element "
                f"in joint '{name}' will be ignored.",
            )
            return
        joint0 = plant.GetJointByName(name, instance)
        joint1 = plant.GetJointByName(target, instance)
        n0, n1 = joint0.num_velocities(), joint1.num_velocities()
        if n0 != n1:
            self.error(
                mimic,
                f"Joint '{name}' which has {n0} DOF cannot mimic joint '{target}' which has {n1} "
                "DOF.",
            )
        if n0 != 1:
            self.warning(
                mimic,
                f"Drake only supports the mimic element for single-dof joints. The joint "
                f"'{name}' (with {n0} dofs) is attempting to mimic joint '{target}' (with {n1} "
                "dofs). The mimic element will be ignored.",
            )
            return
        plant.AddCouplerConstraint(joint0, joint1, multiplier, offset)

    # ---- transmissions -----------------------------------------------------------------------
    def mechanical_reduction(self, node):
        child = node.find("mechanicalReduction")
        if child is None or child.text is None:
            return
        if convert_to_doubles(child.text) == [1.0]:
            return
        self.warning(
            child,
            f"A '{node.tag}' element contains a mechanicalReduction element with a value "
            f"'{child.text}' other than the default of 1. MultibodyPlant does not currently "
            "support non-default mechanical reductions.",
        )

    def parse_transmission(self, node, effort_limits):
        for tag in (
            "leftActuator",
            "rightActuator",
            "flexJoint",
            "rollJoint",
            "gap_joint",
            "passive_joint",
            "use_simulated_gripper_joint",
        ):
            warn_unsupported_element(self.diagnostics, node, tag)
        self.mechanical_reduction(node)
        type_node = node.find("type")
        if type_node is not None:
            transmission_type = type_node.text or ""
        else:
            transmission_type = node.get("type")
            if transmission_type is None:
                self.error(node, "Transmission element is missing a type.")
        if "SimpleTransmission" not in transmission_type:
            self.warning(
                node,
                "A <transmission> has a type that isn't 'SimpleTransmission'. Drake only "
                "supports 'SimpleTransmission'; all other transmission types will be ignored.",
            )
            return
        actuator_node = node.find("actuator")
        if actuator_node is None:
            self.error(node, "Transmission is missing an actuator element.")
        self.mechanical_reduction(actuator_node)
        actuator_name = actuator_node.get("name")
        if actuator_name is None:
            self.error(actuator_node, "Transmission is missing an actuator name.")
        joint_node = node.find("joint")
        if joint_node is None:
            self.error(node, "Transmission is missing a joint element.")
        joint_name = joint_node.get("name")
        if joint_name is None:
            self.error(joint_node, "Transmission is missing a joint name.")
        plant = self.plant
        if not plant.HasJointNamed(joint_name, self.model_instance):
            self.error(
                joint_node, f"Transmission specifies joint '{joint_name}' which does not exist."
            )
        joint = plant.GetJointByName(joint_name, self.model_instance)
        if joint.num_positions() == 0:
            self.warning(
                joint_node,
                f'Skipping transmission since it\'s attached to a fixed joint "{joint_name}".',
            )
            return
        effort = effort_limits.get(joint_name, math.inf)
        if effort < 0:
            self.error(
                joint_node,
                f"Transmission specifies joint '{joint_name}' which has a negative effort limit.",
            )
        if effort <= 0:
            self.warning(
                joint_node,
                f'Skipping transmission since it\'s attached to joint "{joint_name}" which has a '
                f"zero effort limit {fmt(effort)}.",
            )
            return
        actuator = plant.AddJointActuator(actuator_name, joint, effort)
        for tag, setter in (
            ("drake:rotor_inertia", actuator.set_default_rotor_inertia),
            ("drake:gear_ratio", actuator.set_default_gear_ratio),
        ):
            child = actuator_node.find(tag)
            if child is not None:
                value = self.scalar(child, "value")
                if value is None:
                    self.error(
                        child,
                        f'joint actuator {actuator_name}\'s {tag} does not have a "value" '
                        "attribute!",
                    )
                setter(value)
        gains = actuator_node.find("drake:controller_gains")
        if gains is not None:
            values = []
            for key in ("p", "d"):
                value = self.scalar(gains, key)
                if value is None:
                    self.error(
                        gains,
                        f"joint actuator {actuator_name}'s drake:controller_gains does not have "
                        f"a '{key}' attribute!",
                    )
                values.append(value)
            actuator.set_controller_gains(PdControllerGains(p=values[0], d=values[1]))

    # ---- frames and force elements -----------------------------------------------------------
    def parse_frame(self, node):
        name = node.get("name")
        if name is None:
            self.error(node, "parsing frame name.")
        link = node.get("link")
        if link is None:
            self.error(node, f"missing link name for frame {name}.")
        body = self.body_for_element(name, link)
        self.plant.AddFrame(FixedOffsetFrame(name, body.body_frame(), origin_to_transform(node)))

    def child_or_error(self, node, tag):
        child = node.find(tag)
        if child is None:
            self.error(node, f"Unable to find the <{tag}> tag")
        return child

    def vector_reader(self, node):
        def read_vector(tag):
            value = parse_vector(self.child_or_error(node, tag), "value", 3)
            if value is None:
                self.error(node, f"Unable to read the 'value' attribute for the <{tag}> tag")
            return value

        return read_vector

    def named_reader(self, node, kind, has, get):
        def read(tag):
            child = self.child_or_error(node, tag)
            name = child.get("name")
            if name is None:
                self.error(child, f"Unable to read the 'name' attribute for the <{tag}> tag")
            if not has(name, self.model_instance):
                self.error(
                    child, f"{kind}: {name} specified for <{tag}> does not exist in the model."
                )
            return get(name, self.model_instance)

        return read

    def frame_reader(self, node):
        return self.named_reader(node, "Frame", self.plant.HasFrameNamed, self.plant.GetFrameByName)

    def body_reader(self, node):
        return self.named_reader(node, "Body", self.plant.HasBodyNamed, self.plant.GetBodyByName)

    def parse_tendon_constraint(self, node):
        """A ``drake:tendon_constraint``: its joints (``drake:tendon_constraint_joint``, each a
        name and a coefficient a), then its values (Drake's ParseTendonConstraint)."""
        joints = []
        for child in node.findall("drake:tendon_constraint_joint"):
            name = child.get("name")
            if name is None:
                self.error(
                    child,
                    f'The tag <{child.tag}> does not specify the required attribute "name".',
                )
            if not self.plant.HasJointNamed(name, self.model_instance):
                self.error(
                    node,
                    f"<{node.tag}>: Joint '{name}' specified for <{child.tag}> does not exist in "
                    "the model.",
                )
            a = self.scalar(child, "a")
            if a is None:
                self.error(child, f"Unable to read the 'a' attribute for the <{child.tag}> tag")
            joints.append((self.plant.GetJointByName(name, self.model_instance).index(), a))

        def read_double(tag):
            value = self.scalar(self.child_or_error(node, tag), "value")
            if value is None:
                self.error(node, f"Unable to read the 'value' attribute for the <{tag}> tag")
            return value

        add_tendon_constraint(self.plant, joints, read_double)

    def double_reader(self, node):
        def read_double(tag):
            child = self.child_or_error(node, tag)
            value = self.scalar(child, "value")
            if value is None:
                self.error(child, f"Unable to read the 'value' attribute for the <{tag}> tag")
            if tag == "drake:linear_spring_damper_free_length" and value <= 0:
                self.error(
                    child, f"The 'value' attribute for the <{tag}> tag must be strictly positive."
                )
            if value < 0:
                self.error(
                    child, f"The 'value' attribute for the <{tag}> tag must be non-negative."
                )
            return value

        return read_double
