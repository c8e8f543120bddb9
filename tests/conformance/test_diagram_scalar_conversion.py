"""Diagram and system scalar conversion against pydrake's: the same Diagrams converted with
ToAutoDiffXd()/ToSymbolic() in both libraries have the same subsystems, connections and
exported ports, the same values and gradients (1e-10), and the same errors; the primitives and
controllers convert to the same types with the same outputs."""

import os

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.all as D  # noqa: E402
import pydrake.autodiffutils as d_ad  # noqa: E402

import mallard.all as M  # noqa: E402
import mallard.autodiffutils as m_ad  # noqa: E402

ACROBOT = os.path.join(os.path.dirname(M.__file__), "models", "acrobot.urdf")
AD = {M: m_ad, D: d_ad}
X0 = np.array([0.3, -0.4, 0.5, 0.2])


def acrobot_diagram(lib):
    builder = lib.DiagramBuilder()
    plant, _ = lib.AddMultibodyPlantSceneGraph(builder, 0.0)
    lib.Parser(plant).AddModels(ACROBOT)
    plant.Finalize()
    source = builder.AddNamedSystem("source", lib.ConstantVectorSource([0.7]))
    gain = builder.AddNamedSystem("gain", lib.Gain(1.5, 1))
    builder.Connect(source.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), plant.get_actuation_input_port())
    builder.ExportInput(plant.get_applied_generalized_force_input_port(), "tau")
    builder.ExportOutput(plant.get_state_output_port(), "state")
    builder.ExportOutput(gain.get_output_port())
    diagram = builder.Build()
    diagram.set_name("acrobot_diagram")
    return diagram


def autodiff_xdot(lib, diagram_ad):
    ad = AD[lib]
    context = diagram_ad.CreateDefaultContext()
    context.SetContinuousState(ad.InitializeAutoDiff(X0).reshape(-1))
    diagram_ad.get_input_port(0).FixValue(context, [ad.AutoDiffXd(0.0, np.zeros(4))] * 2)
    xdot = diagram_ad.EvalTimeDerivatives(context).CopyToVector()
    return ad.ExtractValue(xdot).reshape(-1), ad.ExtractGradient(xdot)


def test_autodiff_diagram_values_and_gradients_equal_pydrake():
    (v_m, J_m), (v_d, J_d) = (
        autodiff_xdot(lib, acrobot_diagram(lib).ToAutoDiffXd()) for lib in (M, D)
    )
    np.testing.assert_allclose(v_m, v_d, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(J_m, J_d, rtol=1e-10, atol=1e-10 * np.abs(J_d).max())


def test_autodiff_built_directly_equals_pydrake():
    """DiagramBuilder_[AutoDiffXd] and the primitives' AutoDiffXd instantiations, in both
    libraries: ẋ = k ⊙ x + c."""

    def build(lib):
        T = AD[lib].AutoDiffXd
        builder = lib.DiagramBuilder_[T]()
        integrator = builder.AddNamedSystem("integrator", lib.Integrator_[T](2))
        gain = builder.AddNamedSystem("gain", lib.Gain_[T]([2.0, -3.0]))
        adder = builder.AddNamedSystem("adder", lib.Adder_[T](2, 2))
        builder.Connect(integrator.get_output_port(), gain.get_input_port())
        builder.Connect(gain.get_output_port(), adder.get_input_port(0))
        builder.ExportInput(adder.get_input_port(1), "c")
        builder.Connect(adder.get_output_port(), integrator.get_input_port())
        builder.ExportOutput(integrator.get_output_port(), "x")
        diagram = builder.Build()
        context = diagram.CreateDefaultContext()
        x = AD[lib].InitializeAutoDiff(np.array([0.5, -1.0, 0.25, 2.0])).reshape(-1)
        context.SetContinuousState(x[:2])
        diagram.get_input_port(0).FixValue(context, x[2:])
        xdot = diagram.EvalTimeDerivatives(context).CopyToVector()
        return (
            _structure(diagram),
            AD[lib].ExtractValue(xdot).reshape(-1),
            AD[lib].ExtractGradient(xdot),
        )

    (s_m, v_m, J_m), (s_d, v_d, J_d) = (build(lib) for lib in (M, D))
    assert s_m == s_d
    np.testing.assert_array_equal(v_m, v_d)
    np.testing.assert_array_equal(J_m, J_d)
    np.testing.assert_array_equal(J_m, [[2.0, 0.0, 1.0, 0.0], [0.0, -3.0, 0.0, 1.0]])


def test_symbolic_diagram_at_a_state_equals_pydrake():
    pytest.importorskip("mallard.symbolic")
    values = []
    for lib in (M, D):
        Expression = (
            __import__("mallard.symbolic", fromlist=["Expression"]).Expression
            if lib is M
            else D.Expression
        )
        diagram_sym = acrobot_diagram(lib).ToSymbolic()
        context = diagram_sym.CreateDefaultContext()
        context.SetContinuousState([Expression(x) for x in X0])
        diagram_sym.get_input_port(0).FixValue(context, [Expression(0.0)] * 2)
        xdot = diagram_sym.EvalTimeDerivatives(context).CopyToVector()
        values.append([e.Evaluate() for e in xdot])
    np.testing.assert_allclose(values[0], values[1], rtol=1e-12, atol=1e-12)


def _structure(diagram):
    def ports(n, get):
        return [get(i).get_name() for i in range(n)]

    return (
        diagram.get_name(),
        diagram.GetSystemType(),
        [s.get_name() for s in diagram.GetSystems()],
        [s.GetSystemType() for s in diagram.GetSystems()],
        ports(diagram.num_input_ports(), diagram.get_input_port),
        ports(diagram.num_output_ports(), diagram.get_output_port),
        sorted(
            (a.get_name(), int(i), b.get_name(), int(j))
            for (a, i), (b, j) in diagram.connection_map().items()
        ),
    )


@pytest.mark.parametrize("conversion", ["ToAutoDiffXd", "ToSymbolic"])
def test_converted_diagram_structure_equals_pydrake(conversion):
    if conversion == "ToSymbolic":
        pytest.importorskip("mallard.symbolic")
    structures = []
    for lib in (M, D):
        diagram = acrobot_diagram(lib)
        structure, original = _structure(getattr(diagram, conversion)()), _structure(diagram)
        assert structure[0] == original[0] and structure[2] == original[2]
        assert structure[4:] == original[4:]
        structures.append(structure)
    # (mallard's SceneGraph has no per-source configuration input for deformable bodies, so
    # pydrake's connection of the plant's deformable_body_configuration is left out.)
    deformable = ("scene_graph", 1, "plant", 1)
    structures[1] = (*structures[1][:6], [c for c in structures[1][6] if c != deformable])
    assert structures[0] == structures[1]
    assert structures[0][4:6] == (["tau"], ["state", "gain_y0"])


def _user_system(lib):
    class NotConvertible(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorOutputPort("y", 1, lambda context, out: out.SetFromVector([1.0]))

    return NotConvertible()


def _nested_with_user_system(lib):
    builder = lib.DiagramBuilder()
    user = builder.AddNamedSystem("user", _user_system(lib))
    gain = builder.AddNamedSystem("gain", lib.Gain(1.0, 1))
    builder.Connect(user.get_output_port(), gain.get_input_port())
    inner = builder.Build()
    inner.set_name("inner")
    builder = lib.DiagramBuilder()
    builder.AddNamedSystem("first", lib.Gain(1.0, 1))
    builder.AddSystem(inner)
    outer = builder.Build()
    outer.set_name("outer")
    return outer


def _error(f):
    with pytest.raises(RuntimeError) as info:
        f()
    return str(info.value)


@pytest.mark.parametrize(
    "convert",
    [
        lambda lib, d: d.ToAutoDiffXd(),
        lambda lib, d: d.ToSymbolic(),
        lambda lib, d: d.GetSubsystemByName("inner").ToAutoDiffXd(),
        lambda lib, d: d.ToScalarType[float](),
        lambda lib, d: d.GetSubsystemByName("first").ToScalarType[float](),
    ],
)
def test_errors_equal_pydrake(convert):
    messages = [
        _error(lambda lib=lib: convert(lib, _nested_with_user_system(lib))) for lib in (M, D)
    ]
    assert messages[0] == messages[1]
    assert "does not support scalar conversion" in messages[0]


def test_same_type_errors_of_converted_diagrams_equal_pydrake():
    messages = [
        _error(lambda lib=lib: acrobot_diagram(lib).ToAutoDiffXd().ToAutoDiffXd()) for lib in (M, D)
    ]
    assert messages[0] == messages[1]


# ---- the systems that convert ------------------------------------------------------------------
def _systems(lib):
    trajectory = lib.PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 2.0], [1.0, -1.0]])
    return {
        "ConstantVectorSource": lib.ConstantVectorSource([1.0, 2.0]),
        "Adder": lib.Adder(2, 2),
        "Gain": lib.Gain([2.0, -1.0]),
        "PassThrough": lib.PassThrough(2),
        "Multiplexer": lib.Multiplexer([1, 2]),
        "Demultiplexer": lib.Demultiplexer([2, 1]),
        "Saturation": lib.Saturation([0.0, 0.0], [1.0, 1.0]),
        "ZeroOrderHold": lib.ZeroOrderHold(0.1, 2),
        "TrajectorySource": lib.TrajectorySource(trajectory, 1),
        "Integrator": lib.Integrator([1.0, 2.0]),
        "VectorLogSink": lib.VectorLogSink(2),
        "PidController": lib.PidController([2.0, 3.0], [0.5, 0.25], [1.0, 4.0]),
        "SceneGraph": lib.SceneGraph(),
        "InverseDynamics": lib.InverseDynamics(_pendulum(lib)),
    }


_PLANTS = {}  # (pydrake's InverseDynamics does not keep its plant alive)


def _pendulum(lib):
    if lib in _PLANTS:
        return _PLANTS[lib]
    plant = _PLANTS[lib] = lib.MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", lib.SpatialInertia.SolidBoxWithMass(1.0, 1.0, 0.5, 0.25))
    joint = plant.AddJoint(
        lib.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [1.0, 0.0, 0.0])
    )
    plant.AddJointActuator("a", joint)
    plant.Finalize()
    return plant


def _autodiff_outputs(lib, system):
    """Type, name, outputs (values and gradients) and time derivatives of ``system``
    converted to AutoDiffXd, its vector inputs seeded (one derivative per input element)."""
    ad = AD[lib]
    system.set_name("s")
    converted = system.ToAutoDiffXd()
    context = converted.CreateDefaultContext()
    context.SetTime(0.25)
    sizes = [converted.get_input_port(i).size() for i in range(converted.num_input_ports())]
    seeds = list(ad.InitializeAutoDiff(np.linspace(0.5, 1.5, sum(sizes))).reshape(-1))
    offset = 0
    for i, size in enumerate(sizes):
        if converted.get_input_port(i).get_data_type() == lib.PortDataType.kVectorValued:
            converted.get_input_port(i).FixValue(context, seeds[offset : offset + size])
            offset += size
    outputs = []
    for i in range(converted.num_output_ports()):
        port = converted.get_output_port(i)
        if port.get_data_type() == lib.PortDataType.kVectorValued:
            y = port.Eval(context)
            outputs.append((ad.ExtractValue(y).tolist(), ad.ExtractGradient(y).tolist()))
    xdot = None
    if converted.num_continuous_states():
        x = converted.EvalTimeDerivatives(context).CopyToVector()
        xdot = (ad.ExtractValue(x).tolist(), ad.ExtractGradient(x).tolist())
    return converted.GetSystemType(), converted.get_name(), outputs, xdot


@pytest.mark.parametrize("name", list(_systems(M)))
def test_converted_systems_equal_pydrake(name):
    mine, theirs = (_autodiff_outputs(lib, _systems(lib)[name]) for lib in (M, D))
    assert mine[:2] == theirs[:2]
    for (v_m, g_m), (v_d, g_d) in zip(mine[2], theirs[2], strict=True):
        np.testing.assert_allclose(v_m, v_d, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(np.reshape(g_m, -1), np.reshape(g_d, -1), atol=1e-14)
    assert (mine[3] is None) == (theirs[3] is None)
    if mine[3] is not None:
        np.testing.assert_allclose(mine[3][0], theirs[3][0], atol=1e-14)
        np.testing.assert_allclose(mine[3][1], theirs[3][1], atol=1e-14)


def test_inverse_dynamics_controller_outputs_equal_pydrake():
    """pydrake's InverseDynamicsController is a Diagram (it converts to a Diagram<T>);
    mallard's is one LeafSystem: the outputs agree."""
    results = []
    for lib in (M, D):
        controller = lib.InverseDynamicsController(_pendulum(lib), [2.0], [0.5], [1.0], True)
        results.append(_autodiff_outputs(lib, controller)[2])
    for (v_m, g_m), (v_d, g_d) in zip(*results, strict=True):
        np.testing.assert_allclose(v_m, v_d, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(g_m, g_d, rtol=1e-12, atol=1e-14)
