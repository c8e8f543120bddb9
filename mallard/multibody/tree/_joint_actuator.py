"""JointActuator (an actuator acting on the velocities of one joint) and PdControllerGains."""

import math

import numpy as np

from mallard._scalar import as_scalar
from mallard.common._pybind import overloads
from mallard.multibody.tree._indices import JointActuatorIndex
from mallard.multibody.tree._joint import ElementChecks, Joint, to_float
from mallard.multibody.tree._multibody_element import MultibodyElement, unplaced


def _gain(value, name):
    gain = to_float(value)
    if gain is None:
        raise TypeError(f"PdControllerGains.{name} must be a float, got {value!r}")
    return gain


class PdControllerGains:
    """Proportional and derivative gains p and d of an actuator's PD controller. As in
    pydrake, it is constructed from keywords only: ``PdControllerGains(p=100.0, d=10.0)``."""

    __slots__ = ("_p", "_d")

    @overloads("*, p=, d=")
    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError(
                "PdControllerGains: incompatible constructor arguments; only the keywords p "
                f"and d are accepted, got positional arguments {args!r}"
            )
        self._p = self._d = 0.0
        for name, value in kwargs.items():
            if name not in ("p", "d"):
                raise AttributeError(f"'PdControllerGains' object has no attribute '{name}'")
            setattr(self, name, value)

    @classmethod
    def _new(cls, p, d):
        """The gains of floats a caller has checked: the constructor without its checks."""
        gains = object.__new__(cls)
        gains._p, gains._d = p, d
        return gains

    @property
    def p(self):
        """The proportional gain Kp."""
        return self._p

    @p.setter
    def p(self, value):
        self._p = _gain(value, "p")

    @property
    def d(self):
        """The derivative gain Kd."""
        return self._d

    @d.setter
    def d(self, value):
        self._d = _gain(value, "d")

    def __repr__(self):
        return f"PdControllerGains(p={self._p!r}, d={self._d!r})"


class JointActuator(ElementChecks, MultibodyElement):
    """An actuator applying generalized forces to the velocities of ``joint``; it takes one
    input per joint velocity, ``u[input_start():input_start() + num_inputs()]`` of the plant's
    actuation vector u. Rotor inertia Iᵣ and gear ratio ρ (defaults here, values in a Context)
    add the reflected inertia ρ²·Iᵣ to the mass matrix. Made by
    ``MultibodyPlant.AddJointActuator``."""

    _index_type = JointActuatorIndex

    def __init__(self, name, joint, effort_limit=math.inf):
        if not isinstance(name, str) or name == "":
            raise RuntimeError("JointActuator: the name of an actuator must be a non-empty str")
        if not isinstance(joint, Joint):
            raise TypeError(f"JointActuator '{name}': joint must be a Joint, got {joint!r}")
        super().__init__(joint.model_instance())
        self._name = name
        self._joint = joint
        self._effort_limit = _positive_limit(
            self._as_float(effort_limit, "effort_limit", "__init__")
        )
        self._rotor_inertia = 0.0
        self._gear_ratio = 1.0
        self._gains = None
        self._input_start = None  # assigned by the plant

    @classmethod
    def _in_rows(cls, names, joints, effort_limits, rotor_inertias, gear_ratios, gains,
                 places=None):  # fmt: skip
        """The actuators of each name of ``names`` (checked: non-empty strs) on its joint of
        ``joints`` (single-dof Joints) with its float of ``effort_limits`` (each > 0),
        ``rotor_inertias`` and ``gear_ratios`` and its PdControllerGains of ``gains`` (or
        None: no controller; the actuator keeps it), in one loop (a parser's document: no call
        per actuator): the constructor's fields in its order, then those its setters set.
        ``places``: None (not in a plant), or (plant, their indices, their ordinals),
        sequences: their places in the plant that adds them (MultibodyPlant._places,
        _add_placed), each one's input start its ordinal (AddJointActuator's)."""
        plant, indices, ordinals = places or unplaced(len(names), 2)
        actuators, new = [], object.__new__  # (new: the loop's one lookup of object.__new__)
        for name, joint, limit, rotor_inertia, ratio, pd, index, ordinal in zip(
            names, joints, effort_limits, rotor_inertias, gear_ratios, gains, indices,
            ordinals, strict=True,
        ):  # fmt: skip
            actuator = new(cls)
            actuator._plant = plant
            actuator._index = index
            actuator._ordinal = ordinal
            actuator._model_instance = joint._model_instance
            actuator._ephemeral = False
            actuator._name = name
            actuator._joint = joint
            actuator._effort_limit = limit
            actuator._rotor_inertia = rotor_inertia
            actuator._gear_ratio = ratio
            actuator._gains = pd
            actuator._input_start = ordinal
            actuators.append(actuator)
        return actuators

    def name(self):
        return self._name

    def joint(self):
        """The joint this actuator acts on."""
        return self._joint

    # ---- effort limit --------------------------------------------------------------------
    def effort_limit(self):
        """The effort limit e (the actuation is clamped to [−e, e] by PD control)."""
        return self._effort_limit

    def set_effort_limit(self, effort_limit):
        """Sets the effort limit (positive; ∞ for none)."""
        limit = self._as_float(effort_limit, "effort_limit", "set_effort_limit")
        self._effort_limit = _positive_limit(limit)
        self._model_changed()

    # ---- inputs --------------------------------------------------------------------------
    def num_inputs(self):
        """The number of actuation inputs: the joint's number of velocities."""
        return self._joint.num_velocities()

    def input_start(self):
        """The index of this actuator's first input in the plant's actuation vector u."""
        self.GetParentPlant()
        return self._input_start

    def _checked_u_size(self, n, method):
        expected = self.GetParentPlant().num_actuated_dofs()
        if n != expected:
            raise self._error(
                method, f"u must have num_actuated_dofs() = {expected} values, got {n}"
            )

    def get_actuation_vector(self, u):
        """This actuator's inputs taken out of the plant's actuation vector ``u``."""
        u = self._as_vector(u, None, "u", "get_actuation_vector")
        self._checked_u_size(u.size, "get_actuation_vector")
        return u[self._input_start : self._input_start + self.num_inputs()]

    def set_actuation_vector(self, u_actuator, u):
        """Writes ``u_actuator`` (num_inputs() values) into ``u``, the plant's actuation vector
        (a writeable float64 array, modified in place)."""
        method = "set_actuation_vector"
        u_actuator = self._as_vector(u_actuator, None, "u_actuator", method)
        if u is None:
            raise self._error(method, "u must be an array, not None")
        if not (
            isinstance(u, np.ndarray)
            and u.dtype == np.float64
            and u.flags.writeable
            and (u.ndim == 1 or (u.ndim == 2 and u.shape[1] == 1))
        ):
            raise self._type_error(method, "u", "a writeable float64 numpy vector", u)
        self._checked_u_size(u.size, method)
        if u_actuator.size != self.num_inputs():
            raise self._error(
                method,
                f"u_actuator must have num_inputs() = {self.num_inputs()} values, got "
                f"{u_actuator.size}",
            )
        u.reshape(-1)[self._input_start : self._input_start + self.num_inputs()] = u_actuator

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
        """Sets the default rotor inertia (for Contexts created afterwards)."""
        self._rotor_inertia = self._as_float(
            rotor_inertia, "rotor_inertia", "set_default_rotor_inertia"
        )

    def set_default_gear_ratio(self, gear_ratio):
        """Sets the default gear ratio (for Contexts created afterwards)."""
        self._gear_ratio = self._as_float(gear_ratio, "gear_ratio", "set_default_gear_ratio")

    def _parameters(self, context, method):
        return self._plant_with(context, method)._parameters(context)

    def _mutable_parameters(self, context, method):
        return self._plant_with(context, method)._mutable_parameters(context)

    def rotor_inertia(self, context):
        """Iᵣ in ``context``."""
        return as_scalar(self._parameters(context, "rotor_inertia").rotor_inertia[self._ordinal])

    def gear_ratio(self, context):
        """ρ in ``context``."""
        return as_scalar(self._parameters(context, "gear_ratio").gear_ratio[self._ordinal])

    def SetRotorInertia(self, context, rotor_inertia):
        """Sets Iᵣ in ``context``."""
        value = self._as_float(rotor_inertia, "rotor_inertia", "SetRotorInertia")
        self._mutable_parameters(context, "SetRotorInertia").rotor_inertia[self._ordinal] = value

    def SetGearRatio(self, context, gear_ratio):
        """Sets ρ in ``context``."""
        value = self._as_float(gear_ratio, "gear_ratio", "SetGearRatio")
        self._mutable_parameters(context, "SetGearRatio").gear_ratio[self._ordinal] = value

    def calc_reflected_inertia(self, context):
        """ρ²·Iᵣ in ``context``."""
        parameters = self._parameters(context, "calc_reflected_inertia")
        i = self._ordinal
        return as_scalar(parameters.gear_ratio[i] ** 2 * parameters.rotor_inertia[i])

    # ---- PD control ----------------------------------------------------------------------
    def set_controller_gains(self, gains):
        """Sets the PD gains (finite, p ≥ 0, d ≥ 0); p = d = 0 removes the controller."""
        self._as_instance(gains, PdControllerGains, "gains", "set_controller_gains")
        p, d = gains.p, gains.d
        if not (math.isfinite(p) and math.isfinite(d) and p >= 0 and d >= 0):
            raise self._error(
                "set_controller_gains", f"the gains must be finite and non-negative, got {gains}"
            )
        self._gains = None if p == 0 and d == 0 else PdControllerGains(p=p, d=d)
        self._model_changed()  # (the discrete solver's constraints)

    def has_controller(self):
        """True if this actuator has PD gains."""
        return self._gains is not None

    def get_controller_gains(self):
        """The PD gains; RuntimeError if there are none (see has_controller())."""
        if self._gains is None:
            raise self._error("get_controller_gains", "this actuator has no controller gains")
        return PdControllerGains(p=self._gains.p, d=self._gains.d)


def _positive_limit(effort_limit):
    if not effort_limit > 0:
        text = repr(effort_limit).removesuffix(".0")  # as fmt prints a double
        raise RuntimeError(f"JointActuator effort limit must be strictly positive (not {text})")
    return effort_limit
