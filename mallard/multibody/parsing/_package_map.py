"""PackageMap (mirror of pydrake.multibody.parsing.PackageMap): ROS-style package names mapped
to directories, and the resolution of ``package://``, ``model://`` and ``file://`` URIs.

The default map holds mallard's own package "mallard" (mallard/models); "drake" (Drake's
resources, where pydrake is installed beside mallard); and "drake_models" (Drake's models
repository) declared as Drake declares it: a remote package, fetched on first use.

A remote package (``AddRemote``) is an archive at one of its URLs (https, http or file),
checked against its sha256 and unpacked (without its ``strip_prefix``) into the cache
directory Drake uses, ``$XDG_CACHE_HOME`` or ``~/.cache``, under
``drake/package_map/{sha256}-{sha256 of strip_prefix}``: a package pydrake fetched is found
there, and the other way round. As Drake's, networking obeys ``DRAKE_ALLOW_NETWORK`` (unset
or empty: allowed; ``none``: only file:// URLs; else a ':'-list that must hold
"package_map").
"""

import copy
import functools
import hashlib
import importlib.util
import json
import logging
import os
import pathlib
import posixpath
import re
import shutil
import tempfile
import urllib.parse
import urllib.request

from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml

LOGGER = logging.getLogger("mallard.parsing")

#: The package.xml of the models mallard ships (package "mallard").
MALLARD_PACKAGE_XML = str(pathlib.Path(__file__).resolve().parents[2] / "models" / "package.xml")

#: Drake's declaration of package "drake_models" (drake/multibody/parsing/drake_models.json of
#: Drake 1.51), used when the installed pydrake does not give its own.
DRAKE_MODELS_COMMIT = "deee02d4d79937e112cb428e638e7ee44d51305f"
DRAKE_MODELS = {
    "urls": [
        f"https://github.com/RobotLocomotion/models/archive/{DRAKE_MODELS_COMMIT}.tar.gz",
        "https://drake-mirror.csail.mit.edu/github/RobotLocomotion/models/"
        f"{DRAKE_MODELS_COMMIT}.tar.gz",
        "https://s3.amazonaws.com/drake-mirror/github/RobotLocomotion/models/"
        f"{DRAKE_MODELS_COMMIT}.tar.gz",
    ],
    "sha256": "9f5bc1b923e4de584a030d17c1fcfedfc1ca29e805c453156cab297e6bb89054",
    "strip_prefix": f"models-{DRAKE_MODELS_COMMIT}",
}
_ARCHIVE_TYPES = ("zip", "tar", "gztar", "bztar", "xztar")


@functools.cache
def drake_share():
    """The directory of Drake's resources (share/drake, holding its package.xml) of the
    pydrake installed beside mallard, or None. pydrake is not imported."""
    try:
        spec = importlib.util.find_spec("pydrake")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        share = os.path.join(location, "share", "drake")
        if os.path.isfile(os.path.join(share, "package.xml")):
            return share
    return None


def drake_models_params():
    """The RemoteParams of "drake_models": the installed pydrake's declaration if it has one,
    else Drake 1.51's."""
    data = _drake_models_declaration()
    return _RemoteParams(data["urls"], data["sha256"], strip_prefix=data.get("strip_prefix"))


@functools.cache
def _drake_models_declaration():
    """The JSON data of the installed pydrake's drake_models.json, else DRAKE_MODELS (read
    once, as drake_share: every Parser's PackageMap declares "drake_models")."""
    share = drake_share()
    declared = os.path.join(share, "multibody", "parsing", "drake_models.json") if share else None
    if declared and os.path.isfile(declared):
        with open(declared, encoding="utf-8") as f:
            return json.load(f)
    return DRAKE_MODELS


def networking_allowed():
    """Whether DRAKE_ALLOW_NETWORK lets the package map download (Drake's rule)."""
    value = os.environ.get("DRAKE_ALLOW_NETWORK", "")
    if value == "":
        return True
    tokens = value.split(":")
    return "none" not in tokens and "package_map" in tokens


def cache_directory():
    """Drake's cache directory of fetched packages (made if missing): TEST_TMPDIR/.cache,
    XDG_CACHE_HOME or HOME/.cache, then drake/package_map."""
    for variable, suffix in (("TEST_TMPDIR", ".cache"), ("XDG_CACHE_HOME", ""), ("HOME", ".cache")):
        value = os.environ.get(variable)
        if value and os.path.isdir(value):
            root = os.path.join(value, suffix) if suffix else value
            break
    else:
        raise RuntimeError(
            "Could not determine an appropriate cache_dir to use. Set $XDG_CACHE_HOME to a "
            "valid scratch directory."
        )
    path = os.path.join(root, "drake", "package_map")
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


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
    """(package name, deprecation message or None) of the package.xml ``filename`` (read
    again only when the file changes: every Parser's PackageMap reads the installed ones)."""
    try:
        stat = os.stat(filename)
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = None
    known = _MANIFESTS.get(filename)
    if version is not None and known is not None and known[0] == version:
        return known[1]
    result = _parse_package_manifest(filename)
    if version is not None:
        _MANIFESTS[filename] = (version, result)
    return result


# filename -> ((mtime, size) when read, (package name, deprecation message or None))
_MANIFESTS = {}


def _parse_package_manifest(filename):
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
    """The parameters of a remote package (PackageMap.RemoteParams): ``urls`` (https://,
    http:// or file://, tried in order), ``sha256`` of the archive, ``archive_type`` (zip,
    tar, gztar, bztar, xztar; from the URL if None) and ``strip_prefix`` (the directory of
    the archive that is the package)."""

    __qualname__ = "PackageMap.RemoteParams"

    def __init__(self, urls=None, sha256="", archive_type=None, strip_prefix=None):
        self.urls = list(urls or [])
        self.sha256 = sha256
        self.archive_type = archive_type
        self.strip_prefix = strip_prefix

    def _data(self):
        data = {"urls": list(self.urls), "sha256": self.sha256}
        if self.archive_type is not None:
            data["archive_type"] = self.archive_type
        if self.strip_prefix is not None:
            data["strip_prefix"] = self.strip_prefix
        return data

    def ToJson(self):
        """The parameters as a JSON object string (keys sorted, as Drake's)."""
        return json.dumps(self._data(), separators=(",", ":"), sort_keys=True)

    def __eq__(self, other):
        return isinstance(other, _RemoteParams) and self._data() == other._data()

    def __repr__(self):
        return (
            f"RemoteParams(urls={self.urls!r}, sha256={self.sha256!r}, "
            f"archive_type={self.archive_type!r}, strip_prefix={self.strip_prefix!r})"
        )

    def cache_name(self):
        """The directory name of the fetched package in the cache."""
        prefix = hashlib.sha256((self.strip_prefix or "").encode()).hexdigest()
        return f"{self.sha256}-{prefix}"

    def allowed_urls(self):
        """The URLs the network policy allows (file:// only when networking is off)."""
        if networking_allowed():
            return list(self.urls)
        return [url for url in self.urls if url.startswith("file://")]

    def cached_path(self):
        """The package's directory in the cache if it has been fetched, else None."""
        try:
            path = os.path.join(cache_directory(), self.cache_name())
        except (RuntimeError, OSError):
            return None
        return path if os.path.isdir(path) else None

    def fetch(self, package_name):
        """The package's directory, fetched into the cache (verified, unpacked) if needed."""
        path = self.cached_path()
        if path is not None:
            return path
        try:
            cache = cache_directory()
        except (RuntimeError, OSError) as e:
            raise RuntimeError(
                f"PackageMap: when downloading '{package_name}', could not create temporary "
                f"cache directory: {e}"
            ) from None
        output = os.path.join(cache, self.cache_name())
        LOGGER.info("PackageMap: Downloading %s", self.urls[0] if self.urls else "")
        with tempfile.TemporaryDirectory(prefix="mallard_downloader_") as scratch:
            error = self._download_and_unpack(pathlib.Path(scratch), pathlib.Path(output))
        if error is not None:
            raise RuntimeError(
                f"PackageMap: when downloading '{package_name}', the downloader experienced an "
                f"error: {error}"
            )
        (pathlib.Path(cache) / f"{self.cache_name()}.README").write_text(
            f"Our sibling directory ./{self.cache_name()} contains package://{package_name}.\n"
            "\nIt was downloaded from one of these URLs:\n"
            + "".join(f" {url}\n" for url in self.urls)
        )
        return output

    def _download_and_unpack(self, scratch, output):
        """Downloads the first URL whose archive has the sha256, unpacks it and moves its
        strip_prefix directory to ``output`` (atomically); the error text, or None."""
        errors = []
        archive = None
        for url in self.allowed_urls():
            name = urllib.parse.urlparse(url).path.split("/")[-1] or "empty"
            candidate = scratch / name
            digest = hashlib.sha256()
            try:
                with (
                    urllib.request.urlopen(url, timeout=30) as response,
                    open(candidate, "wb") as f,
                ):
                    while data := response.read(1 << 16):
                        digest.update(data)
                        f.write(data)
            except (OSError, ValueError) as e:
                errors.append(f"Candidate {url} failed:\n{e}")
                continue
            if digest.hexdigest() == self.sha256:
                archive = candidate
                break
            errors.append(
                f"Candidate {url} failed:\nChecksum mismatch; was {digest.hexdigest()} but "
                f"wanted {self.sha256}."
            )
        if archive is None:
            return "All downloads failed:\n\n" + "\n\n".join(errors)
        unpacked = scratch / "unpack"
        try:
            shutil.unpack_archive(archive, unpacked, format=self.archive_type)
        except (shutil.ReadError, ValueError, OSError) as e:
            return f"Cannot unpack {archive.name}: {e}"
        package = unpacked / (self.strip_prefix or "")
        if not package.is_dir():
            return f"The strip_prefix='{self.strip_prefix}' does not exist within {archive.name}"
        with tempfile.TemporaryDirectory(dir=output.parent, prefix=f"temp.{output.name}.") as t:
            incoming = pathlib.Path(t) / "incoming"
            shutil.move(str(package), incoming)
            try:
                incoming.rename(output)
            except OSError:  # (fetched meanwhile by another process)
                pass
        return None


class PackageMap:
    """Maps package names to directories on the local file system, for ``package://name/...``
    (and ``model://name/...``) URIs in model files.

    ``PackageMap()`` holds "mallard", "drake" (when pydrake is installed) and the remote
    "drake_models"; ``PackageMap(other)`` copies ``other``; ``PackageMap.MakeEmpty()`` holds
    nothing.
    """

    RemoteParams = _RemoteParams

    def __init__(self, other=None):
        # name -> [path (None: a remote package not fetched yet), deprecation message or None]
        self._map = {}
        self._remote = {}  # name -> RemoteParams of the packages added by AddRemote
        if other is not None:
            if not isinstance(other, PackageMap):
                raise TypeError(f"PackageMap(): expected a PackageMap, got {type(other).__name__}")
            self._map = copy.deepcopy(other._map)
            self._remote = copy.deepcopy(other._remote)
        else:
            self.AddPackageXml(MALLARD_PACKAGE_XML)
            if drake_share() is not None:
                self.AddPackageXml(os.path.join(drake_share(), "package.xml"))
            self.AddRemote("drake_models", drake_models_params())

    @staticmethod
    def MakeEmpty():
        """A PackageMap with no packages."""
        result = PackageMap.__new__(PackageMap)
        result._map = {}
        result._remote = {}
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

    def _emplace(self, package_name, package_path, method, remote=None):
        existing = self._map.get(package_name)
        if existing is None:
            self._map[package_name] = [package_path, None]
            if remote is not None:
                self._remote[package_name] = remote
            return
        error = self._merge_error(existing[0], package_path, self._remote.get(package_name), remote)
        if error:
            raise RuntimeError(f"{method} cannot add '{package_name}' {error}")

    @staticmethod
    def _merge_error(this_path, other_path, this_remote=None, other_remote=None):
        """Why two definitions of one package (local paths, or remote parameters) cannot be
        merged, or "" if they can."""
        if this_remote is not None or other_remote is not None:
            if this_remote is None or other_remote is None:
                return "because one is local and the other remote"
            if this_remote != other_remote:
                return (
                    "because the remote package parameters differ "
                    f"({this_remote.ToJson()} vs {other_remote.ToJson()})"
                )
            return ""
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
            remote = other_map._remote.get(name)
            if existing is None:
                self._map[name] = [path, deprecated]
                if remote is not None:
                    self._remote[name] = copy.deepcopy(remote)
                continue
            error = self._merge_error(existing[0], path, self._remote.get(name), remote)
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
        """Adds the remote package ``package_name`` (RemoteParams ``params``): its archive is
        fetched, checked and unpacked into the cache when its path is first needed.
        RuntimeError for params Drake rejects, a package already present with other
        params, or only network URLs while networking is off and nothing is cached."""
        if not isinstance(params, _RemoteParams):
            raise TypeError(f"AddRemote(): params must be RemoteParams, got {params!r}")
        where = f"PackageMap::AddRemote on '{package_name}'"
        if not params.urls:
            raise RuntimeError(f"{where} requires at least one URL")
        for url in params.urls:
            if not url.startswith(("https://", "http://", "file://")):
                raise RuntimeError(f"{where} has unsupported URL '{url}'")
        if not re.fullmatch(r"[0-9a-fA-F]{64}", params.sha256 or ""):
            raise RuntimeError(f"{where} has invalid sha256 '{params.sha256}'")
        if params.archive_type is not None and params.archive_type not in _ARCHIVE_TYPES:
            raise RuntimeError(f"{where} has unsupported archive type '{params.archive_type}'")
        params = copy.deepcopy(params)
        if not params.allowed_urls() and params.cached_path() is None:
            raise RuntimeError(
                f"{where} only provides network URLs (i.e., no file:// fallbacks) but "
                "PackageMap networking has been disabled via the DRAKE_ALLOW_NETWORK environment "
                "variable and the download cache does not contain any matching file"
            )
        self._emplace(package_name, None, "PackageMap::AddRemote()", remote=params)

    def Remove(self, package_name):
        """Removes ``package_name``; RuntimeError if it is not present."""
        self._remote.pop(package_name, None)
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
        if path is None:  # a remote package: fetched now (or found in the cache)
            path = self._remote[package_name].fetch(package_name)
            self._map[package_name][0] = path
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
        lines += [
            f"  - {name}: {path if path is not None else '(remote, not fetched yet)'}"
            for name, (path, _) in sorted(self._map.items())
        ]
        return "\n".join(lines) + "\n"


def resolve_uri(uri, package_map, root_dir, error, warning):
    """The lexically normal path of ``uri`` (Drake's ResolveUri): ``file:///abs``,
    ``package://name/path`` or ``model://name/path`` through ``package_map`` (a PackageMap,
    or a function that returns it: called for those only, as most URIs need no map and making
    one costs ~40 µs), or a bare file name, absolute or relative to ``root_dir`` ("" when
    parsing a string: then an error). ``error(message)`` must raise; ``warning(message)``
    reports a deprecated package."""
    match = _URI.fullmatch(uri)
    if match:
        scheme, package, rest = match.groups()
        if scheme == "file":
            result = "/" + rest
        elif scheme in ("model", "package"):
            if callable(package_map):
                package_map = package_map()
            if not package_map.Contains(package):
                error(f"URI '{uri}' refers to unknown package '{package}'{_hint(package)}")
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


def _hint(package):
    """How to get Drake's packages, for the message about an unknown package."""
    if package != "drake":
        return ""
    return (
        " (mallard finds Drake's resources in an installed pydrake: `pip install drake`; or "
        "add their directory: parser.package_map().Add('drake', '/path/to/share/drake'))"
    )
