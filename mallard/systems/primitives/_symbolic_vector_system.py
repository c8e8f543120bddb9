"""SymbolicVectorSystem: a system whose dynamics and output are symbolic Expressions of its
time, state, input and parameter Variables (needs mallard.symbolic, the ``symbolic`` extra).

The expressions are compiled once (sympy's lambdify) into functions of (t, x, u, p) whose
elementary functions are mallard.math's, so that one function evaluates doubles, AutoDiffXd
and Expressions alike.
"""

import numpy as np

from mallard._template import array_to_scalar
from mallard.systems.framework._indices import kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._system import system_scalar_type
from mallard.systems.framework._vectors import BasicVector


def _math_functions():
    """sympy's function names -> mallard.math's (which take every scalar type)."""
    import mallard.math as m

    names = ("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh")
    names += ("exp", "log", "sqrt", "floor")
    functions = {n: getattr(m, n) for n in names}
    functions.update(Abs=m.abs, ceiling=m.ceil, Max=m.max, Min=m.min, pow=m.pow)
    return functions


def _variables(values, what):
    from mallard.symbolic import Variable

    values = [] if values is None else list(np.asarray(values, dtype=object).reshape(-1))
    for v in values:
        if not isinstance(v, Variable):
            raise TypeError(f"SymbolicVectorSystem: {what} must be Variables, got {v!r}")
    if len({v.get_id() for v in values}) != len(values):
        raise RuntimeError(f"SymbolicVectorSystem: the {what} variables must be distinct")
    return values


def _expressions(values):
    from mallard.symbolic import Expression

    values = [] if values is None else list(np.asarray(values, dtype=object).reshape(-1))
    return [v if isinstance(v, Expression) else Expression(v) for v in values]


class SymbolicVectorSystem(LeafSystem):
    """``SymbolicVectorSystem(time=None, state=[], input=[], parameter=[], dynamics=[],
    output=[], time_period=0.0)``: input "u0" (if there are input variables), output "y0"
    (if there is an output), ẋ = dynamics (or x[n+1] = dynamics every ``time_period``
    seconds), numeric parameter group 0 holding the parameters (NaN by default)."""

    _cpp_type = "drake::systems::SymbolicVectorSystem<double>"

    def __init__(
        self,
        time=None,
        state=None,
        input=None,
        parameter=None,
        dynamics=None,
        output=None,
        time_period=0.0,
    ):
        super().__init__()
        from mallard.symbolic import Variable

        if time is not None and not isinstance(time, Variable):
            raise TypeError(f"SymbolicVectorSystem: time must be a Variable, got {time!r}")
        self._args = (time, state, input, parameter, dynamics, output, float(time_period))
        x = _variables(state, "state")
        u = _variables(input, "input")
        p = _variables(parameter, "parameter")
        f, g = _expressions(dynamics), _expressions(output)
        if len(f) != len(x):
            raise RuntimeError(
                f"SymbolicVectorSystem: there are {len(f)} dynamics for {len(x)} state variables"
            )
        known = {v.get_id() for v in [*x, *u, *p, *([time] if time is not None else [])]}
        for e in f + g:
            for v in e.GetVariables():
                if v.get_id() not in known:
                    raise RuntimeError(
                        f"SymbolicVectorSystem: the expression {e} has the variable {v}, "
                        "which is not its time, a state, an input or a parameter"
                    )
        self._time, self._x, self._u, self._p, self._f, self._g = time, x, u, p, f, g
        self._period = float(time_period)
        if not self._period >= 0:
            raise RuntimeError(f"SymbolicVectorSystem: time_period must be >= 0, got {time_period}")
        self._dynamics = self._compile(f)
        self._output = self._compile(g)
        if x:
            if self._period == 0.0:
                self.DeclareContinuousState(len(x))
            else:
                self.DeclareDiscreteState(len(x))
                self.DeclarePeriodicDiscreteUpdateEvent(self._period, 0.0, self._update)
        if p:
            self.DeclareNumericParameter(BasicVector(len(p)))
        if u:
            self._u_port = self.DeclareVectorInputPort(kUseDefaultName, len(u))
        if g:
            input_ids = {v.get_id() for v in u}
            uses_input = any(v.get_id() in input_ids for e in g for v in e.GetVariables())
            prerequisites = {self.time_ticket(), self.all_state_ticket()}
            prerequisites.add(self.all_parameters_ticket())
            if uses_input:
                prerequisites.add(self.all_input_ports_ticket())
            self.DeclareVectorOutputPort(kUseDefaultName, len(g), self._calc_output, prerequisites)

    def _compile(self, expressions):
        """A function of (t, x, u, p) (sequences) returning the values of ``expressions``."""
        import sympy

        from mallard.symbolic import to_sympy

        symbols = [to_sympy(v) for v in self._x + self._u + self._p]
        t = to_sympy(self._time) if self._time is not None else sympy.Dummy("t")
        arguments = [t, *symbols]
        body = [to_sympy(e) for e in expressions]
        function = sympy.lambdify(arguments, body, modules=[_math_functions(), "math"])
        nx, nu = len(self._x), len(self._u)

        def evaluate(time, x, u, p):
            return function(time, *x[:nx], *u[:nu], *p)

        return evaluate

    def _scalar_conversion_args(self, T):
        return self._args

    def dynamics_for_variable(self, var):
        """The dynamics of state variable ``var``; IndexError if it is not a state."""
        for v, f in zip(self._x, self._f, strict=True):
            if v.get_id() == var.get_id():
                return f
        raise IndexError(
            f"This SymbolicVectorSystem does not have a dynamics for the given variable {var}"
        )

    # ---- evaluation --------------------------------------------------------------------------
    def _values(self, function, context):
        T = system_scalar_type(self)
        if self._x:
            if self._period == 0.0:
                x = context._state._continuous._vector._data
            else:
                x = context._state._discrete._groups[0]._data
        else:
            x = ()
        u = self._u_port.EvalBasicVector(context)._data if self._u else ()
        p = context._parameters._numeric._groups[0]._data if self._p else ()
        t = context.get_time()
        values = np.array(function(t, list(x), list(u), list(p)), dtype=object)
        if T is float:
            return values.astype(float)
        return array_to_scalar(values, T)

    def DoCalcTimeDerivatives(self, context, derivatives):
        if self._x and self._period == 0.0:
            derivatives._vector._data[:] = self._values(self._dynamics, context)

    def _update(self, context, discrete_state):
        discrete_state._groups[0]._data[:] = self._values(self._dynamics, context)

    def _calc_output(self, context, output):
        output._data[:] = self._values(self._output, context)
