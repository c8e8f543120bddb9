"""Which source files a compiled kernel depends on: the stamp of its on-disk cache entry.

numba compiles a kernel together with every helper it calls, from whichever file, and with the
module constants it reads frozen in; its own cache checks only the file of the kernel it
compiled. Here a module's cache stamp is a hash of its source and of the sources of every
module of the package it imports, transitively (read from its ``import`` statements, once per
process, with :mod:`ast`): editing one kernel file invalidates the cached kernels of the
modules that import it, directly or not, and no others. Only the import statements are parsed,
not whole files (parsing the ~20 files of a kernel's closure would add a tenth of a second to
the first kernel call of every process).

A module has no stamp (None: its kernels are not cached in this process) if a file of its
closure was modified after the process imported the package (``since``): the process may have
imported that module before the change, so that the code it compiles is not the file's, and it
must not save that code under the file's stamp.

What this relies on, in the kernels' own code: a kernel reaches other code of the package only
through names its module imports by name (``import a.b``, ``from a.b import c``, at any depth
of the module, relative or absolute); a package's ``__init__.py`` counts when a name is taken
from it, not when a submodule below it is. A numba ``overload`` is registered in the module that
defines the function or the type it is for, so that any code using it imports that module.
"""

import ast
import functools
import hashlib
import os
import re
import time

#: The start of an import statement: a line's first word ``import``, or ``from ... import``.
_IMPORT_START = re.compile(rb"^[ \t]*(?:import[ \t]+\w|from[ \t]+\.*[\w.]*[ \t]+import\b)", re.M)


def import_statements(source):
    """The import statements of the Python source ``source`` (bytes), as ``ast.Import`` and
    ``ast.ImportFrom`` nodes: every line starting one, with its continuation lines, parsed
    alone. (Lines of strings that read as imports may add nodes, which can only add
    dependencies.)"""
    nodes = []
    for match in _IMPORT_START.finditer(source):
        lines, depth, start = [], 0, match.start()
        while True:
            end = source.find(b"\n", start)
            end = len(source) if end < 0 else end
            line = source[start:end].split(b"#", 1)[0].rstrip()  # (no strings in imports)
            lines.append(line)
            depth += line.count(b"(") - line.count(b")")
            if end == len(source) or (depth <= 0 and not line.endswith(b"\\")):
                break
            start = end + 1
        try:
            body = ast.parse(b"\n".join(lines).lstrip()).body
        except SyntaxError:  # (prose in a string)
            continue
        nodes.extend(node for node in body if isinstance(node, (ast.Import, ast.ImportFrom)))
    return nodes


class SourceGraph:
    """The import graph of the package ``package`` whose directory is ``package_dir``, from its
    sources, read lazily and once each; ``since``: when the process imported the package
    (``time.time_ns()``; default: now)."""

    def __init__(self, package_dir, package, since=None):
        self._root = os.path.dirname(os.path.abspath(package_dir))
        self._package = package
        self._sources = {}
        self._since = time.time_ns() if since is None else since

    def module_of(self, path):
        """The dotted name of the module in the file ``path`` (None outside the package)."""
        relative = os.path.relpath(os.path.abspath(path), self._root)
        parts = relative[: -len(".py")].split(os.sep) if relative.endswith(".py") else []
        if not parts or parts[0] != self._package:
            return None
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    @functools.cache  # noqa: B019  (one graph per process; never freed)
    def path_of(self, module):
        """The file of the package's module ``module`` (dotted name), None if there is none."""
        base = os.path.join(self._root, *module.split("."))
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(path):
                return path
        return None

    def source(self, module):
        """The bytes of ``module``'s file."""
        if module not in self._sources:
            with open(self.path_of(module), "rb") as f:
                self._sources[module] = f.read()
        return self._sources[module]

    @functools.cache  # noqa: B019
    def imports(self, module):
        """The package's modules that ``module`` imports by name (see the module docstring)."""
        is_package = os.path.basename(self.path_of(module)) == "__init__.py"
        return self._imported(self.source(module), module, is_package) - {module}

    def _imported(self, source, module, is_package):
        """The package's modules that the Python ``source`` (bytes) of ``module`` imports by
        name; of a file outside the package (``module`` None), by absolute names only."""
        found = set()
        for node in import_statements(source):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (module is not None or node.level == 0):
                base = self._absolute(module, is_package, node.module, node.level)
                names = [f"{base}.{alias.name}" for alias in node.names]
                submodules = [name for name in names if self.path_of(name)]
                found.update(submodules)
                if len(submodules) < len(names):  # (names defined in base itself)
                    found.add(base)
        return frozenset(
            name for name in found if name.split(".")[0] == self._package and self.path_of(name)
        )

    @staticmethod
    def _absolute(module, is_package, name, level):
        """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
        if level == 0:
            return name
        parts = module.split(".")
        package = parts if is_package else parts[:-1]
        base = package[: len(package) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    @functools.cache  # noqa: B019
    def closure(self, module):
        """``module`` and every module of the package it imports, directly or not."""
        seen, pending = {module}, [module]
        while pending:
            for name in self.imports(pending.pop()):
                if name not in seen:
                    seen.add(name)
                    pending.append(name)
        return frozenset(seen)

    @functools.cache  # noqa: B019
    def stamp(self, module):
        """A hash of the sources of :meth:`closure` (``module``): the cache stamp of the
        kernels compiled from ``module``; None if one of them was modified after ``since``
        (see the module docstring)."""
        digest = hashlib.sha256()
        for name in sorted(self.closure(module)):
            if os.stat(self.path_of(name)).st_mtime_ns > self._since:
                return None
            source = self.source(name)
            digest.update(f"{name}\0{len(source)}\0".encode())
            digest.update(source)
        return digest.hexdigest()

    def stamp_of_file(self, path):
        """:meth:`stamp` of the module in the file ``path`` (None: see the module docstring)."""
        return self.stamp(self.module_of(path))

    def stamp_of_importer(self, path):
        """The cache stamp of kernels compiled from the file ``path`` outside the package (a
        test's) that link the package's kernels: a hash of its source and of the :meth:`stamp`
        of each package module it imports by an absolute name; None if one has none or the
        file was modified after ``since``."""
        if os.stat(path).st_mtime_ns > self._since:
            return None
        with open(path, "rb") as f:
            source = f.read()
        digest = hashlib.sha256(source)
        for name in sorted(self._imported(source, None, False)):
            stamp = self.stamp(name)
            if stamp is None:
                return None
            digest.update(f"{name}\0{stamp}\0".encode())
        return digest.hexdigest()
