"""The MuJoCo (MJCF) parser, after Drake's (detail_mujoco_parser.cc): the same subset of MJCF,
the same semantics, the same names and order of elements in the plant, and Drake's warnings
for what it ignores.

A document makes one model instance, named after ``<mujoco model=...>``. In Drake's order:
``<include>`` files are expanded lexically; then ``<compiler>`` (angle, eulerseq, autolimits,
inertiafromgeom, meshdir), ``<option>`` (gravity, for the whole plant), ``<default>``
classes (applied to an element's attributes that it does not set), ``<asset>`` (materials,
.obj meshes), the bodies of ``<worldbody>`` (each ``<joint>`` a joint, several joints chained
through massless bodies "{body}{k}", a free joint a default floating pose, none a weld),
``<actuator>`` (motor and position: joint actuators with effort limit, gear, rotor inertia
from the joint's armature, PD gains), ``<contact>`` (pair, exclude) and ``<equality>``.

``<equality><connect>`` (body1, anchor, body2 or World) is a ball constraint whose point Q is
where the anchor is in the default configuration (Drake's AddBallConstraint without p_BQ).

Differences from Drake, said where they happen: ``<camera>`` is ignored with Drake's warning
for a Parser without a DiagramBuilder (mallard's Parser has none).
"""

import math
import os
import re

import numpy as np

from mallard.common._angle_axis import angle_axis_to_matrix
from mallard.geometry import GeometrySet
from mallard.geometry._collision_filter import CollisionFilterDeclaration
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing._attributes import (
    convert_to_doubles,
    parse_floats,
    parse_scalar,
    parse_vector,
)
from mallard.multibody.parsing._mujoco_geometry import (
    ORIENTATIONS,
    Frames,
    GeomParser,
    composite_inertia,
    mesh_assets,
    warn_unsupported_attribute,
    warn_unsupported_element,
)
from mallard.multibody.parsing._workspace import is_string_source
from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    PdControllerGains,
    PrismaticJoint,
    RevoluteJoint,
    RigidBody,
    RotationalInertia,
    SpatialInertia,
)
from mallard.multibody.tree._rotational_inertia import fmt, reexpress

#: The elements ``<default>`` classes hold defaults for (MuJoCo's list, in its order).
DEFAULT_ELEMENTS = ("geom", "joint", "mesh", "equality", "material", "site", "camera", "light",
                    "pair", "tendon", "general", "motor", "position", "velocity", "cylinder",
                    "muscle")  # fmt: skip
#: The attributes Drake ignores with a warning, by element, in its order of warnings (an
#: actuator's: "motor"'s, then a position's also "position"'s).
UNSUPPORTED = {
    "option": ("timestep", "wind", "magnetic", "density", "viscosity", "integrator", "cone",
               "actuatorgroupdisable"),
    "body": ("mocap", "gravcomp", "user"),
    "joint": ("group", "springdamper", "stiffness", "actuatorfrcrange", "actuatorfrclimited",
              "actuatorgravcomp", "springref", "frictionloss", "user"),
    "motor": ("group", "lengthrange", "cranklength", "jointinparent", "tendon", "cranksite",
              "slidersite", "site", "refsite", "user", "dyntype", "gaintype", "biastype",
              "dynprm", "gainprm", "biasprm"),
    "position": ("dampratio", "timeconst", "inheritrange"),
}  # fmt: skip
#: Drake's warning for an ``<asset>`` that holds a ``<texture>``.
TEXTURE_WARNING = (
    "The texture element is not supported, see "
    "https://drake.mit.edu/troubleshooting.html for additional resources."
)
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "1": True,
             "false": False, "False": False, "FALSE": False, "0": False}  # fmt: skip


_IDENTITY = np.eye(3)
_IDENTITY_TRANSFORM = RigidTransform()  # (never changed: its users copy it)
_HALF_MAX = float(np.finfo(float).max) / 2
_LOCATED = re.compile(r"\S+:\d+: (error|warning): ")


def main_directory(file):
    """The directory relative mesh files of the document named ``file`` are found from: the
    file's, or the working directory for a string."""
    return os.getcwd() if is_string_source(file) else os.path.dirname(file)


def parse(workspace, root, model_name=None):
    """Adds the model of the MJCF document ``root`` to the workspace's plant; returns [its
    ModelInstanceIndex]. ``model_name`` overrides ``<mujoco model=...>``. An error of the
    plant's API is located at the element being read."""
    parser = _MujocoParser(workspace, root)
    try:
        return [parser.parse(model_name)]
    except (RuntimeError, ValueError) as e:
        if _LOCATED.match(str(e)):
            raise
        at = parser.at
        raise type(e)(f"{at.file}:{at.line}: error: {e}") from None


def _by_tag(node):
    """{tag: [the children of ``node`` with that tag, in order]}."""
    children = {}
    for child in node.children:
        tagged = children.get(child.tag)
        if tagged is None:
            children[child.tag] = [child]
        else:
            tagged.append(child)
    return children


def _bool(value, default):
    """tinyxml2's BoolAttribute: true/false/1/0 (any integer), else ``default``."""
    if value is None:
        return default
    if value in _BOOLEANS:
        return _BOOLEANS[value]
    try:
        return int(value) != 0
    except ValueError:
        return default


class _WorldPose:
    """X_WB of a body, X_WP @ X_PB, computed when first asked for (only free joints need it)
    and kept: the same products, in the same order, as computing each body's on the way
    down."""

    __slots__ = ("_parent", "_X_PB", "_X_WB")

    def __init__(self, parent, X_PB):
        self._parent = parent  # (the parent body's _WorldPose; None: X_PB is X_WB)
        self._X_PB = X_PB
        self._X_WB = X_PB if parent is None else None

    def get(self):
        """X_WB (iterative: a chain of nested bodies may be deeper than Python's stack)."""
        pending, pose = [], self
        while pose._X_WB is None:
            pending.append(pose)
            pose = pose._parent
        for pose in reversed(pending):
            pose._X_WB = pose._parent._X_WB @ pose._X_PB
        return self._X_WB


class _MujocoParser:
    def __init__(self, workspace, root):
        self.workspace = workspace
        self.diagnostics = workspace.diagnostics
        self.plant = workspace.plant
        self.root = root
        self.model_instance = None
        #: The element being read (where an error of the plant's API is located).
        self.at = root
        self.frames = Frames(self.diagnostics)
        # element -> {class: (its <default>'s attributes, whether they set an orientation)}
        self.defaults = {element: {} for element in DEFAULT_ELEMENTS}
        self.materials = {}
        self.meshes = {}
        self.geoms = GeomParser(
            self.diagnostics, self.frames, self.materials, self.meshes,
            make_shapes=workspace.geometries is not None,
        )  # fmt: skip
        self.autolimits = True
        self.inertia_from_geom = "auto"
        self.meshdir = None
        self.armature = {}  # joint -> armature (the joint object: its identity is the key)
        self.joints = {}  # name -> the joints parse_joint added (actuators find them here)
        self.main_dir = main_directory(root.file)

    def error(self, node, message):
        self.diagnostics.error(node, message)

    def warning(self, node, message):
        self.diagnostics.warning(node, message)

    def unsupported(self, node, attributes=(), elements=(), children=None):
        """Drake's warnings for the ``attributes`` and child ``elements`` of ``node`` that it
        ignores (``children``: _by_tag(node), if known)."""
        if not node.attrib.keys().isdisjoint(attributes):
            for attribute in attributes:
                warn_unsupported_attribute(self.diagnostics, node, attribute)
        if not node.children:
            return
        tags = children.keys() if children is not None else {child.tag for child in node.children}
        if not tags.isdisjoint(elements):
            for tag in elements:
                warn_unsupported_element(self.diagnostics, node, tag)

    # ---- the document ------------------------------------------------------------------------
    def parse(self, model_name):
        root = self.root
        if root.tag != "mujoco":
            self.diagnostics.error(
                None, "ERROR: XML does not contain a mujoco tag.", file=root.file, line=1
            )
        self.expand_includes(root)
        name = model_name or root.get("model")
        if name is None:
            self.error(
                root,
                "ERROR: Your robot must have a name attribute or a model name must be specified.",
            )
        plant = self.plant
        self.model_instance = plant.AddModelInstance(self.workspace.model_name(name))
        for node in root.findall("compiler"):
            self.parse_compiler(node)
        for node in root.findall("option"):
            self.parse_option(node)
        for node in root.findall("default"):
            self.parse_default(node, "")
        for node in root.findall("asset"):
            self.parse_asset(node)
        for node in root.findall("worldbody"):
            self.parse_world_body(node)
        for node in root.findall("body"):
            self.parse_body(node, plant.world_body(), _WorldPose(None, RigidTransform()), "")
        for node in root.findall("actuator"):
            self.parse_actuator(node)
        for node in root.findall("contact"):
            self.parse_contact(node)
        for node in root.findall("equality"):
            self.parse_equality(node)
        self.unsupported(
            root,
            elements=(
                "statistic",
                "deformable",
                "tendon",
                "sensor",
                "keyframe",
                "visual",
                "extension",
            ),  # fmt: skip
        )
        return self.model_instance

    def expand_includes(self, node):
        """Replaces each ``<include file=...>`` below ``node`` by the children of the root of
        that file (relative to the main file's directory), recursively."""
        for child in node.children:
            if child.tag == "include":
                break
            if child.children:
                self.expand_includes(child)
        else:
            return  # (the common case: no <include> among them)
        k = node.children.index(child)  # (the first <include>; those before it are expanded)
        children = node.children[:k]
        for child in node.children[k:]:
            if child.tag != "include":
                self.expand_includes(child)
                children.append(child)
                continue
            file = child.get("file")
            if file is None:
                self.error(child, "<include> tag without file attribute.")
            path = os.path.abspath(os.path.join(self.main_dir, file))
            try:
                with open(path, "rb") as f:
                    included = parse_xml(f.read(), path, keep_text=False)
            except (OSError, XmlSyntaxError):
                self.error(child, f"Failed to load <include> file at path {path}.")
            holder = type(included)(node.tag, {}, path, included.line)
            holder.children = included.children
            self.expand_includes(holder)
            children += holder.children
        node.children = children

    def apply_defaults(self, element, class_name, node):
        """Gives ``node`` the attributes of the default of (``element``, ``class_name``) that
        it does not set (no default orientation when it sets an orientation)."""
        default = self.defaults[element].get(class_name)
        if default is None:
            return
        defaults, oriented = default
        attrib = node.attrib
        keys = attrib.keys()
        if keys.isdisjoint(defaults) and not (oriented and not keys.isdisjoint(ORIENTATIONS)):
            attrib.update(defaults)  # (the common case: all appended, in C)
            return
        skipped = () if keys.isdisjoint(ORIENTATIONS) else ORIENTATIONS
        # Those it does not set, appended after its own in the default's order (Drake's
        # order). (A loop: cheaper than merging the two dicts for a few attributes.)
        for name, value in defaults.items():
            if name not in attrib and name not in skipped:
                attrib[name] = value

    # ---- settings ----------------------------------------------------------------------------
    def parse_compiler(self, node):
        self.autolimits = _bool(node.get("autolimits"), True)
        coordinate = node.get("coordinate")
        if coordinate is not None and coordinate != "local":
            self.error(node, f"Compiler attribute coordinate={coordinate} is not supported yet.")
        angle = node.get("angle")
        if angle == "degree":
            self.frames.degree = True
        elif angle == "radian":
            self.frames.degree = False
        elif angle is not None:
            current = "degree" if self.frames.degree else "radian"
            self.warning(
                node,
                f"Unknown value {angle} for the compiler `angle` attribute will be ignored.  The "
                f"existing value of `angle={current}` will remain unchanged.",
            )
        for attribute in ("assetdir", "meshdir"):
            if node.get(attribute) is not None:
                self.meshdir = node.get(attribute)
        eulerseq = node.get("eulerseq")
        if eulerseq is not None:
            if len(eulerseq) != 3 or any(c not in "xyzXYZ" for c in eulerseq):
                self.error(
                    node,
                    f"Illegal value '{eulerseq}' for the eulerseq in {node.tag}. Valid eulerseq "
                    "are exactly three characters from the set [x,y,z,X,Y,Z]",
                )
            self.frames.eulerseq = eulerseq
        value = node.get("inertiafromgeom")
        if value is not None:
            flag = _bool(value, None)
            if flag is not None:
                self.inertia_from_geom = "true" if flag else "false"
            elif value == "auto":
                self.inertia_from_geom = "auto"
            else:
                self.warning(
                    node,
                    f"The attribute 'inertiafromgeom' found in a '{node.tag}' tag cannot be "
                    "interpreted as a boolean nor 'auto' and will be ignored.",
                )
        self.unsupported(
            node,
            ("boundmass", "boundinertia", "settotalmass", "balanceinertia", "strippath",
             "fitaabb", "texturedir", "discardvisual", "fusestatic", "alignfree",
             "inertiagrouprange"),
            ("lengthrange",),
        )  # fmt: skip

    def parse_option(self, node):
        self.at = node
        gravity = parse_vector(node, "gravity", 3)
        if gravity is not None:
            field = self.plant.mutable_gravity_field()
            previous = field.gravity_vector()
            self.workspace.undo.append(lambda: field.set_gravity_vector(previous))
            field.set_gravity_vector(gravity)
        self.unsupported(
            node,
            UNSUPPORTED["option"],
            ("flag",),
        )

    def parse_default(self, node, parent_class):
        class_name = node.get("class")
        if class_name is None:
            if parent_class:
                self.error(
                    node,
                    "The `class` attribute is required for all `default` elements except at the "
                    "top-level",
                )
            class_name = "main"
        for element in DEFAULT_ELEMENTS:
            classes = self.defaults[element]
            for child in node.findall(element):
                attrib = child.attrib
                classes[class_name] = (attrib, False)  # (its own, if parent_class is class_name)
                if parent_class:
                    self.apply_defaults(element, parent_class, child)
                classes[class_name] = (attrib, not attrib.keys().isdisjoint(ORIENTATIONS))
        for child in node.findall("default"):
            self.parse_default(child, class_name)

    def parse_asset(self, node):
        for material in node.findall("material"):
            name = material.get("name")
            if name is None:
                self.error(node, "ERROR: Material elements must have a name attribute.")
            self.materials[name] = material
        for mesh in node.findall("mesh"):
            self.apply_defaults("mesh", mesh.get("class", "main"), mesh)
        mesh_assets(self.diagnostics, node, self.meshdir, self.main_dir, self.meshes)
        if node.find("texture") is not None:
            self.warning(node, TEXTURE_WARNING)
        self.unsupported(node, elements=("hfield", "skin"))

    # ---- bodies ------------------------------------------------------------------------------
    def parse_geoms(self, nodes, compute_inertia, child_class):
        """The Geoms of the ``<geom>`` elements ``nodes`` (those with a shape)."""
        geoms = []
        default_class = child_class or "main"
        for geom_node in nodes:
            self.at = geom_node
            self.apply_defaults("geom", geom_node.attrib.get("class", default_class), geom_node)
            geom = self.geoms.parse(geom_node, len(geoms), compute_inertia)
            if geom.shape is not None:
                geoms.append(geom)
        return geoms

    def add_geometries(self, body, geoms):
        records = self.workspace.geometries
        if records is not None:
            for geom in geoms:
                records += geom.records(body)

    def parse_world_body(self, node):
        plant = self.plant
        if self.workspace.geometries is not None:
            world_geoms = self.parse_geoms(node.findall("geom"), False, "")
            self.add_geometries(plant.world_body(), world_geoms)
        for camera in node.findall("camera"):
            self.parse_camera(camera)
        self.unsupported_body_parts(node)
        for child in node.findall("body"):
            self.parse_body(child, plant.world_body(), _WorldPose(None, RigidTransform()), "")

    def unsupported_body_parts(self, node, children=None):
        """Drake's warnings for the body parts it ignores (``children``: _by_tag(node))."""
        self.unsupported(
            node,
            UNSUPPORTED["body"],
            ("site", "light", "composite", "flexcomp", "plugin", "attach", "frame"),
            children,
        )

    def parse_camera(self, node):
        self.warning(
            node,
            "camera element ignored; to register cameras, you must pass a DiagramBuilder to the "
            "Parser and the plant must be registered with a scene graph.",
        )

    def parse_body(self, node, parent, X_WP, parent_class):
        """Adds the body ``node`` (its joints, geoms and nested bodies) on ``parent``, whose
        pose in World is ``X_WP`` (a _WorldPose)."""
        self.at = node
        plant = self.plant
        attrib = node.attrib
        name = attrib.get("name")
        if name is None:
            name = f"body{plant.num_bodies()}"
        child_class = attrib.get("childclass", parent_class)
        children = _by_tag(node)
        inertial = children.get("inertial")
        if inertial is not None and self.inertia_from_geom != "true":
            M_BBo_B = self.parse_inertial(inertial[0])
            compute_inertia = False
        elif inertial is None and self.inertia_from_geom == "false":
            self.error(
                node,
                f"{name} has no inertial tag and inertiafromgeom=false. You must specify an "
                "inertia.",
            )
        else:
            compute_inertia = True
        geoms = self.parse_geoms(children.get("geom", ()), compute_inertia, child_class)
        self.at = node
        if compute_inertia:
            M_BBo_B = composite_inertia(
                [g.M_GBo_B for g in geoms if g.M_GBo_B is not None and g.M_GBo_B[0] > 0]
            )
        body = self.add_body(node, name, M_BBo_B)
        if geoms:
            self.add_geometries(body, geoms)
        X_PB = self.frames.transform(node)
        X_WB = _WorldPose(X_WP, X_PB)
        joints = children.get("joint")
        if joints:
            last = parent
            for k, joint in enumerate(joints):
                if k + 1 < len(joints):
                    dummy = self.add_body(node, f"{name}{k}", SpatialInertia.Zero())
                    self.parse_joint(joint, last, dummy, X_WP, RigidTransform(), child_class)
                    last = dummy
                else:
                    self.parse_joint(joint, last, body, X_WB, X_PB, child_class)
                if joint.attrib.get("type") == "free":
                    if k > 0:
                        self.error(
                            node,
                            f"No other joints can be defined in the body {name} if a free "
                            "joint is defined.",
                        )
                    break
        elif "freejoint" in children:
            self.unsupported(children["freejoint"][0], elements=("name", "group"))
            plant.SetDefaultFloatingBaseBodyPose(body, X_WB.get())
        else:
            plant.WeldFrames(parent.body_frame(), body.body_frame(), X_PB)
        for camera in children.get("camera", ()):
            self.parse_camera(camera)
        self.unsupported_body_parts(node, children)
        for child in children.get("body", ()):
            self.parse_body(child, body, X_WB, child_class)

    def add_body(self, node, name, M_BBo_B):
        """plant.AddRigidBody(name, model_instance, M_BBo_B): by the plant's _add_checked when
        nothing it checks can fail (a str name, new among bodies and frames), else by
        AddRigidBody, whose error is located at ``node``."""
        plant, instance = self.plant, self.model_instance
        names, key = plant._names, (instance._value, name)
        fresh = key not in names["RigidBody"] and key not in names["Frame"]
        if fresh and type(name) is str and name != "":
            body = RigidBody._adopting(name, instance, M_BBo_B)
            plant._add_checked((body,))
            return body
        try:
            return plant.AddRigidBody(name, instance, M_BBo_B)
        except RuntimeError as e:
            self.error(node, str(e))

    def parse_inertial(self, node):
        """M_BBo_B of an ``<inertial>``: mass at ``pos``; ``diaginertia`` about the COM in the
        inertial frame F (``quat``...), or ``fullinertia`` in the body frame (the arithmetic
        of RotationalInertia.ReExpress and SpatialInertia.MakeFromCentralInertia)."""
        R_BF, p_BoFo_B = self.frames.pose(node)
        mass = parse_scalar(node, "mass", self.diagnostics)
        if mass is None:
            self.error(node, "The inertial tag must include the mass attribute.")
        diagonal = parse_floats(node, "diaginertia", 3)
        if diagonal is not None:
            xx, yy, zz = diagonal
            I_BFo_F = [[xx, 0.0, 0.0], [0.0, yy, 0.0], [0.0, 0.0, zz]]
            if R_BF is None and max(abs(xx), abs(yy), abs(zz)) < _HALF_MAX:
                # (R·I·Rᵀ symmetrized is I to the bit for R the identity, unless 2·I overflows)
                I_BFo_B = I_BFo_F
            else:
                R = _IDENTITY if R_BF is None else np.array(R_BF).reshape(3, 3)
                I_BFo_B = reexpress(R, np.array(I_BFo_F)).tolist()
        else:
            full = parse_floats(node, "fullinertia", 6)
            if full is None:
                self.error(
                    node,
                    "The inertial tag must include either the diaginertia or fullinertia "
                    "attribute.",
                )
            xx, yy, zz, xy, xz, yz = full  # (RotationalInertia's order)
            I_BFo_B = [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]
        try:
            if not mass > 0:  # (its error)
                SpatialInertia.MakeFromCentralInertia(
                    mass, p_BoFo_B, RotationalInertia._make(np.array(I_BFo_B))
                )
            return SpatialInertia._from_central_rows(mass, p_BoFo_B, I_BFo_B)
        except RuntimeError as e:
            self.error(node, str(e))

    # ---- joints ------------------------------------------------------------------------------
    def limits(self, node, range_name, limited_name):
        """(limited, [lower, upper] (floats)) of a range attribute and its "limited" flag (true,
        false or auto: limited if a range is given, with the compiler's autolimits)."""
        attrib = node.attrib
        if range_name not in attrib and limited_name not in attrib:
            return False, [0.0, 0.0]  # (auto, without a range: not limited)
        limited_value = attrib.get(limited_name, "auto")
        values = None if range_name not in attrib else parse_floats(node, range_name, 2)
        if limited_value == "true":
            limited = True
        elif limited_value == "false":
            limited = False
        elif limited_value == "auto":
            limited = values is not None and self.autolimits
            if values is not None and not self.autolimits:
                self.error(
                    node,
                    f"The '{range_name}' attribute was specified but 'autolimits' is disabled.",
                )
        else:
            self.error(
                node,
                f"The '{limited_name}' attribute must be one of 'true', 'false', or 'auto'.",
            )
        return limited, ([0.0, 0.0] if values is None else values)

    def parse_joint(self, node, parent, child, X_WC, X_PC, child_class):
        self.at = node
        plant = self.plant
        attrib = node.attrib
        name = attrib.get("name")
        if name is None:
            name = f"{parent.name()}-{child.name()}"
        self.apply_defaults("joint", attrib.get("class", child_class or "main"), node)
        pos = None if "pos" not in attrib else parse_floats(node, "pos", 3)
        if pos is None:  # (X_PC · identity is X_PC; the joint's frames copy their poses)
            X_CJ, X_PJ = _IDENTITY_TRANSFORM, X_PC
        else:
            X_CJ = RigidTransform._make(_IDENTITY.copy(), np.array(pos))
            X_PJ = X_PC @ X_CJ
        x, y, z = ("axis" in attrib and parse_floats(node, "axis", 3)) or (0.0, 0.0, 1.0)
        norm = math.sqrt(x * x + y * y + z * z)
        if not norm > 0:
            self.error(node, f"The joint {name} has a zero axis ({attrib.get('axis')}).")
        axis = np.array([x / norm, y / norm, z / norm])
        damping = parse_scalar(node, "damping", self.diagnostics, 0.0)
        kind = attrib.get("type", "hinge")
        limited, limits = (
            self.limits(node, "range", "limited")
            if "range" in attrib or "limited" in attrib
            else (False, (0.0, 0.0))  # (auto, without a range: not limited)
        )
        joint = None
        try:
            if kind == "free":
                if damping != 0.0:
                    self.warning(
                        node,
                        f"Damping was specified for the 'free' joint {name}, but is not "
                        "supported for free bodies.",
                    )
                plant.SetDefaultFloatingBaseBodyPose(child, X_WC.get())
            elif kind == "ball":
                joint = plant.AddJoint(BallRpyJoint, name, parent, X_PJ, child, X_CJ, damping)
                if limited:
                    warn_unsupported_attribute(self.diagnostics, node, "range")
            elif kind in ("slide", "hinge"):
                ref = parse_scalar(node, "ref", self.diagnostics, 0.0)
                if kind == "slide":
                    X_CJ = X_CJ @ RigidTransform(ref * axis)
                    joint_type = PrismaticJoint
                else:
                    if self.frames.degree:
                        ref *= math.pi / 180.0
                        limits = [limit * (math.pi / 180.0) for limit in limits]
                    if ref != 0.0:  # (a zero turn is the identity)
                        X_CJ = X_CJ @ RigidTransform(
                            RotationMatrix._make(angle_axis_to_matrix(ref, axis))
                        )
                    joint_type = RevoluteJoint
                lower, upper = limits if limited else (-math.inf, math.inf)
                ordered = lower <= upper  # (else set_position_limits' error, once added)
                joint = self.add_joint(
                    joint_type, name, parent, X_PJ, child, X_CJ, axis, damping,
                    *((lower, upper) if ordered else (-math.inf, math.inf)),
                )  # fmt: skip
                if not ordered:
                    joint.set_position_limits([lower], [upper])
                if ref != 0.0:  # (a new joint's default position is 0)
                    joint.set_default_positions([ref])
            else:
                self.error(node, f"Unknown joint type {kind}")
        except (RuntimeError, ValueError) as e:
            if str(e).startswith(f"{node.file}:"):
                raise
            self.error(node, str(e))
        armature = parse_scalar(node, "armature", self.diagnostics)
        if joint is not None:
            self.joints[name] = joint
            if armature is not None:
                self.armature[joint] = armature
        self.unsupported(
            node,
            UNSUPPORTED["joint"],
        )

    def add_joint(self, joint_type, name, parent, X_PJ, child, X_CJ, axis, damping, lower, upper):
        """plant.AddJoint(joint_type, name, parent, X_PJ, child, X_CJ, axis, lower, upper,
        damping) for a RevoluteJoint or PrismaticJoint (lower ≤ upper): its frames
        "{name}_parent" and "{name}_child" and the joint added at once (plant._add_checked)
        when nothing AddFrame and AddJoint check can fail (the names new, the bodies distinct,
        without a joint between them); else by AddJoint, which raises."""
        plant, instance = self.plant, child._model_instance
        frame_names, key = plant._names["Frame"], instance._value
        a, b = parent._index._value, child._index._value
        F_name, M_name = f"{name}_parent", f"{name}_child"
        if (
            parent is child
            or (key, name) in plant._names["Joint"]
            or (key, F_name) in frame_names
            or (key, M_name) in frame_names
            or ((a, b) if a <= b else (b, a)) in plant._joint_between
        ):
            return plant.AddJoint(
                joint_type, name, parent, X_PJ, child, X_CJ, axis, lower, upper, damping
            )
        F = FixedOffsetFrame._adopting(F_name, parent._body_frame, X_PJ, instance)
        M = FixedOffsetFrame._adopting(M_name, child._body_frame, X_CJ, instance)
        joint = joint_type._new(name, F, M, axis, damping, lower, upper)
        plant._add_checked((), (F, M), (joint,))
        return joint

    # ---- actuators ---------------------------------------------------------------------------
    def parse_actuator(self, node):
        for tag in ("motor", "position"):
            for child in node.findall(tag):
                self.parse_motor(child)
        self.unsupported(
            node,
            elements=("general", "velocity", "intvelocity", "damper", "cylinder", "muscle",
                      "adhesion", "plugin"),
        )  # fmt: skip

    def effort_limit(self, node, name, range_name, limited_name, limit):
        """``limit``, or the larger magnitude of the range ``range_name`` if limited and
        smaller (Drake's warnings for a range it does not take as given)."""
        limited, values = self.limits(node, range_name, limited_name)
        if not limited:
            return limit
        lower, upper = values
        if lower > upper:
            self.warning(
                node,
                f"The motor '{name}' specified a {range_name} attribute where lower limit > "
                "upper limit; these limits will be ignored.",
            )
            return limit
        larger = max(upper, -lower)
        if -lower != upper:
            self.warning(
                node,
                f"The motor '{name}' specified a {range_name} attribute where lower limit != "
                "-upper limit. Asymmetrical effort limits are not supported yet, so the larger "
                f"of the values {fmt(larger)} will be used.",
            )
        return min(limit, larger)

    def parse_motor(self, node):
        self.at = node
        plant = self.plant
        attrib = node.attrib
        name = attrib.get("name")
        if name is None:
            name = f"motor{plant.num_actuators()}"
        self.apply_defaults(node.tag, attrib.get("class", "main"), node)
        joint_name = attrib.get("joint")
        if joint_name is None:
            self.warning(
                node,
                f"The motor '{name}' does not use the 'joint' transmission specification. "
                "Currently only the 'joint' attribute is supported.  This motor will be ignored.",
            )
            return
        limit = math.inf
        if "ctrlrange" in attrib or "ctrllimited" in attrib:
            limit = self.effort_limit(node, name, "ctrlrange", "ctrllimited", limit)
        if "forcerange" in attrib or "forcelimited" in attrib:
            limit = self.effort_limit(node, name, "forcerange", "forcelimited", limit)
        self.unsupported(
            node,
            UNSUPPORTED["motor"],
        )
        joint = self.joints.get(joint_name)
        if joint is None:  # (a weld's, or none)
            if not plant.HasJointNamed(joint_name, self.model_instance):
                self.error(
                    node,
                    f"The actuator '{name}' refers to the joint '{joint_name}', which the model "
                    f"'{plant.GetModelInstanceName(self.model_instance)}' does not have.",
                )
            joint = plant.GetJointByName(joint_name, self.model_instance)
        try:
            actuator = plant.AddJointActuator(name, joint, limit)
        except RuntimeError as e:
            self.error(node, str(e))
        gear = attrib.get("gear")
        if gear is not None:
            values = convert_to_doubles(gear)
            if len(values) not in (1, 6):
                self.warning(
                    node,
                    f"Expected either 1 value or 6 values for 'gear' attribute, but got {gear}.",
                )
            if values:
                actuator.set_default_gear_ratio(values[0])
        armature = self.armature.get(joint)
        if armature is not None:
            ratio = actuator.default_gear_ratio()
            if ratio == 0:
                self.error(
                    node,
                    f"The motor '{name}' has gear 0 on a joint with armature {fmt(armature)}: the "
                    "rotor inertia armature / gear² would be infinite (Drake makes it inf).",
                )
            actuator.set_default_rotor_inertia(armature / (ratio * ratio))
        if node.tag == "position":
            gains = PdControllerGains(
                p=parse_scalar(node, "kp", self.diagnostics, 1.0),
                d=parse_scalar(node, "kd", self.diagnostics, 0.0),
            )
            try:
                actuator.set_controller_gains(gains)
            except (RuntimeError, ValueError) as e:
                self.error(node, str(e))
            self.unsupported(node, UNSUPPORTED["position"])

    # ---- contact and equality ----------------------------------------------------------------
    def parse_contact(self, node):
        if self.workspace.geometries is None or self.workspace.filter_groups is None:
            return
        pairs, excludes = [], []
        for pair in node.findall("pair"):
            self.apply_defaults("pair", node.get("class", "main"), pair)
            geom1, geom2 = pair.get("geom1"), pair.get("geom2")
            if geom1 is None or geom2 is None:
                self.warning(
                    node,
                    "contact pair node does not have required geom1 and/or geom2 attributes, so "
                    "will be ignored.",
                )
                continue
            self.unsupported(pair, ("condim", "friction"))
            pairs.append((geom1, geom2))
        for exclude in node.findall("exclude"):
            self.at = exclude
            body1, body2 = exclude.get("body1"), exclude.get("body2")
            if body1 is None or body2 is None:
                self.warning(
                    node,
                    "contact exclude node does not have required body1 and/or body2 attributes, "
                    "so will be ignored.",
                )
                continue
            bodies = []
            for body_name in (body1, body2):  # (located: Drake's GetBodyByName has no place)
                if not self.plant.HasBodyNamed(body_name, self.model_instance):
                    self.error(
                        exclude,
                        f"contact exclude specified unknown body {body_name}; the model "
                        f"'{self.plant.GetModelInstanceName(self.model_instance)}' has no body "
                        "with that name.",
                    )
                bodies.append(self.plant.GetBodyByName(body_name, self.model_instance))
            excludes.append(bodies)
        self.workspace.after_geometry.append(lambda: self.apply_contact(node, pairs, excludes))

    def apply_contact(self, node, pairs, excludes):
        """Applies the pairs (allowed) and excludes of ``<contact>`` once the document's
        geometry is registered."""
        plant = self.plant
        bodies = [plant.get_body(i) for i in plant.GetBodyIndices(self.model_instance)]
        ids = {}
        for body in bodies:
            for geometry_id in plant.GetCollisionGeometriesForBody(body):
                ids[geometry_id] = body
        inspector = plant._geometry_link.scene_graph.model_inspector()

        def find(name):
            for geometry_id in ids:
                if inspector.GetName(geometry_id).endswith(name):
                    return geometry_id
            return None

        declaration = CollisionFilterDeclaration()
        adjacent = {}
        for index in plant.GetJointIndices(self.model_instance):
            joint = plant.get_joint(index)
            adjacent[(joint.parent_body().index(), joint.child_body().index())] = True
        for geom1, geom2 in pairs:
            id1, id2 = find(geom1), find(geom2)
            if id1 is None or id2 is None:
                which = ("geom1", geom1) if id1 is None else ("geom2", geom2)
                self.warning(
                    node,
                    f"contact pair specified unknown {which[0]} {which[1]} and will be ignored.",
                )
                continue
            b1, b2 = ids[id1].index(), ids[id2].index()
            if plant.get_adjacent_bodies_collision_filters() and (
                (b1, b2) in adjacent or (b2, b1) in adjacent
            ):
                self.warning(
                    node,
                    f"This mjcf specified a contact pair with geom1 {geom1} and are on adjacent "
                    "bodies (connected by a joint). A collision filter excluding these bodies "
                    "will be added during MultibodyPlant::Finalize(), which will overwrite the "
                    "collision filter specified in this file. To avoid this you must call "
                    "MultibodyPlant::set_adjacent_bodies_collision_filters(), and understand "
                    "the implications.",
                )
            declaration.AllowBetween(GeometrySet([id1]), GeometrySet([id2]))
        for body_1, body_2 in excludes:
            declaration.ExcludeBetween(
                plant.CollectRegisteredGeometries([body_1]),
                plant.CollectRegisteredGeometries([body_2]),
            )
        plant._geometry_link.scene_graph.collision_filter_manager().Apply(declaration)

    def parse_equality(self, node):
        for connect in node.findall("connect"):
            self.at = connect
            self.apply_defaults("equality", connect.get("class", "main"), connect)
            add_connect(self.diagnostics, self.plant, self.model_instance, connect)
        self.unsupported(node, elements=("weld", "joint", "tendon", "flex", "distance"))


def add_connect(diagnostics, plant, instance, connect):
    """Adds the ball constraint of the ``<connect>`` element ``connect`` (defaults applied)
    of model ``instance`` to ``plant``: point P at its anchor in body1 and body2 (World if
    absent) coincide; Drake's messages (a site specification is ignored with a warning)."""
    if connect.get("body1") is not None and connect.get("site1") is not None:
        diagnostics.error(
            connect,
            "connect node must specify either body1 and anchor OR site1 and site2, but not both.",
        )
    body1 = connect.get("body1")
    if body1 is None:
        if connect.get("site1") is None or connect.get("site2") is None:
            diagnostics.error(connect, "connect must specify body1 and anchor OR site1 and site2.")
        diagnostics.warning(
            connect,
            "connect node uses the site1 and site2 specification, which is not supported "
            "yet. This constraint will be ignored.",
        )
        return
    p_AP = parse_vector(connect, "anchor", 3)
    if p_AP is None:
        diagnostics.error(
            connect,
            "connect specified body1 but does not have the required anchor attribute.",
        )
    for key in ("body1", "body2"):
        body = connect.get(key)
        if body is not None and not plant.HasBodyNamed(body, instance):
            diagnostics.error(
                connect,
                f"connect specified {key}: {body} but no body with that name exists in "
                f"model instance: {plant.GetModelInstanceName(instance)}",
            )
    body_A = plant.GetBodyByName(body1, instance)
    body2 = connect.get("body2")
    body_B = plant.world_body() if body2 is None else plant.GetBodyByName(body2, instance)
    plant.AddBallConstraint(body_A, p_AP, body_B)
    warn_unsupported_attribute(diagnostics, connect, "active")
