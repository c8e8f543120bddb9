"""Keyword names are API: every function and method mallard exports under a name pydrake has
accepts every call form pydrake's signature allows (the same parameter names, positional or by
keyword; pybind11's ``argN`` are positional only, any name will do).

pydrake's signatures come from its docstrings (pybind11 starts them with
``name(self: ..., arg0: ..., kw: ...)``, one numbered line per overload) or, for functions
written in Python, from ``inspect``; mallard's from ``inspect`` or, for a function that takes
``*args, **kwargs``, from the call forms it declares (``mallard.common._pybind.overloads``).
A pydrake call form that no mallard form binds is a difference; the test fails on any that is
not in ``EXCEPTIONS`` with its reason (and on an exception that is no longer a difference)."""

import enum
import importlib
import inspect
import re

import pytest

pytest.importorskip("pydrake")

from mallard.common._pybind import signatures  # noqa: E402

MODULES = [
    "autodiffutils",
    "common",
    "common.containers",
    "common.eigen_geometry",
    "common.value",
    "common.yaml",
    "examples",
    "geometry",
    "math",
    "multibody.math",
    "multibody.meshcat",
    "multibody.parsing",
    "multibody.plant",
    "multibody.tree",
    "symbolic",
    "systems.analysis",
    "systems.controllers",
    "systems.drawing",
    "systems.framework",
    "systems.planar_scenegraph_visualizer",
    "systems.primitives",
    "systems.pyplot_visualizer",
    "systems.scalar_conversion",
    "trajectories",
    "visualization",
]

_NO_IN_MEMORY_MESH = "meshes are read from files only (no InMemoryMesh, MeshSource of data)"
_NO_SCALE3 = "non-uniform mesh scaling (scale3) is not yet supported"
_CONTEXT_GEOMETRY = "SceneGraph changes geometry in the model, not per Context, in mallard"
_NO_SCENE_GRAPH_CONFIG = "SceneGraphConfig is not yet in mallard"
_NO_TRIANGLE_MESH = "taking a TriangleSurfaceMesh or a PointCloud here is not yet in mallard"

# pydrake call forms mallard does not take, "qualified name(parameters)" → the reason.
EXCEPTIONS = {
    "geometry.CollisionFilterDeclaration.__init__(scope)": (
        "CollisionFilterScope is not yet in mallard (it has no deformable geometry)"
    ),
    "geometry.Convex.__init__(filename, scale3)": _NO_SCALE3,
    "geometry.Convex.__init__(mesh_data, scale)": _NO_IN_MEMORY_MESH,
    "geometry.Convex.__init__(mesh_data, scale3)": _NO_IN_MEMORY_MESH,
    "geometry.Convex.__init__(source, scale)": _NO_IN_MEMORY_MESH,
    "geometry.Convex.__init__(source, scale3)": _NO_IN_MEMORY_MESH,
    "geometry.Convex.__init__(points, label, scale)": "a Convex of points is not yet supported",
    "geometry.Convex.__init__(points, label, scale3)": "a Convex of points is not yet supported",
    "geometry.Mesh.__init__(filename, scale3)": _NO_SCALE3,
    "geometry.Mesh.__init__(mesh_data, scale)": _NO_IN_MEMORY_MESH,
    "geometry.Mesh.__init__(mesh_data, scale3)": _NO_IN_MEMORY_MESH,
    "geometry.Mesh.__init__(source, scale)": _NO_IN_MEMORY_MESH,
    "geometry.Mesh.__init__(source, scale3)": _NO_IN_MEMORY_MESH,
    "geometry.MeshSource.__init__(mesh)": _NO_IN_MEMORY_MESH,
    "geometry.MeshSource.__init__(other)": _NO_IN_MEMORY_MESH,
    "geometry.Meshcat.SetObject(path, cloud, point_size, rgba)": _NO_TRIANGLE_MESH,
    "geometry.Meshcat.SetObject(path, mesh, rgba, wireframe, wireframe_line_width, side)": (
        _NO_TRIANGLE_MESH
    ),
    "geometry.SceneGraph.AssignRole(context, source_id, geometry_id, properties, assign)": (
        _CONTEXT_GEOMETRY
    ),
    "geometry.SceneGraph.RegisterGeometry(context, source_id, frame_id, geometry)": (
        _CONTEXT_GEOMETRY
    ),
    "geometry.SceneGraph.RemoveRole(context, source_id, frame_id, role)": _CONTEXT_GEOMETRY,
    "geometry.SceneGraph.RemoveRole(context, source_id, geometry_id, role)": _CONTEXT_GEOMETRY,
    "geometry.SceneGraph.RemoveRole(source_id, frame_id, role)": (
        "removing a role from every geometry of a frame is not yet supported"
    ),
    "geometry.SceneGraph.__init__(config)": _NO_SCENE_GRAPH_CONFIG,
    "multibody.plant.AddMultibodyPlant(plant_config, scene_graph_config, builder)": (
        _NO_SCENE_GRAPH_CONFIG
    ),
    "multibody.tree.CalcSpatialInertia(mesh, density)": _NO_TRIANGLE_MESH,
    "symbolic.Formula.__init__(var)": "BOOLEAN Variables are not in mallard.symbolic",
    "symbolic.Substitute(e, subs)": "SinCos substitution is not yet in mallard.symbolic",
    "symbolic.Substitute(m, subs)": "SinCos substitution is not yet in mallard.symbolic",
    "trajectories.PiecewisePolynomial.__init__(arg0, arg1)": (
        "PiecewisePolynomial of Polynomial matrices (pydrake.polynomial) is not yet in mallard"
    ),
}


def _split_top_level(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "([{<"
        depth -= ch in ")]}>"
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def pydrake_forms(function, name):
    """pydrake's call forms of ``function``: per overload, its parameters as (name, positional
    only) pairs without ``self``; None if it has no readable signature."""
    doc = getattr(function, "__doc__", None) or ""
    lines = doc.splitlines()
    if type(function).__name__ in ("function", "method") or (
        callable(function) and not lines and hasattr(function, "__code__")
    ):
        try:
            params = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            return None
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            return None  # (it takes anything)
        if params and params[0].name in ("self", "cls"):
            params = params[1:]
        forms = [
            [
                (p.name, p.kind == p.POSITIONAL_ONLY)
                for p in params
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            ]
        ]
        return forms
    overloaded = len(lines) > 1 and lines[1].strip() == "Overloaded function."
    pattern = re.compile(
        (r"^\d+\. " if overloaded else "^") + re.escape(name) + r"\((.*)\)( -> .*)?$"
    )
    forms = []
    for i, line in enumerate(lines):
        if not overloaded and i > 0:
            break
        match = pattern.match(line.strip())
        if match is None:
            continue
        form = []
        params = _split_top_level(match.group(1))
        if any(p.startswith("*args") for p in params):
            continue  # (it takes anything)
        for param in params:
            pname = param.split(":")[0].split("=")[0].strip()
            if pname in ("*", "**kwargs", "self"):
                continue
            form.append((pname, re.fullmatch(r"arg\d+", pname) is not None))
        forms.append(form)
    return forms or None


def accepts(mallard_function, form, cls=None):
    """Whether a mallard call form binds pydrake's ``form`` (positional-only parameters
    positionally, the others by keyword)."""
    args = [None for _, positional in form if positional]
    kwargs = {name: None for name, positional in form if not positional}
    for signature in signatures(mallard_function, cls):
        try:
            signature.bind(*args, **kwargs)
            return True
        except TypeError:
            continue
    return False


def _declares_nothing(mallard_function):
    function = getattr(mallard_function, "__func__", mallard_function)
    if getattr(function, "__overloads__", None) is not None:
        return False
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind == p.VAR_POSITIONAL for p in params) and any(
        p.kind == p.VAR_KEYWORD for p in params
    )


def _forms_depend_on_class(mallard_function):
    function = getattr(mallard_function, "__func__", mallard_function)
    return any(
        callable(f) and f.__code__.co_argcount == 1 for f in getattr(function, "__overloads__", ())
    )


def _callables(pydrake_object, mallard_object, qualname):
    """(qualified name, pydrake function, mallard function, name, mallard class or None) for
    a function, or for a class, its constructor and each method both have."""
    if inspect.isclass(pydrake_object) and inspect.isclass(mallard_object):
        for attr in dir(pydrake_object):
            if attr.startswith("_") and attr != "__init__":
                continue
            static = inspect.getattr_static(mallard_object, attr, None)
            if static is None or isinstance(static, property):
                continue
            try:
                p = getattr(pydrake_object, attr)
                m = getattr(mallard_object, attr)
            except AttributeError:
                continue
            if attr == "__init__" and m is object.__init__:
                continue
            if attr == "__init__" and issubclass(mallard_object, enum.Enum):
                m = type(mallard_object).__call__.__get__(mallard_object)  # Enum(value)
            if callable(p) and callable(m) and not inspect.isclass(m):
                yield f"{qualname}.{attr}", p, m, attr, mallard_object
    elif callable(pydrake_object) and callable(mallard_object):
        if not inspect.isclass(pydrake_object):
            yield qualname, pydrake_object, mallard_object, qualname.rsplit(".", 1)[-1], None


def differences():
    """Every pydrake call form mallard does not take: "qualified name(parameters)" → what
    mallard takes instead; and how many functions were compared."""
    found, seen = {}, set()
    for module in MODULES:
        try:
            pm = importlib.import_module(f"pydrake.{module}")
            mm = importlib.import_module(f"mallard.{module}")
        except ImportError:
            continue
        names = getattr(mm, "__all__", None) or [n for n in dir(mm) if not n.startswith("_")]
        for name in names:
            if not hasattr(pm, name):
                continue
            for qualname, p, m, attr, cls in _callables(getattr(pm, name), getattr(mm, name), name):
                forms = pydrake_forms(p, attr)
                if not forms:
                    continue
                owner = cls if _forms_depend_on_class(m) else None
                key = (id(getattr(m, "__func__", m)), owner, tuple(map(tuple, forms)))
                if key in seen:
                    continue
                seen.add(key)
                where = f"{module}.{qualname}"
                if _declares_nothing(m):
                    found[where] = "takes *args, **kwargs without declaring its call forms"
                    continue
                for form in forms:
                    if not accepts(m, form, cls):
                        call = f"{where}({', '.join(n for n, _ in form)})"
                        found[call] = "mallard: " + ", ".join(map(str, signatures(m, cls)))
    return found, len(seen)


def test_keyword_names_match_pydrake():
    found, compared = differences()
    assert compared > 1500  # (the functions and methods of some 900 shared names)
    unexplained = {k: v for k, v in found.items() if k not in EXCEPTIONS}
    report = "\n".join(f"{k}\n    {v}" for k, v in sorted(unexplained.items()))
    assert not unexplained, f"{len(unexplained)} differences from pydrake:\n{report}"
    stale = sorted(set(EXCEPTIONS) - set(found))
    assert not stale, f"exceptions that are no longer differences: {stale}"
