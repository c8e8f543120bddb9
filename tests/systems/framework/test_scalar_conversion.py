"""Scalar conversion of Diagrams and of the systems that convert (primitives, SceneGraph,
controllers), and the System_/LeafSystem_/Diagram_/DiagramBuilder_ templates.

Truths: central finite differences of the double diagram (gradients of the AutoDiffXd one),
the double diagram's values (symbolic one evaluated at a state), closed forms of the
primitives' outputs and their derivatives, and Drake's error format for systems that do not
convert."""

import numpy as np
import pytest

import mallard.all as m
from mallard.autodiffutils import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff

X0 = np.array([0.3, -0.4, 0.5, 0.2])  # the acrobot's [q; v]
H = 1e-6


def acrobot_diagram(builder):
    """The acrobot (AddMultibodyPlantSceneGraph) driven by a ConstantVectorSource through a
    Gain; the plant's state exported as "state"."""
    plant, _ = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    m.Parser(plant).AddModelsFromUrl("package://mallard/acrobot.urdf")
    plant.Finalize()
    T = getattr(type(builder), "_template_scalar", float)
    source = builder.AddNamedSystem("source", m.ConstantVectorSource_[T]([0.7]))
    gain = builder.AddNamedSystem("gain", m.Gain_[T](1.5, 1))
    builder.Connect(source.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), plant.get_actuation_input_port())
    builder.ExportOutput(plant.get_state_output_port(), "state")
    builder.ExportOutput(gain.get_output_port())
    return builder.Build()


@pytest.fixture(scope="module")
def diagram():
    return acrobot_diagram(m.DiagramBuilder())


def output_names(system):
    return [system.get_output_port(i).get_name() for i in range(system.num_output_ports())]


def xdot(diagram, x):
    context = diagram.CreateDefaultContext()
    context.SetContinuousState(x)
    return diagram.EvalTimeDerivatives(context).CopyToVector()


def central_differences(diagram, x0):
    columns = []
    for i in range(len(x0)):
        dx = np.zeros(len(x0))
        dx[i] = H
        columns.append((xdot(diagram, x0 + dx) - xdot(diagram, x0 - dx)) / (2 * H))
    return np.column_stack(columns)


# ---- Diagram conversion ----------------------------------------------------------------------
def test_autodiff_diagram_gradient_equals_finite_differences(diagram):
    diagram_ad = diagram.ToAutoDiffXd()
    derivatives = xdot(diagram_ad, InitializeAutoDiff(X0).reshape(-1))
    np.testing.assert_allclose(ExtractValue(derivatives).reshape(-1), xdot(diagram, X0), atol=1e-12)
    J = ExtractGradient(derivatives)
    np.testing.assert_allclose(J, central_differences(diagram, X0), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(J[:2], np.eye(4)[2:])  # q̇ = v (acrobot: N(q) = I)


def test_converted_diagram_keeps_structure(diagram):
    symbolic = pytest.importorskip("mallard.symbolic")
    for T, converted in (
        (AutoDiffXd, diagram.ToAutoDiffXd()),
        (symbolic.Expression, diagram.ToSymbolic()),
        (AutoDiffXd, diagram.ToScalarType[AutoDiffXd]()),
    ):
        assert isinstance(converted, m.Diagram_[T])
        assert converted.GetSystemType() == "drake::systems::Diagram<" + (
            "drake::AutoDiffXd>" if T is AutoDiffXd else "drake::symbolic::Expression>"
        )
        names = [s.get_name() for s in converted.GetSystems()]
        assert names == ["plant", "scene_graph", "source", "gain"]
        assert output_names(converted) == ["state", "gain_y0"]
        assert converted.num_input_ports() == 0

        def by_name(d):
            return {
                (a.get_name(), i): (b.get_name(), j)
                for (a, i), (b, j) in d.connection_map().items()
            }

        assert by_name(converted) == by_name(diagram)
        plant = converted.GetSubsystemByName("plant")
        assert isinstance(plant, m.MultibodyPlant_[T])
        assert isinstance(converted.GetSubsystemByName("gain"), m.Gain_[T])
        assert isinstance(converted.GetSubsystemByName("scene_graph"), m.SceneGraph_[T])
        context = converted.CreateDefaultContext()
        assert isinstance(context, m.Context_[T])
        plant_context = plant.GetMyContextFromRoot(context)
        plant.ValidateContext(plant_context)
        assert all(isinstance(x, T) for x in context.get_continuous_state_vector().CopyToVector())
        u = plant.get_actuation_input_port().Eval(plant_context)
        assert isinstance(u[0], T)
        assert float(u[0].value() if T is AutoDiffXd else u[0].Evaluate()) == pytest.approx(1.05)


def test_symbolic_diagram_evaluates_to_the_double_values(diagram):
    symbolic = pytest.importorskip("mallard.symbolic")
    diagram_sym = diagram.ToSymbolic()
    derivatives = xdot(diagram_sym, [symbolic.Expression(x) for x in X0])
    values = np.array([e.Evaluate() for e in derivatives])
    np.testing.assert_allclose(values, xdot(diagram, X0), rtol=1e-13, atol=1e-13)


def test_symbolic_diagram_of_primitives_is_the_closed_form():
    """ẋ = k·u + c with u = x (an Integrator fed back through a Gain and an Adder)."""
    symbolic = pytest.importorskip("mallard.symbolic")
    builder = m.DiagramBuilder()
    integrator = builder.AddNamedSystem("integrator", m.Integrator(2))
    gain = builder.AddNamedSystem("gain", m.Gain([2.0, -3.0]))
    adder = builder.AddNamedSystem("adder", m.Adder(2, 2))
    source = builder.AddNamedSystem("c", m.ConstantVectorSource([0.5, 0.25]))
    builder.Connect(integrator.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), adder.get_input_port(0))
    builder.Connect(source.get_output_port(), adder.get_input_port(1))
    builder.Connect(adder.get_output_port(), integrator.get_input_port())
    diagram_sym = builder.Build().ToSymbolic()
    x = symbolic.MakeVectorVariable(2, "x")
    derivatives = xdot(diagram_sym, x)
    J = symbolic.Jacobian(derivatives, x)
    np.testing.assert_array_equal(
        np.vectorize(lambda e: e.Evaluate(), otypes=[float])(J), np.diag([2.0, -3.0])
    )
    env = {x[0]: 1.5, x[1]: -2.0}
    np.testing.assert_allclose([e.Evaluate(env) for e in derivatives], [3.5, 6.25])


def test_round_trip_to_double_and_between_non_double_types(diagram):
    diagram_ad = diagram.ToAutoDiffXd()
    back = diagram_ad.ToScalarType[float]()
    assert type(back) is m.Diagram
    assert type(back.GetSubsystemByName("gain")) is m.Gain
    np.testing.assert_array_equal(xdot(back, X0), xdot(diagram, X0))
    symbolic = pytest.importorskip("mallard.symbolic")
    diagram_sym = diagram_ad.ToSymbolic()
    values = [e.Evaluate() for e in xdot(diagram_sym, [symbolic.Expression(x) for x in X0])]
    np.testing.assert_allclose(values, xdot(diagram, X0), rtol=1e-13)


def test_exported_inputs_fanning_out_survive():
    builder = m.DiagramBuilder()
    g1 = builder.AddNamedSystem("g1", m.Gain(2.0, 1))
    g2 = builder.AddNamedSystem("g2", m.Gain(3.0, 1))
    adder = builder.AddNamedSystem("add", m.Adder(2, 1))
    builder.ExportInput(g1.get_input_port(), "u")
    builder.ConnectInput("u", g2.get_input_port())
    builder.Connect(g1.get_output_port(), adder.get_input_port(0))
    builder.Connect(g2.get_output_port(), adder.get_input_port(1))
    builder.ExportOutput(adder.get_output_port(), "y")
    builder.ExportOutput(g2.get_output_port())
    diagram_ad = builder.Build().ToAutoDiffXd()
    assert diagram_ad.get_input_port(0).get_name() == "u" and diagram_ad.num_input_ports() == 1
    assert output_names(diagram_ad) == ["y", "g2_y0"]
    assert [(s.get_name(), i) for s, i in diagram_ad.GetInputPortLocators(0)] == [
        ("g1", 0),
        ("g2", 0),
    ]
    context = diagram_ad.CreateDefaultContext()
    diagram_ad.get_input_port(0).FixValue(context, [AutoDiffXd(0.5, [1.0])])
    (y,) = diagram_ad.get_output_port(0).Eval(context)
    assert (y.value(), list(y.derivatives())) == (2.5, [5.0])  # 2u + 3u


def test_nested_diagrams_convert():
    inner_builder = m.DiagramBuilder()
    gain = inner_builder.AddNamedSystem("gain", m.Gain(4.0, 1))
    inner_builder.ExportInput(gain.get_input_port(), "u")
    inner_builder.ExportOutput(gain.get_output_port(), "y")
    inner = inner_builder.Build()
    inner.set_name("inner")
    builder = m.DiagramBuilder()
    builder.AddSystem(inner)
    source = builder.AddNamedSystem("source", m.ConstantVectorSource([0.25]))
    builder.Connect(source.get_output_port(), inner.get_input_port(0))
    builder.ExportOutput(inner.get_output_port(0), "out")
    outer_ad = builder.Build().ToAutoDiffXd()
    inner_ad = outer_ad.GetSubsystemByName("inner")
    assert isinstance(inner_ad, m.Diagram_[AutoDiffXd])
    gain_ad = inner_ad.GetSubsystemByName("gain")
    assert gain_ad.GetSystemPathname() == "::_::inner::gain"
    context = outer_ad.CreateDefaultContext()
    (y,) = outer_ad.get_output_port(0).Eval(context)
    assert isinstance(y, AutoDiffXd) and y.value() == 1.0
    gain_ad.ValidateContext(gain_ad.GetMyContextFromRoot(context))


# ---- errors ----------------------------------------------------------------------------------
class NotConvertible(m.LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareVectorOutputPort("y", 1, lambda context, output: output.SetFromVector([1.0]))


def _with_user_system():
    builder = m.DiagramBuilder()
    builder.AddNamedSystem("gain", m.Gain(1.0, 1))
    user = builder.AddNamedSystem("user", NotConvertible())
    builder.Connect(user.get_output_port(), builder.GetSubsystemByName("gain").get_input_port())
    diagram = builder.Build()
    diagram.set_name("d")
    return diagram


@pytest.mark.parametrize(
    "convert, cpp",
    [
        (lambda d: d.ToAutoDiffXd(), "drake::AutoDiffXd"),
        (lambda d: d.ToSymbolic(), "drake::symbolic::Expression"),
        (lambda d: d.ToScalarType[AutoDiffXd](), "drake::AutoDiffXd"),
    ],
)
def test_error_names_the_first_system_that_does_not_convert(convert, cpp):
    user_type = f"{NotConvertible.__module__}.NotConvertible"
    expected = (
        f"System ::d of type drake::systems::Diagram<double> does not support scalar "
        f"conversion to type {cpp} (because System ::d::user of type {user_type} does not "
        f"support scalar conversion to type {cpp})"
    )
    with pytest.raises(RuntimeError) as info:
        convert(_with_user_system())
    assert str(info.value) == expected


def test_no_conversion_to_the_same_scalar_type(diagram):
    """Drake's message lists every subsystem that refuses, joined by "and"."""
    types = {
        "plant": "drake::multibody::MultibodyPlant<double>",
        "scene_graph": "drake::geometry::SceneGraph<double>",
        "source": "drake::systems::ConstantVectorSource<double>",
        "gain": "drake::systems::Gain<double>",
    }
    refusals = " and ".join(
        f"System ::_::{name} of type {cpp} does not support scalar conversion to type double"
        for name, cpp in types.items()
    )
    with pytest.raises(RuntimeError) as info:
        diagram.ToScalarType[float]()
    assert str(info.value) == (
        "System ::_ of type drake::systems::Diagram<double> does not support scalar conversion "
        f"to type double (because {refusals})"
    )
    gain_ad = m.Gain(1.0, 1).ToAutoDiffXd()
    with pytest.raises(RuntimeError, match=r"Gain<drake::AutoDiffXd> does not support scalar"):
        gain_ad.ToAutoDiffXd()


def test_a_subclass_of_a_convertible_system_converts_to_its_base():
    """As in pydrake, a Python subclass of Gain converts to a Gain."""

    class MyGain(m.Gain):
        pass

    converted = MyGain(2.0, 1).ToAutoDiffXd()
    assert type(converted) is m.Gain_[AutoDiffXd]
    assert converted.GetSystemType() == "drake::systems::Gain<drake::AutoDiffXd>"


# ---- templates and builders ------------------------------------------------------------------
def test_diagram_builder_of_autodiff_builds_the_converted_diagram(diagram):
    builder = m.DiagramBuilder_[AutoDiffXd]()
    direct = acrobot_diagram(builder)
    assert isinstance(direct, m.Diagram_[AutoDiffXd])
    assert isinstance(direct.GetSubsystemByName("plant"), m.MultibodyPlant_[AutoDiffXd])
    x = InitializeAutoDiff(X0).reshape(-1)
    direct_xdot = xdot(direct, x)
    converted_xdot = xdot(diagram.ToAutoDiffXd(), x)
    np.testing.assert_allclose(ExtractValue(direct_xdot), ExtractValue(converted_xdot), rtol=1e-14)
    np.testing.assert_allclose(
        ExtractGradient(direct_xdot), ExtractGradient(converted_xdot), rtol=1e-12, atol=1e-12
    )


def test_builders_take_systems_of_their_scalar_type_only():
    with pytest.raises(TypeError, match="scalar type drake::AutoDiffXd, but system"):
        m.DiagramBuilder_[AutoDiffXd]().AddSystem(m.Gain(1.0, 1))
    with pytest.raises(TypeError, match="scalar type double, but system"):
        m.DiagramBuilder().AddSystem(m.Gain_[AutoDiffXd](1.0, 1))
    builder = m.DiagramBuilder_[AutoDiffXd]()
    builder.AddSystem(m.Gain_[AutoDiffXd](1.0, 1))
    with pytest.raises(TypeError, match="the target is a drake::systems::Diagram<double>, not"):
        builder.BuildInto(m.Diagram())


def test_template_names():
    for template, base in (
        (m.System_, m.System),
        (m.LeafSystem_, m.LeafSystem),
        (m.Diagram_, m.Diagram),
        (m.DiagramBuilder_, m.DiagramBuilder),
        (m.Context_, m.Context),
        (m.Gain_, m.Gain),
        (m.SceneGraph_, m.SceneGraph),
        (m.VectorLog_, m.VectorLog),
    ):
        assert template[float] is base
        assert issubclass(template[AutoDiffXd], base)
    gain_ad = m.Gain_[AutoDiffXd](2.0, 1)
    assert isinstance(gain_ad, m.System_[AutoDiffXd])
    assert isinstance(gain_ad, m.LeafSystem_[AutoDiffXd])
    assert not isinstance(gain_ad, m.LeafSystem_["Expression"])
    assert not isinstance(m.Gain(2.0, 1), m.Gain_[AutoDiffXd])


def test_a_user_system_of_leaf_system_autodiff():
    """A class derived from LeafSystem_[AutoDiffXd] declares AutoDiffXd models, is an
    instance of its own class only, and goes into an AutoDiffXd Diagram."""

    class Square(m.LeafSystem_[AutoDiffXd]):
        def __init__(self):
            super().__init__()
            self.u = self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort("y", 1, self.calc)

        def calc(self, context, output):
            output.SetFromVector(self.u.Eval(context) ** 2)

    square = Square()
    assert isinstance(square, Square) and isinstance(square, m.LeafSystem_[AutoDiffXd])
    assert not isinstance(m.Gain_[AutoDiffXd](1.0, 1), Square)
    assert square.GetSystemType() == f"{Square.__module__}.{Square.__qualname__}"
    builder = m.DiagramBuilder_[AutoDiffXd]()
    builder.AddSystem(square)
    builder.ExportInput(square.get_input_port(), "u")
    builder.ExportOutput(square.get_output_port(), "y")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.get_input_port(0).FixValue(context, [AutoDiffXd(3.0, [1.0])])
    (y,) = diagram.get_output_port(0).Eval(context)
    assert (y.value(), list(y.derivatives())) == (9.0, [6.0])


# ---- the systems that convert ------------------------------------------------------------------
def _seeded(values):
    n = len(values)
    return [AutoDiffXd(v, np.eye(n)[i]) for i, v in enumerate(values)]


def _eval_ad(system, inputs):
    """The converted ``system``'s outputs (values, gradients), its inputs seeded in order."""
    converted = system.ToAutoDiffXd()
    assert converted.get_name() == system.get_name()
    context = converted.CreateDefaultContext()
    seeds = iter(_seeded(np.concatenate([np.ravel(u) for u in inputs]) if inputs else []))
    for i, u in enumerate(inputs):
        converted.get_input_port(i).FixValue(context, [next(seeds) for _ in np.ravel(u)])
    outputs = [converted.get_output_port(i).Eval(context) for i in range(system.num_output_ports())]
    return converted, context, outputs


def _value_and_gradient(y):
    return ExtractValue(y).reshape(-1), ExtractGradient(y)


@pytest.mark.parametrize(
    "make, inputs, expected",
    [
        (lambda: m.Gain([2.0, -1.0]), [[0.5, 0.25]], [([1.0, -0.25], np.diag([2.0, -1.0]))]),
        (
            lambda: m.Adder(2, 1),
            [[0.5], [0.25]],
            [([0.75], [[1.0, 1.0]])],
        ),
        (lambda: m.PassThrough(2), [[0.5, 0.25]], [([0.5, 0.25], np.eye(2))]),
        (
            lambda: m.Multiplexer([1, 1]),
            [[0.5], [0.25]],
            [([0.5, 0.25], np.eye(2))],
        ),
        (
            lambda: m.Demultiplexer(2, 1),
            [[0.5, 0.25]],
            [([0.5], [[1.0, 0.0]]), ([0.25], [[0.0, 1.0]])],
        ),
        (
            lambda: m.Saturation([0.0, 0.0], [1.0, 1.0]),
            [[0.5, 1.5]],
            [([0.5, 1.0], [[1.0, 0.0], [0.0, 0.0]])],  # the clamped element is constant
        ),
        (lambda: m.ConstantVectorSource([1.0, 2.0]), [], [([1.0, 2.0], np.zeros((2, 0)))]),
    ],
)
def test_primitive_outputs_and_derivatives(make, inputs, expected):
    system = make()
    system.set_name("s")
    converted, _, outputs = _eval_ad(system, inputs)
    assert converted.GetSystemType() == system.GetSystemType().replace(
        "<double>", "<drake::AutoDiffXd>"
    )
    for y, (value, gradient) in zip(outputs, expected, strict=True):
        assert all(isinstance(x, AutoDiffXd) for x in y)
        v, g = _value_and_gradient(y)
        np.testing.assert_array_equal(v, value)
        if g.size:
            np.testing.assert_array_equal(g, gradient)


def test_integrator_and_zero_order_hold_state_is_autodiff():
    integrator = m.Integrator([1.0, 2.0]).ToAutoDiffXd()
    context = integrator.CreateDefaultContext()
    assert [x.value() for x in context.get_continuous_state_vector().CopyToVector()] == [1.0, 2.0]
    integrator.get_input_port().FixValue(context, _seeded([0.5, 0.25]))
    v, g = _value_and_gradient(integrator.EvalTimeDerivatives(context).CopyToVector())
    np.testing.assert_array_equal(v, [0.5, 0.25])
    np.testing.assert_array_equal(g, np.eye(2))
    hold = m.ZeroOrderHold(0.1, 2, 0.05).ToAutoDiffXd()
    assert (hold.period(), hold.offset()) == (0.1, 0.05)
    context = hold.CreateDefaultContext()
    hold.get_input_port().FixValue(context, _seeded([0.5, 0.25]))
    update = hold.EvalUniquePeriodicDiscreteUpdate(context).get_vector(0).CopyToVector()
    np.testing.assert_array_equal(ExtractGradient(update), np.eye(2))


def test_trajectory_source_and_abstract_systems_convert():
    pytest.importorskip("mallard.symbolic")
    trajectory = m.PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 2.0]])
    source = m.TrajectorySource(trajectory, 1).ToSymbolic()
    context = source.CreateDefaultContext()
    context.SetTime(0.25)
    assert [e.Evaluate() for e in source.get_output_port().Eval(context)] == [0.5, 2.0]
    for system in (
        m.ConstantValueSource(m.AbstractValue.Make("a")),
        m.PassThrough(m.AbstractValue.Make("a")),
    ):
        converted = system.ToAutoDiffXd()
        context = converted.CreateDefaultContext()
        if converted.num_input_ports():
            converted.get_input_port().FixValue(context, "a")
        assert converted.get_output_port().Eval(context) == "a"


def test_vector_log_sink_records_autodiff_samples():
    builder = m.DiagramBuilder_[AutoDiffXd]()
    source = builder.AddSystem(m.ConstantVectorSource_[AutoDiffXd](_seeded([1.0, 2.0])))
    logger = m.LogVectorOutput(source.get_output_port(), builder)
    assert isinstance(logger, m.VectorLogSink_[AutoDiffXd])
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.ForcedPublish(context)
    log = logger.FindLog(context)
    assert isinstance(log, m.VectorLog_[AutoDiffXd])
    np.testing.assert_array_equal(ExtractGradient(log.data()[:, 0]), np.eye(2))
    assert isinstance(log.sample_times()[0], AutoDiffXd)


def test_scene_graph_in_a_converted_diagram_reports_autodiff_poses(diagram):
    diagram_ad = diagram.ToAutoDiffXd()
    scene_graph = diagram_ad.GetSubsystemByName("scene_graph")
    original = diagram.GetSubsystemByName("scene_graph")
    plant = diagram_ad.GetSubsystemByName("plant")
    assert scene_graph.get_source_pose_port(plant.get_source_id()).get_name() == (
        original.get_source_pose_port(plant.get_source_id()).get_name()
    )
    assert scene_graph.model_inspector().num_frames() == original.model_inspector().num_frames()
    context = diagram_ad.CreateDefaultContext()
    context.SetContinuousState(InitializeAutoDiff(X0).reshape(-1))
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
    body = plant.GetBodyByName("link2")
    X_WB = query.GetPoseInWorld(plant.GetBodyFrameIdOrThrow(body.index()))
    expected = plant.EvalBodyPoseInWorld(plant.GetMyContextFromRoot(context), body)
    np.testing.assert_array_equal(
        ExtractGradient(X_WB.translation()), ExtractGradient(expected.translation())
    )
    world = query.GetPoseInWorld(scene_graph.world_frame_id())
    assert isinstance(world.translation()[0], AutoDiffXd)


def test_pid_controller_gradient_is_its_gains():
    kp, ki, kd = [2.0, 3.0], [0.5, 0.25], [1.0, 4.0]
    pid = m.PidController(kp, ki, kd)
    converted, context, (u,) = _eval_ad(pid, [[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8]])
    v, g = _value_and_gradient(u)
    e = np.array([0.4, 0.4, 0.4, 0.4])
    np.testing.assert_allclose(v, np.array(kp) * e[:2] + np.array(kd) * e[2:])
    expected = np.hstack([-np.diag(kp), -np.diag(kd), np.diag(kp), np.diag(kd)])
    np.testing.assert_array_equal(g, expected)


def _pendulum():
    plant = m.MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(1.0, 1.0, 0.5, 0.25))
    joint = plant.AddJoint(
        m.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [1.0, 0.0, 0.0])
    )
    plant.AddJointActuator("a", joint)
    plant.Finalize()
    return plant


@pytest.mark.parametrize("controller", ["InverseDynamics", "InverseDynamicsController"])
def test_inverse_dynamics_gradients_equal_finite_differences(controller):
    plant = _pendulum()
    if controller == "InverseDynamics":
        system = m.InverseDynamics(plant)
        inputs = [[0.3, -0.2], [0.7]]
    else:
        system = m.InverseDynamicsController(plant, [2.0], [0.5], [1.0], False)
        inputs = [[0.3, -0.2], [0.1, 0.4]]
    converted, _, outputs = _eval_ad(system, inputs)
    assert converted.GetSystemType() == (
        f"drake::systems::controllers::{controller}<drake::AutoDiffXd>"
    )
    if controller == "InverseDynamicsController":
        robot = converted.get_multibody_plant_for_control()
        assert isinstance(robot, m.MultibodyPlant_[AutoDiffXd])

    def double_outputs(u):
        context = system.CreateDefaultContext()
        offset = 0
        for i, size in enumerate(len(x) for x in inputs):
            system.get_input_port(i).FixValue(context, u[offset : offset + size])
            offset += size
        return np.concatenate(
            [system.get_output_port(i).Eval(context) for i in range(system.num_output_ports())]
        )

    u0 = np.concatenate(inputs)
    y = np.concatenate(outputs)
    np.testing.assert_allclose(ExtractValue(y).reshape(-1), double_outputs(u0), rtol=1e-14)
    fd = np.column_stack(
        [
            (double_outputs(u0 + H * e) - double_outputs(u0 - H * e)) / (2 * H)
            for e in np.eye(len(u0))
        ]
    )
    np.testing.assert_allclose(ExtractGradient(y), fd, rtol=1e-6, atol=1e-8)
