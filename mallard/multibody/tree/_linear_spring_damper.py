"""LinearSpringDamper: a spring-damper between a point P of body A and a point Q of body B."""

import numpy as np

from mallard._scalar import as_array
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._rigid_body import RigidBody

_MIN_LENGTH = np.sqrt(np.finfo(float).eps)


def _nonnegative(what, value, strict=False):
    x = float(value)
    if not (x > 0 if strict else x >= 0):
        rule = "positive" if strict else "non-negative"
        raise RuntimeError(f"LinearSpringDamper: {what} must be {rule}, got {x}")
    return x


class LinearSpringDamper(ForceElement):
    """Force f = (k·(ℓ − ℓ₀) + c·ℓ̇)·r̂ on body A at P, and −f on body B at Q, where
    r = p_PQ, ℓ = |r|, r̂ = r/ℓ; P is fixed on A at p_AP, Q fixed on B at p_BQ."""

    def __init__(self, bodyA, p_AP, bodyB, p_BQ, free_length, stiffness, damping):
        for name, body in (("bodyA", bodyA), ("bodyB", bodyB)):
            if not isinstance(body, RigidBody):
                raise TypeError(f"LinearSpringDamper: {name} must be a RigidBody, got {body!r}")
        super().__init__(bodyA.model_instance())
        self._bodyA, self._bodyB = bodyA, bodyB
        self._p_AP = as_array(p_AP, (3,), "p_AP").astype(float)
        self._p_BQ = as_array(p_BQ, (3,), "p_BQ").astype(float)
        self._free_length = _nonnegative("free_length", free_length, strict=True)
        self._stiffness = _nonnegative("stiffness", stiffness)
        self._damping = _nonnegative("damping", damping)

    def bodyA(self):
        return self._bodyA

    def bodyB(self):
        return self._bodyB

    def p_AP(self):
        return self._p_AP.copy()

    def p_BQ(self):
        return self._p_BQ.copy()

    def free_length(self):
        return self._free_length

    def stiffness(self):
        return self._stiffness

    def damping(self):
        return self._damping

    def _state(self, context):
        """(ℓ, ℓ̇, r̂, p_WP, p_WQ, X_WA, X_WB) in ``context``."""
        plant = self._plant_with(context)
        X_WA = plant.EvalBodyPoseInWorld(context, self._bodyA)
        X_WB = plant.EvalBodyPoseInWorld(context, self._bodyB)
        p_WP = X_WA._R._R @ self._p_AP + X_WA._p
        p_WQ = X_WB._R._R @ self._p_BQ + X_WB._p
        r = p_WQ - p_WP
        length = np.sqrt(r @ r)
        if length < _MIN_LENGTH:
            raise RuntimeError(
                "The length of the spring became nearly zero. Revisit your model to avoid this "
                "situation."
            )
        r_hat = r / length
        V_WA = plant.EvalBodySpatialVelocityInWorld(context, self._bodyA)._c
        V_WB = plant.EvalBodySpatialVelocityInWorld(context, self._bodyB)._c
        v_WP = V_WA[3:] + np.cross(V_WA[:3], p_WP - X_WA._p)
        v_WQ = V_WB[3:] + np.cross(V_WB[:3], p_WQ - X_WB._p)
        return length, r_hat @ (v_WQ - v_WP), r_hat, p_WP, p_WQ, X_WA, X_WB

    def CalcAndAddForceContribution(self, context, forces):
        length, length_dot, r_hat, p_WP, p_WQ, X_WA, X_WB = self._state(context)
        f_AP_W = (
            self._stiffness * (length - self._free_length) + self._damping * length_dot
        ) * r_hat
        forces._add_force_at(self._bodyA, p_WP - X_WA._p, f_AP_W)
        forces._add_force_at(self._bodyB, p_WQ - X_WB._p, -f_AP_W)

    def CalcPotentialEnergy(self, context):
        """½·k·(ℓ − ℓ₀)²."""
        stretch = self._state(context)[0] - self._free_length
        return 0.5 * self._stiffness * stretch * stretch

    def CalcConservativePower(self, context):
        """−k·(ℓ − ℓ₀)·ℓ̇."""
        length, length_dot = self._state(context)[:2]
        return -self._stiffness * (length - self._free_length) * length_dot

    def CalcNonConservativePower(self, context):
        """−c·ℓ̇²."""
        length_dot = self._state(context)[1]
        return -self._damping * length_dot * length_dot
