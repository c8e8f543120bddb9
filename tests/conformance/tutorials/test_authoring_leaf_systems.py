"""Drake's tutorial authoring_leaf_systems under mallard: a vector adder, an abstract-valued
port, discrete, continuous and abstract state, parameters, publish events, namedview and a
TemplateSystem with scalar conversion print what they print under pydrake."""

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")

from tests.conformance.tutorials.runner import compare  # noqa: E402

IMPORTS = """
import numpy as np
from {lib}.common.containers import namedview
from {lib}.common.value import Value
from {lib}.math import RigidTransform, RotationMatrix
from {lib}.systems.analysis import Simulator
from {lib}.systems.framework import BasicVector, LeafSystem
from {lib}.trajectories import PiecewisePolynomial
"""


def test_vector_and_abstract_ports():
    compare(
        IMPORTS
        + """
class Adder(LeafSystem):
    def __init__(self):
        super().__init__()
        self._a = self.DeclareVectorInputPort(name="a", size=2)
        self._b = self.DeclareVectorInputPort(name="b", size=2)
        self.DeclareVectorOutputPort(name="sum", size=2, calc=self.Sum)
        self.DeclareVectorOutputPort(name="difference", size=2, calc=self.Difference)

    def Sum(self, context, output):
        output.SetFromVector(self._a.Eval(context) + self._b.Eval(context))

    def Difference(self, context, output):
        output.SetFromVector(self._a.Eval(context) - self._b.Eval(context))

adder = Adder()
context = adder.CreateDefaultContext()
adder.GetInputPort("a").FixValue(context, [3, 4])
adder.GetInputPort("b").FixValue(context, [1, 2])
print(f"sum: {adder.GetOutputPort('sum').Eval(context)}")
print(f"difference: {adder.GetOutputPort('difference').Eval(context)}")

class Rotate(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareAbstractInputPort(name="in", model_value=Value(RigidTransform()))
        self.DeclareAbstractOutputPort(
            name="out", alloc=lambda: Value(RigidTransform()), calc=self.Calc)

    def Calc(self, context, output):
        X = self.get_input_port().Eval(context)
        output.set_value(RigidTransform(RotationMatrix.MakeZRotation(np.pi / 2)) @ X)

rotate = Rotate()
context = rotate.CreateDefaultContext()
rotate.get_input_port().FixValue(context, RigidTransform())
print(f"output: {rotate.get_output_port(0).Eval(context)}")
"""
    )


def test_state_parameters_and_events():
    compare(
        IMPORTS
        + """
class Cube(LeafSystem):
    def __init__(self):
        super().__init__()
        index = self.DeclareDiscreteState(1)
        self.DeclareStateOutputPort("y", index)
        self.DeclarePeriodicDiscreteUpdateEvent(
            period_sec=1.0, offset_sec=0.0, update=self.Update)

    def Update(self, context, discrete_state):
        x = context.get_discrete_state_vector().GetAtIndex(0)
        discrete_state.get_mutable_vector().SetAtIndex(0, x**3)

simulator = Simulator(Cube())
context = simulator.get_mutable_context()
context.get_mutable_discrete_state_vector().SetFromVector([0.9])
simulator.AdvanceTo(4.0)
print(context.get_discrete_state_vector())

class Flow(LeafSystem):
    def __init__(self):
        super().__init__()
        index = self.DeclareContinuousState(1)
        self.DeclareStateOutputPort("y", index)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -x + x**3)

simulator = Simulator(Flow())
context = simulator.get_mutable_context()
context.SetContinuousState([0.9])
simulator.AdvanceTo(4.0)
print(context.get_continuous_state_vector())

class Planner(LeafSystem):
    def __init__(self):
        super().__init__()
        self._index = self.DeclareAbstractState(Value(PiecewisePolynomial()))
        self.DeclarePeriodicUnrestrictedUpdateEvent(
            period_sec=1.0, offset_sec=0.0, update=self.Update)

    def Update(self, context, state):
        t = context.get_time()
        traj = PiecewisePolynomial.FirstOrderHold(
            [t, t + 1], np.array([[-np.pi / 2.0 + 1., -np.pi / 2.0 - 1.], [-2., 2.]]))
        state.get_mutable_abstract_state(int(self._index)).set_value(traj)

simulator = Simulator(Planner())
context = simulator.get_mutable_context()
context.SetAbstractState(0, PiecewisePolynomial())
simulator.AdvanceTo(4.0)
traj = context.get_abstract_state(0).get_value()
print(f"breaks: {traj.get_segment_times()}")
print(f"traj({context.get_time()}) = {traj.value(context.get_time())}")

class WithParameters(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareNumericParameter(BasicVector([1.2, 3.4]))
        self.DeclareAbstractParameter(
            Value(RigidTransform(RotationMatrix.MakeXRotation(np.pi / 6))))
        self.DeclareVectorOutputPort(name="numeric", size=2, calc=self.Numeric)
        self.DeclareAbstractOutputPort(
            name="abstract", alloc=lambda: Value(RigidTransform()), calc=self.Abstract)

    def Numeric(self, context, output):
        output.SetFromVector(context.get_numeric_parameter(0).get_value())

    def Abstract(self, context, output):
        output.set_value(context.get_abstract_parameter(0).get_value())

system = WithParameters()
context = system.CreateDefaultContext()
print(f"numeric: {system.get_output_port(0).Eval(context)}")
print(f"abstract: {system.get_output_port(1).Eval(context)}")

class Publisher(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareForcedPublishEvent(self.Publish)
        self.DeclarePeriodicPublishEvent(period_sec=1, offset_sec=0, publish=self.Publish)

    def Publish(self, context):
        print(f"Publish() called at time={context.get_time()}")

system = Publisher()
simulator = Simulator(system)
simulator.AdvanceTo(5.3)
print("\\ncalling ForcedPublish:")
system.ForcedPublish(simulator.get_context())
"""
    )


def test_namedview():
    compare(
        IMPORTS
        + """
class Named(LeafSystem):
    Discrete = namedview("Discrete", ["a", "b"])
    Continuous = namedview("Continuous", ["x", "z", "theta"])
    Output = namedview("Output", ["x", "a"])

    def __init__(self):
        super().__init__()
        self.DeclareDiscreteState(2)
        self.DeclarePeriodicDiscreteUpdateEvent(
            period_sec=1.0, offset_sec=0.0, update=self.Update)
        self.DeclareContinuousState(3)
        self.DeclareVectorOutputPort(name="out", size=2, calc=self.Out)

    def Update(self, context, values):
        d = self.Discrete(context.get_discrete_state_vector().value())
        c = self.Continuous(context.get_continuous_state_vector().CopyToVector())
        next_ = self.Discrete(values.get_mutable_value())
        next_.a = d.a + 1
        next_.b = d.b + c.x

    def DoCalcTimeDerivatives(self, context, derivatives):
        c = self.Continuous(context.get_continuous_state_vector().CopyToVector())
        dc = self.Continuous(c[:])
        dc.x = -c.x
        dc.z = -c.z
        dc.theta = -np.arctan2(c.z, c.x)
        derivatives.SetFromVector(dc[:])

    def Out(self, context, output):
        d = self.Discrete(context.get_discrete_state_vector().value())
        c = self.Continuous(context.get_continuous_state_vector().CopyToVector())
        out = self.Output(output.get_mutable_value())
        out.x = c.x
        out.a = d.a

system = Named()
simulator = Simulator(system)
context = simulator.get_mutable_context()
context.SetDiscreteState(Named.Discrete([3, 4])[:])
x0 = Named.Continuous.Zero()
x0.x, x0.z, x0.theta = 0.5, 0.92, 0.23
context.SetContinuousState(x0[:])
simulator.AdvanceTo(4.0)
print(Named.Discrete(context.get_discrete_state_vector().value()))
print(Named.Continuous(context.get_continuous_state_vector().CopyToVector()))
print(Named.Output(system.get_output_port().Eval(context)))
"""
    )


def test_template_system():
    compare(
        IMPORTS
        + """
from {lib}.autodiffutils import AutoDiffXd
from {lib}.symbolic import Expression
from {lib}.systems.framework import LeafSystem_
from {lib}.systems.scalar_conversion import TemplateSystem

@TemplateSystem.define("Cost_")
def Cost_(T):
    class Impl(LeafSystem_[T]):
        def _construct(self, converter=None, Q=np.eye(2)):
            super().__init__(converter)
            self._Q = Q
            self._x = self.DeclareVectorInputPort("state", 2)
            self._u = self.DeclareVectorInputPort("command", 1)
            self.DeclareVectorOutputPort("cost", 1, self.Cost)

        def _construct_copy(self, other, converter=None):
            Impl._construct(self, converter=converter, Q=other._Q)

        def Cost(self, context, output):
            x = self._x.Eval(context)
            u = self._u.Eval(context)[0]
            output[0] = x.dot(self._Q.dot(x)) + u**2

    return Impl

Cost = Cost_[None]
system = Cost(Q=np.diag([10, 1]))
context = system.CreateDefaultContext()
system.get_input_port(0).FixValue(context, [1, 2])
system.get_input_port(1).FixValue(context, [3])
print(system.get_output_port().Eval(context))
system_ad = Cost_[AutoDiffXd]()
system_symbolic = Cost_[Expression]()
system_ad = system.ToAutoDiffXd()
system_symbolic = system.ToSymbolic()
context_symbolic = system_symbolic.CreateDefaultContext()
context_symbolic.SetTimeStateAndParametersFrom(context)
system_symbolic.FixInputPortsFrom(system, context, context_symbolic)
print(system_symbolic.get_output_port().Eval(context_symbolic))
"""
    )
