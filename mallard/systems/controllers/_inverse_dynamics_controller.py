"""InverseDynamicsController, as pydrake's: PID on the positions to a commanded acceleration,
then inverse dynamics of the plant for control: v̇_c = Kp·(q_d − q) + Kd·(v_d − v) + Ki·z
(+ v̇_d if has_reference_acceleration), τ = M·v̇_c + C·v − τ_app, u = B⁻¹·τ.

pydrake builds it as a Diagram (a PidController, an InverseDynamics and an Adder); mallard
computes the same in one LeafSystem with the PID's integral z (ż = q_d − q, zero by default)
as its continuous state.
"""

import numpy as np

from mallard._scalar import as_array
from mallard.systems.controllers._inverse_dynamics import InverseDynamics
from mallard.systems.framework import LeafSystem

_UNDERACTUATED = (
    "\nYour plant has {nq} positions, but only {nu} actuators.\n\n"
    "InverseDynamicsController (currently) only supports fully-actuated robots. For\n"
    "instance, you cannot use this directly if your robot/model has an unactuated \n"
    "floating base.\n\n"
    "Note that commonly, the MultibodyPlant used for control is not the same\n"
    "one used for simulation; the simulation model might contain the robot and also\n"
    "some objects in the world which the controller does not have direct\n"
    "observations of nor control over. See \n"
    "https://stackoverflow.com/q/75917723/9510020 for some further discussion."
)


class InverseDynamicsController(LeafSystem):
    """``InverseDynamicsController(robot, kp, ki, kd, has_reference_acceleration,
    plant_context=None)`` for a finalized, fully actuated MultibodyPlant ``robot`` (nq = nv =
    nu); ``plant_context`` (copied) overrides the robot's default parameters.

    Inputs ``estimated_state`` (x), ``desired_state`` (x_d = [q_d; v_d]) and, with
    ``has_reference_acceleration``, ``desired_acceleration``; outputs ``actuation`` (u, in
    the robot's actuator order) and ``generalized_force`` (τ).
    """

    _cpp_type = "drake::systems::controllers::InverseDynamicsController<double>"

    def __init__(self, robot, kp, ki, kd, has_reference_acceleration, plant_context=None):
        super().__init__()
        if not robot.is_finalized():
            raise RuntimeError("InverseDynamicsController: the robot plant must be finalized")
        nq, nv, nu = robot.num_positions(), robot.num_velocities(), robot.num_actuated_dofs()
        if nq != nu:
            raise RuntimeError(_UNDERACTUATED.format(nq=nq, nu=nu))
        if nq != nv:
            raise RuntimeError(
                "InverseDynamicsController: the robot must have as many positions as "
                f"velocities, got nq = {nq}, nv = {nv}"
            )
        gains = [
            as_array(g, name=n).reshape(-1).astype(float)
            for g, n in ((kp, "kp"), (ki, "ki"), (kd, "kd"))
        ]
        for g, name in zip(gains, ("kp", "ki", "kd"), strict=True):
            if g.size != nq:
                raise RuntimeError(
                    f"InverseDynamicsController: {name} must have {nq} entries, got {g.size}"
                )
        self._kp, self._ki, self._kd = gains
        self._robot = robot
        self._has_reference = bool(has_reference_acceleration)
        self._n = nq
        self._id = InverseDynamics(robot, plant_context=plant_context)
        B = robot.MakeActuationMatrix()
        self._B_inv = np.linalg.inv(B) if nu else np.zeros((0, 0))
        self.DeclareContinuousState(nq)
        self._estimated = self.DeclareVectorInputPort("estimated_state", 2 * nq)
        self._desired = self.DeclareVectorInputPort("desired_state", 2 * nq)
        self._reference = None
        if has_reference_acceleration:
            self._reference = self.DeclareVectorInputPort("desired_acceleration", nv)
        self._actuation = self.DeclareVectorOutputPort(
            "actuation", nu, lambda c, out: out.SetFromVector(self._B_inv @ self._tau(c))
        )
        self._generalized_force = self.DeclareVectorOutputPort(
            "generalized_force", nv, lambda c, out: out.SetFromVector(self._tau(c))
        )

    def _scalar_conversion_args(self, T):
        robot = self._robot.ToScalarType[T]()  # (a converted copy of the robot)
        return robot, self._kp, self._ki, self._kd, self._has_reference

    def get_multibody_plant_for_control(self):
        return self._robot

    def get_input_port_estimated_state(self):
        return self._estimated

    def get_input_port_desired_state(self):
        return self._desired

    def get_input_port_desired_acceleration(self):
        if self._reference is None:
            raise RuntimeError(
                "InverseDynamicsController: there is no desired_acceleration input (made "
                "with has_reference_acceleration=False)"
            )
        return self._reference

    def get_output_port_control(self):
        """The ``actuation`` output."""
        return self._actuation

    def get_output_port_generalized_force(self):
        return self._generalized_force

    def set_integral_value(self, context, value):
        self.ValidateContext(context)
        context.get_mutable_continuous_state_vector().SetFromVector(
            as_array(value, (self._n,), "value")
        )

    def _error(self, context):
        return self._desired.Eval(context) - self._estimated.Eval(context)

    def _tau(self, context):
        n = self._n
        x = self._estimated.Eval(context)
        e = self._desired.Eval(context) - x
        z = context.get_continuous_state_vector().CopyToVector()
        vdot = self._kp * e[:n] + self._kd * e[n:] + self._ki * z
        if self._reference is not None:
            vdot = vdot + self._reference.Eval(context)
        return self._id._generalized_force(x, None, vdot)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector(self._error(context)[: self._n])
