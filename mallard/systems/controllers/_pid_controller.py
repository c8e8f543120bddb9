"""PidController, as pydrake's: u = Pₒ·(Kp·(x̃_d − x̃)_q + Ki·z + Kd·(x̃_d − x̃)_v) with
x̃ = Pₓ·x, and ż = (x̃_d − x̃)_q (the integral z is its continuous state, zero by
default)."""

import numpy as np

from mallard._scalar import as_array
from mallard.common._pybind import call_form, overloads
from mallard.systems.framework import LeafSystem


def _gains(values, name):
    return as_array(values, name=name).reshape(-1).astype(float)


class PidController(LeafSystem):
    """A PID controller of n = |Kp| = |Ki| = |Kd| positions.

    ``PidController(kp, ki, kd)``, ``PidController(state_projection, kp, ki, kd)`` or
    ``PidController(state_projection, output_projection, kp, ki, kd)``. Inputs
    ``estimated_state`` (x, of Pₓ's column count, 2n by default) and ``desired_state``
    (x̃_d = [q_d; v_d], 2n); output ``control`` (Pₒ's row count, n by default). The state is
    the integral of the position error.
    """

    _cpp_type = "drake::systems::controllers::PidController<double>"

    @overloads(
        "kp, ki, kd",
        "state_projection, kp, ki, kd",
        "state_projection, output_projection, kp, ki, kd",
    )
    def __init__(self, *args, **kwargs):
        super().__init__()
        _, values = call_form(PidController.__init__, args, kwargs)
        self._kp = _gains(values["kp"], "kp")
        self._ki = _gains(values["ki"], "ki")
        self._kd = _gains(values["kd"], "kd")
        n = self._kp.size
        if not (self._ki.size == n and self._kd.size == n):
            raise RuntimeError(
                f"Gains must have equal length: |Kp| = {n}, |Ki| = {self._ki.size}, "
                f"|Kd| = {self._kd.size}"
            )
        P_x = values.get("state_projection")
        P_x = (
            np.eye(2 * n) if P_x is None else np.atleast_2d(as_array(P_x, name="state_projection"))
        )
        if P_x.shape[0] != 2 * n:
            raise RuntimeError(
                f"State projection row dimension mismatch, expecting {2 * n}, is {P_x.shape[0]}"
            )
        P_o = values.get("output_projection")
        P_o = np.eye(n) if P_o is None else np.atleast_2d(as_array(P_o, name="output_projection"))
        if P_o.shape[1] != n:
            raise RuntimeError(
                f"Output projection column dimension mismatch, expecting {n}, is {P_o.shape[1]}"
            )
        self._P_x, self._P_o, self._n = P_x.astype(float), P_o.astype(float), n
        self.DeclareContinuousState(n)
        self._estimated = self.DeclareVectorInputPort("estimated_state", P_x.shape[1])
        self._desired = self.DeclareVectorInputPort("desired_state", 2 * n)
        self._control = self.DeclareVectorOutputPort("control", P_o.shape[0], self._calc_control)

    # ---- gains and ports -----------------------------------------------------------------
    def get_Kp_vector(self):
        return self._kp.copy()

    def get_Ki_vector(self):
        return self._ki.copy()

    def get_Kd_vector(self):
        return self._kd.copy()

    def get_Kp_singleton(self):
        return self._singleton(self._kp, "Kp")

    def get_Ki_singleton(self):
        return self._singleton(self._ki, "Ki")

    def get_Kd_singleton(self):
        return self._singleton(self._kd, "Kd")

    @staticmethod
    def _singleton(gains, name):
        if gains.size != 1:
            raise RuntimeError(f"PidController: {name} has {gains.size} entries, not 1")
        return float(gains[0])

    def get_input_port_estimated_state(self):
        return self._estimated

    def get_input_port_desired_state(self):
        return self._desired

    def get_output_port_control(self):
        return self._control

    def set_integral_value(self, context, value):
        """Sets the integral of the position error in ``context``."""
        self.ValidateContext(context)
        context.get_mutable_continuous_state_vector().SetFromVector(
            as_array(value, (self._n,), "value")
        )

    def _scalar_conversion_args(self, T):
        return self._P_x, self._P_o, self._kp, self._ki, self._kd  # (doubles, as Drake's)

    # ---- computations --------------------------------------------------------------------
    def _error(self, context):
        x = self._estimated.Eval(context)
        x_d = self._desired.Eval(context)
        return x_d - self._P_x @ x

    def _calc_control(self, context, output):
        n = self._n
        e = self._error(context)
        z = context.get_continuous_state_vector().CopyToVector()
        u = self._kp * e[:n] + self._ki * z + self._kd * e[n:]
        output.SetFromVector(self._P_o @ u)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector(self._error(context)[: self._n])
