"""Time and step sizes are T, as pydrake's Context_[T], IntegratorBase_[T] and Simulator_[T]
have them: the time of AutoDiffXd and symbolic Contexts, the integrators' step sizes, and
gradients of Simulator_[AutoDiffXd] runs (a pendulum, with respect to its initial state and its
length) through error-controlled and fixed steps and an AutoDiffXd boundary time, against
pydrake's."""

import importlib

import numpy as np
import pytest

pytest.importorskip("pydrake")


def _lib(prefix):
    """The modules these tests use, of ``prefix`` (pydrake or mallard)."""
    names = {
        "ad": "autodiffutils",
        "analysis": "systems.analysis",
        "framework": "systems.framework",
        "primitives": "systems.primitives",
        "examples": "examples",
        "symbolic": "symbolic",
    }
    lib = type("Lib", (), {})()
    for key, module in names.items():
        setattr(lib, key, importlib.import_module(f"{prefix}.{module}"))
    lib.AD = lib.ad.AutoDiffXd
    return lib


DRAKE, MALLARD = _lib("pydrake"), _lib("mallard")


def both(function, *args):
    return function(DRAKE, *args), function(MALLARD, *args)


def _decay(lib):
    """ẋ = −x, without inputs."""
    return lib.primitives.LinearSystem([[-1.0]], np.zeros((1, 0)), [[1.0]], np.zeros((1, 0)))


def _values_and_derivatives(scalars):
    """[(value, derivatives)] of AutoDiffXd scalars."""
    return [(x.value(), x.derivatives()) for x in scalars]


def _assert_same_autodiff(ours, theirs, tol=1e-9):
    """Equal values and derivatives (to ``tol``, relative to the larger magnitude)."""
    assert len(ours) == len(theirs)
    for (v_m, d_m), (v_d, d_d) in zip(ours, theirs, strict=True):
        assert v_m == pytest.approx(v_d, rel=tol, abs=tol)
        assert d_m.shape == d_d.shape
        np.testing.assert_allclose(
            d_m, d_d, rtol=tol, atol=tol * max(1.0, np.abs(d_d).max(initial=0.0))
        )


# ---- Context_[T] time ------------------------------------------------------------------------
def test_context_time_is_the_scalar_type():
    def run(lib):
        system = _decay(lib)
        leaf = system.ToAutoDiffXd().CreateDefaultContext()
        leaf_time_type = type(leaf.get_time()).__name__
        leaf.SetTime(1.5)  # a real number becomes a constant
        constant = (type(leaf.get_time()).__name__, leaf.get_time().value())
        constant += (leaf.get_time().derivatives().size,)
        builder = lib.framework.DiagramBuilder()
        builder.AddSystem(system)
        diagram = builder.Build().ToAutoDiffXd()
        context = diagram.CreateDefaultContext()
        context.SetTime(lib.AD(2.0, [1.0, 2.0]))
        sub = diagram.GetSubsystemContext(diagram.GetSystems()[0], context)
        symbolic = system.ToSymbolic().CreateDefaultContext()
        symbolic.SetTime(0.5)
        return (
            leaf_time_type,
            constant,
            str(leaf),  # Time: 1.5 (the value), as Drake prints it
            list(context.get_time().derivatives()),
            list(sub.get_time().derivatives()),
            type(symbolic.get_time()).__name__,
            str(symbolic.get_time()),
            type(system.CreateDefaultContext().get_time()).__name__,
        )

    theirs, ours = both(run)
    assert ours == theirs
    assert ours[0] == "AutoDiffXd" and ours[5] == "Expression" and ours[7] == "float"


def test_context_time_of_another_scalar_type_is_refused():
    def run(lib):
        system = _decay(lib)
        cases = [
            (system.CreateDefaultContext(), lib.AD(1.0, [1.0])),
            (system.ToAutoDiffXd().CreateDefaultContext(), lib.symbolic.Expression(1.0)),
            (system.ToSymbolic().CreateDefaultContext(), lib.AD(1.0, [1.0])),
        ]
        refused = []
        for context, time in cases:
            with pytest.raises(TypeError) as info:
                context.SetTime(time)
            refused.append("time_sec" in str(info.value))
        return refused

    theirs, ours = both(run)
    assert ours == theirs == [True, True, True]


# ---- IntegratorBase_[T] step sizes ---------------------------------------------------------
@pytest.mark.parametrize("scheme", ["explicit_euler", "runge_kutta2", "runge_kutta3"])
def test_integrator_step_sizes_are_the_scalar_type(scheme):
    def run(lib):
        simulator = lib.analysis.Simulator_[lib.AD](_decay(lib).ToAutoDiffXd())
        integrator = lib.analysis.ResetIntegratorFromFlags(simulator, scheme, 0.1)
        before = [
            integrator.get_maximum_step_size(),
            integrator.get_requested_minimum_step_size(),
            integrator.get_actual_initial_step_size_taken(),
        ]
        integrator.set_maximum_step_size(lib.AD(0.2, [1.0]))
        float_integrator = lib.analysis.Simulator(_decay(lib)).get_mutable_integrator()
        with pytest.raises(TypeError):
            float_integrator.set_maximum_step_size(lib.AD(0.2, [1.0]))
        return (
            [type(x).__name__ for x in before],
            [x.value() for x in before[:2]],
            np.isnan(before[2].value()),
            list(integrator.get_maximum_step_size().derivatives()),
        )

    theirs, ours = both(run)
    assert ours == theirs
    assert ours[0] == ["AutoDiffXd"] * 3


# ---- gradients of simulations ----------------------------------------------------------------
def _pendulum_run(lib, scheme=None, fixed_step=False, boundary=2.0, accuracy=None):
    """A passive pendulum simulated from θ = 1, θ̇ = 0.5 (length 0.5) with derivatives with
    respect to θ₀, θ̇₀ and the length: the final state, the statistics and the times the
    monitor saw (with their derivatives)."""
    plant = lib.examples.PendulumPlant().ToAutoDiffXd()
    simulator = lib.analysis.Simulator_[lib.AD](plant)
    if scheme is not None:
        lib.analysis.ResetIntegratorFromFlags(simulator, scheme, 0.01)
    integrator = simulator.get_mutable_integrator()
    integrator.set_fixed_step_mode(fixed_step)
    if accuracy is not None:
        integrator.set_target_accuracy(accuracy)
    context = simulator.get_mutable_context()
    plant.get_input_port().FixValue(context, [lib.AD(0.0)])
    seeded = lib.ad.InitializeAutoDiff(np.array([1.0, 0.5, 0.5])).reshape(-1)
    context.SetContinuousState(seeded[:2])
    context.get_mutable_numeric_parameter(0).SetAtIndex(1, seeded[2])  # the length
    times = []
    simulator.set_monitor(lambda c: times.append(c.get_time()))
    simulator.AdvanceTo(boundary)
    x = context.get_continuous_state_vector().CopyToVector()
    statistics = [integrator.get_largest_step_size_taken()]
    if not integrator.get_fixed_step_mode():
        statistics += [
            integrator.get_actual_initial_step_size_taken(),
            integrator.get_smallest_adapted_step_size_taken(),
        ]
    return {
        "x": _values_and_derivatives(x),
        "time": _values_and_derivatives([context.get_time()]),
        "monitor times": _values_and_derivatives(times),
        "statistics": _values_and_derivatives(statistics),
        "steps": integrator.get_num_steps_taken(),
        "shrinkages": integrator.get_num_step_shrinkages_from_error_control(),
    }


def _assert_same_runs(ours, theirs):
    assert ours["steps"] == theirs["steps"]
    assert ours["shrinkages"] == theirs["shrinkages"]
    for key in ("x", "time", "monitor times", "statistics"):
        _assert_same_autodiff(ours[key], theirs[key])


@pytest.mark.parametrize("accuracy", [None, 1e-6])
def test_gradient_through_error_controlled_rk3(accuracy):
    # The step sizes error control chooses depend on the state, so they carry derivatives, and
    # so do the times between events: pydrake's gradient differentiates them too.
    theirs, ours = both(_pendulum_run, None, False, 2.0, accuracy)
    _assert_same_runs(ours, theirs)
    assert ours["shrinkages"] > 0 or accuracy is None
    # (The step sizes and the times between events do depend on the state.)
    assert any(np.abs(d).max(initial=0.0) > 1e-4 for _, d in ours["statistics"])
    assert any(np.abs(d).max(initial=0.0) > 1e-4 for _, d in ours["monitor times"])


@pytest.mark.parametrize("scheme", ["explicit_euler", "runge_kutta2", "runge_kutta3"])
def test_gradient_through_fixed_steps(scheme):
    # Fixed steps of 0.01 s: the times are event and step times (no derivatives), and the
    # gradients are those of the same arithmetic in both.
    theirs, ours = both(_pendulum_run, scheme, True, 0.5)
    _assert_same_runs(ours, theirs)
    assert all(not np.any(d) for _, d in ours["monitor times"] + ours["statistics"])


def test_advance_to_an_autodiff_boundary_time():
    # An AutoDiffXd boundary time: the final time is it (with its derivatives), and the
    # final state's derivative with respect to it is the time derivative ẋ.
    def run(lib):
        plant = lib.examples.PendulumPlant().ToAutoDiffXd()
        simulator = lib.analysis.Simulator_[lib.AD](plant)
        context = simulator.get_mutable_context()
        plant.get_input_port().FixValue(context, [lib.AD(0.0)])
        context.SetContinuousState([lib.AD(1.0, [1.0, 0.0]), lib.AD(0.5, [0.0, 0.0])])
        status = simulator.AdvanceTo(lib.AD(0.7, [0.0, 1.0]))
        x = context.get_continuous_state_vector().CopyToVector()
        xdot = plant.EvalTimeDerivatives(context).CopyToVector()
        return (
            _values_and_derivatives(x),
            _values_and_derivatives([context.get_time()]),
            [v.value() for v in xdot],
            (type(status.boundary_time()).__name__, status.boundary_time()),
        )

    theirs, ours = both(run)
    _assert_same_autodiff(ours[0], theirs[0])
    _assert_same_autodiff(ours[1], theirs[1])
    assert ours[3] == theirs[3] == ("float", 0.7)
    # ∂x(T)/∂T = ẋ(T) (to the integration accuracy).
    np.testing.assert_allclose([d[1] for _, d in ours[0]], ours[2], atol=1e-3)


def test_advance_to_a_boundary_time_of_another_scalar_type_is_refused():
    def run(lib):
        with pytest.raises(TypeError):
            lib.analysis.Simulator(_decay(lib)).AdvanceTo(lib.AD(0.2, [1.0]))
        simulator = lib.analysis.Simulator_[lib.AD](_decay(lib).ToAutoDiffXd())
        simulator.get_mutable_context().SetContinuousState([lib.AD(1.0)])
        simulator.AdvanceTo(0.25)  # (a real number, for an AutoDiffXd simulator)
        return simulator.get_context().get_time().value()

    theirs, ours = both(run)
    assert ours == theirs == 0.25


def test_integrator_templates():
    # RungeKutta3Integrator_[AutoDiffXd](system, context) integrates an AutoDiffXd system with
    # AutoDiffXd step sizes; a system of another scalar type is refused.
    def run(lib):
        system = _decay(lib).ToAutoDiffXd()
        context = system.CreateDefaultContext()
        context.SetContinuousState([lib.AD(1.0, [1.0])])
        rk3 = lib.analysis.RungeKutta3Integrator_[lib.AD](system, context)
        rk2 = lib.analysis.RungeKutta2Integrator_[lib.AD](system, 0.01, context)
        with pytest.raises(TypeError):
            lib.analysis.RungeKutta3Integrator_[lib.AD](_decay(lib))
        return (
            isinstance(rk3, lib.analysis.IntegratorBase_[lib.AD]),
            isinstance(rk2, lib.analysis.RungeKutta2Integrator_[lib.AD]),
            type(rk2.get_maximum_step_size()).__name__,
            lib.analysis.RungeKutta3Integrator_[float] is lib.analysis.RungeKutta3Integrator,
        )

    theirs, ours = both(run)
    assert ours == theirs == (True, True, "AutoDiffXd", True)


def test_statistics_and_config_of_an_autodiff_simulator(capfd):
    # PrintSimulatorStatistics and ExtractSimulatorConfig report the double values of the
    # AutoDiffXd step sizes and time (Drake's ExtractDoubleOrThrow).
    def run(lib):
        simulator = lib.analysis.Simulator_[lib.AD](_decay(lib).ToAutoDiffXd())
        simulator.get_mutable_context().SetContinuousState([lib.AD(1.0, [1.0])])
        simulator.AdvanceTo(lib.AD(0.5, [1.0]))
        capfd.readouterr()
        lib.analysis.PrintSimulatorStatistics(simulator)
        printed = capfd.readouterr().out
        return printed, repr(lib.analysis.ExtractSimulatorConfig(simulator))

    (printed_d, config_d), (printed_m, config_m) = both(run)
    assert printed_m == printed_d
    assert "RungeKutta3Integrator<drake::AutoDiffXd> with error control" in printed_m
    assert config_m.split("(", 1)[1] == config_d.split("(", 1)[1]
