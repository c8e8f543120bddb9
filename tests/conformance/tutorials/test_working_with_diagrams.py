"""Drake's tutorial working_with_diagrams under mallard: nested diagrams of a PID-controlled
pendulum (drawn), their Contexts printed, subsystem Contexts, the errors for a system in two
diagrams and for a port inside a subdiagram, events through a diagram, scalar conversion
(and its error) and a Diagram subclass built with BuildInto print what they print under
pydrake."""

import shutil

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")
pytest.importorskip("matplotlib")
pytest.importorskip("pydot")

from tests.conformance.tutorials.runner import compare  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz's dot is not installed"
)

SOURCE = """
import matplotlib
matplotlib.use("Agg")
import numpy as np
from {lib}.examples import PendulumPlant
from {lib}.systems.controllers import PidController
from {lib}.systems.drawing import plot_system_graphviz
from {lib}.systems.framework import Diagram, DiagramBuilder, LeafSystem
from {lib}.systems.primitives import AffineSystem, LogVectorOutput

def ControlledPendulum():
    builder = DiagramBuilder()
    pendulum = builder.AddNamedSystem("pendulum", PendulumPlant())
    controller = builder.AddNamedSystem("controller", PidController(kp=[10.], ki=[1.], kd=[1.]))
    builder.Connect(pendulum.get_state_output_port(), controller.get_input_port_estimated_state())
    builder.Connect(controller.get_output_port_control(), pendulum.get_input_port())
    builder.ExportInput(controller.get_input_port_desired_state())
    builder.ExportOutput(pendulum.get_state_output_port())
    logger = LogVectorOutput(pendulum.get_state_output_port(), builder)
    logger.set_name("logger")
    diagram = builder.Build()
    diagram.set_name("PID-controlled Pendulum")
    return diagram, pendulum

controlled, pendulum = ControlledPendulum()
plot_system_graphviz(controlled, max_depth=2)

other_builder = DiagramBuilder()
try:
    other_builder.AddSystem(pendulum)
except RuntimeError as err:
    print(err)

builder = DiagramBuilder()
controlled, pendulum = ControlledPendulum()
builder.AddSystem(controlled)
shift_desired = builder.AddNamedSystem("shift_desired", AffineSystem(D=np.eye(2), y0=[np.pi, 0]))
builder.ExportInput(shift_desired.get_input_port(), "controller_desired_state")
builder.Connect(shift_desired.get_output_port(), controlled.get_input_port())
shift_actual = builder.AddNamedSystem("shift_actual", AffineSystem(D=np.eye(2), y0=[-np.pi, 0]))
builder.Connect(controlled.get_output_port(), shift_actual.get_input_port())
builder.ExportOutput(shift_actual.get_output_port(), "pendulum_state")
diagram = builder.Build()
diagram.set_name("PID-controlled Pendulum (with θ shifted by π)")
plot_system_graphviz(diagram, max_depth=1)
plot_system_graphviz(diagram, max_depth=2)
assert controlled.GetSubsystemByName("pendulum") == pendulum

diagram_context = diagram.CreateDefaultContext()
print(diagram_context)
pendulum_context = pendulum.GetMyContextFromRoot(diagram_context)
pendulum_context.SetContinuousState([1.2, 0.5])
state = pendulum.get_state(pendulum_context)
print(f"θ = {state.theta()}, θ̇ = {state.thetadot()}")
print(diagram_context)

builder = DiagramBuilder()
controlled, pendulum = ControlledPendulum()
builder.AddSystem(controlled)
shift_desired = builder.AddNamedSystem("shift_desired", AffineSystem(D=np.eye(2), y0=[np.pi, 0]))
controller = controlled.GetSubsystemByName("controller")
try:
    builder.Connect(shift_desired.get_output_port(), controller.get_input_port_desired_state())
except RuntimeError as err:
    print(err)

class Verbose(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)
        self.DeclareForcedPublishEvent(self.Publish)
        self.DeclarePeriodicPublishEvent(period_sec=1, offset_sec=0, publish=self.Publish)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        print(f"{self.get_name()}: DoCalcTimeDerivatives()")
        derivatives.get_mutable_vector().SetAtIndex(0, -x)

    def Publish(self, context):
        print(f"{self.get_name()}: Publish()")

builder = DiagramBuilder()
builder.AddNamedSystem("system1", Verbose())
builder.AddNamedSystem("system2", Verbose())
diagram = builder.Build()
context = diagram.CreateDefaultContext()
print("diagram.EvalTimeDerivatives()")
diagram.EvalTimeDerivatives(context)
print("diagram.ForcedPublish()")
diagram.ForcedPublish(context)

builder = DiagramBuilder()
builder.AddSystem(AffineSystem(y0=[2, 3]))
builder.AddSystem(AffineSystem(D=np.eye(2)))
diagram = builder.Build()
diagram_autodiff = diagram.ToAutoDiffXd()
diagram_symbolic = diagram.ToSymbolic()

builder = DiagramBuilder()
builder.AddSystem(Verbose())
diagram = builder.Build()
print("calling ToAutoDiffXd()")
try:
    diagram.ToAutoDiffXd()
except RuntimeError as err:
    print(err)
print("\\ncalling ToSymbolic()")
try:
    diagram.ToSymbolic()
except RuntimeError as err:
    print(err)

class Custom(Diagram):
    def __init__(self):
        Diagram.__init__(self)
        builder = DiagramBuilder()
        self.system1 = builder.AddNamedSystem("system1", Verbose())
        self.system2 = builder.AddNamedSystem("system2", Verbose())
        builder.BuildInto(self)

diagram = Custom()
context = diagram.CreateDefaultContext()
print(context)
"""


def test_working_with_diagrams():
    compare(SOURCE)
