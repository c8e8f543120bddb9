"""A LeafSystem with one of everything, for the framework tests."""

import numpy as np

from mallard.common.value import AbstractValue
from mallard.systems.framework import BasicVector, LeafSystem


class Example(LeafSystem):
    """Inputs u (vector, 2) and a (abstract str); continuous state [q (2), v (1), z (1)],
    discrete groups of sizes 3 and 2, one abstract state; a numeric parameter [7, 8] and an
    abstract one; outputs y = 2u + q (vector, 2) and z = a + "!" (abstract)."""

    def __init__(self):
        super().__init__()
        self.u = self.DeclareVectorInputPort("u", 2)
        self.a = self.DeclareAbstractInputPort("a", AbstractValue.Make("hello"))
        self.DeclareContinuousState(2, 1, 1)
        self.DeclareDiscreteState(3)
        self.DeclareDiscreteState(np.array([1.0, 2.0]))
        self.DeclareAbstractState(AbstractValue.Make(5))
        self.DeclareNumericParameter(BasicVector([7.0, 8.0]))
        self.DeclareAbstractParameter(AbstractValue.Make("p"))
        self.y = self.DeclareVectorOutputPort("y", 2, self.calc_y)
        self.z = self.DeclareAbstractOutputPort("z", lambda: AbstractValue.Make(""), self.calc_z)

    def calc_y(self, context, output):
        q = context.get_continuous_state().get_generalized_position().CopyToVector()
        output.SetFromVector(2 * self.u.Eval(context) + q)

    def calc_z(self, context, output):
        output.set_value(self.a.Eval(context) + "!")

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector(-x)
