"""Processing model directives into a plant, after Drake's detail_dmd_parser.cc: models added
through the format parsers (names in the directives' namespace), frames, welds, default joint
positions and free-body poses, collision filter groups, nested directive files. Errors name
the file and line of the directive."""

import os

from mallard.multibody.parsing._model_directives import (
    ModelInstanceInfo,
    join,
    load_model_directives,
)
from mallard.multibody.parsing._package_map import resolve_uri
from mallard.multibody.tree import FixedOffsetFrame, QuaternionFloatingJoint
from mallard.multibody.tree._frame import _check_name
from mallard.multibody.tree._indices import world_model_instance


def GetScopedFrameByName(plant, full_name):
    """The frame ``full_name`` ("world", "frame", or "model::frame") of ``plant``;
    RuntimeError if there is none."""
    frame = _scoped_frame(plant, full_name)
    if frame is None:
        raise RuntimeError(f"GetScopedFrameByName(): Could not find Frame '{full_name}'")
    return frame


def _scoped_frame(plant, full_name):
    if full_name == "world":
        return plant.world_frame()
    namespace, _, element = full_name.rpartition("::")  # (split)
    try:  # (the common case: the frame is there, one of that name)
        if namespace:
            return plant.GetFrameByName(element, plant.GetModelInstanceByName(namespace))
        return plant.GetFrameByName(element)
    except RuntimeError:  # (no such instance or frame; or several frames: see below)
        pass
    if not namespace and plant.HasFrameNamed(element):  # (its error for several)
        return plant.GetFrameByName(element)
    return None


def load_file(workspace, path):
    """The ModelDirectives of the file ``path`` (errors located in it)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        workspace.diagnostics.error(None, f"Cannot read the model directives: {e}", file=path)
    return load_model_directives(text, path)


def parse(workspace, directives, namespace=""):
    """Adds what ``directives`` direct to the workspace's plant; returns the list of
    ModelInstanceInfo of the models added (by ``add_model``, nested files included)."""
    infos = []
    _Processor(workspace, infos).process(directives, namespace)
    return infos


class _Processor:
    def __init__(self, workspace, infos):
        self.workspace = workspace
        self.plant = workspace.plant
        self.infos = infos
        self.infos_of = {}  # int(model instance) -> [its ModelInstanceInfo]
        self.where = (None, None)
        self.paths = {}  # URI -> its path (resolve)
        self.parsers = {}  # path -> format_parser(path)

    def error(self, message):
        self._error_at(self.where, message)

    def _error_at(self, where, message):
        file, line = where
        self.workspace.diagnostics.error(None, message, file=file, line=line)

    def resolve(self, uri):
        """The path of ``uri``, resolved once per call (directives add many copies of a
        model) unless resolving it warned (then again, so that the warning is repeated)."""
        path = self.paths.get(uri)
        if path is None:
            diagnostics = self.workspace.diagnostics
            warnings = diagnostics.warnings
            path = resolve_uri(
                uri,
                lambda: self.workspace.package_map,
                "",
                self.error,
                lambda message: diagnostics.warning(
                    None, message, file=self.where[0], line=self.where[1]
                ),
            )
            if diagnostics.warnings == warnings:
                self.paths[uri] = path
        return path

    def frame(self, namespace, name):
        if name == "world":  # (in any namespace: join's)
            return self.plant.world_frame()
        full_name = join(namespace, name) if namespace else name
        frame = _scoped_frame(self.plant, full_name)
        if frame is None:
            self.error(f"There is no frame named '{full_name}' in the plant")
        return frame

    def process(self, directives, namespace):
        for directive in directives.directives:
            kind, item = directive._item()
            self.where = item._where or (None, None)
            try:
                getattr(self, kind)(item, namespace)
            except (RuntimeError, ValueError) as e:
                if self.where[0] is None or str(e).startswith(f"{self.where[0]}:"):
                    raise
                if ": error: " in str(e):  # (located in a model file it added)
                    raise
                self.error(str(e))

    def add_model(self, item, namespace):
        path = self.paths.get(item.file) or self.resolve(item.file)
        parser = self.parsers.get(path)
        if parser is None:  # (once per path: directives add many copies of a model)
            parser = self.parsers[path] = self.format_parser(path)
        parse, views, reuse, text = parser
        workspace = self.workspace
        root = workspace.load_file(path, reuse, views, text)
        where = self.where
        prefix = workspace.model_name_prefix
        workspace.model_name_prefix = namespace
        try:
            instances = parse(workspace, root, item.name)
        finally:
            workspace.model_name_prefix = prefix
        self.where = where
        instance = instances[0]
        plant = self.plant
        for joint_name, positions in item.default_joint_positions.items():
            try:
                joint = plant.GetMutableJointByName(joint_name, instance)
            except RuntimeError:
                self.error(
                    f"add_model: the model '{plant.GetModelInstanceName(instance)}' has no "
                    f"joint named '{joint_name}' (default_joint_positions)"
                )
            joint.set_default_positions(positions)
        for child_name, pose in item.default_free_body_pose.items():
            parent_name = pose.base_frame or "world"
            parent = plant.world_frame() if parent_name == "world" else self.frame(
                namespace, parent_name
            )  # fmt: skip
            self.free_body_pose(instance, parent, child_name, pose.GetDeterministicValue())
        info = ModelInstanceInfo()
        info.model_instance = instance
        info.model_name = join(namespace, item.name) if namespace else item.name
        info.model_path = path
        self.infos.append(info)
        self.infos_of.setdefault(instance._value, []).append(info)

    def format_parser(self, path):
        """(the parse function of the format of ``path``, whether it reads views, whether its
        documents may be reused, whether it reads character data); an error for a directives
        file."""
        from mallard.multibody.parsing._parser import _format_parser, reads_text, reads_views

        if path.endswith((".dmd.yaml", ".DMD.YAML")):
            self.error(
                f"'{path}' is a model directives data source; it is always an error to pass a "
                "model directives source to a single-model parser method. Use AddModels() "
                "instead."
            )
        parse = _format_parser(path)
        # (URDF and SDFormat documents are read only; MJCF's parser applies defaults to its own)
        reuse = path.endswith((".urdf", ".URDF", ".sdf", ".SDF"))
        return parse, reads_views(parse), reuse, reads_text(parse)

    def free_body_pose(self, instance, parent, child_name, X_PC):
        plant = self.plant
        if child_name:
            if not plant.HasFrameNamed(child_name, instance):
                self.error(
                    f"add_model: the model '{plant.GetModelInstanceName(instance)}' has no "
                    f"frame named '{child_name}' (default_free_body_pose)"
                )
            child = plant.GetFrameByName(child_name, instance)
        else:
            bodies = plant.GetBodyIndices(instance)
            if len(bodies) != 1:
                self.error(
                    f"Model instance '{plant.GetModelInstanceName(instance)}' cannot use an "
                    "empty frame name for its default_free_body_pose in add_model because it "
                    f"has {len(bodies)} (not 1) bodies."
                )
            child = plant.get_body(bodies[0]).body_frame()
        offset = child.GetFixedPoseInBodyFrame()
        if parent is plant.world_frame() and offset.IsExactlyIdentity():
            plant.SetDefaultFloatingBaseBodyPose(child.body(), X_PC)
            return
        joint_name = child.body().name()
        while plant.HasJointNamed(joint_name, instance):
            joint_name = "_" + joint_name
        joint = plant.AddJoint(QuaternionFloatingJoint(joint_name, parent, child))
        joint.SetDefaultPose(X_PC)

    def add_model_instance(self, item, namespace):
        workspace = self.workspace
        prefix = workspace.model_name_prefix
        workspace.model_name_prefix = namespace
        try:
            name = workspace.model_name(item.name)
        finally:
            workspace.model_name_prefix = prefix
        self.plant.AddModelInstance(name)

    def add_frame(self, item, namespace):
        plant = self.plant
        frame_namespace, _, element = item.name.rpartition("::")  # (split)
        instance = None
        if frame_namespace:
            scope = join(namespace, frame_namespace)
            if not plant.HasModelInstanceNamed(scope):
                self.error(f"add_frame: there is no model instance named '{scope}'")
            instance = plant.GetModelInstanceByName(scope)
        base = self.frame(namespace, item.X_PF.base_frame)
        X_PF = item.X_PF.GetDeterministicValue()  # (a new RigidTransform: the frame keeps it)
        if not element:  # (a str: the error of an empty name)
            _check_name(element)
        if instance is None:
            instance = base._model_instance
        plant.AddFrame(FixedOffsetFrame._adopting(element, base, X_PF, instance))

    def add_weld(self, item, namespace):
        parent = self.frame(namespace, item.parent)
        child = self.frame(namespace, item.child)
        # (None: the identity, made by WeldFrames for the joint, by ModelInstanceInfo when read)
        X_PC = None if item.X_PC is None else item.X_PC.GetDeterministicValue()
        self.plant.WeldFrames(parent, child, X_PC)
        infos = self.infos_of.get(child._model_instance._value, ())
        for info in infos:
            info.parent_frame_name = parent._name
            info.child_frame_name = child._name
            info.X_PC = X_PC
        if not infos:
            self.error(
                f"add_weld: the child frame '{item.child}' is not in a model that these "
                "directives added (condition 'found' failed)."
            )

    def add_collision_filter_group(self, item, namespace):
        resolver = self.workspace.filter_groups
        if resolver is None:  # (no geometry: nothing to filter)
            return
        plant = self.plant
        scope = namespace or item.model_namespace
        instance = world_model_instance()
        if scope:
            if not plant.HasModelInstanceNamed(scope):
                self.error(f"add_collision_filter_group: no model instance named '{scope}'")
            instance = plant.GetModelInstanceByName(scope)
        resolver.add_group(self.error, item.name, instance, item.members, item.member_groups)
        where = self.where
        for other in item.ignored_collision_filter_groups:
            resolver.add_pair(item.name, other, instance, lambda m, w=where: self._error_at(w, m))

    def add_directives(self, item, namespace):
        inner = join(namespace, item.model_namespace or "") if namespace else (
            item.model_namespace or ""
        )  # fmt: skip
        if inner and not self.plant.HasModelInstanceNamed(inner):
            self.error(f"Namespace '{inner}' does not exist as model instance")
        path = self.resolve(item.file)
        where = self.where
        self.process(load_file(self.workspace, os.fspath(path)), inner)
        self.where = where


def ProcessModelDirectives(directives, plant=None, parser=None):
    """Adds what ``directives`` direct to a plant; returns the ModelInstanceInfo list of the
    models added. ``ProcessModelDirectives(directives, parser)`` or
    ``ProcessModelDirectives(directives, plant, parser=None)`` (a Parser of ``plant`` made if
    none is given). All or nothing: after an error the plant is as it was."""
    from mallard.multibody.parsing._model_directives import ModelDirectives
    from mallard.multibody.parsing._parser import Parser

    if isinstance(plant, Parser) and parser is None:
        plant, parser = None, plant
    if not isinstance(directives, ModelDirectives):
        raise TypeError(
            f"ProcessModelDirectives(): expected ModelDirectives, got {type(directives).__name__}"
        )
    if parser is None:
        if plant is None:
            raise TypeError("ProcessModelDirectives(): give a plant or a parser")
        parser = Parser(plant)
    elif plant is not None and parser.plant() is not plant:
        raise RuntimeError("ProcessModelDirectives(): the parser is not the plant's")
    return parser._process_model_directives(directives)
