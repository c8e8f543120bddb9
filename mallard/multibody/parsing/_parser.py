"""Parser (mirror of pydrake.multibody.parsing.Parser): adds the models of URDF, SDFormat,
MuJoCo (MJCF) and model directives (.dmd.yaml) files to a MultibodyPlant.

Each ``AddModels*`` call either adds all of a file's models or, on error, nothing: the plant
is rolled back to where it was (Drake leaves a half-built plant). Warnings are logged to the
``mallard.parsing`` logger ("{file}:{line}: warning: ..."), or are errors after
SetStrictParsing().
"""

import os

from mallard.common._gc import paused_collection
from mallard.common._pybind import overloads
from mallard.geometry import SceneGraph
from mallard.multibody.parsing._collision_filter_groups import (
    CollisionFilterGroupResolver,
    CollisionFilterGroups,
)
from mallard.multibody.parsing._diagnostics import Diagnostics
from mallard.multibody.parsing._geometry import register_geometries
from mallard.multibody.parsing._package_map import PackageMap, networking_allowed, resolve_uri
from mallard.multibody.parsing._workspace import STRING_STEM, Workspace, read_file
from mallard.multibody.plant import MultibodyPlant

_KNOWN_TYPES = "Known types are: .urdf, .sdf, .xml (Mujoco), .dmd.yaml, .obj"
# Formats pydrake parses and mallard does not (yet).
_UNSUPPORTED = {".obj": "OBJ mesh", ".OBJ": "OBJ mesh"}


def _parse_directives(workspace, directives):
    """The model instances ``directives`` add, in the Parser's namespace (its prefix)."""
    from mallard.multibody.parsing import _dmd

    infos = _dmd.parse(workspace, directives, workspace.model_name_prefix)
    return [info.model_instance for info in infos]


def reads_views(parse):
    """Whether the format parser ``parse`` (a _format_parser) reads documents as ElementViews
    (URDF's: see _xml_view) rather than XmlElements."""
    return parse.__module__.endswith("._urdf")


def reads_text(parse):
    """Whether the format parser ``parse`` reads its elements' character data (MJCF's, whose
    elements hold none, does not: its documents are read without it)."""
    return not parse.__module__.endswith("._mujoco")


def _format_parser(file_name):
    """The parse function for ``file_name``'s extension (exact case, as Drake's)."""

    def ends_with(ext):
        return len(ext) < len(file_name) and file_name.endswith(ext)

    if ends_with(".urdf") or ends_with(".URDF"):
        from mallard.multibody.parsing import _urdf

        return _urdf.parse
    if ends_with(".sdf") or ends_with(".SDF"):
        try:
            from mallard.multibody.parsing import _sdf
        except ModuleNotFoundError as e:
            if e.name != "mallard.multibody.parsing._sdf":
                raise
            raise NotImplementedError(
                f"Cannot parse '{file_name}': mallard's SDFormat parser is not available"
            ) from None
        return _sdf.parse
    if ends_with(".dmd.yaml") or ends_with(".DMD.YAML"):
        return _parse_directives
    if ends_with(".xml") or ends_with(".XML"):
        from mallard.multibody.parsing import _mujoco

        return _mujoco.parse
    for ext, what in _UNSUPPORTED.items():
        if ends_with(ext):
            raise NotImplementedError(
                f"The file '{file_name}' is a {what} file, which pydrake parses but mallard does "
                "not (yet); mallard parses .urdf and .sdf files."
            )
    Diagnostics().error(None, f"The file '{file_name}' is not a recognized type. {_KNOWN_TYPES}")


def _fast_path(parse, data, file):
    """The fast path of the format parser ``parse`` for the document ``data`` (bytes or str;
    ``file`` names it), a function of the workspace (see Parser._add), or None: MJCF's
    (_mjcf_fast), URDF's for a large document (_urdf_fast)."""
    if parse.__module__.endswith("._mujoco"):
        from mallard.multibody.parsing import _mjcf_fast

        return lambda workspace: _mjcf_fast.parse(workspace, data, file)
    if parse.__module__.endswith("._urdf"):
        from mallard.multibody.parsing import _urdf_fast

        if len(data) >= _urdf_fast.MIN_BYTES:
            return lambda workspace: _urdf_fast.parse(workspace, data, file)
    return None


def _has_fast_path(parse):
    """Whether the format parser ``parse`` has a fast path (its file is then read once, for
    the fast path and the reader)."""
    return parse.__module__.endswith(("._mujoco", "._urdf"))


def _bytes(path):
    """The bytes of the file at ``path``, or None if it cannot be read (load_file says why)."""
    try:
        return read_file(path)
    except OSError:
        return None


def _is_builder(value):
    return type(value).__name__ == "DiagramBuilder" or hasattr(value, "GetSystems")


class Parser:
    """Parses model files (URDF, SDFormat) and adds their models to a MultibodyPlant.

    ``Parser(plant, scene_graph=None, model_name_prefix="")`` or
    ``Parser(plant, model_name_prefix)`` or ``Parser(builder, plant=None, scene_graph=None,
    model_name_prefix="")`` (the builder's systems named "plant" and "scene_graph" when not
    given, as AddMultibodyPlantSceneGraph names them). Model names get
    ``model_name_prefix::`` in front.
    Given a SceneGraph, the plant is registered as its geometry source (if it is not one
    yet). When the plant is a geometry source, the visual and collision geometry of the
    models is registered with it (meshes resolved through package_map()); otherwise it is
    ignored, as Drake does.
    """

    @overloads(
        "plant, scene_graph=, model_name_prefix=",
        "plant, model_name_prefix",
        "builder, plant=, scene_graph=, model_name_prefix=",
    )
    def __init__(self, *args, **kwargs):
        if "builder" in kwargs or (args and _is_builder(args[0])):
            plant, scene_graph, prefix = self._bind_builder(args, kwargs)
        else:
            plant, scene_graph, prefix = self._bind(args, kwargs)
        if plant is None:
            raise RuntimeError("Parser(): condition 'plant_ != nullptr' failed.")
        if not isinstance(plant, MultibodyPlant):
            raise TypeError(f"Parser(): plant must be a MultibodyPlant, got {type(plant).__name__}")
        if not isinstance(prefix, str):
            raise TypeError(
                f"Parser(): model_name_prefix must be a str, got {type(prefix).__name__}"
            )
        if isinstance(scene_graph, SceneGraph) and not plant.geometry_source_is_registered():
            plant.RegisterAsSourceForSceneGraph(scene_graph)
        self._plant = plant
        self._scene_graph = scene_graph
        self._model_name_prefix = prefix
        # (made when first needed: most documents resolve no package URI, and making it costs
        # ~35 µs; but now if networking is off, when making it fails without a cached
        # drake_models, as Drake's Parser() does)
        self._package_map = None if networking_allowed() else PackageMap()
        self._auto_renaming = False
        self._strict = False
        self._geometries = []
        self._collision_filter_groups = CollisionFilterGroups()

    @staticmethod
    def _bind_builder(args, kwargs):
        """(plant, scene_graph, model_name_prefix) of the builder overload: the builder's
        "plant" (RuntimeError naming its systems if it has none) and "scene_graph" (if any)
        unless given."""
        names = ["builder", "plant", "scene_graph", "model_name_prefix"]
        if len(args) > len(names):
            raise TypeError(f"Parser() takes at most {len(names)} arguments, got {len(args)}")
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names or key in values:
                raise TypeError(f"Parser(): unexpected or repeated argument '{key}'")
            values[key] = value
        builder = values["builder"]
        plant = values.get("plant")
        if plant is None:
            if builder is None:
                raise RuntimeError("Parser(): either builder or plant must be given")
            plant = builder.GetSubsystemByName("plant")
        scene_graph = values.get("scene_graph")
        if scene_graph is None and builder is not None and builder.HasSubsystemNamed("scene_graph"):
            scene_graph = builder.GetSubsystemByName("scene_graph")
        return plant, scene_graph, values.get("model_name_prefix", "")

    @staticmethod
    def _bind(args, kwargs):
        """(plant, scene_graph, model_name_prefix) from the two plant overloads."""
        names = ["plant", "scene_graph", "model_name_prefix"]
        if len(args) == 2 and isinstance(args[1], str):
            names = ["plant", "model_name_prefix"]
        if len(args) > len(names):
            raise TypeError(f"Parser() takes at most {len(names)} arguments, got {len(args)}")
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in ("plant", "scene_graph", "model_name_prefix") or key in values:
                raise TypeError(f"Parser(): unexpected argument {key!r}")
            values[key] = value
        if "plant" not in values:
            raise TypeError("Parser(): missing the argument 'plant'")
        return values["plant"], values.get("scene_graph"), values.get("model_name_prefix", "")

    # ---- accessors ---------------------------------------------------------------------------
    def plant(self):
        """The plant this parser adds models to."""
        return self._plant

    def scene_graph(self):
        """The scene graph given at construction, or None."""
        return self._scene_graph

    def builder(self):
        """None: mallard has no DiagramBuilder yet."""
        return None

    def package_map(self):
        """The (mutable) PackageMap used to resolve ``package://`` URIs."""
        if self._package_map is None:
            self._package_map = PackageMap()
        return self._package_map

    def SetAutoRenaming(self, value):
        """Enables or disables auto-renaming (off by default): a model whose name the plant
        already has is renamed ``name_1``, ``name_2``... instead of raising."""
        if not isinstance(value, bool):
            raise TypeError(f"SetAutoRenaming(): value must be a bool, got {type(value).__name__}")
        self._auto_renaming = value

    def GetCollisionFilterGroups(self):
        """The collision filter groups read so far (CollisionFilterGroups), from the models
        added while the plant is a geometry source."""
        groups = CollisionFilterGroups()
        groups._merge(self._collision_filter_groups)
        return groups

    def GetAutoRenaming(self):
        """Whether auto-renaming is on."""
        return self._auto_renaming

    def SetStrictParsing(self):
        """Makes all later parsing strict: warnings become errors."""
        self._strict = True

    # ---- parsing -----------------------------------------------------------------------------
    def AddModels(self, file_name=None, *, url=None, file_contents=None, file_type=None):
        """Adds all models of the file ``file_name`` (type from its extension), or of
        ``url=...``, or of ``file_contents=..., file_type=...``; returns their
        ModelInstanceIndex list. RuntimeError on error (and the plant is left unchanged)."""
        given = [file_name is not None, url is not None, file_contents is not None]
        if sum(given) != 1 or (file_contents is None) != (file_type is None):
            raise TypeError(
                "AddModels(): expected one of (file_name), (*, url) or (*, file_contents, "
                "file_type)"
            )
        if url is not None:
            return self.AddModelsFromUrl(url)
        if file_contents is not None:
            return self.AddModelsFromString(file_contents, file_type)
        file_name = os.path.abspath(os.fspath(file_name))
        parse = _format_parser(file_name)
        if parse is _parse_directives:
            from mallard.multibody.parsing._dmd import load_file

            return self._add(parse, lambda workspace: load_file(workspace, file_name))
        views, text = reads_views(parse), reads_text(parse)
        data = _bytes(file_name) if _has_fast_path(parse) else None
        if data is not None:  # (read once, for the fast path and the reader)
            return self._add(
                parse,
                lambda workspace: workspace.load_xml(data, file_name, views, text),
                _fast_path(parse, data, file_name),
            )
        return self._add(
            parse, lambda workspace: workspace.load_file(file_name, False, views, text)
        )

    def AddModelsFromUrl(self, url):
        """Adds all models of the file named by ``url``: ``package://`` (or ``model://``)
        through package_map(), or ``file:///absolute/path``."""
        diagnostics = Diagnostics(self._strict)
        path = resolve_uri(
            url,
            self.package_map(),
            "",
            lambda message: diagnostics.error(None, message),
            lambda message: diagnostics.warning(None, message),
        )
        return self.AddModels(path)

    def AddModelsFromString(self, file_contents, file_type):
        """Adds all models of the model text ``file_contents`` of type ``file_type`` ("urdf"
        or "sdf", the file extension without its dot)."""
        if not isinstance(file_contents, str) or not isinstance(file_type, str):
            raise TypeError("AddModelsFromString(): file_contents and file_type must be str")
        pseudo_name = f"{STRING_STEM}.{file_type}"
        parse = _format_parser(pseudo_name)
        if parse is _parse_directives:
            from mallard.multibody.parsing._model_directives import load_model_directives

            return self._add(parse, lambda _: load_model_directives(file_contents, pseudo_name))
        # Drake names MJCF text "<literal-string>.urdf" in its messages.
        label = f"{STRING_STEM}.urdf" if parse.__module__.endswith("_mujoco") else pseudo_name
        views, text = reads_views(parse), reads_text(parse)
        return self._add(
            parse,
            lambda workspace: workspace.load_xml(file_contents, label, views, text),
            _fast_path(parse, file_contents, label),
        )

    def _process_model_directives(self, directives):
        """ProcessModelDirectives: the ModelInstanceInfo list of what ``directives`` add (no
        namespace), all or nothing."""
        from mallard.multibody.parsing import _dmd

        return self._add(lambda workspace, d: _dmd.parse(workspace, d), lambda _: directives)

    def _add(self, parse, load, fast=None):
        """The models ``parse`` adds of the document ``load(workspace)`` returns, all or
        nothing; ``fast``: a format's fast path, ``fast(workspace)`` the same models or None
        (declined: the models it may have added are rolled back, ``parse`` reads the
        document)."""
        plant = self._plant
        if plant.is_finalized():
            raise RuntimeError(
                "Parser: the plant is finalized; models can only be added before Finalize() "
                "(condition '!plant->is_finalized()' failed)."
            )
        registers = plant.geometry_source_is_registered()
        workspace = Workspace(
            plant,
            self.package_map,
            self._strict,
            self._auto_renaming,
            self._model_name_prefix,
            scene_graph=self._scene_graph,
            geometries=[] if self._scene_graph is not None or registers else None,
        )
        workspace.filter_groups = CollisionFilterGroupResolver(plant) if registers else None
        checkpoint = plant._checkpoint()
        geometry_checkpoint = plant._geometry_checkpoint() if registers else None
        with paused_collection():
            try:
                instances = plant.num_model_instances()
                result = None if fast is None else fast(workspace)
                if result is None:
                    for undo in reversed(workspace.undo):
                        undo()
                    workspace.undo.clear()
                    if plant.num_model_instances() != instances:
                        plant._rollback(checkpoint)
                    root = load(workspace)
                    result = list(parse(workspace, root))
                    # (The document's tree is freed now, by reference counting: alive when the
                    # collector resumes, the first collection would scan every element of it.)
                    del root
                if registers:
                    register_geometries(plant, workspace.geometries)
                    groups = workspace.filter_groups.resolve(
                        lambda message: workspace.diagnostics.error(None, message)
                    )
                    self._collision_filter_groups._merge(groups)
                    for step in workspace.after_geometry:
                        step()
            except BaseException:
                for undo in reversed(workspace.undo):
                    undo()
                plant._rollback(checkpoint)
                if registers:
                    plant._geometry_rollback(geometry_checkpoint)
                raise
        if workspace.geometries:
            self._geometries += workspace.geometries
        return result
