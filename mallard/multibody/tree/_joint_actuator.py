"""JointActuator (an actuator acting on the velocities of one joint) and PdControllerGains."""

import math

from mallard._scalar import as_array
from mallard.multibody.tree._indices import JointActuatorIndex
from mallard.multibody.tree._joint import Joint
from mallard.multibody.tree._multibody_element import MultibodyElement


class PdControllerGains:
    """Proportional and derivative gains of an actuator's implicit PD controller."""

    __slots__ = ("p", "d")

    def __init__(self, p=0.0, d=0.0):
        self.p = float(p)
        self.d = float(d)

    def __repr__(self):
        return f"PdControllerGains(p={self.p!r}, d={self.d!r})"


class JointActuator(MultibodyElement):
    """An actuator applying generalized forces to the velocities of ``joint``; it takes one
    input per joint velocity, ``u[input_start():input_start() + num_inputs()]`` of the plant's
    actuation vector u. Rotor inertia and gear ratio (defaults here, values in a Context)
    add the reflected inertia ρ²·Iᵣ to the mass matrix."""

    _index_type = JointActuatorIndex

    def __init__(self, name, joint, effort_limit=math.inf):
        if not isinstance(name, str) or name == "":
            raise RuntimeError("JointActuator: the name of an actuator cannot be empty")
        if not isinstance(joint, Joint):
            raise TypeError(f"JointActuator '{name}': joint must be a Joint, got {joint!r}")
        super().__init__(joint.model_instance())
        self._name = name
        self._joint = joint
        self._effort_limit = _positive_limit(name, effort_limit)
        self._rotor_inertia = 0.0
        self._gear_ratio = 1.0
        self._gains = None
        self._input_start = None  # assigned by the plant at Finalize()

    def name(self):
        return self._name

    def scoped_name(self):
        return self.GetParentPlant()._scoped_name(self)

    def joint(self):
        """The joint this actuator acts on."""
        return self._joint

    # ---- effort limit --------------------------------------------------------------------
    def effort_limit(self):
        """The effort limit e (the actuation is clamped to [−e, e] by PD control)."""
        return self._effort_limit

    def set_effort_limit(self, effort_limit):
        """Sets the effort limit (positive; ∞ for none)."""
        self._effort_limit = _positive_limit(self._name, effort_limit)

    # ---- inputs --------------------------------------------------------------------------
    def num_inputs(self):
        """The number of actuation inputs: the joint's number of velocities."""
        return self._joint.num_velocities()

    def input_start(self):
        """The index of this actuator's first input in the plant's actuation vector u."""
        self._finalized_plant("input_start")
        return self._input_start

    def _checked_u(self, u, method):
        plant = self._finalized_plant(method)
        n = plant.num_actuated_dofs()
        if u is None or u.ndim != 1 or u.shape[0] != n:
            size = None if u is None else u.size
            raise RuntimeError(
                f"{self._describe()}: {method}(): u must have size num_actuated_dofs() = {n}, "
                f"got {size}"
            )
        return u

    def get_actuation_vector(self, u):
        """This actuator's inputs taken out of the plant's actuation vector ``u``."""
        u = self._checked_u(as_array(u, name="u").reshape(-1), "get_actuation_vector")
        return u[self._input_start : self._input_start + self.num_inputs()].copy()

    def set_actuation_vector(self, u_actuator, u):
        """Writes ``u_actuator`` (num_inputs() values) into the plant's actuation vector ``u``
        (a writeable array, modified in place)."""
        u_actuator = as_array(u_actuator, name="u_actuator").reshape(-1)
        if u_actuator.shape[0] != self.num_inputs():
            raise RuntimeError(
                f"{self._describe()}: set_actuation_vector(): u_actuator must have size "
                f"num_inputs() = {self.num_inputs()}, got {u_actuator.shape[0]}"
            )
        self._checked_u(u, "set_actuation_vector")
        u[self._input_start : self._input_start + self.num_inputs()] = u_actuator

    # ---- rotor inertia and gear ratio ----------------------------------------------------
    def default_rotor_inertia(self):
        """The default rotor inertia Iᵣ."""
        return self._rotor_inertia

    def default_gear_ratio(self):
        """The default gear ratio ρ."""
        return self._gear_ratio

    def default_reflected_inertia(self):
        """ρ²·Iᵣ with the default values."""
        return self._gear_ratio**2 * self._rotor_inertia

    def set_default_rotor_inertia(self, rotor_inertia):
        """Sets the default rotor inertia; only before Finalize()."""
        self._before_finalize("set_default_rotor_inertia")
        self._rotor_inertia = float(rotor_inertia)

    def set_default_gear_ratio(self, gear_ratio):
        """Sets the default gear ratio; only before Finalize()."""
        self._before_finalize("set_default_gear_ratio")
        self._gear_ratio = float(gear_ratio)

    def _before_finalize(self, method):
        if self._plant is not None and self._plant.is_finalized():
            raise RuntimeError(
                f"{self._describe()}: {method}() may only be called before the MultibodyPlant "
                "is finalized"
            )

    def _plant_with(self, context):
        plant = self._finalized_plant("rotor_inertia")
        plant.ValidateContext(context)
        return plant

    def rotor_inertia(self, context):
        """Iᵣ in ``context``."""
        return float(self._plant_with(context)._parameters(context).rotor_inertia[int(self._index)])

    def gear_ratio(self, context):
        """ρ in ``context``."""
        return float(self._plant_with(context)._parameters(context).gear_ratio[int(self._index)])

    def SetRotorInertia(self, context, rotor_inertia):
        """Sets Iᵣ in ``context``."""
        parameters = self._plant_with(context)._mutable_parameters(context)
        parameters.rotor_inertia[int(self._index)] = rotor_inertia

    def SetGearRatio(self, context, gear_ratio):
        """Sets ρ in ``context``."""
        parameters = self._plant_with(context)._mutable_parameters(context)
        parameters.gear_ratio[int(self._index)] = gear_ratio

    def calc_reflected_inertia(self, context):
        """ρ²·Iᵣ in ``context``."""
        return self.gear_ratio(context) ** 2 * self.rotor_inertia(context)

    # ---- PD control ----------------------------------------------------------------------
    def set_controller_gains(self, gains):
        """Sets the PD gains (Kp > 0, Kd ≥ 0). After Finalize() only an actuator that already
        had gains may change them."""
        if not isinstance(gains, PdControllerGains):
            raise TypeError(f"gains must be PdControllerGains, got {type(gains).__name__}")
        if not gains.p > 0 or not gains.d >= 0:
            raise RuntimeError(
                f"{self._describe()}: controller gains must have p > 0 and d >= 0; got "
                f"p = {gains.p}, d = {gains.d}"
            )
        if self._gains is None and self._plant is not None and self._plant.is_finalized():
            raise RuntimeError(
                f"{self._describe()}: controller gains can only be added after Finalize() to "
                "an actuator that had gains before it"
            )
        self._gains = PdControllerGains(gains.p, gains.d)

    def has_controller(self):
        """True if this actuator has PD gains."""
        return self._gains is not None

    def get_controller_gains(self):
        """The PD gains; RuntimeError if there are none."""
        if self._gains is None:
            raise RuntimeError(f"{self._describe()}: this actuator has no controller gains")
        return PdControllerGains(self._gains.p, self._gains.d)


def _positive_limit(name, effort_limit):
    limit = float(effort_limit)
    if not limit > 0:
        raise RuntimeError(
            f"JointActuator '{name}': effort_limit must be strictly positive, got {limit}"
        )
    return limit
