"""Calls by keyword (and the overloads told apart by argument type) give what pydrake gives:
each case runs the same calls in both libraries and compares the results."""

import importlib

import numpy as np
import pytest

pytest.importorskip("pydrake")


def lib(name):
    """The two libraries' module ``name`` (e.g. "systems.framework")."""
    return [importlib.import_module(f"{root}.{name}") for root in ("pydrake", "mallard")]


def both(case):
    """``case(root)`` for pydrake.all and mallard.all."""
    return [case(importlib.import_module(f"{root}.all")) for root in ("pydrake", "mallard")]


def same(x, y):
    """Equal values: numbers and arrays to 1e-12, sequences element by element."""
    if isinstance(x, float | np.ndarray):
        np.testing.assert_allclose(np.asarray(x, float), np.asarray(y, float), atol=1e-12)
    elif isinstance(x, list | tuple):
        assert len(x) == len(y)
        for u, v in zip(x, y, strict=True):
            same(u, v)
    else:
        assert x == y


def agree(case):
    same(*both(case))


def test_vectors_values_and_parameters():
    def case(m):
        v = m.BasicVector(size=2)
        w = m.BasicVector(data=[1.0, 2.0])
        v.SetFrom(value=w)
        dv = m.DiscreteValues(datum=m.BasicVector([3.0]))
        dv.set_value(index=0, value=[4.0])
        p = m.Parameters(vec=m.BasicVector([5.0]))
        q = m.Parameters(value=m.AbstractValue.Make("a"))
        n = m.Parameters(numeric=[m.BasicVector([1.0])], abstract=[m.AbstractValue.Make(1)])
        n.set_numeric_parameters(numeric_params=m.DiscreteValues([m.BasicVector([7.0])]))
        n.set_abstract_parameters(abstract_params=m.AbstractValues([m.AbstractValue.Make(8)]))
        return [
            v.size(),
            list(v.CopyToVector()),
            list(dv.get_vector(0).CopyToVector()),
            p.num_numeric_parameter_groups(),
            q.num_abstract_parameters(),
            list(n.get_numeric_parameter(0).CopyToVector()),
            n.get_abstract_parameter(0).get_value(),
        ]

    agree(case)


def two_groups(m):
    """A LeafSystem with two discrete groups, an abstract state, two outputs and a periodic
    publish event made with a system_callback."""

    class Two(m.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareDiscreteState(1)
            self.DeclareDiscreteState(2)
            self.DeclareAbstractState(m.AbstractValue.Make("s"))
            self.u = self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort("y", 1, lambda c, o: o.SetFromVector(self.u.Eval(c)))
            self.DeclareVectorOutputPort(
                "z", 1, lambda c, o: o.SetFromVector([0.0]), {self.nothing_ticket()}
            )
            self.seen = []
            event = m.PublishEvent(
                system_callback=lambda system, context, event: self.seen.append(system is self)
            )
            self.DeclarePeriodicEvent(1.0, 0.0, event)

    return Two()


def test_context_and_system_forms():
    def case(m):
        system = two_groups(m)
        context = system.CreateDefaultContext()
        context.SetDiscreteState(group_index=1, xd=[1.0, 2.0])
        abstract = context.get_abstract_state()
        m.Simulator(system, context).AdvanceTo(boundary_time=1.5, interruptible=False)
        return [
            list(context.get_discrete_state(1).CopyToVector()),
            abstract.size(),
            abstract.get_value(index=0).get_value(),
            system.HasDirectFeedthrough(output_port=0),
            system.HasDirectFeedthrough(input_port=0, output_port=1),
            system.get_input_port(port_index=0, warn_deprecated=False).get_name(),
            system.seen,
        ]

    agree(case)


def test_primitives_forms():
    def case(m):
        mux = m.Multiplexer(num_scalar_inputs=3)
        mux2 = m.Multiplexer(model_vector=m.BasicVector([1.0, 2.0]))
        demux = m.Demultiplexer(output_ports_sizes=[1, 2])
        demux2 = m.Demultiplexer(size=4, output_ports_size=2)
        through = m.PassThrough(vector_size=2)
        through2 = m.PassThrough(value=[1.0, 2.0, 3.0])
        abstract = m.PassThrough(abstract_model_value=m.AbstractValue.Make("x"))
        integrator = m.Integrator(initial_value=[1.0, 2.0])
        integrator.set_default_integral_value(initial_value=[3.0, 4.0])
        zoh = m.ZeroOrderHold(period_sec=0.1, abstract_model_value=m.AbstractValue.Make(1))
        context = integrator.CreateDefaultContext()
        return [
            mux.num_input_ports(),
            mux2.num_input_ports(),
            demux.num_output_ports(),
            demux2.num_output_ports(),
            through.get_input_port().size(),
            through2.get_input_port().size(),
            abstract.get_input_port().get_data_type() == m.PortDataType.kAbstractValued,
            list(context.get_continuous_state_vector().CopyToVector()),
            zoh.get_input_port().get_data_type() == m.PortDataType.kAbstractValued,
        ]

    agree(case)


def test_builder_and_controllers_forms():
    def case(m):
        builder = m.DiagramBuilder()
        a = builder.AddSystem(m.PassThrough(1))
        b = builder.AddSystem(m.PassThrough(1))
        c = builder.AddSystem(m.PassThrough(1))
        builder.ExportInput(a.get_input_port(), "in")
        builder.ConnectInput(diagram_port_name="in", input=b.get_input_port())
        builder.Connect(b.get_output_port(), c.get_input_port())
        builder.Disconnect(source=b.get_output_port(), dest=c.get_input_port())
        builder.ConnectInput(diagram_port_index=m.InputPortIndex(0), input=c.get_input_port())
        diagram = builder.Build()
        system = m.LinearSystem(
            [[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]], np.eye(2), np.zeros((2, 1))
        )
        K, S = m.LinearQuadraticRegulator(A=system.A(), B=system.B(), Q=np.eye(2), R=[[1.0]])
        regulator = m.LinearQuadraticRegulator(system=system, Q=np.eye(2), R=[[1.0]])
        context = system.CreateDefaultContext()
        system.get_input_port().FixValue(context, [0.0])
        affine = m.LinearQuadraticRegulator(
            system=system, context=context, Q=np.eye(2), R=[[1.0]], input_port_index=0
        )
        pid = m.PidController(state_projection=np.eye(2), kp=[1.0], ki=[0.0], kd=[2.0])
        return [
            diagram.num_input_ports(),
            K,
            S,
            regulator.D(),
            affine.D(),
            pid.get_input_port_estimated_state().size(),
        ]

    agree(case)


def test_plant_forms():
    def case(m):
        builder = m.DiagramBuilder()
        plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder=builder, time_step=0.0)
        instance = plant.AddModelInstance("robot")
        body = plant.AddRigidBody(
            name="link",
            model_instance=instance,
            M_BBo_B=m.SpatialInertia.SolidBoxWithMass(1, 1, 1, 1),
        )
        joint = plant.AddJoint(
            joint=m.RevoluteJoint("pin", plant.world_frame(), body.body_frame(), [0, 0, 1])
        )
        plant.AddJointActuator("motor", joint)
        gid = plant.RegisterVisualGeometry(
            body=body, X_BG=m.RigidTransform(), shape=m.Sphere(0.1), name="ball",
            diffuse_color=[1.0, 0.0, 0.0, 1.0],
        )  # fmt: skip
        plant.RegisterCollisionGeometry(
            body=body, X_BG=m.RigidTransform(), shape=m.Sphere(0.1), name="ball",
            coulomb_friction=m.CoulombFriction(0.5, 0.5),
        )  # fmt: skip
        plant.Finalize()
        context = plant.CreateDefaultContext()
        plant.SetPositions(context=context, model_instance=instance, q=[0.3])
        return [
            list(plant.GetPositions(context)),
            plant.GetPositionNames(
                model_instance=instance, add_model_instance_prefix=True, always_add_suffix=False
            ),
            plant.GetStateNames(add_model_instance_prefix=False),
            plant.MakeActuatorSelectorMatrix(user_to_joint_index_map=[joint.index()]),
            scene_graph.model_inspector().GetName(geometry_id=gid),
        ]

    agree(case)


def test_geometry_math_symbolic_forms():
    def case(m):
        rgba = m.Rgba(0, 0, 0)
        rgba.set(r=0.1, g=0.2, b=0.3)
        rgba2 = m.Rgba(0, 0, 0)
        rgba2.set(rgba=[0.4, 0.5, 0.6, 0.7])
        sym = importlib.import_module(m.__name__.split(".")[0] + ".symbolic")
        x, y = sym.Variable("x"), sym.Variable("y")
        e = (x + y).Substitute(var=x, e=2.0)
        vs = sym.Variables([x])
        vs.insert(vars=sym.Variables([y]))
        erased = vs.erase(key=x)
        mesh = m.PolygonSurfaceMesh(
            face_data=[3, 0, 1, 2], vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]]
        )
        basis = m.BsplineBasis(order=3, num_basis_functions=6)
        pp = m.PiecewisePolynomial.FirstOrderHold([0.0, 1.0, 3.0], [[0.0, 1.0, 2.0]])
        return [
            list(rgba.rgba),
            list(rgba2.rgba),
            str(e),
            str(sym.Expression(var=x)),
            str(sym.Expression(constant=2.5)),
            str(sym.Formula(value=True)),
            str(sym.Formula()),
            sym.ToLatex(f=x < y),
            vs.size(),
            erased,
            vs.IsSubsetOf(vars=sym.Variables([x, y])),
            mesh.element(e=0).num_vertices(),
            mesh.face_data(),
            basis.ComputeActiveBasisFunctionIndices(parameter_interval=[0.1, 0.6]),
            basis.ComputeActiveBasisFunctionIndices(parameter_value=0.5),
            pp.start_time(segment_index=1),
            pp.end_time(segment_index=1),
            pp.duration(segment_index=1),
        ]

    agree(case)


def test_errors_name_the_call_forms():
    import mallard.all as M

    with pytest.raises(TypeError, match=r"BasicVector\(size\)"):
        M.BasicVector(size=[1.0])
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        M.Multiplexer(input_size=3)
    with pytest.raises(RuntimeError, match="Segment number 2 out of range"):
        M.PiecewisePolynomial.FirstOrderHold([0.0, 1.0, 3.0], [[0.0, 1.0, 2.0]]).start_time(2)
    with pytest.raises(RuntimeError, match="prerequisites_of_calc holds an invalid ticket"):
        M.LeafSystem().DeclareVectorOutputPort("y", 1, lambda c, o: None, {M.DependencyTicket()})
    assert not M.DependencyTicket().is_valid()
    with pytest.raises(TypeError, match="expected AbstractValues"):
        M.Parameters(abstract=[M.AbstractValue.Make(1)]).set_abstract_parameters(
            [M.AbstractValue.Make(2)]
        )


def test_inverse_dynamics_controller_plant_context():
    """The controller copies ``plant_context``: its parameters (a heavier link) change the
    gravity compensation, and later changes to that Context do not."""

    def case(m):
        plant = m.MultibodyPlant(0.0)
        body = plant.AddRigidBody(
            "link", m.SpatialInertia(1.0, [0.0, 0.0, -1.0], m.UnitInertia(1, 1, 0))
        )
        joint = plant.AddJoint(
            m.RevoluteJoint("pin", plant.world_frame(), body.body_frame(), [0, 1, 0])
        )
        plant.AddJointActuator("motor", joint)
        plant.Finalize()
        plant_context = plant.CreateDefaultContext()
        body.SetMass(plant_context, 3.0)
        controller = m.InverseDynamicsController(
            robot=plant, kp=[0.0], ki=[0.0], kd=[0.0], has_reference_acceleration=False,
            plant_context=plant_context,
        )  # fmt: skip
        body.SetMass(plant_context, 5.0)
        context = controller.CreateDefaultContext()
        controller.get_input_port_estimated_state().FixValue(context, [0.4, 0.0])
        controller.get_input_port_desired_state().FixValue(context, [0.4, 0.0])
        return [controller.get_output_port_control().Eval(context)]

    a, b = both(case)
    same(a, b)
    np.testing.assert_allclose(b[0], [3.0 * 9.81 * np.sin(0.4)], rtol=1e-12)
