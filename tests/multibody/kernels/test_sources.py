"""kernels._sources: the modules a kernel module depends on, read from its imports, and the
cache stamps they give (editing one module changes the stamps of exactly its dependents)."""

import ast
import importlib
import inspect
import os
import pathlib
import pkgutil
import shutil
import textwrap
import types

import pytest

import mallard
import mallard.geometry._kernels as geometry_kernels
import mallard.multibody._kernels as kernels
from mallard.multibody._kernels import _numba_internals
from mallard.multibody._kernels._machinery import SOURCES
from mallard.multibody._kernels._sources import SourceGraph, import_statements

KERNEL_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(kernels.__path__, kernels.__name__ + ".")
)
#: The other kernel package, SceneGraph's proximity queries (mallard.geometry._kernels).
GEOMETRY_KERNEL_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(geometry_kernels.__path__, "mallard.geometry._kernels.")
)
K = "mallard.multibody._kernels."
IMPORTS = (ast.Import, ast.ImportFrom)


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_imports_are_read_from_every_form_of_import_statement(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "VERSION = 1\n",
            "pkg/a.py": """\
                import numpy as np
                import pkg.b
                from pkg import c
                from pkg.sub import d as dee
                from . import e
                from .sub import SOMETHING
                from pkg import VERSION

                def f():
                    from pkg.sub.deep import g
                    return g
                """,
            "pkg/b.py": "import os\n",
            "pkg/c.py": "from .sub.d import X\n",
            "pkg/e.py": "",
            "pkg/unused.py": "",
            "pkg/sub/__init__.py": "SOMETHING = 2\n",
            "pkg/sub/d.py": "X = 1\nfrom .. import e\n",
            "pkg/sub/deep/__init__.py": "",
            "pkg/sub/deep/g.py": "from ...sub import d\n",
        },
    )
    graph = SourceGraph(tmp_path / "pkg", "pkg")
    assert graph.imports("pkg.a") == {
        "pkg.b",
        "pkg.c",
        "pkg.sub.d",
        "pkg.e",
        "pkg.sub",  # SOMETHING is defined in pkg/sub/__init__.py
        "pkg",  # VERSION: in pkg/__init__.py
        "pkg.sub.deep.g",  # (imported inside a function)
    }
    assert graph.imports("pkg.c") == {"pkg.sub.d"}  # not pkg.sub: nothing is taken from it
    assert graph.imports("pkg.sub.d") == {"pkg.e"}
    assert graph.imports("pkg.sub.deep.g") == {"pkg.sub.d"}
    assert graph.closure("pkg.c") == {"pkg.c", "pkg.sub.d", "pkg.e"}
    assert "pkg.unused" not in graph.closure("pkg.a")
    assert graph.module_of(tmp_path / "pkg" / "sub" / "__init__.py") == "pkg.sub"
    assert graph.module_of(tmp_path / "elsewhere.py") is None


def test_import_statements_are_those_of_the_syntax_tree():
    """The import statements read line by line are all those of the file's syntax tree, in
    every file of mallard (and of a file of awkward ones)."""
    awkward = b"""\
import a.b, c as d
from .e import (f,  # a comment (with a parenthesis
    g)
from . import h; import i
def j():
    from ..k import \\
        l
    \"\"\"from m import n: an import in a docstring (ignored, or an extra dependency)\"\"\"
if True:
        import o.p
"""
    paths = list(pathlib.Path(mallard.__file__).parent.rglob("*.py"))
    for source in [awkward] + [path.read_bytes() for path in paths]:
        parsed = {ast.dump(n) for n in ast.walk(ast.parse(source)) if isinstance(n, IMPORTS)}
        read = {ast.dump(n) for n in import_statements(source)}
        assert parsed <= read, parsed - read


@pytest.mark.parametrize("name", KERNEL_MODULES + GEOMETRY_KERNEL_MODULES)
def test_the_closure_holds_every_module_whose_objects_the_module_holds(name):
    """What the static reading finds covers what the imported module's namespace holds:
    every mallard module, function or class a kernel module refers to is in its closure."""
    module = importlib.import_module(name)
    closure = SOURCES.closure(name)
    for value in vars(module).values():
        if isinstance(value, types.ModuleType):
            origin = value.__name__
        elif inspect.isfunction(value) or inspect.isclass(value):
            origin = value.__module__
        else:
            continue
        if origin.split(".")[0] == "mallard":
            assert origin in closure, f"{name} holds an object of {origin}, not in its closure"


def test_dependencies_of_the_kernel_modules():
    # The leaves depend on the machinery only (and the joint types' codes, which it compiles
    # kernels for).
    machinery = {K + "_machinery", K + "_numba_internals", K + "_sources", "mallard._compiled"}
    machinery |= {K + "_python_frames", "mallard.multibody._joint_types"}
    assert SOURCES.closure(K + "vec3") == {K + "vec3"} | machinery
    # A module depends on what it calls, from the kernels package and from outside it.
    dynamics = SOURCES.closure(K + "dynamics")
    assert {K + "kinematics", K + "mobilizers", K + "vec3", K + "lanes"} <= dynamics
    assert "mallard.multibody._joint_types" in dynamics
    assert "mallard.multibody._layout" in SOURCES.closure(K + "kinematics")
    # ... and not on what calls it.
    assert not {K + "engine", K + "batch", K + "engine_derivatives"} & dynamics
    assert K + "dynamics" in SOURCES.closure(K + "engine")
    # Nothing of the plant, the tree or the systems: the layouts, the joint type codes and the
    # batched status codes, how kernels are called (mallard._compiled), the one quaternion
    # formula and the point contact parameters' combination (mallard.multibody.
    # _contact_parameters), a scalar's double value (mallard._scalar_value, for the interpreted
    # kernels);
    # for the compiled stepping, the integrators' step rules (kernels of their own) and the
    # periodic events' times, plain functions of numbers that the systems share with it.
    allowed = {
        "mallard.multibody._joint_types",
        "mallard.multibody._batch_codes",
        "mallard._scalar_value",
        "mallard.multibody._layout",
        "mallard._compiled",
        "mallard.common._quaternion_rotation",
        "mallard.multibody._contact_parameters",
        "mallard.systems.analysis._kernels",
        "mallard.systems.framework._sample_times",
    }
    # ... and for the compiled discrete step (kernels.discrete_step), the geometry's kernels
    # (the contact query) and their layout.
    allowed |= set(GEOMETRY_KERNEL_MODULES) | {
        "mallard.geometry._kernels",
        "mallard.geometry._proximity_layout",
    }
    for name in KERNEL_MODULES:
        outside = {m for m in SOURCES.closure(name) if not m.startswith(K)}
        assert outside <= allowed, name


def test_the_geometry_kernels_are_stamped_by_their_closure():
    """The proximity kernels' cache entries are stamped as the dynamics kernels' are (not with
    numba's stamp of their file alone, which mallard's other compiled functions keep): they
    call the dynamics' kinematics and batched groups (BatchedPlant.CheckCollisions). Their
    closure holds only kernels, layouts and codes, as the dynamics kernels' does, plus the
    proximity layout; nothing of SceneGraph, the plant or the tree."""
    from mallard.geometry._kernels import batch

    fn = batch.batch_collisions
    path = inspect.getfile(fn)
    locator = _numba_internals._ManagedLocator.from_function(fn, path)
    assert locator.get_source_stamp() == SOURCES.stamp_of_file(path)
    assert K + "kinematics" in SOURCES.closure("mallard.geometry._kernels.batch")
    allowed = {
        "mallard.geometry._proximity_layout",
        "mallard.multibody._joint_types",
        "mallard.multibody._batch_codes",
        "mallard._scalar_value",
        "mallard.multibody._layout",
        "mallard._compiled",
        "mallard.common._quaternion_rotation",
        "mallard.multibody._contact_parameters",
    }
    for name in GEOMETRY_KERNEL_MODULES:
        outside = {
            m for m in SOURCES.closure(name) if not m.startswith((K, "mallard.geometry._kernels"))
        }
        assert outside <= allowed, name


def _copy_of_mallard(tmp_path):
    shutil.copytree(
        pathlib.Path(mallard.__file__).parent,
        tmp_path / "mallard",
        ignore=shutil.ignore_patterns("__pycache__", "models"),
    )
    return tmp_path / "mallard"


def _stamps(package_dir):
    graph = SourceGraph(package_dir, "mallard")
    return graph, {name: graph.stamp(name) for name in KERNEL_MODULES}


@pytest.mark.parametrize(
    "edited",
    ["multibody/_kernels/dynamics.py", "multibody/_kernels/vec3.py", "multibody/_layout.py"],
)
def test_editing_one_module_changes_the_stamps_of_exactly_its_dependents(tmp_path, edited):
    package_dir = _copy_of_mallard(tmp_path)
    graph, before = _stamps(package_dir)
    edited_module = graph.module_of(package_dir / edited)
    with open(package_dir / edited, "a") as f:
        f.write("EDITED = 1\n")
    _, after = _stamps(package_dir)
    changed = {name for name in KERNEL_MODULES if before[name] != after[name]}
    assert changed == {name for name in KERNEL_MODULES if edited_module in graph.closure(name)}
    if edited_module in KERNEL_MODULES:
        assert edited_module in changed
    assert changed != set(KERNEL_MODULES)  # not everything
    assert not changed & {K + "rotation", K + "pose"}


def test_the_stamp_is_of_the_closure_only(tmp_path):
    package_dir = _copy_of_mallard(tmp_path)
    _, before = _stamps(package_dir)
    (package_dir / "multibody" / "_kernels" / "unrelated.py").write_text("X = 1\n")
    with open(package_dir / "multibody" / "plant" / "__init__.py", "a") as f:
        f.write("EDITED = 1\n")
    assert _stamps(package_dir)[1] == before


def test_a_module_whose_closure_was_modified_after_the_import_has_no_stamp(tmp_path):
    """A file of a module's closure modified after ``since`` (when the process imported the
    package: it may run the module as it was) leaves the module, and only it and its
    dependents, without a stamp: its kernels are not cached."""
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from pkg import b\n", "pkg/b.py": ""})
    _write(tmp_path, {"pkg/c.py": ""})
    since = (tmp_path / "pkg" / "c.py").stat().st_mtime_ns
    later = since + 10**9
    os.utime(tmp_path / "pkg" / "b.py", ns=(later, later))
    graph = SourceGraph(tmp_path / "pkg", "pkg", since=since)
    assert graph.stamp("pkg.a") is None and graph.stamp("pkg.b") is None
    assert isinstance(graph.stamp("pkg.c"), str)
    assert isinstance(SourceGraph(tmp_path / "pkg", "pkg", since=later).stamp("pkg.a"), str)


def test_a_file_outside_the_package_is_stamped_by_the_modules_it_imports(tmp_path):
    """A test's kernels, which link the package's (SourceGraph.stamp_of_importer): their stamp
    changes with the closure of a module the file imports by an absolute name, and with the
    file, not with the package's other modules; none if one of them changed after ``since``."""
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "",
            "pkg/c.py": "",
            "tests/test_x.py": "import os\nfrom pkg.a import f\nfrom . import helpers\n",
        },
    )
    test_file = tmp_path / "tests" / "test_x.py"

    def stamp():
        return SourceGraph(tmp_path / "pkg", "pkg").stamp_of_importer(test_file)

    before = stamp()
    assert isinstance(before, str)
    (tmp_path / "pkg" / "c.py").write_text("X = 1\n")
    assert stamp() == before
    (tmp_path / "pkg" / "b.py").write_text("X = 1\n")
    edited = stamp()
    assert edited != before
    with open(test_file, "a") as f:
        f.write("Y = 2\n")
    assert stamp() not in (before, edited)
    since = test_file.stat().st_mtime_ns - 10**9
    assert SourceGraph(tmp_path / "pkg", "pkg", since=since).stamp_of_importer(test_file) is None
