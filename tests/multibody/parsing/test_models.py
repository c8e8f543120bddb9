"""The models mallard ships (package "mallard"): they load by URL, mean what they say, and the
acrobot matches MakeAcrobotPlant."""

import pathlib

import numpy as np
import pytest

from mallard.models import AcrobotParameters, MakeAcrobotPlant
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import MultibodyForces

ROOT = pathlib.Path(__file__).resolve().parents[3]


def load(name, time_step=0.0):
    plant = MultibodyPlant(time_step)
    (instance,) = Parser(plant).AddModelsFromUrl(f"package://mallard/{name}.urdf")
    plant.Finalize()
    assert plant.GetModelInstanceName(instance) == name
    return plant


def test_acrobot_matches_make_acrobot_plant():
    parsed, built = load("acrobot"), MakeAcrobotPlant()
    assert parsed.GetPositionNames(add_model_instance_prefix=False) == ["shoulder_q", "elbow_q"]
    assert parsed.GetActuatorNames(add_model_instance_prefix=False) == ["elbow"]
    p = AcrobotParameters()
    for joint, b in (("shoulder", p.b1), ("elbow", p.b2)):
        assert parsed.GetJointByName(joint).default_damping() == b
    c1, c2 = parsed.CreateDefaultContext(), built.CreateDefaultContext()
    rng = np.random.default_rng(1)
    for _ in range(5):
        q, v, vdot = rng.uniform(-3, 3, (3, 2))
        for plant, context in ((parsed, c1), (built, c2)):
            plant.SetPositions(context, q)
            plant.SetVelocities(context, v)
        np.testing.assert_allclose(
            parsed.CalcMassMatrix(c1), built.CalcMassMatrix(c2), rtol=1e-14, atol=1e-14
        )
        np.testing.assert_allclose(
            parsed.CalcInverseDynamics(c1, vdot, MultibodyForces(parsed)),
            built.CalcInverseDynamics(c2, vdot, MultibodyForces(built)),
            rtol=1e-13,
            atol=1e-13,
        )


def test_pendulum():
    plant = load("pendulum")
    assert plant.GetPositionNames() == ["pendulum_theta_q"]
    assert plant.GetEffortUpperLimits() == [5.0]
    arm = plant.GetBodyByName("arm")
    assert arm.default_mass() == 1.0
    context = plant.CreateDefaultContext()
    # Hanging straight down: the bob is 0.5 m below the pivot, 1 m above the ground.
    p_WBcm = plant.CalcCenterOfMassPositionInWorld(context)
    assert p_WBcm == pytest.approx([0, 0, 0.5])
    # The inertia about the pivot: m l^2 + I.
    assert plant.CalcMassMatrix(context)[0, 0] == pytest.approx(0.25 + 0.001)


def test_cart_pole():
    plant = load("cart_pole")
    assert plant.GetPositionNames(add_model_instance_prefix=False) == ["x_x", "theta_q"]
    assert plant.GetActuatorNames(add_model_instance_prefix=False) == ["x"]
    context = plant.CreateDefaultContext()
    M = plant.CalcMassMatrix(context)
    # Total mass along x; pole inertia about the hinge m L^2 / 3 about y.
    assert M[0, 0] == pytest.approx(11.0)
    assert M[1, 1] == pytest.approx(1.0 / 3.0)
    assert M[0, 1] == pytest.approx(-0.5)  # theta > 0 swings the pole's center toward -x


def test_models_are_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["mallard.models"]
    models = ROOT / "mallard" / "models"
    shipped = {p.name for pattern in patterns for p in models.glob(pattern)}
    assert {"package.xml", "pendulum.urdf", "acrobot.urdf", "cart_pole.urdf"} <= shipped
