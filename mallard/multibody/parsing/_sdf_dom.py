"""The SDFormat document as libsdformat sees it before Drake builds from it: the element tree
checked against the specification, ``<include>``s expanded (SDFormat files become nested
models; URDF files are parsed into the plant at once, as Drake's custom-parser callback does,
and become interface models), and every named frame in a frame graph (``_sdf_pose``).
"""

import copy
import math
import os

from mallard.multibody.parsing._numbers import FINITE, nonfinite_problem
from mallard.multibody.parsing._sdf_geometry import read_shape
from mallard.multibody.parsing._sdf_pose import (
    FrameError,
    Pose,
    Scope,
    Vertex,
    attached_body,
    cache_poses,
    check_poses,
    resolve_pose,
)

#: The versions whose semantics are implemented (older ones are read as 1.6).
LATEST_VERSION = (1, 11)

#: Child elements the SDFormat specification defines for the elements checked here; any other
#: child without a namespace prefix is an error, as libsdformat reports it.
SPEC = {
    "sdf": {"world", "model", "actor", "light"},
    "world": {
        "audio",
        "wind",
        "include",
        "gravity",
        "magnetic_field",
        "atmosphere",
        "gui",
        "physics",
        "scene",
        "light",
        "frame",
        "model",
        "actor",
        "plugin",
        "joint",
        "road",
        "spherical_coordinates",
        "state",
        "population",
    },
    "model": {
        "static",
        "self_collide",
        "allow_auto_disable",
        "include",
        "model",
        "enable_wind",
        "frame",
        "pose",
        "link",
        "joint",
        "plugin",
        "gripper",
    },
    "include": {"uri", "name", "static", "placement_frame", "pose", "plugin"},
    "link": {
        "gravity",
        "enable_wind",
        "self_collide",
        "kinematic",
        "must_be_base_link",
        "velocity_decay",
        "pose",
        "inertial",
        "collision",
        "visual",
        "sensor",
        "projector",
        "audio_sink",
        "audio_source",
        "battery",
        "light",
        "particle_emitter",
    },
    "inertial": {"mass", "pose", "inertia", "fluid_added_mass", "density", "auto_inertia_params"},
    "inertia": {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"},
    "joint": {
        "parent",
        "child",
        "gearbox_ratio",
        "gearbox_reference_body",
        "thread_pitch",
        "screw_thread_pitch",
        "axis",
        "axis2",
        "physics",
        "pose",
        "sensor",
    },
    "axis": {"xyz", "use_parent_model_frame", "dynamics", "limit", "mimic"},
    "dynamics": {"damping", "friction", "spring_reference", "spring_stiffness"},
    "limit": {"lower", "upper", "effort", "velocity", "stiffness", "dissipation"},
    "frame": {"pose"},
    "visual": {
        "cast_shadows",
        "laser_retro",
        "transparency",
        "visibility_flags",
        "meta",
        "pose",
        "material",
        "geometry",
        "plugin",
        "lidar_reflective_intensity",
    },
    "collision": {"laser_retro", "max_contacts", "pose", "geometry", "surface"},
    "geometry": {
        "empty",
        "box",
        "capsule",
        "cylinder",
        "ellipsoid",
        "heightmap",
        "image",
        "mesh",
        "plane",
        "polyline",
        "sphere",
    },
}
SPEC["axis2"] = SPEC["axis"]


class Document:
    """Reads one SDFormat file (and what it includes) for the workspace ``ws``."""

    def __init__(self, ws):
        self.ws = ws
        self.diag = ws.diagnostics

    # ---- values ----------------------------------------------------------------------------
    def error(self, element, message):
        self.diag.error(element, message)

    def text(self, element, default=None):
        return element.text if element is not None and element.text is not None else default

    def numbers(self, element, count=None, allow=FINITE):
        """The numbers in ``element``'s text (``count`` of them, if given); NaN and inf only
        as ``allow`` says (``_numbers``)."""
        values = _read_floats(element.text)
        if values is None or (count is not None and len(values) != count):
            self.error(
                element,
                f"Error reading element <{element.tag}>: expected "
                f"{count or 'some'} number(s), got '{element.text or ''}'",
            )
        self.check_finite(element, values, element.text, allow)
        return values

    def number(self, parent, tag, default, allow=FINITE):
        """The number in ``parent``'s child ``tag``, or ``default``."""
        child = parent.find(tag) if parent is not None else None
        return default if child is None else self.numbers(child, 1, allow)[0]

    def attribute_number(self, element, name, allow=FINITE):
        """The number in attribute ``name`` of ``element``, or None if it is absent."""
        text = element.get(name)
        if text is None:
            return None
        values = _read_floats(text)
        if values is None or len(values) != 1:
            self.error(element, f"Unable to read attribute[{name}] value '{text}' of {element.tag}")
        self.check_finite(element, values, text, allow, f"attribute[{name}] of <{element.tag}>")
        return values[0]

    def check_finite(self, element, values, text, allow=FINITE, what=None):
        """An error at ``element`` if ``values`` (read from ``text``) hold a NaN or an
        infinity that ``allow`` does not permit."""
        problem = nonfinite_problem(values, allow)
        if problem is not None:
            what = what or f"element <{element.tag}>"
            self.error(element, f"Error reading {what}: {problem}, got '{text.strip()}'")

    def boolean(self, element, default=False):
        if element is None:
            return default
        value = (element.text or "").strip().lower()
        if value in ("1", "true"):
            return True
        if value in ("0", "false"):
            return False
        self.error(
            element, f"Error reading element <{element.tag}>: '{element.text}' is not a boolean"
        )

    def pose(self, element):
        """The Pose of a ``<pose>`` element (identity for None), with SDFormat 1.9's
        ``degrees`` and ``rotation_format`` attributes."""
        if element is None:
            return Pose()
        if element.get("frame"):
            self.error(
                element,
                "<pose frame='{non-empty}'/> is not supported; use "
                "relative_to (SDFormat 1.7 or later)",
            )
        fmt = element.get("rotation_format", "euler_rpy")
        values = _read_floats(element.text)
        expected = {"euler_rpy": 6, "quat_xyzw": 7}.get(fmt)
        if expected is None:
            self.error(
                element,
                f"Undefined attribute //pose[@rotation_format='{fmt}'], only "
                "'euler_rpy' and 'quat_xyzw' is supported",
            )
        if values is None or len(values) not in (0, expected):
            self.error(
                element,
                f"Error reading element <pose>: the value for "
                f"//pose[@rotation_format='{fmt}'] must have {expected} values, got "
                f"'{element.text or ''}'",
            )
        if not values:
            return Pose()
        self.check_finite(element, values, element.text)
        if fmt == "quat_xyzw":
            x, y, z, w = values[3:]
            return Pose(values[:3], _normalized_or_error(self, element, (w, x, y, z)))
        rpy = values[3:]
        if self.boolean_attribute(element, "degrees"):
            rpy = [math.radians(a) for a in rpy]
        return Pose.from_rpy(values[:3], rpy)

    def boolean_attribute(self, element, name):
        value = element.get(name)
        if value is None:
            return False
        if value.lower() in ("1", "true"):
            return True
        if value.lower() in ("0", "false"):
            return False
        self.error(element, f"Invalid boolean value '{value}' of attribute [{name}]")

    def check_schema(self, element):
        """Errors, in document order, for elements the specification does not define under
        the elements of SPEC (namespaced ones, like ``drake:``, pass)."""
        allowed = SPEC[element.tag]
        for child in element.children:
            if ":" in child.tag:
                continue
            if child.tag not in allowed:
                self.error(
                    child,
                    f"XML Element[{child.tag}], child of element[{element.tag}], not defined "
                    f"in SDF. Copying[{child.tag}] as children of [{element.tag}].",
                )
            if child.tag in SPEC:
                self.check_schema(child)

    def name_of(self, element):
        name = element.get("name")
        if name is None:
            self.error(
                element,
                f"Required attribute[name] in element[{element.tag}] is not specified in SDF.",
            )
        if (
            name == ""
            or "::" in name
            or name in ("world", "__model__")
            or (name.startswith("__") and name.endswith("__"))
        ):
            self.error(element, f"The supplied {element.tag} name [{name}] is reserved or invalid.")
        return name

    # ---- reading ---------------------------------------------------------------------------
    def read_root(self, root):
        """The top Scope of the ``<sdf>`` element ``root``: a world, or the root above a
        single model."""
        if root.tag != "sdf":
            self.error(
                root, f"The root element of an SDFormat file must be <sdf>, not <{root.tag}>"
            )
        version = root.get("version")
        if version is None:
            self.error(root, "Required attribute[version] in element[sdf] is not specified in SDF.")
        parsed = _version(version)
        if parsed is None or parsed > LATEST_VERSION or parsed < (1, 0):
            self.error(
                root,
                f"Unable to convert from SDF version {version} to "
                f"{LATEST_VERSION[0]}.{LATEST_VERSION[1]}",
            )
        self.check_schema(root)
        models, worlds = root.findall("model"), root.findall("world")
        if len(models) > 1:
            self.error(
                models[1], "Root object can only contain one model. Using the first one found"
            )
        if len(models) + len(worlds) != 1:
            self.error(
                root,
                f"File must have exactly one <model> or exactly one <world>, but "
                f"instead has {len(models)} models and {len(worlds)} worlds",
            )
        if worlds:
            return self.read_world(worlds[0], parsed)
        scope = Scope("", "root", element=root)
        scope.models.append(scope.add_model(self.read_model(models[0], scope, parsed)))
        return scope

    def read_world(self, element, version):
        scope = Scope(self.name_of(element), "world", element=element)
        # Vectors libsdformat reads (and checks) though Drake does not use them.
        for tag in ("gravity", "magnetic_field"):
            vector = element.find(tag)
            if vector is not None:
                self.numbers(vector, 3)
        self.read_children(element, scope, version)
        return scope

    def read_model(self, element, parent, version, include=None):
        """A Scope of the ``<model>`` element; ``include`` (an ``<include>`` element) overrides
        its name, pose, static flag and placement frame."""
        scope = Scope(self.name_of(element), "model", parent, element)
        scope.pose_element = element.find("pose")
        scope.static = self.boolean(element.find("static"))
        scope.canonical_link = element.get("canonical_link")
        scope.placement_frame = element.get("placement_frame")
        if include is not None:
            self.apply_include(scope, include)
        self.read_children(element, scope, version)
        if not (scope.links or scope.models or scope.static):
            self.error(element, "A model must have at least one link.")
        return scope

    def read_children(self, element, scope, version):
        """The links, joints, frames and (nested or included) models of a model or world,
        named in ``scope``."""
        for child in element.children:
            if child.tag == "link":
                scope.links.append(self.read_link(child, scope))
            elif child.tag == "joint":
                scope.joints.append(self.read_joint(child, scope, version))
            elif child.tag == "frame":
                scope.frames.append(self.read_frame(child, scope))
            elif child.tag == "model":
                scope.models.append(self.read_model(child, scope, version))
            elif child.tag == "include":
                self.read_include(child, scope, version)
        for vertex in scope.links + scope.joints + scope.frames:
            scope.add(vertex)
        for nested in scope.models:
            scope.add_model(nested)
        self.check_unique(scope)

    def apply_include(self, scope, include):
        name = include.find("name")
        if name is not None:
            scope.name = self.text(name, scope.name)
        pose = include.find("pose")
        if pose is not None:
            scope.pose_element = pose
        static = include.find("static")
        if static is not None:
            scope.static = self.boolean(static)
        placement = include.find("placement_frame")
        if placement is not None:
            scope.placement_frame = self.text(placement)
        scope.include = include

    def read_link(self, element, scope):
        vertex = Vertex(self.name_of(element), "link", scope, element)
        for tag in ("visual", "collision"):
            for child in element.findall(tag):
                self.read_geometry_owner(child)
        return vertex

    def read_geometry_owner(self, element):
        """Checks a ``<visual>`` or ``<collision>``: its name, pose, material colors and
        shape."""
        self.name_of(element)
        self.pose(element.find("pose"))
        material = element.find("material")
        if material is not None:
            for tag in ("ambient", "diffuse", "specular", "emissive"):
                color = material.find(tag)
                if color is not None:
                    # libsdformat takes a NaN color (and rejects inf): mallard rejects both.
                    self.numbers(color)
        geometry = element.find("geometry")
        if geometry is None:
            return
        read_shape(self, geometry)

    def read_joint(self, element, scope, version):
        vertex = Vertex(self.name_of(element), "joint", scope, element)
        joint_type = element.get("type")
        if joint_type is None:
            self.error(
                element, "Required attribute[type] in element[joint] is not specified in SDF."
            )
        valid = {
            "revolute",
            "prismatic",
            "fixed",
            "ball",
            "universal",
            "screw",
            "continuous",
            "revolute2",
            "gearbox",
        }
        if joint_type not in valid:
            self.error(
                element,
                f"Joint type of {joint_type} is invalid. Refer to the SDF "
                "documentation for a list of valid joint types",
            )
        for tag in ("parent", "child"):
            if element.find(tag) is None or not self.text(element.find(tag)):
                self.error(
                    element,
                    f"The {tag} element of joint with name[{vertex.name}] is missing or empty.",
                )
        for tag in ("axis", "axis2"):
            axis = element.find(tag)
            if axis is None:
                continue
            xyz = axis.find("xyz")
            if xyz is not None:
                values = self.numbers(xyz, 3)
                if math.sqrt(sum(v * v for v in values)) < 1e-16:
                    self.error(xyz, "The norm of the xyz vector cannot be zero")
            if version < (1, 7) and self.boolean(axis.find("use_parent_model_frame")):
                vertex.axis_in_model = True
        return vertex

    def read_frame(self, element, scope):
        return Vertex(self.name_of(element), "frame", scope, element)

    def check_unique(self, scope):
        counts = {}
        named = scope.links + scope.joints + scope.frames
        for item in named:
            counts.setdefault(item.name, []).append(item.element)
        for nested in scope.models:
            counts.setdefault(nested.name, []).append(nested.element)
        for group in scope.element.findall("drake:collision_filter_group"):
            if group.get("name") is not None:
                counts.setdefault(group.get("name"), []).append(group)
        for name, elements in counts.items():
            if len(elements) > 1:
                kind = "model" if scope.kind == "model" else scope.kind
                self.error(
                    elements[1],
                    f"Non-unique name[{name}] detected {len(elements)} "
                    f"times in XML children of {kind} with name[{scope.name}].",
                )

    # ---- includes --------------------------------------------------------------------------
    def read_include(self, element, scope, version):
        """Expands ``<include>``: an SDFormat model becomes a nested model, a URDF file is
        parsed into the plant and becomes an interface model."""
        uri_element = element.find("uri")
        uri = self.text(uri_element)
        if not uri:
            self.error(element, "<include> element missing 'uri' attribute")
        if element.get("merge") in ("1", "true"):
            self.error(
                element,
                "Merge-include (<include merge='true'>) is not supported by "
                "mallard's SDFormat parser",
            )
        path = self.ws.resolve_uri(uri, uri_element)
        if os.path.isdir(path):
            path = _model_config_sdf(self, path, uri_element, uri)
        if not os.path.exists(path):
            self.error(uri_element, f"Unable to find uri[{uri}]")
        if path.lower().endswith(".urdf"):
            self.include_urdf(element, scope, path)
            return
        root = self.ws.load_file(path)
        if root.tag == "sdf":
            self.check_schema(root)
        models = root.findall("model") if root.tag == "sdf" else []
        if root.tag != "sdf" or len(models) != 1:
            self.error(
                uri_element,
                f"Failed to load a model from uri[{uri}]: the file must "
                "have exactly one <model> at its root",
            )
        included = self.read_model(
            models[0], scope, _version(root.get("version")) or (1, 6), include=element
        )
        scope.models.append(included)

    def include_urdf(self, element, scope, path):
        """Parses the URDF file at ``path`` into the plant now (before anything of this
        document is added, as Drake does) and records its bodies and frames."""
        if element.find("static") is not None and self.boolean(element.find("static")):
            self.error(element, "Drake does not yet support //include/static for custom nesting.")
        try:
            from mallard.multibody.parsing import _urdf
        except ImportError:
            self.error(element, f"Cannot include '{path}': the URDF parser is not available")
        root = self.ws.load_file(path, views=True)
        name_element = element.find("name")
        local_name = self.text(name_element) or root.get("name")
        sub = copy.copy(self.ws)
        # Drake names the URDF model after the document's scoped name of its parent model
        # (without the Parser's prefix, and then fails to find it); mallard includes the
        # prefix, so that the name is the one the parent's instance gets.
        parents = [self.ws.model_name_prefix, scope.scoped_name() if scope.kind == "model" else ""]
        sub.model_name_prefix = "::".join(p for p in parents if p) or None
        instances = _urdf.parse(sub, root, model_name=local_name)
        plant = self.ws.plant
        instance = instances[0]
        full_name = plant.GetModelInstanceName(instance)
        name = full_name.rpartition("::")[2]
        nested = Scope(name, "model", scope, element)
        nested.interface = instance
        nested.pose_element = element.find("pose")
        nested.include = element
        placement = element.find("placement_frame")
        nested.placement_frame = self.text(placement) if placement is not None else None
        bodies = plant.GetBodyIndices(instance)
        if not bodies:
            self.error(element, "Model must have at least one link.")
        from mallard.math import RigidTransform
        from mallard.multibody.tree import FixedOffsetFrame

        canonical = plant.get_body(bodies[0])
        model_frame = plant.AddFrame(
            FixedOffsetFrame("__model__", canonical.body_frame(), RigidTransform(), instance)
        )
        X_WM = plant.GetDefaultFloatingBaseBodyPose(canonical)
        X_MW = X_WM.inverse()
        nested.interface_pose = Pose.from_rigid_transform(X_WM)
        for index in bodies:
            body = plant.get_body(index)
            vertex = nested.add(Vertex(body.name(), "link", nested, element))
            vertex.body = body
            vertex.pose_parent = nested.vertex
            vertex.pose = Pose.from_rigid_transform(
                X_MW @ plant.GetDefaultFloatingBaseBodyPose(body)
            )
            nested.links.append(vertex)
        for index in plant.GetFrameIndices(instance):
            frame = plant.get_frame(index)
            if (
                frame is model_frame
                or frame.name() == "__model__"
                or plant.HasBodyNamed(frame.name(), instance)
            ):
                continue
            vertex = nested.add(Vertex(frame.name(), "frame", nested, element))
            vertex.pose_parent = vertex.attached = nested.names[frame.body().name()]
            vertex.pose = Pose.from_rigid_transform(frame.GetFixedPoseInBodyFrame())
            vertex.plant_frame = frame
        nested.canonical = nested.links[0]
        nested.model_frame = model_frame
        scope.models.append(nested)

    # ---- the frame graph -------------------------------------------------------------------
    def connect(self, scope):
        """Sets the pose and attached-to edges of every frame in ``scope`` (and the scopes
        nested in it); errors as libsdformat reports them."""
        try:
            self._connect(scope)
            self._validate(scope)
        except FrameError as e:
            self.error(e.element, str(e))
        cache_poses(scope)

    def _lookup(self, scope, name, what, owner, element):
        vertex = scope.lookup(name)
        owner_name = owner.scope.name if owner is owner.scope.vertex else owner.name
        if vertex is None:
            kind = "world" if scope.kind == "world" else "model"
            raise FrameError(
                f"{what} name[{name}] specified by {owner.kind} with name[{owner_name}] does "
                f"not match a nested model, link, joint, or frame name in {kind} with "
                f"name[{scope.name}].",
                element,
            )
        if vertex is owner:
            raise FrameError(
                f"{what} name[{name}] is identical to {owner.kind} name[{owner.name}], causing "
                f"a graph cycle in model with name[{scope.name}].",
                element,
            )
        return vertex

    def _relative_to(self, scope, vertex, pose_element, default):
        """Sets ``vertex``'s pose edge from ``pose_element`` (relative_to, else ``default``)."""
        vertex.pose = self.pose(pose_element)
        name = pose_element.get("relative_to") if pose_element is not None else None
        vertex.pose_parent = (
            self._lookup(scope, name, "relative_to", vertex, pose_element) if name else default
        )

    def _connect(self, scope):
        for nested in scope.models:
            if nested.interface is None:
                self._connect(nested)
        world = scope.kind == "world"
        for link in scope.links:
            if link.body is None:
                self._relative_to(scope, link, link.element.find("pose"), scope.vertex)
        for joint in scope.joints:
            element = joint.element
            child = self.text(element.find("child")).strip()
            parent = self.text(element.find("parent")).strip()
            if child == parent:
                raise FrameError(
                    f"Joint with name[{joint.name}] must specify different frame names for "
                    f"parent and child, while [{child}] was specified for both.",
                    element,
                )
            if child == "world":
                raise FrameError(
                    f"Joint with name[{joint.name}] specified invalid child link [world].", element
                )
            joint.child = scope.lookup(child)
            if joint.child is None:
                raise FrameError(
                    f"Child frame with name[{child}] specified by joint with name[{joint.name}] "
                    f"not found in {scope.kind} with name[{scope.name}].",
                    element,
                )
            joint.parent = None if parent == "world" and not world else scope.lookup(parent)
            if joint.parent is None and parent != "world":
                raise FrameError(
                    f"Parent frame with name[{parent}] specified by joint with "
                    f"name[{joint.name}] not found in {scope.kind} with name[{scope.name}].",
                    element,
                )
            joint.attached = joint.child
            self._relative_to(scope, joint, element.find("pose"), joint.child)
        for frame in scope.frames:
            element = frame.element
            attached = element.get("attached_to") or None
            frame.attached_to_name = attached
            target = (
                self._lookup(scope, attached, "attached_to", frame, element)
                if attached
                else scope.vertex
            )
            frame.attached = None if target.kind == "world" else target
            if world and attached is None:
                frame.attached = None
            self._relative_to(scope, frame, element.find("pose"), target)
        for nested in scope.models:
            self._connect_model(scope, nested)

    def _connect_model(self, parent, nested):
        """The pose edge of a nested model's frame (with its placement frame) and the link
        its frame is attached to."""
        if nested.interface is not None:
            nested.vertex.pose = nested.interface_pose
            nested.vertex.pose_parent = parent.vertex
            if nested.pose_element is not None:
                self._relative_to(parent, nested.vertex, nested.pose_element, parent.vertex)
            nested.vertex.attached = nested.canonical
        else:
            self._relative_to(parent, nested.vertex, nested.pose_element, parent.vertex)
            nested.canonical = self.canonical_link(nested)
            nested.vertex.attached = nested.canonical
        if nested.placement_frame:
            target = nested.lookup(nested.placement_frame)
            if target is None:
                self.error(
                    nested.element,
                    f"unable to find placement frame "
                    f"[{nested.placement_frame}] in model [{nested.name}]",
                )
            X_MPf = resolve_pose(target, None, nested)
            nested.vertex.pose = nested.vertex.pose * X_MPf.inverse()

    def canonical_link(self, scope):
        """The canonical link vertex of a model (None for a static model without links)."""
        if scope.interface is not None:
            return scope.canonical
        if scope.canonical_link:
            vertex = scope.lookup(scope.canonical_link)
            if vertex is None or vertex.kind != "link":
                self.error(
                    scope.element,
                    f"canonical_link with name[{scope.canonical_link}] "
                    f"not found in model with name[{scope.name}].",
                )
            return vertex
        if scope.links:
            return scope.links[0]
        for nested in scope.models:
            link = self.canonical_link(nested)
            if link is not None:
                return link
        return None

    def _validate(self, scope):
        """Checks that every attachment and pose resolves, so cycles are reported now."""
        for nested in scope.models:
            if nested.interface is None:
                self._validate(nested)
        vertices = scope.links + scope.joints + scope.frames
        for vertex in vertices:
            attached_body(vertex)
        check_poses(vertices + [nested.vertex for nested in scope.models], scope)


def _read_floats(text):
    """The whitespace-separated numbers of ``text`` as libsdformat reads them ("nan" and "inf"
    are numbers; "1e400" is out of range), or None if a word is not one."""
    values = []
    for word in (text or "").split():
        try:
            value = float(word)
        except ValueError:
            return None
        if math.isinf(value) and "inf" not in word.lower():
            return None
        values.append(value)
    return values


def _normalized_or_error(document, element, q):
    norm = math.sqrt(sum(c * c for c in q))
    if norm < 1e-6:
        document.error(element, "The quaternion of the pose has zero norm")
    return tuple(c / norm for c in q)


def _version(text):
    try:
        major, minor = (int(t) for t in (text or "").strip().split("."))
    except ValueError:
        return None
    return major, minor


def _model_config_sdf(document, directory, element, uri):
    """The SDFormat file a model directory's ``model.config`` names (the newest version)."""
    config = os.path.join(directory, "model.config")
    if not os.path.exists(config):
        document.error(element, f"Unable to find uri[{uri}]: the directory has no model.config")
    root = document.ws.load_file(config)
    best = None
    for sdf in root.findall("sdf"):
        version = _version(sdf.get("version")) or (0, 0)
        if best is None or version > best[0]:
            best = (version, sdf.text)
    if best is None or not best[1]:
        document.error(root, "model.config names no <sdf> file")
    return os.path.join(directory, best[1])
