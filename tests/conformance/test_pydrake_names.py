"""The name probe: every name of pydrake.all from a module mallard mirrors (systems, math,
multibody, geometry, common, trajectories, autodiffutils, symbolic) is in mallard.all, or the
README lists it (or its module, or its template) under "pydrake.all names not yet in
mallard.all"; and the README lists nothing that mallard.all now has."""

import pathlib
import re

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")

import pydrake.all as P  # noqa: E402

import mallard.all as M  # noqa: E402

MIRRORED = ("systems", "math", "multibody", "geometry", "common", "trajectories",
            "autodiffutils", "symbolic")  # fmt: skip
README = pathlib.Path(__file__).parents[2] / "README.md"
SECTION = "### pydrake.all names not yet in mallard.all"


def mirrored_names():
    """(name, its pydrake module) of pydrake.all's public names from the mirrored modules."""
    for name in sorted(dir(P)):
        if name.startswith("_"):
            continue
        module = getattr(getattr(P, name), "__module__", None)
        if (
            isinstance(module, str)
            and module.split(".")[1:2]
            and (module.split(".")[1] in MIRRORED)
        ):
            yield name, module


def listed():
    """The modules and names the README's section lists (in backquotes)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", 1) if "\n## " in section[1:] else len(section)]
    quoted = set(re.findall(r"`([^`]+)`", section))
    modules = {q for q in quoted if q.startswith("pydrake.")}
    return modules, quoted - modules


def has(name):
    try:
        getattr(M, name)
    except AttributeError:
        return False
    return True


def test_every_mirrored_name_is_in_mallard_or_listed():
    modules, names = listed()
    missing = []
    for name, module in mirrored_names():
        if has(name) or name in names:
            continue
        if any(module == m or module.startswith(m + ".") for m in modules):
            continue
        template = name.split("𝓣")[0]  # (an instantiation of a listed template)
        if "𝓣" in name and template in names:
            continue
        missing.append(f"{module}.{name}")
    assert not missing, f"{len(missing)} names neither in mallard.all nor listed: {missing}"


def test_listed_names_are_not_in_mallard():
    _, names = listed()
    pydrake_names = set(dir(P))
    present = sorted(n for n in names if n in pydrake_names and has(n))
    assert not present, f"the README lists names mallard.all has: {present}"
