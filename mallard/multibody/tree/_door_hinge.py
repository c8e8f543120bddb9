"""DoorHinge: a revolute joint's spring, catch and friction torques, as in a door's hinge."""

import numpy as np

from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._revolute_joint import RevoluteJoint

#: DoorHingeConfig's fields and Drake's defaults (measured on a dishwasher's door).
_FIELDS = (
    ("spring_zero_angle_rad", -1.5),
    ("spring_constant", 1.5),
    ("dynamic_friction_torque", 3.0),
    ("static_friction_torque", 2.0),
    ("viscous_friction", 1.0),
    ("catch_width", 0.02),
    ("catch_torque", 15.0),
    ("motion_threshold", 0.001),
)

#: The fields DoorHinge requires non-negative.
_NON_NEGATIVE = (
    "spring_constant",
    "dynamic_friction_torque",
    "static_friction_torque",
    "viscous_friction",
    "catch_width",
    "motion_threshold",
)


def _field(name):
    def set_value(self, value):
        setattr(self, "_" + name, float(value))

    return property(lambda self: getattr(self, "_" + name), set_value)


class DoorHingeConfig:
    """The constants of a DoorHinge (float attributes, settable as keyword arguments):
    spring_zero_angle_rad qs₀, spring_constant k_ts, dynamic_friction_torque k_df,
    static_friction_torque k_sf, viscous_friction k_vf, catch_width qc₀, catch_torque k_c,
    motion_threshold k_q̇₀. All but qs₀ should be non-negative."""

    __slots__ = tuple("_" + name for name, _ in _FIELDS)

    def __init__(self, **kwargs):
        for name, default in _FIELDS:
            setattr(self, name, default)
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in _FIELDS)
        return f"DoorHingeConfig({fields})"

    def _copy(self):
        return DoorHingeConfig(**{name: getattr(self, name) for name, _ in _FIELDS})


for _name, _ in _FIELDS:
    setattr(DoorHingeConfig, _name, _field(_name))


def _curves(t, x):
    """(s, singlet, doublet) = (tanh(x/t), 1 − s², 2·s·(1 − s²)); t must be positive."""
    if not t > 0:
        raise RuntimeError(
            f"DoorHinge: the width of an approximation curve must be positive, got {t}"
        )
    s = np.tanh(x / t)
    singlet = 1.0 - s * s
    return s, singlet, 2.0 * s * singlet


class DoorHinge(ForceElement):
    """Torque τ = τ_ts + τ_c + τ_df + τ_sf + τ_vf on a RevoluteJoint (the door, closed at
    q = 0 and opening toward +q), with s(t, x) = tanh(x/t), doublet(t, x) = 2·s·(1 − s²):
    spring τ_ts = −k_ts·(q − qs₀), catch τ_c = k_c·doublet(qc₀/2, q − qc₀/2), dynamic
    friction τ_df = −k_df·s(k_q̇₀, q̇), static friction τ_sf = −k_sf·doublet(k_q̇₀, q̇) and
    viscous friction τ_vf = −k_vf·q̇ (see DoorHingeConfig)."""

    def __init__(self, joint, config):
        if not isinstance(joint, RevoluteJoint):
            raise TypeError(f"DoorHinge: joint must be a RevoluteJoint, got {joint!r}")
        if not isinstance(config, DoorHingeConfig):
            raise TypeError(f"DoorHinge: config must be a DoorHingeConfig, got {config!r}")
        for name in _NON_NEGATIVE:
            if not getattr(config, name) >= 0:
                raise RuntimeError(
                    f"DoorHinge: config.{name} must be non-negative, got {getattr(config, name)}"
                )
        super().__init__(joint.model_instance())
        self._joint = joint
        self._config = config._copy()

    def joint(self):
        """The hinge's joint (once the hinge is in a plant, as in pydrake)."""
        self._owned("joint")
        return self._joint

    def config(self):
        """The hinge's DoorHingeConfig (its own copy; changing it changes the hinge, as in
        pydrake)."""
        return self._config

    def CalcHingeFrictionalTorque(self, angular_rate):
        """τ_df + τ_sf + τ_vf at q̇ = ``angular_rate``. With a zero motion threshold Drake
        returns +k_vf·q̇ (sic), and so does this."""
        c = self._config
        if c.motion_threshold == 0:
            return c.viscous_friction * angular_rate
        s, _, doublet = _curves(c.motion_threshold, angular_rate)
        return -(
            c.dynamic_friction_torque * s
            + c.static_friction_torque * doublet
            + c.viscous_friction * angular_rate
        )

    def CalcHingeSpringTorque(self, angle):
        """τ_ts + τ_c at q = ``angle``."""
        c = self._config
        spring = c.spring_constant * (angle - c.spring_zero_angle_rad)
        if c.catch_width == 0:
            return -spring
        half = c.catch_width / 2
        return c.catch_torque * _curves(half, angle - half)[2] - spring

    def CalcHingeTorque(self, angle, angular_rate):
        """The total hinge torque at q = ``angle``, q̇ = ``angular_rate``."""
        return self.CalcHingeFrictionalTorque(angular_rate) + self.CalcHingeSpringTorque(angle)

    def _angle_and_rate(self, context):
        self._plant_with(context)
        return self._joint.get_angle(context), self._joint.get_angular_rate(context)

    def CalcAndAddForceContribution(self, context, forces):
        angle, rate = self._angle_and_rate(context)
        forces._tau[self._joint.velocity_start()] += self.CalcHingeTorque(angle, rate)

    def CalcPotentialEnergy(self, context):
        """The energy stored by the spring and the catch, zero at q = 0:
        ½·k_ts·((q − qs₀)² − qs₀²) + k_c·(qc₀/2)·(singlet(q) − singlet(0)), where
        singlet(q) = 1 − s(qc₀/2, q − qc₀/2)²."""
        angle = self._angle_and_rate(context)[0]
        c = self._config
        offset = angle - c.spring_zero_angle_rad
        offset0 = 0.0 - c.spring_zero_angle_rad
        energy = 0.5 * c.spring_constant * (offset * offset - offset0 * offset0)
        if c.catch_width != 0:
            half = c.catch_width / 2
            singlet_q, singlet_0 = _curves(half, angle - half)[1], _curves(half, -half)[1]
            energy += c.catch_torque * half * (singlet_q - singlet_0)
        return energy

    def CalcConservativePower(self, context):
        """q̇·(τ_ts + τ_c)."""
        angle, rate = self._angle_and_rate(context)
        return rate * self.CalcHingeSpringTorque(angle)

    def CalcNonConservativePower(self, context):
        """q̇·(τ_df + τ_sf + τ_vf)."""
        rate = self._angle_and_rate(context)[1]
        return rate * self.CalcHingeFrictionalTorque(rate)
