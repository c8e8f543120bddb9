"""Drake's tutorial dynamical_systems under mallard: symbolic and LeafSystem dynamical
systems simulated and logged, and a PID-controlled pendulum (its diagram drawn), print and
log what they do under pydrake."""

import shutil

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")
pytest.importorskip("matplotlib")

from tests.conformance.tutorials.runner import compare  # noqa: E402

SYSTEMS = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from {lib}.symbolic import Variable
from {lib}.systems.analysis import Simulator
from {lib}.systems.framework import DiagramBuilder, LeafSystem
from {lib}.systems.primitives import LogVectorOutput, SymbolicVectorSystem

x = Variable("x")
continuous = SymbolicVectorSystem(state=[x], dynamics=[-x + x**3], output=[x])
discrete = SymbolicVectorSystem(state=[x], dynamics=[x**3], output=[x], time_period=1.0)

class Flow(LeafSystem):
    def __init__(self):
        LeafSystem.__init__(self)
        index = self.DeclareContinuousState(1)
        self.DeclareStateOutputPort("y", index)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -x + x**3)

class Map(LeafSystem):
    def __init__(self):
        LeafSystem.__init__(self)
        index = self.DeclareDiscreteState(1)
        self.DeclareStateOutputPort("y", index)
        self.DeclarePeriodicDiscreteUpdateEvent(period_sec=1.0, offset_sec=0.0, update=self.Update)

    def Update(self, context, discrete_state):
        x = context.get_discrete_state_vector().GetAtIndex(0)
        discrete_state.get_mutable_vector().SetAtIndex(0, x**3)

cases = ((Flow(), False), (Map(), True), (continuous, False), (discrete, True))
for system, discrete_time in cases:
    builder = DiagramBuilder()
    added = builder.AddSystem(system)
    logger = LogVectorOutput(added.get_output_port(0), builder)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    if discrete_time:
        context.get_mutable_discrete_state_vector().SetFromVector([0.9])
    else:
        context.SetContinuousState([0.9])
    simulator.AdvanceTo(10)
    log = logger.FindLog(simulator.get_context())
    plt.figure()
    if discrete_time:
        plt.stem(log.sample_times(), log.data().transpose())
    else:
        plt.plot(log.sample_times(), log.data().transpose())
    print(log.sample_times().shape, log.data()[:, -1], log.data()[:, ::25])
"""

PID = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from {lib}.examples import PendulumPlant
from {lib}.systems.analysis import Simulator
from {lib}.systems.controllers import PidController
from {lib}.systems.drawing import plot_system_graphviz
from {lib}.systems.framework import DiagramBuilder
from {lib}.systems.primitives import LogVectorOutput

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
diagram.set_name("diagram")
plot_system_graphviz(diagram)

simulator = Simulator(diagram)
context = simulator.get_mutable_context()
goal = np.pi / 2.
pendulum_context = diagram.GetMutableSubsystemContext(pendulum, context)
pendulum_context.get_mutable_continuous_state_vector().SetFromVector([goal + 0.1, 0.2])
diagram.get_input_port(0).FixValue(context, [goal, 0.])
logger.FindMutableLog(context).Clear()
simulator.AdvanceTo(20)
log = logger.FindLog(simulator.get_context())
t = log.sample_times()
plt.figure()
plt.plot(t, log.data()[0, :], ".-")
plt.plot([t[0], t[-1]], [goal, goal], "g")
print(t.shape, log.data()[:, -1], log.data()[:, ::40])
"""


def test_simulated_systems():
    compare(SYSTEMS)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_pid_controlled_pendulum():
    pytest.importorskip("pydot")
    compare(PID)
