"""DoorHinge: a revolute joint's spring, catch and friction torques, as in a door's hinge."""

import numpy as np

from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._revolute_joint import RevoluteJoint

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


class DoorHingeConfig:
    """The constants of a DoorHinge (keyword arguments; defaults as Drake's)."""

    __slots__ = tuple(name for name, _ in _FIELDS)

    def __init__(self, **kwargs):
        for name, default in _FIELDS:
            setattr(self, name, float(kwargs.pop(name, default)))
        if kwargs:
            raise TypeError(f"DoorHingeConfig: unexpected arguments {sorted(kwargs)}")

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in _FIELDS)
        return f"DoorHingeConfig({fields})"


def _curves(t, x):
    """(s, singlet, doublet) = (tanh(x/t), 1 − s², 2·s·(1 − s²))."""
    s = np.tanh(x / t)
    singlet = 1.0 - s * s
    return s, singlet, 2.0 * s * singlet


class DoorHinge(ForceElement):
    """Torque τ = τ_spring + τ_catch + τ_friction on a RevoluteJoint (the door), closed at
    q = 0 and opening toward +q; see DoorHingeConfig for the constants."""

    def __init__(self, joint, config):
        if not isinstance(joint, RevoluteJoint):
            raise TypeError(f"DoorHinge: joint must be a RevoluteJoint, got {joint!r}")
        if not isinstance(config, DoorHingeConfig):
            raise TypeError(f"DoorHinge: config must be a DoorHingeConfig, got {config!r}")
        for name in (
            "spring_constant",
            "dynamic_friction_torque",
            "static_friction_torque",
            "viscous_friction",
            "catch_width",
            "motion_threshold",
        ):
            if not getattr(config, name) >= 0:
                raise RuntimeError(
                    f"DoorHinge: config.{name} must be non-negative, got {getattr(config, name)}"
                )
        super().__init__(joint.model_instance())
        self._joint = joint
        self._config = DoorHingeConfig(**{n: getattr(config, n) for n, _ in _FIELDS})

    def joint(self):
        return self._joint

    def config(self):
        return self._config

    def CalcHingeFrictionalTorque(self, angular_rate):
        """τ_df + τ_sf + τ_vf: −(k_df·s + k_sf·doublet + k_vf·q̇) with s, doublet of q̇ at the
        motion threshold (just −k_vf·q̇ if the threshold is 0)."""
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
        """τ_ts + τ_c: −k_ts·(q − qs₀) + k_c·doublet(qc₀/2, q − qc₀/2)."""
        c = self._config
        spring = -c.spring_constant * (angle - c.spring_zero_angle_rad)
        if c.catch_width == 0:
            return spring
        half = c.catch_width / 2
        return c.catch_torque * _curves(half, angle - half)[2] + spring

    def CalcHingeTorque(self, angle, angular_rate):
        """The total hinge torque."""
        return self.CalcHingeFrictionalTorque(angular_rate) + self.CalcHingeSpringTorque(angle)

    def _angle_and_rate(self, context):
        self._plant_with(context)
        return self._joint.get_angle(context), self._joint.get_angular_rate(context)

    def CalcAndAddForceContribution(self, context, forces):
        angle, rate = self._angle_and_rate(context)
        forces._tau[self._joint.velocity_start()] += self.CalcHingeTorque(angle, rate)

    def CalcPotentialEnergy(self, context):
        """The energy stored by the spring and the catch, zero at q = 0."""
        angle = self._angle_and_rate(context)[0]
        c = self._config
        offset = angle - c.spring_zero_angle_rad
        offset0 = -c.spring_zero_angle_rad
        energy = 0.5 * c.spring_constant * (offset * offset - offset0 * offset0)
        if c.catch_width != 0:
            half = c.catch_width / 2
            energy += (
                c.catch_torque * half * (_curves(half, angle - half)[1] - _curves(half, -half)[1])
            )
        return energy

    def CalcConservativePower(self, context):
        """q̇·(τ_ts + τ_c)."""
        angle, rate = self._angle_and_rate(context)
        return rate * self.CalcHingeSpringTorque(angle)

    def CalcNonConservativePower(self, context):
        """q̇·(τ_df + τ_sf + τ_vf)."""
        rate = self._angle_and_rate(context)[1]
        return rate * self.CalcHingeFrictionalTorque(rate)
