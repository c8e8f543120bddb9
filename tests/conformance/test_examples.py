"""mallard.examples against pydrake.examples: the same ports, parameters and defaults, time
derivatives, energies, mass matrix and bias at the same states (1e-12), the same limit cycle,
and scalar conversion."""

import importlib

import numpy as np
import pytest

pytest.importorskip("pydrake")

LIBS = [importlib.import_module(f"{r}.examples") for r in ("pydrake", "mallard")]
ALL = [importlib.import_module(f"{r}.all") for r in ("pydrake", "mallard")]
TOL = dict(rtol=1e-12, atol=1e-12)


def ports(system):
    inputs = [
        (p.get_name(), p.size())
        for p in map(system.get_input_port, range(system.num_input_ports()))
    ]  # noqa: E501
    outputs = [
        (p.get_name(), p.size())
        for p in map(system.get_output_port, range(system.num_output_ports()))
    ]  # noqa: E501
    return inputs, outputs


@pytest.mark.parametrize("name", ["PendulumPlant", "AcrobotPlant", "VanDerPolOscillator"])
def test_ports_types_and_parameters(name):
    d, m = (getattr(lib, name)() for lib in LIBS)
    assert ports(m) == ports(d)
    assert m.GetSystemType() == d.GetSystemType()
    cd, cm = d.CreateDefaultContext(), m.CreateDefaultContext()
    assert cm.num_numeric_parameter_groups() == cd.num_numeric_parameter_groups()
    np.testing.assert_array_equal(
        cm.get_numeric_parameter(0).CopyToVector(), cd.get_numeric_parameter(0).CopyToVector()
    )
    assert cm.num_continuous_states() == cd.num_continuous_states()


@pytest.mark.parametrize(
    "vector, names",
    [
        ("PendulumParams", ["mass", "length", "damping", "gravity"]),
        ("PendulumState", ["theta", "thetadot"]),
        ("PendulumInput", ["tau"]),
        ("AcrobotParams", ["m1", "m2", "l1", "lc1", "lc2", "Ic1", "Ic2", "b1", "b2", "gravity"]),
        ("AcrobotState", ["theta1", "theta2", "theta1dot", "theta2dot"]),
        ("AcrobotInput", ["tau"]),
    ],
)
def test_named_vectors(vector, names):
    d, m = (getattr(lib, vector)() for lib in LIBS)
    np.testing.assert_array_equal(m.CopyToVector(), d.CopyToVector())
    for i, name in enumerate(names):
        for v in (d, m):
            getattr(v, f"set_{name}")(10.0 + i)
        assert getattr(m, name)() == getattr(d, name)() == 10.0 + i
    np.testing.assert_array_equal(m.CopyToVector(), d.CopyToVector())
    if hasattr(d, f"with_{names[0]}"):
        w = getattr(m, f"with_{names[0]}")(-1.0)
        assert getattr(w, names[0])() == -1.0 and type(w) is type(m)
    assert type(m.Clone()) is type(m)


def states(n, count=5):
    return np.random.default_rng(n).uniform(-2.0, 2.0, (count, n))


@pytest.mark.parametrize("name", ["PendulumPlant", "AcrobotPlant", "VanDerPolOscillator"])
def test_dynamics_and_energy(name):
    d, m = (getattr(lib, name)() for lib in LIBS)
    cd, cm = d.CreateDefaultContext(), m.CreateDefaultContext()
    for s, c in ((d, cd), (m, cm)):
        if s.num_input_ports():
            s.get_input_port().FixValue(c, [0.7])
    for x in states(cd.num_continuous_states()):
        cd.SetContinuousState(x)
        cm.SetContinuousState(x)
        np.testing.assert_allclose(
            m.EvalTimeDerivatives(cm).CopyToVector(),
            d.EvalTimeDerivatives(cd).CopyToVector(),
            **TOL,
        )
        for energy in ("EvalPotentialEnergy", "EvalKineticEnergy"):
            np.testing.assert_allclose(getattr(m, energy)(cm), getattr(d, energy)(cd), **TOL)
        if name == "AcrobotPlant":
            np.testing.assert_allclose(m.MassMatrix(cm), d.MassMatrix(cd), **TOL)
            np.testing.assert_allclose(m.DynamicsBiasTerm(cm), d.DynamicsBiasTerm(cd), **TOL)
        for output in range(d.num_output_ports()):
            np.testing.assert_allclose(
                m.get_output_port(output).Eval(cm), d.get_output_port(output).Eval(cd), **TOL
            )


def test_state_and_parameter_accessors():
    for lib in LIBS:
        p = lib.PendulumPlant()
        c = p.CreateDefaultContext()
        c.SetContinuousState([1.2, 0.0])
        assert p.get_state(c).theta() == 1.2 and p.get_parameters(c).mass() == 1.0
        assert type(p.get_state(c)).__name__ == "PendulumState"
        assert type(p.get_state_output_port().Eval(c)) is np.ndarray
    # (pydrake's get_mutable_state and get_mutable_parameters return copies; Drake's C++ and
    # mallard return the Context's own vectors.)
    p = LIBS[1].PendulumPlant()
    c = p.CreateDefaultContext()
    p.get_mutable_state(c).set_theta(0.5)
    p.get_mutable_parameters(c).set_mass(2.0)
    assert p.get_state(c).theta() == 0.5 and p.get_parameters(c).mass() == 2.0
    results = []
    for lib in LIBS:
        a = lib.AcrobotPlant()
        c = a.CreateDefaultContext()
        a.SetMitAcrobotParameters(a.get_mutable_parameters(c))
        results.append(a.get_parameters(c).CopyToVector())
    np.testing.assert_array_equal(results[1], results[0])


def test_limit_cycle():
    d, m = (lib.VanDerPolOscillator.CalcLimitCycle() for lib in LIBS)
    assert m.shape == d.shape
    np.testing.assert_allclose(m, d, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", ["PendulumPlant", "AcrobotPlant", "VanDerPolOscillator"])
def test_autodiff(name):
    """∂ẋ/∂x by AutoDiffXd equals pydrake's."""
    grads = []
    for lib, full in zip(LIBS, ALL, strict=True):
        system = getattr(lib, name)().ToAutoDiffXd()
        context = system.CreateDefaultContext()
        if system.num_input_ports():
            system.get_input_port().FixValue(context, [full.AutoDiffXd(0.7)])
        n = context.num_continuous_states()
        x = full.InitializeAutoDiff(states(n, 1)[0]).reshape(-1)
        context.SetContinuousState(x)
        xdot = system.EvalTimeDerivatives(context).CopyToVector()
        grads.append(full.ExtractGradient(xdot))
    np.testing.assert_allclose(grads[1], grads[0], **TOL)
