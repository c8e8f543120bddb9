"""``mallard dynamics``: the printed M, C·v and τ_g of the acrobot equal Spong's closed forms
(acrobot.urdf's parameters) and pydrake's numbers."""

import math
import re

import numpy as np
import pytest

from tests.cli.conftest import ACROBOT_URDF, MIMIC_URDF

# acrobot.urdf: m1 = m2 = 1 kg, l1 = 1 m, lc1 = 0.5 m, lc2 = 1 m, Ic1 = 0.083, Ic2 = 0.33.
M1, M2, L1, LC1, LC2, IC1, IC2, G = 1.0, 1.0, 1.0, 0.5, 1.0, 0.083, 0.33, 9.81


def _spong(q, v):
    """M, C·v and τ_g of the acrobot (Spong 1994), angles about +y hanging along -z."""
    (q1, q2), (v1, v2) = q, v
    i1, i2 = IC1 + M1 * LC1**2, IC2 + M2 * LC2**2
    h = M2 * L1 * LC2
    M = np.array(
        [[i1 + i2 + M2 * L1**2 + 2 * h * math.cos(q2), i2 + h * math.cos(q2)],
         [i2 + h * math.cos(q2), i2]]
    )  # fmt: skip
    s2 = math.sin(q2)
    bias = np.array([-2 * h * s2 * v1 * v2 - h * s2 * v2**2, h * s2 * v1**2])
    tau_g = np.array(
        [
            -(M1 * LC1 + M2 * L1) * G * math.sin(q1) - M2 * LC2 * G * math.sin(q1 + q2),
            -M2 * LC2 * G * math.sin(q1 + q2),
        ]
    )
    return M, bias, tau_g


SECTIONS = ("q", "v", "mass", "bias", "gravity", "accelerations")
ENERGIES = ("kinetic", "potential")


def _parse(out):
    """{first word of a section title: the numbers of its rows} of the dynamics output (the
    mass matrix's first line names its columns)."""
    sections, title = {}, None
    for line in out.splitlines():
        if not line.startswith(" "):
            title = line.split(" ")[0].rstrip(":")
            sections[title] = []
        else:
            sections[title].append(line.split()[1:])
    sections["mass"] = sections["mass"][1:]
    energies = {k: float(re.search(rf"^{k} energy: (\S+) J$", out, re.M)[1]) for k in ENERGIES}
    arrays = {k: np.array(v, dtype=float) for k, v in sections.items() if k in SECTIONS}
    return arrays | energies


@pytest.mark.parametrize(("q", "v"), [((0.3, -0.5), (1.0, 2.0)), ((-2.0, 1.2), (-0.5, 3.0))])
def test_acrobot_matches_closed_forms(run, q, v):
    result = run(
        "dynamics", ACROBOT_URDF, "--q", ",".join(map(str, q)), "--v", " ".join(map(str, v))
    )
    assert result.status == 0, result.err
    sections = _parse(result.out)
    M, bias, tau_g = _spong(q, v)
    np.testing.assert_allclose(sections["q"].ravel(), q)
    np.testing.assert_allclose(sections["v"].ravel(), v)
    np.testing.assert_allclose(sections["mass"], M, rtol=1e-8)
    np.testing.assert_allclose(sections["bias"].ravel(), bias, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(sections["gravity"].ravel(), tau_g, rtol=1e-8, atol=1e-12)
    # M·v̇ + C·v = τ_g - b·v (damping b = 0.1 N·m·s at both joints).
    vdot = sections["accelerations"].ravel()
    np.testing.assert_allclose(M @ vdot + bias, tau_g - 0.1 * np.array(v), rtol=1e-7, atol=1e-7)
    assert sections["kinetic"] == pytest.approx(0.5 * np.array(v) @ M @ v, rel=1e-8)
    q1, q2 = q
    z1, z2 = -LC1 * math.cos(q1), -L1 * math.cos(q1) - LC2 * math.cos(q1 + q2)
    assert sections["potential"] == pytest.approx(G * (M1 * z1 + M2 * z2), rel=1e-8)
    assert "shoulder_w" in result.out and "elbow_q" in result.out


def test_default_state_is_the_default_positions_at_rest(run):
    sections = _parse(run("dynamics", "package://mallard/acrobot.urdf").out)
    M, bias, tau_g = _spong((0.0, 0.0), (0.0, 0.0))
    np.testing.assert_allclose(sections["mass"], M, rtol=1e-8)
    np.testing.assert_allclose(sections["bias"].ravel(), bias, atol=1e-12)
    np.testing.assert_allclose(sections["gravity"].ravel(), tau_g, atol=1e-12)


def test_cart_pole_matches_pydrake(run):
    pydrake = pytest.importorskip("pydrake.all")
    q, v = np.array([0.2, 2.5]), np.array([-0.3, 1.5])
    out = run(
        "dynamics", "package://mallard/cart_pole.urdf", "--q", "0.2,2.5", "--v", "-0.3", "1.5"
    ).out
    sections = _parse(out)
    plant = pydrake.MultibodyPlant(0.0)
    parser = pydrake.Parser(plant)
    parser.package_map().AddPackageXml(str(ACROBOT_URDF.parent / "package.xml"))
    parser.AddModels(url="package://mallard/cart_pole.urdf")
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q)
    plant.SetVelocities(context, v)
    np.testing.assert_allclose(sections["mass"], plant.CalcMassMatrix(context), rtol=1e-8)
    np.testing.assert_allclose(
        sections["bias"].ravel(), plant.CalcBiasTerm(context), rtol=1e-8, atol=1e-12
    )
    np.testing.assert_allclose(
        sections["gravity"].ravel(),
        plant.CalcGravityGeneralizedForces(context),
        rtol=1e-8,
        atol=1e-12,
    )


def test_constrained_model_has_no_accelerations(run, tmp_path):
    path = tmp_path / "mimic.urdf"
    path.write_text(MIMIC_URDF)
    result = run("dynamics", path, "--q", "0.1,0.1")
    assert result.status == 0, result.err
    assert (
        "accelerations v̇: not computed (a continuous plant cannot have constraints)" in result.out
    )
    assert "potential energy: " in result.out
