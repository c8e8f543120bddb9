"""NaN and ±inf in every numeric field of URDF and SDFormat documents (``nonfinite_cases``),
parsed by pydrake and mallard (with a scene graph, so that geometry is read): mallard rejects
what pydrake rejects (or aborts on) and accepts what pydrake accepts, except where the table
says why it rejects more; pydrake accepts exactly what the table says it does."""

import logging

import pytest

pytest.importorskip("pydrake")

from pydrake.multibody.parsing import Parser  # noqa: E402
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph  # noqa: E402
from pydrake.systems.framework import DiagramBuilder  # noqa: E402

from mallard.geometry import SceneGraph as MallardSceneGraph  # noqa: E402
from mallard.multibody.parsing import Parser as MallardParser  # noqa: E402
from mallard.multibody.plant import MultibodyPlant as MallardPlant  # noqa: E402
from tests.multibody.parsing.nonfinite_cases import CASES, VALUES  # noqa: E402


def _pydrake_accepts(path):
    """Whether pydrake parses the file (an assertion failure inside Drake, which pydrake
    raises as SystemExit, is a rejection)."""
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    drake_log = logging.getLogger("drake")
    level = drake_log.level
    drake_log.setLevel(logging.CRITICAL)
    try:
        Parser(plant).AddModels(str(path))
    except (Exception, SystemExit):
        return False
    finally:
        drake_log.setLevel(level)
    return True


def _mallard_accepts(path):
    mallard_log = logging.getLogger("mallard.parsing")
    level = mallard_log.level
    mallard_log.setLevel(logging.CRITICAL)
    try:
        MallardParser(MallardPlant(0.0), MallardSceneGraph()).AddModels(str(path))
    except (RuntimeError, ValueError):
        return False
    finally:
        mallard_log.setLevel(level)
    return True


@pytest.mark.parametrize(
    "case, value",
    [pytest.param(case, value, id=f"{case.id}={value}") for case in CASES for value in VALUES],
)
def test_mallard_rejects_what_pydrake_rejects(case, value, tmp_path):
    path = case.write(tmp_path, value)
    pd_accepts, ml_accepts = _pydrake_accepts(path), _mallard_accepts(path)
    assert pd_accepts == (value in case.drake_accepts), (
        f"pydrake {'accepts' if pd_accepts else 'rejects'} {value} in {case.id}"
    )
    if pd_accepts and not ml_accepts:
        assert case.why, f"mallard rejects {value} in {case.id}, which pydrake accepts"
    else:
        assert ml_accepts == pd_accepts
