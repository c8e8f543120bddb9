"""SDFormat (1.6 – 1.11) models into a MultibodyPlant, as Drake's SDFormat parser builds them.

``parse(workspace, root, model_name=None)`` reads the ``<sdf>`` element ``root`` (with
``_sdf_dom``: specification checks, includes, the frame graph) and then adds, for each model
(nested ones first, as Drake does): a model instance, a RigidBody per link (its pose in the
world becomes its default floating pose), the ``__model__`` frame on the canonical link, the
joints (with the ``{joint}_parent`` / ``{joint}_child`` frames Drake makes, limits, damping,
springs and an actuator for each nonzero effort limit), the explicit frames, Drake's
``drake:`` elements, and the welds of a static model. Geometry is checked and ignored: the
parser registers none.
"""

import math

import numpy as np

from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing._attributes import convert_to_doubles
from mallard.multibody.parsing._collision_filter_groups import parse_collision_filter_group
from mallard.multibody.parsing._common import (
    add_ball_constraint,
    add_linear_bushing,
    add_linear_spring_damper,
    add_tendon_constraint,
    parse_spatial_inertia,
)
from mallard.multibody.parsing._numbers import ANY, INFINITE
from mallard.multibody.parsing._sdf_dom import Document
from mallard.multibody.parsing._sdf_geometry import geometry_records
from mallard.multibody.parsing._sdf_pose import (
    FrameError,
    _qrotate,
    attached_body,
    pose_in_scope,
    resolve_pose,
)
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    PdControllerGains,
    PlanarJoint,
    PrismaticJoint,
    PrismaticSpring,
    RevoluteJoint,
    RevoluteSpring,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
    world_model_instance,
)

#: The children of each element that Drake's parser reads; other SDFormat elements are
#: ignored with a warning, other ``drake:`` elements are errors.
SUPPORTED = {
    "model": {
        "drake:joint",
        "drake:linear_bushing_rpy",
        "drake:linear_spring_damper",
        "drake:ball_constraint",
        "drake:tendon_constraint",
        "drake:collision_filter_group",
        "frame",
        "include",
        "joint",
        "link",
        "model",
        "pose",
        "static",
    },
    "link": {"drake:visual", "collision", "gravity", "inertial", "kinematic", "pose", "visual"},
    "joint": {
        "axis",
        "axis2",
        "child",
        "drake:rotor_inertia",
        "drake:gear_ratio",
        "drake:controller_gains",
        "drake:mimic",
        "parent",
        "pose",
        "screw_thread_pitch",
    },
    "world": {"frame", "include", "joint", "model"},
    "limit": {"drake:acceleration", "effort", "lower", "stiffness", "upper", "velocity"},
    "drake:ball_constraint": {
        "drake:ball_constraint_body_A",
        "drake:ball_constraint_p_AP",
        "drake:ball_constraint_body_B",
        "drake:ball_constraint_p_BQ",
    },
    "drake:tendon_constraint": {
        "drake:tendon_constraint_joint",
        "drake:tendon_constraint_offset",
        "drake:tendon_constraint_lower_limit",
        "drake:tendon_constraint_upper_limit",
        "drake:tendon_constraint_stiffness",
        "drake:tendon_constraint_damping",
    },
}

_SINGLE_DOF = ("revolute", "prismatic", "continuous", "screw")


def parse(workspace, root, model_name=None):
    """Adds the models of the SDFormat document ``root`` (an XmlElement ``<sdf>``) to
    ``workspace.plant``; returns their ModelInstanceIndex list (nested ones after their
    parent). With ``model_name``, the document must hold one model, added under that name.
    Nothing is added if the document is broken (a located RuntimeError)."""
    plant = workspace.plant
    checkpoint = plant._checkpoint()
    try:
        return _Builder(workspace).build(root, model_name)
    except Exception:
        plant._rollback(checkpoint)
        raise


class _Builder:
    """Drake's stage: the plant elements of a read document."""

    def __init__(self, workspace):
        self.ws = workspace
        self.plant = workspace.plant
        self.diag = workspace.diagnostics
        self.doc = Document(workspace)

    # ---- diagnostics -----------------------------------------------------------------------
    def error(self, element, message):
        self.diag.error(element, message)

    def warning(self, element, message):
        self.diag.warning(element, message)

    def check_supported(self, element, kind=None):
        """Warnings (errors for ``drake:`` ones) for the children Drake does not read."""
        supported = SUPPORTED[kind or element.tag]
        for child in element.children:
            if child.tag in supported:
                continue
            if child.tag.startswith("drake:"):
                self.error(child, f"Unsupported SDFormat element in {element.tag}: {child.tag}")
            self.warning(
                child, f"Ignoring unsupported SDFormat element in {element.tag}: {child.tag}"
            )

    def resolve(self, vertex, relative_to, scope):
        try:
            return resolve_pose(vertex, relative_to, scope).to_rigid_transform()
        except FrameError as e:
            self.error(e.element or vertex.element, str(e))

    # ---- documents -------------------------------------------------------------------------
    def build(self, root, model_name):
        top = self.doc.read_root(root)
        self.doc.connect(top)
        self.reposture_interface_models(top)
        if model_name is not None:
            models = [m for m in top.models if m.interface is None]
            if len(models) != 1 or top.joints or top.frames:
                self.error(root, "File must have a single <model> element.")
            return self.add_models(models[0], self.ws.model_name(model_name), RigidTransform())
        instances = []
        for model in top.models:
            if model.interface is None:
                name = self.ws.model_name(model.name)
                instances += self.add_models(model, name, RigidTransform())
        if top.kind == "world":
            self.add_world_elements(top)
        return instances

    def reposture_interface_models(self, scope):
        """Default poses of the bodies of included URDF models: their place in the graph."""
        for nested in scope.models:
            if nested.interface is None:
                self.reposture_interface_models(nested)
                continue
            top = scope
            while top.parent is not None:
                top = top.parent
            for link in nested.links:
                X_WL = pose_in_scope(link, top).to_rigid_transform()
                self.plant.SetDefaultFloatingBaseBodyPose(link.body, X_WL)

    def add_world_elements(self, world):
        self.check_supported(world.element, "world")
        for frame in world.frames:
            self.add_frame(frame, world, self.plant.world_frame())
        joint_types = set()
        for joint in world.joints:
            self.add_joint(joint, world, RigidTransform(), joint_types)
        for joint in world.joints:
            self.parse_mimic(joint, world_model_instance())
        if joint_types - {"fixed"}:
            self.error(world.element, "Only fixed joints are permitted in world joints.")

    # ---- models ----------------------------------------------------------------------------
    def add_models(self, scope, model_name, X_WP):
        """Adds the model ``scope`` and its nested models; returns their instances."""
        plant = self.plant
        instance = plant.AddModelInstance(model_name)
        scope.instance = instance
        self.check_supported(scope.element, "model")
        X_PM = self.resolve(scope.vertex, None, scope.parent)
        X_WM = X_WP @ X_PM
        added = [instance]
        for nested in scope.models:
            if nested.interface is None:
                added += self.add_models(nested, f"{model_name}::{nested.name}", X_WM)
        welds = []
        for link in scope.links:
            X_WL = self.add_link(link, scope, instance, X_WM)
            welds.append((link.body, X_WL))
        scope.model_frame = self.add_model_frame(scope, instance, X_WM)
        joint_types = set()
        for joint in scope.joints:
            self.add_joint(joint, scope, X_WM, joint_types)
        for joint in scope.joints:
            self.parse_mimic(joint, instance)
        for frame in scope.frames:
            self.add_frame(frame, scope, scope.model_frame)
        self.add_drake_elements(scope, instance)
        if scope.static:
            if joint_types - {"fixed"}:
                self.error(scope.element, "Only fixed joints are permitted in static models.")
            world = plant.world_frame()
            for body, X_WL in welds:
                if body not in plant.GetBodiesWeldedTo(plant.world_body()):
                    name = f"sdformat_model_static_{world.name()}_welds_to_{body.name()}"
                    plant.AddJoint(WeldJoint(name, world, body.body_frame(), X_WL))
        return added

    def add_link(self, link, scope, instance, X_WM):
        """Adds the body of ``link``; returns its pose X_WL (also its default pose)."""
        element = link.element
        self.check_supported(element, "link")
        for tag, expected in (("kinematic", False), ("gravity", True)):
            child = element.find(tag)
            if child is not None and self.doc.boolean(child) != expected:
                self.warning(
                    child,
                    f"Unsupported value for SDFormat element {tag}: {str(not expected).lower()}",
                )
        M_BBo_B = self.link_inertia(element)
        body = self.plant.AddRigidBody(link.name, instance, M_BBo_B)
        link.body = body
        X_ML = self.resolve(link, None, scope)
        X_WL = X_WM @ X_ML
        self.plant.SetDefaultFloatingBaseBodyPose(body, X_WL)
        if self.ws.geometries is not None:
            self.ws.geometries += geometry_records(self.ws, self.doc, body, element)
        return X_WL

    def link_inertia(self, element):
        """M_BBo_B from ``<inertial>`` (SDFormat's defaults: mass 1, unit moments)."""
        inertial = element.find("inertial")
        doc = self.doc
        if inertial is not None and inertial.get("auto") in ("1", "true"):
            self.error(
                inertial,
                "<inertial auto='true'> (inertia computed from the "
                "collision geometry) is not supported by mallard's SDFormat parser",
            )
        # Non-finite values are passed on: Drake warns and makes a plausible inertia.
        mass = doc.number(inertial, "mass", 1.0, ANY)
        inertia = inertial.find("inertia") if inertial is not None else None
        moments = [doc.number(inertia, tag, 1.0, ANY) for tag in ("ixx", "iyy", "izz")]
        products = [doc.number(inertia, tag, 0.0, ANY) for tag in ("ixy", "ixz", "iyz")]
        pose = inertial.find("pose") if inertial is not None else None
        if pose is not None and pose.get("relative_to"):
            self.error(
                pose,
                "<inertial><pose relative_to> is not supported; the inertial pose "
                "is relative to its link",
            )
        X_BBi = doc.pose(pose).to_rigid_transform()
        return parse_spatial_inertia(self.diag, element, X_BBi, mass, moments + products)

    def add_model_frame(self, scope, instance, X_WM):
        """The ``__model__`` frame: on the canonical link at X_LcM, or on the world."""
        plant = self.plant
        canonical = scope.canonical
        if canonical is not None and canonical.body is not None:
            X_LcM = self.resolve(scope.vertex, canonical, scope.parent)
            parent = canonical.body.body_frame()
        else:
            X_LcM, parent = X_WM, plant.world_frame()
        return plant.AddFrame(FixedOffsetFrame("__model__", parent, X_LcM, instance))

    # ---- joints ----------------------------------------------------------------------------
    def body_of(self, vertex, element):
        """The plant body a frame vertex is attached to (the world for None)."""
        if vertex is None:
            return self.plant.world_body()
        try:
            sink = attached_body(vertex)
        except FrameError as e:
            self.error(element, str(e))
        if sink.kind == "world":
            return self.plant.world_body()
        if sink.body is None:
            self.error(element, f"Frame [{vertex.scoped_name()}] is not attached to a link")
        return sink.body

    def add_joint(self, joint, scope, X_WM, joint_types):
        """Adds ``joint`` as Drake does: frames F (``{name}_parent``, unless it would be the
        parent body frame itself) and M (``{name}_child``) at the joint frame J, in the
        child body's model instance; limits, damping, actuator and spring."""
        element = joint.element
        self.check_supported(element, "joint")
        joint_type = element.get("type")
        plant = self.plant
        parent_body = self.body_of(joint.parent, element)
        child_body = self.body_of(joint.child, element)
        X_CJ = self.resolve(joint, attached_body(joint.child), scope)
        if parent_body is plant.world_body():
            X_PJ = X_WM @ self.resolve(joint, None, scope)
        else:
            X_PJ = self.resolve(joint, attached_body(joint.parent), scope)
        if X_PJ.IsExactlyIdentity():
            X_PJ = None
        name = joint.name
        axis, axis2 = element.find("axis"), element.find("axis2")
        if joint_type in ("gearbox", "revolute2"):
            self.error(element, f"Joint type ({joint_type}) not supported for joint '{name}'.")
        damping = self.joint_damping(joint, axis, axis2) if joint_type != "fixed" else 0.0

        def frames(X_PF, X_CM):
            instance = child_body.model_instance()
            made = []
            for suffix, body, X in (("parent", parent_body, X_PF), ("child", child_body, X_CM)):
                if X is None:
                    made.append(body.body_frame())
                else:
                    frame = FixedOffsetFrame(f"{name}_{suffix}", body.body_frame(), X, instance)
                    made.append(plant.AddFrame(frame))
            return made

        if joint_type == "fixed":
            plant.AddJoint(WeldJoint(name, *frames(X_PJ, X_CJ), RigidTransform()))
        elif joint_type == "universal":
            self.add_universal(joint, axis, axis2, X_PJ, X_CJ, damping, frames)
        elif joint_type == "ball":
            plant.AddJoint(BallRpyJoint(name, *frames(X_PJ, X_CJ), damping))
            self.ball_warnings(joint, axis, axis2)
        else:
            axis_J = self.joint_axis(joint, axis, scope)
            if joint_type == "screw":
                pitch = self.screw_pitch(element)
                made = plant.AddJoint(ScrewJoint(name, *frames(X_PJ, X_CJ), axis_J, pitch, damping))
            else:
                lower, upper, velocity, acceleration = self.joint_limits(joint, axis)
                F, M = frames(X_PJ, X_CJ)
                if joint_type == "prismatic":
                    made = PrismaticJoint(name, F, M, axis_J, lower, upper, damping)
                elif joint_type == "revolute":
                    made = RevoluteJoint(name, F, M, axis_J, lower, upper, damping)
                else:
                    made = RevoluteJoint(name, F, M, axis_J, damping)
                plant.AddJoint(made)
                if velocity != math.inf:  # (a new joint's limits are infinite)
                    made.set_velocity_limits([-velocity], [velocity])
                if acceleration != math.inf:
                    made.set_acceleration_limits([-acceleration], [acceleration])
            self.add_actuator(joint, made, axis, axis2)
            if joint_type != "screw":
                self.add_spring(joint, made, axis, joint_type)
        joint_types.add(joint_type)

    def joint_damping(self, joint, axis, axis2):
        damping = self.doc.number(_dynamics(axis), "damping", 0.0)
        if damping < 0:
            self.error(
                joint.element,
                f"Joint damping is negative for joint '{joint.name}'. "
                "Joint damping must be a non-negative number.",
            )
        if axis2 is not None:
            damping2 = self.doc.number(_dynamics(axis2), "damping", 0.0)
            if damping2 != damping:
                self.warning(
                    joint.element,
                    f"Joint damping must be equal for both axes for "
                    f"joint {joint.name}. The damping coefficient for 'axis' "
                    f"({damping:g}) is used. The value for 'axis2' ({damping2:g}) is "
                    f"ignored. The damping coefficient for 'axis2' should be "
                    f"explicitly defined as {damping:g} to match that for 'axis'.",
                )
        return damping

    def axis_xyz(self, joint, axis, scope):
        """xyz of ``axis`` in the joint frame J (resolving ``expressed_in``)."""
        xyz_element = axis.find("xyz")
        xyz = tuple(self.doc.numbers(xyz_element, 3)) if xyz_element is not None else (0, 0, 1)
        expressed_in = xyz_element.get("expressed_in") if xyz_element is not None else None
        if joint.axis_in_model:
            expressed_in = "__model__"
        if not expressed_in:
            return np.array(xyz, dtype=float)
        frame = scope.lookup(expressed_in)
        if frame is None:
            self.error(
                xyz_element,
                f"expressed_in name[{expressed_in}] specified by joint "
                f"with name[{joint.name}] does not match a nested model, link, joint, "
                f"or frame name in model with name[{scope.name}].",
            )
        try:
            X_JE = resolve_pose(frame, joint, scope)
        except FrameError as e:
            self.error(xyz_element, str(e))
        return np.array(_qrotate(X_JE.q, xyz))

    def joint_axis(self, joint, axis, scope):
        if axis is None:
            self.error(joint.element, f"An axis must be specified for joint '{joint.name}'")
        return self.axis_xyz(joint, axis, scope)

    def joint_limits(self, joint, axis):
        """(lower, upper, velocity, acceleration) of a revolute, prismatic or continuous
        joint (no limits: ±∞, which may also be written; a negative velocity limit means none,
        as libsdformat reads it)."""
        limit = axis.find("limit")

        def number(parent, tag, default):
            return self.doc.number(parent, tag, default, INFINITE)

        lower = number(limit, "lower", -math.inf)
        upper = number(limit, "upper", math.inf)
        if joint.element.get("type") == "continuous":
            lower, upper = -math.inf, math.inf
        if lower > upper:
            self.error(
                joint.element,
                f"The lower limit must be lower (or equal) than the upper "
                f"limit for joint '{joint.name}'.",
            )
        velocity = number(limit, "velocity", -1.0)
        velocity = math.inf if velocity < 0 else velocity
        acceleration = math.inf
        if limit is not None:
            self.check_supported(limit, "limit")
            acceleration = number(limit, "drake:acceleration", math.inf)
            if acceleration < 0:
                self.error(
                    limit,
                    f"Acceleration limit is negative for joint '{joint.name}'. "
                    "Acceleration limit must be a non-negative number.",
                )
        return lower, upper, velocity, acceleration

    def effort_limit(self, joint, axis, which=""):
        if axis is None:
            self.warning(
                joint.element, f"An axis{which} must be specified for joint '{joint.name}'"
            )
            return 0.0
        effort = self.doc.number(axis.find("limit"), "effort", -1.0, INFINITE)
        return math.inf if effort < 0 else effort

    def add_actuator(self, joint, made, axis, axis2):
        """An actuator for a nonzero effort limit, with Drake's actuator extensions."""
        element = joint.element
        effort = self.effort_limit(joint, axis)
        if effort != 0:
            actuator = self.plant.AddJointActuator(joint.name, made, effort)
            for tag, setter in (
                ("drake:rotor_inertia", actuator.set_default_rotor_inertia),
                ("drake:gear_ratio", actuator.set_default_gear_ratio),
            ):
                child = element.find(tag)
                if child is not None:
                    setter(self.doc.numbers(child, 1)[0])
            gains = element.find("drake:controller_gains")
            if gains is not None:
                values = {}
                for attribute in ("p", "d"):
                    values[attribute] = self.doc.attribute_number(gains, attribute)
                    if values[attribute] is None:
                        self.error(
                            gains,
                            f"<drake:controller_gains>: Unable to find the "
                            f"'{attribute}' attribute.",
                        )
                actuator.set_controller_gains(PdControllerGains(**values))
        if axis2 is not None:
            self.warning(
                element,
                f"An axis2 may not be specified for 1-dof joint '{joint.name}' and will be ignored",
            )

    def add_spring(self, joint, made, axis, joint_type):
        dynamics = _dynamics(axis)
        reference = self.doc.number(dynamics, "spring_reference", 0.0)
        stiffness = self.doc.number(dynamics, "spring_stiffness", 0.0)
        if joint_type == "prismatic":
            if stiffness < 0:
                self.error(
                    joint.element,
                    f"The stiffness specified for joint '{joint.name}' must be non-negative.",
                )
            if stiffness > 0:
                self.plant.AddForceElement(PrismaticSpring(made, reference, stiffness))
        elif stiffness != 0:
            try:
                self.plant.AddForceElement(RevoluteSpring(made, reference, stiffness))
            except (RuntimeError, ValueError) as e:
                self.error(joint.element, str(e))

    def screw_pitch(self, element):
        """``screw_thread_pitch`` (m/revolution); SDFormat's deprecated ``thread_pitch``
        (rad/m, Gazebo's sign) as libsdformat converts it: −2π/thread_pitch."""
        pitch = element.find("screw_thread_pitch")
        if pitch is not None:
            return self.doc.numbers(pitch, 1)[0]
        old = element.find("thread_pitch")
        if old is not None:
            self.warning(
                old,
                "SDF Element[thread_pitch] is deprecated; use "
                "screw_thread_pitch (meters per revolution)",
            )
            return -2.0 * math.pi / self.doc.numbers(old, 1)[0]
        return 1.0

    def add_universal(self, joint, axis, axis2, X_PJ, X_CJ, damping, frames):
        """Drake's universal joint turns about Fx then My: F and M are made to coincide
        with the frame I whose x and y are ``axis`` and ``axis2``."""
        if axis is None or axis2 is None:
            self.error(
                joint.element, f"Both axis and axis2 must be specified for joint '{joint.name}'"
            )
        scope = joint.scope
        Ix = self.axis_xyz(joint, axis, scope)
        Iy = self.axis_xyz(joint, axis2, scope)
        Ix, Iy = Ix / np.linalg.norm(Ix), Iy / np.linalg.norm(Iy)
        R_JI = np.column_stack([Ix, Iy, np.cross(Ix, Iy)])
        if not np.allclose(R_JI.T @ R_JI, np.eye(3), atol=128 * np.finfo(float).eps, rtol=0):
            self.error(joint.element, f"axis and axis2 must be orthogonal for joint '{joint.name}'")
        X_JI = RigidTransform(RotationMatrix._make(R_JI), np.zeros(3))
        X_PI = X_JI if X_PJ is None else X_PJ @ X_JI
        made = self.plant.AddJoint(UniversalJoint(joint.name, *frames(X_PI, X_CJ @ X_JI), damping))
        if self.effort_limit(joint, axis) != 0 or self.effort_limit(joint, axis2, "2") != 0:
            self.warning(
                joint.element,
                f"Actuation (via non-zero effort limits) for universal "
                f"joint '{joint.name}' is not implemented yet and will be ignored.",
            )
        return made

    def ball_warnings(self, joint, axis, axis2):
        if axis is not None:
            self.warning(
                joint.element,
                "A ball joint axis will be ignored. Only the dynamic "
                "parameters and limits will be considered.",
            )
            if self.effort_limit(joint, axis) != 0:
                self.warning(
                    joint.element,
                    f"Actuation (via non-zero effort limits) for ball "
                    f"joint '{joint.name}' is not implemented yet and will be ignored.",
                )
        if axis2 is not None:
            self.warning(
                joint.element,
                f"An axis2 may not be specified for ball joint '{joint.name}' and will be ignored",
            )

    def parse_mimic(self, joint, instance):
        """``<drake:mimic joint= multiplier= offset=>``: checked as Drake checks it, then a
        coupler constraint q_joint = multiplier·q_mimicked + offset (added for continuous
        plants too, as pydrake adds it; their dynamics then raise)."""
        mimic = joint.element.find("drake:mimic")
        if mimic is None:
            return
        plant, name = self.plant, joint.name
        target = mimic.get("joint")
        if target is None:
            self.error(
                mimic,
                f"Joint '{name}' drake:mimic element is missing the required 'joint' attribute.",
            )
            return
        if not plant.HasJointNamed(target, instance):
            self.error(
                mimic,
                f"Joint '{name}' drake:mimic element specifies joint '{target}' which does not "
                "exist.",
            )
            return
        if target == name:
            self.error(
                mimic,
                f"Joint '{name}' drake:mimic element specifies joint '{target}'. Joints cannot "
                "mimic themselves.",
            )
            return
        values = {}
        for attribute in ("multiplier", "offset"):
            values[attribute] = self.doc.attribute_number(mimic, attribute)
            if values[attribute] is None:
                self.error(
                    mimic,
                    f"Joint '{name}' drake:mimic element is missing the required "
                    f"'{attribute}' attribute.",
                )
        if not plant.HasJointNamed(name, instance):
            return  # (the joint itself was not added: its error was reported)
        joint0 = plant.GetJointByName(name, instance)
        joint1 = plant.GetJointByName(target, instance)
        if joint0.num_velocities() != 1 or joint1.num_velocities() != 1:
            self.warning(
                mimic,
                "Drake only supports the drake:mimic element for single-dof joints. The joint "
                f"'{name}' (with {joint0.num_velocities()} dofs) is attempting to mimic joint "
                f"'{target}' (with {joint1.num_velocities()} dofs). The drake:mimic element "
                "will be ignored.",
            )
            return
        plant.AddCouplerConstraint(joint0, joint1, values["multiplier"], values["offset"])

    # ---- frames ----------------------------------------------------------------------------
    def add_frame(self, frame, scope, default_frame):
        """A FixedOffsetFrame for ``<frame>``, attached as Drake attaches it: to the model
        frame of a named model; else to the plant frame named ``attached_to`` in the model
        instance its scoped name implies (a link's body frame, an earlier frame of that
        instance); else to the body the named element is attached to (the pose staying
        relative to that element, as Drake has it)."""
        plant = self.plant
        name = frame.attached_to_name
        target = scope.lookup(name) if name else None
        X_PF = self.resolve(frame, target, scope)
        if target is None:
            parent = default_frame
        elif target.kind == "model" and target is not scope.vertex:
            parent = target.scope.model_frame
        else:
            namespace, _, local = name.rpartition("::")
            owner = scope.lookup(namespace).scope if namespace else scope
            instance = owner.instance if owner.kind == "model" else world_model_instance()
            if plant.HasFrameNamed(local, instance):
                parent = plant.GetFrameByName(local, instance)
            else:
                parent = self.body_of(target, frame.element).body_frame()
        # (Drake's FixedOffsetFrame takes its parent frame's model instance.)
        frame.plant_frame = plant.AddFrame(
            FixedOffsetFrame(frame.name, parent, X_PF, parent.model_instance())
        )

    # ---- drake: elements -------------------------------------------------------------------
    def add_drake_elements(self, scope, instance):
        element = scope.element
        for child in element.children:
            if child.tag == "drake:joint":
                self.add_drake_joint(child, scope)
            elif child.tag == "drake:linear_bushing_rpy":
                self.add_bushing(child, scope)
            elif child.tag == "drake:linear_spring_damper":
                self.add_spring_damper(child, instance)
            elif child.tag == "drake:collision_filter_group":
                if self.ws.filter_groups is not None:
                    parse_collision_filter_group(self.ws, child, instance, sdf=True)
        # Then the constraints, as Drake: every ball constraint, then every tendon constraint.
        for child in element.children:
            if child.tag == "drake:ball_constraint":
                self.check_supported(child)
                add_ball_constraint(
                    self.plant,
                    lambda tag, node=child: self.vector3(node, tag),
                    lambda tag, node=child: self.named_body(node, tag, instance),
                )
        for child in element.children:
            if child.tag == "drake:tendon_constraint":
                self.add_tendon_constraint(child, instance)

    def add_tendon_constraint(self, node, instance):
        """A ``drake:tendon_constraint``: its joints (``drake:tendon_constraint_joint``, each a
        name and a coefficient a), then its values (Drake's ParseTendonConstraint)."""
        self.check_supported(node)
        joints = []
        for child in node.children:
            if child.tag != "drake:tendon_constraint_joint":
                continue
            for attribute in ("name", "a"):
                if child.get(attribute) is None:
                    self.error(
                        child,
                        f'The tag <{child.tag}> is missing the required attribute "{attribute}"',
                    )
            name = child.get("name")
            if not self.plant.HasJointNamed(name, instance):
                self.error(
                    node,
                    f"<{node.tag}>: Joint '{name}' specified for <{child.tag}> does not exist in "
                    "the model.",
                )
            a = convert_to_doubles(child.get("a"))
            if len(a) != 1:
                self.error(child, f"<{child.tag}>: Unable to read the attribute 'a' as a number.")
            joints.append((self.plant.GetJointByName(name, instance).index(), a[0]))

        def read_double(tag):
            self.child_text(node, tag)
            return self.doc.numbers(node.find(tag), 1, allow=INFINITE)[0]

        add_tendon_constraint(self.plant, joints, read_double)

    def child_text(self, node, tag):
        child = node.find(tag)
        if child is None:
            self.error(node, f"<{node.tag}>: Unable to find the <{tag}> child tag.")
        return (child.text or "").strip()

    def vector3(self, node, tag):
        self.child_text(node, tag)
        return np.array(self.doc.numbers(node.find(tag), 3))

    def scalar(self, node, tag, minimum=None, strict=False):
        self.child_text(node, tag)
        value = self.doc.numbers(node.find(tag), 1)[0]
        if minimum is not None and (value <= minimum if strict else value < minimum):
            kind = "strictly positive" if strict else "non-negative"
            self.error(node, f"<{node.tag}>: The <{tag}> child tag must be {kind}.")
        return value

    def named_frame(self, node, tag, scope):
        """The plant frame named by ``node``'s child ``tag`` (scoped names look down)."""
        frame_name = self.child_text(node, tag)
        model_name = self.plant.GetModelInstanceName(scope.instance)
        full = f"{model_name}::{frame_name}"
        namespace, _, local = full.rpartition("::")
        if not self.plant.HasModelInstanceNamed(namespace):
            self.error(
                node,
                f"<{node.tag}>: Model instance name '{namespace}' (implied by "
                f"frame name '{frame_name}' in <{tag}> within model instance "
                f"'{model_name}') does not exist in the model.",
            )
        instance = self.plant.GetModelInstanceByName(namespace)
        if not self.plant.HasFrameNamed(local, instance):
            self.error(
                node,
                f"<{node.tag}>: Frame '{frame_name}' specified for <{tag}> does not "
                "exist in the model.",
            )
        return self.plant.GetFrameByName(local, instance)

    def named_body(self, node, tag, instance):
        body_name = self.child_text(node, tag)
        if not self.plant.HasBodyNamed(body_name, instance):
            self.error(
                node,
                f"<{node.tag}>: Body '{body_name}' specified for <{tag}> does not "
                "exist in the model.",
            )
        return self.plant.GetBodyByName(body_name, instance)

    def add_drake_joint(self, node, scope):
        for attribute in ("type", "name"):
            if node.get(attribute) is None:
                self.error(node, f"<drake:joint>: Unable to find the '{attribute}' attribute.")
        if node.find("pose") is not None:
            self.error(node, "<drake:joint> does not yet support the <pose> child tag.")
        name, joint_type = node.get("name"), node.get("type")
        parent = self.named_frame(node, "drake:parent", scope)
        child = self.named_frame(node, "drake:child", scope)
        if joint_type != "planar":
            self.error(
                node,
                f"<drake:joint> '{name}' has unrecognized value for 'type' attribute: {joint_type}",
            )
        damping = self.vector3(node, "drake:damping")
        self.plant.AddJoint(PlanarJoint(name, parent, child, damping))

    def add_bushing(self, node, scope):
        add_linear_bushing(
            self.plant,
            lambda tag: self.vector3(node, tag),
            lambda tag: self.named_frame(node, tag, scope),
        )

    def add_spring_damper(self, node, instance):
        def read_double(tag):
            strict = tag.endswith("free_length")
            return self.scalar(node, tag, 0.0, strict=strict)

        add_linear_spring_damper(
            self.plant,
            lambda tag: self.vector3(node, tag),
            lambda tag: self.named_body(node, tag, instance),
            read_double,
        )


def _dynamics(axis):
    return axis.find("dynamics") if axis is not None else None
