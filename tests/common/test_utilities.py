"""mallard.common's Python utilities: namedview and EqualToDict, the deprecation helpers,
temp_directory and configure_logging, and mallard.common.yaml's errors."""

import dataclasses
import logging
import os
import warnings

import numpy as np
import pytest

from mallard.common import configure_logging, temp_directory
from mallard.common.containers import EqualToDict, namedview
from mallard.common.deprecation import (
    DrakeDeprecationWarning,
    ModuleShim,
    deprecated,
    deprecated_callable,
    install_numpy_warning_filters,
)


def test_namedview_aliases_its_value():
    View = namedview("View", ["a", "b"])
    value = np.zeros(2)
    view = View(value)
    view.b = 5.0
    assert value.tolist() == [0.0, 5.0] and view[:] is not None and np.asarray(view) is value
    copy = np.array(view)
    copy[0] = 1.0
    assert value[0] == 0.0
    assert repr(View.Zero()) == "<View(a=0, b=0)>" and str(view) == "View(a=0.0, b=5.0)"
    with pytest.raises(AssertionError, match="expected 2 values"):
        View([1.0])
    assert namedview("Raw", ["a.b"], sanitize_field_names=False).get_fields() == ("a.b",)


def test_equal_to_dict():
    sym = pytest.importorskip("mallard.symbolic")
    x, y = sym.Variable("x"), sym.Variable("y")
    d = EqualToDict({x: 1})
    d[x + y] = 2
    assert d[x] == 1 and d[x + y] == 2 and y not in d
    assert len(EqualToDict({x: 1, y: 2}).raw()) == 2 and d.get(y, 7) == 7
    del d[x]
    assert list(d.keys())[0].EqualTo(x + y)


def test_deprecation_helpers():
    @deprecated_callable("Use g.", date="2038-01-19")
    def f():
        return 1

    class A:
        @deprecated("Use n.", date="2038-01-19")
        def m(self):
            return 2

        p = deprecated("No p.")(property(lambda self: 3))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (f(), A().m(), A().p) == (1, 2, 3)
    messages = [str(w.message) for w in caught]
    suffix = " The deprecated code will be removed from Drake on or after 2038-01-19."
    assert messages == ["Use g." + suffix, "Use n." + suffix, "No p."]
    assert all(w.category is DrakeDeprecationWarning for w in caught)
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        deprecated("x", date="tomorrow")
    import types

    module = types.ModuleType("shimmed")
    module.real = 1
    shim = ModuleShim(module, lambda name: {"alias": 2}[name])
    assert (shim.real, shim.alias) == (1, 2)
    with pytest.raises(KeyError):
        getattr(shim, "missing")  # noqa: B009
    install_numpy_warning_filters(force=True)


def test_temp_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path))
    path = temp_directory()
    assert os.path.isdir(path) and os.path.dirname(path) == str(tmp_path)
    assert os.path.basename(path).startswith("robotlocomotion_drake_")
    assert temp_directory() != path
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path / "missing" / "deeper"))
    with pytest.raises(RuntimeError, match="cannot create a directory"):
        temp_directory()


def test_configure_logging(capsys):
    root = logging.getLogger()
    before = list(root.handlers), root.level
    try:
        configure_logging()
        configure_logging()  # (once: the handler is replaced, not added)
        logging.getLogger("mallard").info("hello")
        assert capsys.readouterr().err.endswith("[mallard] [INFO] hello\n")
        assert sum(getattr(h, "_mallard_configured", False) for h in root.handlers) == 1
    finally:
        root.handlers[:] = before[0]
        root.setLevel(before[1])


@dataclasses.dataclass
class Config:
    gain: float = 1.0
    steps: int = 2


def test_yaml_errors():
    pytest.importorskip("yaml")
    from mallard.common.yaml import yaml_load, yaml_load_typed

    with pytest.raises(RuntimeError, match="exactly one of data and filename"):
        yaml_load()
    with pytest.raises(RuntimeError, match="give a schema or defaults"):
        yaml_load_typed(data="gain: 1")
    with pytest.raises(RuntimeError, match="no child 'x'"):
        yaml_load_typed(schema=Config, data="gain: 1", child_name="x")
    with pytest.raises(RuntimeError, match=r"The fields \['steps'\] were missing"):
        yaml_load_typed(schema=Config, data="gain: 1", allow_schema_with_no_yaml=False)
    loaded = yaml_load_typed(
        schema=Config, data="gain: 2\nextra: 1", allow_yaml_with_no_schema=True
    )
    assert loaded == Config(gain=2.0)
    with pytest.raises(RuntimeError, match="Expected a float value for 'gain'"):
        yaml_load_typed(schema=Config, data="gain: true")


def test_yaml_without_pyyaml(monkeypatch):
    import sys

    from mallard.common.yaml import yaml_load

    monkeypatch.setitem(sys.modules, "yaml", None)  # (as if PyYAML were not installed)
    with pytest.raises(ImportError, match=r"install the 'yaml' extra"):
        yaml_load(data="a: 1")
