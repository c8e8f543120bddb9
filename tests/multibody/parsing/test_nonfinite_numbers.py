"""NaN and ±inf in every numeric field of URDF and SDFormat documents (``nonfinite_cases``):
a located error ("{file}:{line}: error: ...", the line of the value) that leaves the plant as
it was, where mallard rejects them; finite dynamics where it accepts them."""

import numpy as np
import pytest

from mallard.geometry import SceneGraph
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant
from tests.multibody.parsing.nonfinite_cases import CASES, VALUES

#: A model the plant holds before the broken document is parsed.
BEFORE = '<robot name="before"><link name="l"/></robot>'


def _counts(plant):
    return (
        plant.num_model_instances(),
        plant.num_bodies(),
        plant.num_joints(),
        plant.num_frames(),
        plant.num_actuators(),
        plant.num_force_elements(),
    )


@pytest.mark.parametrize(
    "case, value",
    [pytest.param(case, value, id=f"{case.id}={value}") for case in CASES for value in VALUES],
)
def test_nonfinite_number(case, value, tmp_path):
    path = case.write(tmp_path, value)
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())  # (so that geometry is parsed)
    parser.AddModelsFromString(BEFORE, "urdf")
    before = _counts(plant)
    if value in case.accepted:
        parser.AddModels(str(path))
        plant.Finalize()
        context = plant.CreateDefaultContext()
        assert np.all(np.isfinite(plant.CalcMassMatrix(context)))
        assert np.all(np.isfinite(plant.CalcGravityGeneralizedForces(context)))
        return
    with pytest.raises((RuntimeError, ValueError)) as info:
        parser.AddModels(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:{case.line()}: error: "), message
    other = case.other_error(value)
    if other is not None:
        assert other in message
    else:
        assert value in message
        assert "must be finite" in message or "NaN is not allowed" in message, message
    assert _counts(plant) == before


def test_sdformat_limits_of_inf_mean_no_limit(tmp_path):
    case = next(c for c in CASES if c.id == "sdf:axis/limit/upper")
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(str(case.write(tmp_path, "inf")))
    assert plant.GetJointByName("j").position_upper_limits() == [np.inf]


def test_out_of_range_numbers_are_not_read_as_inf(tmp_path):
    # libsdformat rejects "1e400" (std::stod is out of range) where it takes "inf".
    case = next(c for c in CASES if c.id == "sdf:axis/limit/upper")
    path = case.write(tmp_path, "1e400")
    with pytest.raises(RuntimeError, match="expected 1 number"):
        Parser(MultibodyPlant(0.0)).AddModels(str(path))
