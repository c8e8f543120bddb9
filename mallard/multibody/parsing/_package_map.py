"""PackageMap (mirror of pydrake.multibody.parsing.PackageMap): ROS-style package names mapped
to directories, and the resolution of ``package://``, ``model://`` and ``file://`` URIs.

The default map holds the one package mallard ships, "mallard" (mallard/models). Remote
packages (``AddRemote``) need the network, which mallard does not use: they raise
NotImplementedError.
"""

import copy
import importlib.util
import json
import logging
import os
import pathlib
import posixpath
import re

from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml

LOGGER = logging.getLogger("mallard.parsing")

#: The package.xml of the models mallard ships (package "mallard").
MALLARD_PACKAGE_XML = str(pathlib.Path(__file__).resolve().parents[2] / "models" / "package.xml")

_URI = re.compile(r"([a-z0-9+.-]+)://([^/]*)/+(.*)")
_ROS_STOP_MARKERS = ("AMENT_IGNORE", "CATKIN_IGNORE", "COLCON_IGNORE")


def lexically_normal(path):
    """``path`` normalized as std::filesystem's lexically_normal (keeps a trailing '/')."""
    path = os.fspath(path)
    if path == "":
        return ""
    result = posixpath.normpath(path)
    if result not in ("/", ".") and path.endswith(("/", "/.", "/..")):
        result += "/"
    return result


def _str_path(value, what):
    """``value`` (str or os.PathLike) as a str; TypeError otherwise."""
    try:
        return os.fspath(value)
    except TypeError:
        kind = type(value).__name__
        raise TypeError(f"{what} must be a str or os.PathLike, got {kind}") from None


def _equivalent(first, second):
    """Whether both paths exist and name the same file or directory."""
    try:
        return os.path.samefile(os.path.realpath(first), os.path.realpath(second))
    except OSError:
        return False


def _remove_breaks_and_indentation(text):
    return re.sub(r"\s*\n\s*", " ", text.strip(" \r\n\t"))


def parse_package_manifest(filename):
    """(package name, deprecation message or None) of the package.xml ``filename``."""
    try:
        text = pathlib.Path(filename).read_bytes()
        root = parse_xml(text, filename)
    except (OSError, XmlSyntaxError) as e:
        reason = "XML_ERROR_FILE_NOT_FOUND" if isinstance(e, OSError) else str(e)
        raise RuntimeError(
            f'PackageMap::GetPackageName(): Failed to parse XML in file "{filename}".\n{reason}'
        ) from None
    if root.tag != "package":
        raise RuntimeError(
            f'PackageMap::GetPackageName(): ERROR: XML file "{filename}" does not contain '
            "element <package>."
        )
    name = root.find("name")
    if name is None:
        raise RuntimeError(
            "PackageMap::GetPackageName(): ERROR: <package> element does not contain element "
            f'<name> (XML file "{filename}").'
        )
    if not name.text:
        raise RuntimeError(
            f'PackageMap::GetPackageName(): the <name> element of "{filename}" is empty.'
        )
    deprecated = None
    export = root.find("export")
    if export is not None and export.find("deprecated") is not None:
        deprecated = _remove_breaks_and_indentation(export.find("deprecated").text or "")
    return name.text, deprecated


class _RemoteParams:
    """The parameters of a remote package (PackageMap.RemoteParams): urls, sha256,
    archive_type, strip_prefix. mallard keeps them as data only; AddRemote raises."""

    __qualname__ = "PackageMap.RemoteParams"

    def __init__(self, urls=None, sha256="", archive_type=None, strip_prefix=None):
        self.urls = list(urls or [])
        self.sha256 = sha256
        self.archive_type = archive_type
        self.strip_prefix = strip_prefix

    def ToJson(self):
        """The parameters as a JSON object string (keys in declaration order)."""
        data = {"urls": self.urls, "sha256": self.sha256}
        if self.archive_type is not None:
            data["archive_type"] = self.archive_type
        if self.strip_prefix is not None:
            data["strip_prefix"] = self.strip_prefix
        return json.dumps(data, separators=(",", ":"))

    def __repr__(self):
        return (
            f"RemoteParams(urls={self.urls!r}, sha256={self.sha256!r}, "
            f"archive_type={self.archive_type!r}, strip_prefix={self.strip_prefix!r})"
        )


def _installed_drake_package_xml():
    """The package.xml of package "drake" (Drake's example models) of an installed pydrake,
    found without importing it, or None: with it, ``package://drake/...`` resolves as in
    pydrake."""
    try:
        spec = importlib.util.find_spec("pydrake")
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(location, "share", "drake", "package.xml")
        if os.path.isfile(path):
            return path
    return None


class PackageMap:
    """Maps package names to directories on the local file system, for ``package://name/...``
    (and ``model://name/...``) URIs in model files.

    ``PackageMap()`` holds mallard's own package "mallard" (and "drake", an installed
    pydrake's models, if there is one); ``PackageMap(other)`` copies
    ``other``; ``PackageMap.MakeEmpty()`` holds nothing.
    """

    RemoteParams = _RemoteParams

    def __init__(self, other=None):
        # name -> [path, deprecation message or None]
        self._map = {}
        if other is not None:
            if not isinstance(other, PackageMap):
                raise TypeError(f"PackageMap(): expected a PackageMap, got {type(other).__name__}")
            self._map = copy.deepcopy(other._map)
        else:
            self.AddPackageXml(MALLARD_PACKAGE_XML)
            drake = _installed_drake_package_xml()
            if drake is not None:
                self.AddPackageXml(drake)

    @staticmethod
    def MakeEmpty():
        """A PackageMap with no packages."""
        result = PackageMap.__new__(PackageMap)
        result._map = {}
        return result

    def __copy__(self):
        return PackageMap(self)

    def __deepcopy__(self, memo):
        return PackageMap(self)

    # ---- adding and removing -----------------------------------------------------------------
    def Add(self, package_name, package_path):
        """Adds package ``package_name`` at directory ``package_path``. RuntimeError if the
        directory does not exist, or if the package is already present with another path."""
        package_path = _str_path(package_path, "package_path")
        if not os.path.isdir(package_path):
            raise RuntimeError(
                f"PackageMap::Add cannot add '{package_name}' because directory "
                f"'{package_path}' does not exist"
            )
        self._emplace(package_name, package_path, "PackageMap::Add()")

    def _emplace(self, package_name, package_path, method):
        existing = self._map.get(package_name)
        if existing is None:
            self._map[package_name] = [package_path, None]
            return
        error = self._merge_error(existing[0], package_path)
        if error:
            raise RuntimeError(f"{method} cannot add '{package_name}' {error}")

    @staticmethod
    def _merge_error(this_path, other_path):
        """Why two local paths of one package cannot be merged, or "" if they can."""
        if _equivalent(this_path, other_path) or _equivalent(
            os.path.join(this_path, "package.xml"), os.path.join(other_path, "package.xml")
        ):
            return ""
        return f"because the local paths are not equivalent ('{this_path}' vs '{other_path}')"

    def AddMap(self, other_map):
        """Adds every package of ``other_map``; RuntimeError for a package present in both
        with different paths."""
        if not isinstance(other_map, PackageMap):
            raise TypeError(f"AddMap(): expected a PackageMap, got {type(other_map).__name__}")
        for name, (path, deprecated) in other_map._map.items():
            existing = self._map.get(name)
            if existing is None:
                self._map[name] = [path, deprecated]
                continue
            error = self._merge_error(existing[0], path)
            if error:
                raise RuntimeError(
                    f"PackageMap::AddMap cannot merge the package definition for '{name}' {error}"
                )
            if existing[1] is None:
                existing[1] = deprecated

    def AddPackageXml(self, filename):
        """Adds the package described by the ``package.xml`` file ``filename``, at that file's
        directory. RuntimeError if the file cannot be read or its package conflicts."""
        filename = _str_path(filename, "filename")
        name, deprecated = parse_package_manifest(filename)
        self.Add(name, posixpath.dirname(filename))
        self._set_deprecated(name, deprecated)

    def _set_deprecated(self, name, message):
        if message is not None and message == "":
            message = "(no explanation given)"
        self._map[name][1] = message

    def AddRemote(self, package_name, params):
        """Not supported: mallard does not download packages."""
        raise NotImplementedError(
            f"PackageMap.AddRemote('{package_name}', ...): mallard does not download remote "
            "packages; download the package yourself and Add() its local directory"
        )

    def Remove(self, package_name):
        """Removes ``package_name``; RuntimeError if it is not present."""
        if self._map.pop(package_name, None) is None:
            raise RuntimeError(
                f"Could not find and remove package://{package_name} from the search path."
            )

    # ---- queries -----------------------------------------------------------------------------
    def Contains(self, package_name):
        """True if the map holds ``package_name``."""
        return package_name in self._map

    def size(self):
        """The number of packages."""
        return len(self._map)

    def GetPackageNames(self):
        """The package names (sorted, as Drake's std::map orders them)."""
        return sorted(self._map)

    def GetPath(self, package_name):
        """The directory of ``package_name``; logs a warning if it is deprecated. RuntimeError
        if the map does not hold it."""
        path, warning = self._path_and_deprecation(package_name)
        if warning is not None:
            LOGGER.warning("PackageMap: %s", warning)
        return path

    def _path_and_deprecation(self, package_name):
        if package_name not in self._map:
            raise RuntimeError(
                f"PackageMap::GetPath(): package '{package_name}' is not in this PackageMap "
                "(condition 'Contains(package_name)' failed)."
            )
        path, deprecated = self._map[package_name]
        warning = None
        if deprecated is not None:
            warning = f"Package '{package_name}' is deprecated: {deprecated}"
        return path, warning

    def ResolveUrl(self, url):
        """The path ``url`` names: ``file:///abs/path``, ``package://name/path`` or
        ``model://name/path``. RuntimeError if it cannot be resolved or does not exist."""

        def error(message):
            raise RuntimeError(f"error: {message}")

        def warning(message):
            LOGGER.warning("warning: %s", message)

        return resolve_uri(url, self, "", error, warning)

    # ---- populating --------------------------------------------------------------------------
    def PopulateFromFolder(self, path):
        """Adds every package found (a directory holding a package.xml) under ``path``. A
        package found again at another path is kept at its first path (with a warning)."""
        path = _str_path(path, "path")
        if path == "":
            raise RuntimeError("PopulateFromFolder(): condition '!path.empty()' failed.")
        self._crawl(path)

    def PopulateFromEnvironment(self, environment_variable):
        """PopulateFromFolder on each path of the ':'-separated ``environment_variable``."""
        if environment_variable == "":
            raise RuntimeError(
                "PopulateFromEnvironment(): condition '!environment_variable.empty()' failed."
            )
        if environment_variable == "ROS_PACKAGE_PATH":
            raise RuntimeError(
                "PackageMap::PopulateFromEnvironment() must not be used to load a "
                '"ROS_PACKAGE_PATH"; use PopulateFromRosPackagePath() instead.'
            )
        for path in os.environ.get(environment_variable, "").split(":"):
            if path:
                self._crawl(path)

    def PopulateFromRosPackagePath(self):
        """Adds the packages on ROS_PACKAGE_PATH with ROS's crawl rules: no search below a
        package, nor in directories marked AMENT_IGNORE, CATKIN_IGNORE or COLCON_IGNORE."""
        for path in os.environ.get("ROS_PACKAGE_PATH", "").split(":"):
            if path:
                self._crawl(path, stop_at_package=True, stop_markers=_ROS_STOP_MARKERS)

    def _crawl(self, path, stop_at_package=False, stop_markers=()):
        directory = lexically_normal(path)
        if any(os.path.exists(os.path.join(directory, m)) for m in stop_markers):
            return
        manifest = os.path.join(directory, "package.xml")
        if os.path.exists(manifest):
            name, deprecated = parse_package_manifest(manifest)
            package_path = directory + "/"
            if name not in self._map:
                self.Add(name, package_path)
                self._set_deprecated(name, deprecated)
            else:
                error = self._merge_error(self._map[name][0], package_path)
                if error:
                    LOGGER.warning(
                        "PackageMap is ignoring newly-found path for package '%s' %s", name, error
                    )
            if stop_at_package:
                return
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            LOGGER.warning("Unable to open directory: %s", path)
            return
        for entry in entries:
            if entry.is_dir() and not entry.name.startswith("."):
                self._crawl(entry.path, stop_at_package, stop_markers)

    def __repr__(self):
        lines = ["PackageMap:"]
        if not self._map:
            lines.append("  [EMPTY!]")
        lines += [f"  - {name}: {path}" for name, (path, _) in sorted(self._map.items())]
        return "\n".join(lines) + "\n"


def resolve_uri(uri, package_map, root_dir, error, warning):
    """The lexically normal path of ``uri`` (Drake's ResolveUri): ``file:///abs``,
    ``package://name/path`` or ``model://name/path`` through ``package_map``, or a bare file
    name, absolute or relative to ``root_dir`` ("" when parsing a string: then an error).
    ``error(message)`` must raise; ``warning(message)`` reports a deprecated package."""
    match = _URI.fullmatch(uri)
    if match:
        scheme, package, rest = match.groups()
        if scheme == "file":
            result = "/" + rest
        elif scheme in ("model", "package"):
            if not package_map.Contains(package):
                error(f"URI '{uri}' refers to unknown package '{package}'")
            package_path, deprecation = package_map._path_and_deprecation(package)
            if deprecation is not None:
                warning(f"In URI '{uri}': {deprecation}")
            result = os.path.join(package_path, rest)
        else:
            error(
                f"URI '{uri}' specifies an unsupported scheme; supported schemes are "
                "'file://', 'model://', and 'package://'."
            )
    else:
        if root_dir == "":
            error(f"URI '{uri}' is invalid when parsing a string instead of a filename.")
        if os.path.isabs(uri):
            result = uri
        elif os.path.isabs(root_dir):
            result = os.path.join(root_dir, uri)
        else:
            result = os.path.join(os.getcwd(), root_dir, uri)
    full_path = lexically_normal(result)
    if not os.path.exists(full_path):
        error(f"URI '{uri}' resolved to '{result}' which does not exist.")
    return full_path
