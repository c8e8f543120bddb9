"""Keyword names are API: every function and method mallard exports under a name pydrake has
accepts every call form pydrake's signature allows (the same parameter names, positional or by
keyword; pybind11's ``argN`` are positional only, any name will do).

pydrake's signatures come from its docstrings (pybind11 starts them with
``name(self: ..., arg0: ..., kw: ...)``, one numbered line per overload) or, for functions
written in Python, from ``inspect``; mallard's from ``inspect`` or, for a function that takes
``*args, **kwargs``, from the call forms it declares (``mallard.common._pybind.overloads``).
A pydrake call form that no mallard form binds is a difference; the test fails on any that is
not in ``EXCEPTIONS`` with its reason (and on an exception that is no longer a difference)."""

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
    "multibody.parsing",
    "multibody.plant",
    "multibody.tree",
    "symbolic",
    "systems.analysis",
    "systems.controllers",
    "systems.framework",
    "systems.primitives",
    "systems.scalar_conversion",
    "trajectories",
    "visualization",
]

# pydrake call forms mallard does not take, each with its reason.
EXCEPTIONS = {}


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
        for param in _split_top_level(match.group(1)):
            pname = param.split(":")[0].split("=")[0].strip()
            if pname in ("*", "*args", "**kwargs", "self"):
                continue
            form.append((pname, re.fullmatch(r"arg\d+", pname) is not None))
        forms.append(form)
    return forms or None


def accepts(mallard_function, form):
    """Whether a mallard call form binds pydrake's ``form`` (positional-only parameters
    positionally, the others by keyword)."""
    args = [None for _, positional in form if positional]
    kwargs = {name: None for name, positional in form if not positional}
    for signature in signatures(mallard_function):
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


def _callables(pydrake_object, mallard_object, qualname):
    """(qualified name, pydrake function, mallard function, name) for a function, or for a
    class, its constructor and each method both have."""
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
            if callable(p) and callable(m) and not inspect.isclass(m):
                yield f"{qualname}.{attr}", p, m, attr
    elif callable(pydrake_object) and callable(mallard_object):
        if not inspect.isclass(pydrake_object):
            yield qualname, pydrake_object, mallard_object, qualname.rsplit(".", 1)[-1]


def differences():
    """Every pydrake call form mallard does not take: qualified name → list of messages."""
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
            for qualname, p, m, attr in _callables(getattr(pm, name), getattr(mm, name), name):
                forms = pydrake_forms(p, attr)
                if not forms:
                    continue
                key = (id(getattr(m, "__func__", m)), tuple(map(tuple, map(tuple, forms))))
                if key in seen:
                    continue
                seen.add(key)
                problems = []
                if _declares_nothing(m):
                    problems.append("takes *args, **kwargs without declaring its call forms")
                else:
                    for form in forms:
                        if not accepts(m, form):
                            names_ = [n for n, _ in form]
                            found_forms = [str(s) for s in signatures(m)]
                            problems.append(f"pydrake {names_}; mallard {found_forms}")
                if problems:
                    found[f"{module}.{qualname}"] = problems
    return found


def test_keyword_names_match_pydrake():
    found = differences()
    unexplained = {k: v for k, v in found.items() if k not in EXCEPTIONS}
    report = "\n".join(f"{k}:\n    " + "\n    ".join(v) for k, v in sorted(unexplained.items()))
    assert not unexplained, f"{len(unexplained)} differences from pydrake:\n{report}"
    stale = sorted(set(EXCEPTIONS) - set(found))
    assert not stale, f"exceptions that are no longer differences: {stale}"
