"""What a format parser (URDF, SDFormat) gets from the Parser: the plant, the package map,
diagnostics and options, and file and URI resolution. A format parser is a function
``parse(workspace, root, model_name=None) -> list[ModelInstanceIndex]`` of the document's root
XmlElement; it builds through the plant's public API only."""

import os

from mallard.multibody.parsing._diagnostics import Diagnostics
from mallard.multibody.parsing._package_map import resolve_uri
from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml
from mallard.multibody.parsing._xml_view import parse_xml_view

#: The stem Drake gives a model parsed from a string: "<literal-string>.urdf" in messages.
STRING_STEM = "<literal-string>"


def is_string_source(file):
    """Whether ``file`` (an XmlElement's file) names a string, not a file on disk."""
    return file is None or file.startswith("<")


# (os.O_BINARY exists on Windows only: looked up once, as a missing attribute raises inside
# getattr, ~0.6 µs a call)
_READ_ONLY = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def read_file(path):
    """The bytes of the file at ``path`` (OSError if it cannot be read): read unbuffered into
    one buffer of its size, without a file object (two thirds of ``open``'s time: no buffered
    reader, no isatty or seek; part of every parse's fixed cost)."""
    fd = os.open(path, _READ_ONLY)
    try:
        size = os.fstat(fd).st_size + 1
        text = os.read(fd, size)
        while chunk := os.read(fd, size):  # (empty at the end of the file: one more call)
            text += chunk
        return text
    finally:
        os.close(fd)


class Workspace:
    """The state one ``Parser.AddModels*`` call shares with the format parsers.

    ``package_map`` is the PackageMap URIs are resolved with, or a function that returns it,
    called when first needed (the Parser's package_map: most documents need none).
    ``geometries`` is the list to which parsed visual and collision geometry is appended (as
    ``_geometry.GeometryRecord``), or None when geometry is not parsed (no scene graph given
    and the plant is not a geometry source): then format parsers skip it, as Drake's do.
    """

    def __init__(
        self,
        plant,
        package_map,
        strict,
        auto_renaming,
        model_name_prefix,
        scene_graph=None,
        geometries=None,
    ):
        self.plant = plant
        self._package_map = package_map
        self.diagnostics = Diagnostics(strict)
        self.auto_renaming = auto_renaming
        self.model_name_prefix = model_name_prefix
        self.scene_graph = scene_graph
        if geometries is None and scene_graph is not None:
            geometries = []
        self.geometries = geometries
        #: The CollisionFilterGroupResolver of the call when the plant is a geometry source.
        self.filter_groups = None
        #: What to do once the call's geometry is registered (callables, in order).
        self.after_geometry = []
        #: How to undo changes the plant's rollback does not cover (callables, run in reverse
        #: order when the call fails), e.g. a gravity vector set by a model.
        self.undo = []
        self._documents = {}  # path -> its root XmlElement (load_file's reuse)
        #: Values a format parser read from the elements of reused documents, by element
        #: (``memo``; None until a document is reused): a model added again reads them once.
        self._values = None

    @property
    def package_map(self):
        """The PackageMap URIs are resolved with."""
        if callable(self._package_map):
            self._package_map = self._package_map()
        return self._package_map

    def memo(self, node, read):
        """``read(node)``; for an element of a reused document (see load_file), read once
        per call: ``read`` must return a value its users copy, and one that warned is read
        again (so that its warning is repeated, as Drake's parse of each copy repeats it)."""
        values = self._values
        if values is None:
            return read(node)
        value = values.get(node)
        if value is None:
            warnings = self.diagnostics.warnings
            value = read(node)
            if self.diagnostics.warnings == warnings:
                values[node] = value
        return value

    def load_xml(self, text, file, views=False, keep_text=True):
        """The root XmlElement of ``text`` (with ``views``: its root ElementView, for a format
        parser that reads hot parts of the tree through their Elements: URDF; without
        ``keep_text``, XmlElements without their character data: parse_xml's); a located
        RuntimeError if it is not well-formed."""
        try:
            return parse_xml_view(text, file) if views else parse_xml(text, file, keep_text)
        except XmlSyntaxError as e:
            source = "string" if is_string_source(file) else "file"
            message = str(e).replace("Failed to parse XML:", f"Failed to parse XML {source}:")
            self.diagnostics.error(None, message, file=file, line=e.line)

    def load_file(self, path, reuse=False, views=False, keep_text=True):
        """The root XmlElement of the file at ``path`` (``views``, ``keep_text``: as
        load_xml).
        With ``reuse`` (for a format parser that does not modify the document: URDF,
        SDFormat), the one this call read before from that path, if any: a call reads each
        file once (model directives add many copies of a model), as of its first use; the
        next call reads it again."""
        if reuse:
            root = self._documents.get(path)
            if root is not None:
                if self._values is None:
                    self._values = {}
                return root
        try:
            text = read_file(path)
        except OSError as e:
            reason = "XML_ERROR_FILE_NOT_FOUND" if not os.path.exists(path) else e.strerror
            self.diagnostics.error(None, f"Failed to parse XML file: {reason}", file=path, line=0)
        root = self.load_xml(text, str(path), views, keep_text)
        if reuse:
            self._documents[path] = root
        return root

    @staticmethod
    def root_dir(element):
        """The directory relative URIs in ``element``'s document are resolved against, or ""
        for a document parsed from a string."""
        file = element.file if element is not None else None
        if is_string_source(file):
            return ""
        return os.path.dirname(os.path.abspath(file))

    def resolve_uri(self, uri, element):
        """The absolute path a model refers to with ``uri`` (Drake's ResolveUri):
        ``package://name/path``, ``model://name/path`` (as package), ``file:///abs/path``, or a
        path relative to the file of ``element``. A RuntimeError located at ``element`` if it
        cannot be resolved or the path does not exist."""
        return resolve_uri(
            uri,
            lambda: self.package_map,
            self.root_dir(element),
            lambda message: self.diagnostics.error(element, message),
            lambda message: self.diagnostics.warning(element, message),
        )

    def model_name(self, name):
        """``name`` with the Parser's model-name prefix (``prefix::name``), made unique with a
        ``_1``, ``_2``... suffix when auto-renaming is on and the plant has that name (as
        Drake's MakeModelName)."""
        result = f"{self.model_name_prefix}::{name}" if self.model_name_prefix else name
        plant = self.plant
        if self.auto_renaming and plant.HasModelInstanceNamed(result):
            for k in range(1, plant.num_model_instances()):
                subscripted = f"{result}_{k}"
                if not plant.HasModelInstanceNamed(subscripted):
                    break
            result = subscripted
        return result
