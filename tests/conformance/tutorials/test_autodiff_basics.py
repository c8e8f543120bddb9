"""Drake's tutorial autodiff_basics under mallard: gradients of numpy expressions, of a
LinearSystem's discrete update and output, through a Diagram with a TemplateSystem, and of a
simulation (Simulator_[AutoDiffXd]) against the analytic exp(−t)."""

import contextlib
import io

import numpy as np
import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")

from tests.conformance.tutorials.runner import compare  # noqa: E402

ARRAYS_AND_SYSTEMS = """
import numpy as np
from {lib}.autodiffutils import ExtractGradient, InitializeAutoDiff, InitializeAutoDiffTuple
from {lib}.systems.framework import BasicVector_, DiagramBuilder, LeafSystem_
from {lib}.systems.primitives import LinearSystem
from {lib}.systems.scalar_conversion import TemplateSystem

a = np.array([1, 2]).reshape([2, -1])
x = np.random.rand(2, 1)
print("double type array:\\n", x)
x = InitializeAutoDiff(x)
print("converted to AutoDiffXd scalar type array:\\n", x)
y = a.T @ x
print("Gradient:", ExtractGradient(y))
np.testing.assert_allclose(a.T, ExtractGradient(y))

a1, x1 = np.array([1, 2]).reshape([2, -1]), np.random.rand(2, 1)
a2, x2 = np.array([1, 2, 3]).reshape([3, -1]), np.random.rand(3, 1)
x1, x2 = InitializeAutoDiffTuple(x1, x2)
dydx = ExtractGradient(a1.T @ x1 + a2.T @ x2)
print("All gradients:", dydx)
print("a1^T =", dydx[0][0:2])
print("a2^T =", dydx[0][2:])

system = LinearSystem(np.array([[1]]), np.array([[2]]), np.array([[3]]), np.array([[4]]), 1)
print("A system using double:", system)
system_ad = system.ToAutoDiffXd()
print("The system converted to AutoDiffXd:", system_ad)
context_ad = system_ad.CreateDefaultContext()
x, u = InitializeAutoDiffTuple(np.array([1]), np.array([1]))
context_ad.SetDiscreteState(0, x)
system_ad.get_input_port(0).FixValue(context_ad, u)
x_next = system_ad.AllocateContext().get_discrete_state()
system_ad.CalcForcedDiscreteVariableUpdate(context_ad, x_next)
grad = ExtractGradient(x_next.get_vector(0).CopyToVector())
print("dx'/dx =", grad.flatten()[0], "dx'/du =", grad.flatten()[1])
outputs = system_ad.AllocateOutput()
system_ad.CalcOutput(context_ad, outputs)
index = system_ad.get_output_port(0).get_index()
grad = ExtractGradient(outputs.get_vector_data(index).CopyToVector())
print("dy/dx =", grad.flatten()[0], "dy/du =", grad.flatten()[1])

linear = LinearSystem(np.array([[1]]), np.array([[2]]), np.array([[1]]), np.array([[0]]), 1)

@TemplateSystem.define("Square_")
def Square_(T):
    class Impl(LeafSystem_[T]):
        def _construct(self, dimension: int, converter=None):
            LeafSystem_[T].__init__(self, converter=converter)
            self.dimension = dimension
            self.input_port = self.DeclareVectorInputPort("input", BasicVector_[T](dimension))
            self.output_port = self.DeclareVectorOutputPort(
                "output", BasicVector_[T](dimension), self.calc)

        def _construct_copy(self, other, converter=None):
            Impl._construct(self, other.dimension, converter=converter)

        def calc(self, context, output):
            u = self.input_port.Eval(context)
            output.set_value(u * u)

    return Impl

square = Square_[None](dimension=1)
builder = DiagramBuilder()
builder.AddSystem(linear)
builder.AddSystem(square)
builder.Connect(linear.get_output_port(0), square.get_input_port(0))
builder.ExportInput(linear.get_input_port(), "input")
builder.ExportOutput(square.get_output_port(), "output")
system = builder.Build()
print("Default double systems:\\n", system.GetSystems())
system_ad = system.ToAutoDiffXd()
print("AutoDiffXd systems:\\n", system_ad.GetSystems())
context_ad = system_ad.CreateDefaultContext()
x, u = InitializeAutoDiffTuple(np.array([1]), np.array([1]))
context_ad.SetDiscreteState(0, x)
system_ad.get_input_port(0).FixValue(context_ad, u)
outputs = system_ad.AllocateOutput()
system_ad.CalcOutput(context_ad, outputs)
index = system_ad.GetOutputPort("output").get_index()
grad = ExtractGradient(outputs.get_vector_data(index).CopyToVector())
print("dy/dx =", grad.flatten()[0], "dy/du =", grad.flatten()[1])
"""

SIMULATION = """
import numpy as np
from {lib}.autodiffutils import AutoDiffXd, ExtractGradient, InitializeAutoDiff
from {lib}.systems.analysis import Simulator_
from {lib}.systems.framework import DiagramBuilder
from {lib}.systems.primitives import LinearSystem, LogVectorOutput

linear = LinearSystem(np.array([[-1]]), np.array([[0]]), np.array([[1]]), np.array([[0]]), 0)
builder = DiagramBuilder()
builder.AddSystem(linear)
builder.ExportInput(linear.get_input_port(), "input")
builder.ExportOutput(linear.get_output_port(), "output")
logger = LogVectorOutput(linear.get_output_port(), builder, publish_period=0.1)
system = builder.Build()
system_ad = system.ToAutoDiffXd()
logger_ad = system_ad.GetSystems()[1]
simulator_ad = Simulator_[AutoDiffXd](system_ad)
context_ad = simulator_ad.get_mutable_context()
system_ad.get_input_port(0).FixValue(context_ad, 0)
context_ad.SetContinuousState(InitializeAutoDiff(np.array([5])))
simulator_ad.Initialize()
simulator_ad.AdvanceTo(1)
log = logger_ad.FindLog(simulator_ad.get_context())
times = np.array([t.value() for t in log.sample_times()])
analytic = np.exp(-times)
autodiff = ExtractGradient(log.data()).flatten()
print("dy/dx0 at t =", times[3])
print("Analytical gradient:", analytic[3])
print("Gradient calculated by autodiff:", autodiff[3])
np.testing.assert_allclose(autodiff, analytic, atol=1e-6)
print(autodiff)
"""


def test_gradients_of_arrays_and_systems():
    compare(ARRAYS_AND_SYSTEMS)


def test_gradient_of_a_simulation():
    # The step sizes of error control carry derivatives (time and step sizes are AutoDiffXd in
    # both libraries), so the gradients agree with pydrake's, not only with exp(−t) to 1e-6.
    compare(SIMULATION)
    # Every logged gradient, to 1e-9 (the cell prints them to 8 digits).
    theirs, ours = (_namespace(SIMULATION, lib)["autodiff"] for lib in ("pydrake", "mallard"))
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


def _namespace(source, lib):
    """The variables ``source`` leaves when run with ``lib`` (what it prints dropped)."""
    namespace = {"__name__": "tutorial"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(source.replace("{lib}", lib), namespace)
    return namespace
