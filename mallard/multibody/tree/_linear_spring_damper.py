"""LinearSpringDamper: a spring-damper between a point P of body A and a point Q of body B."""

import numpy as np

from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._rigid_body import RigidBody

_EPSILON = np.finfo(float).eps


class LinearSpringDamper(ForceElement):
    """Force f_AP = (k·(ℓ − ℓ₀) + c·ℓ̇)·r̂ on body A at P and −f_AP on body B at Q, with
    r = p_PQ, ℓ = ‖r‖, r̂ = r/ℓ (P is fixed on A at p_AP, Q on B at p_BQ).

    As in Drake, ℓ is the "soft" norm √(‖r‖² + ε²) with ε = machine epsilon·ℓ₀, and any
    evaluation raises RuntimeError when ‖r‖ < ε (the length became nearly zero)."""

    def __init__(self, bodyA, p_AP, bodyB, p_BQ, free_length, stiffness, damping):
        for name, body in (("bodyA", bodyA), ("bodyB", bodyB)):
            if not isinstance(body, RigidBody):
                raise TypeError(f"LinearSpringDamper: {name} must be a RigidBody, got {body!r}")
        super().__init__(bodyA.model_instance())
        self._bodyA, self._bodyB = bodyA, bodyB
        self._p_AP = self._vector3(p_AP, "p_AP")
        self._p_BQ = self._vector3(p_BQ, "p_BQ")
        self._free_length = self._checked("free_length", free_length, "positive", lambda x: x > 0)
        self._stiffness = self._checked("stiffness", stiffness, "non-negative", lambda x: x >= 0)
        self._damping = self._checked("damping", damping, "non-negative", lambda x: x >= 0)

    def _checked(self, what, value, rule, ok):
        x = self._float(value, what)
        if not ok(x):
            raise RuntimeError(f"LinearSpringDamper: {what} must be {rule}, got {x}")
        return x

    def bodyA(self):
        return self._bodyA

    def bodyB(self):
        return self._bodyB

    def p_AP(self):
        """p_AP: point P's position in body A's frame."""
        return self._p_AP.copy()

    def p_BQ(self):
        """p_BQ: point Q's position in body B's frame."""
        return self._p_BQ.copy()

    def free_length(self):
        """ℓ₀ (m)."""
        return self._free_length

    def stiffness(self):
        """k (N/m)."""
        return self._stiffness

    def damping(self):
        """c (N·s/m)."""
        return self._damping

    def _points(self, context):
        """(plant, p_WP, p_WQ, X_WA, X_WB) in ``context``."""
        plant = self._plant_with(context)
        X_WA = plant.EvalBodyPoseInWorld(context, self._bodyA)
        X_WB = plant.EvalBodyPoseInWorld(context, self._bodyB)
        p_WP = X_WA._R._R @ self._p_AP + X_WA._p
        p_WQ = X_WB._R._R @ self._p_BQ + X_WB._p
        return plant, p_WP, p_WQ, X_WA, X_WB

    def _soft_length(self, p_PQ_W):
        epsilon_length = _EPSILON * self._free_length
        x2 = p_PQ_W @ p_PQ_W
        if x2 < epsilon_length * epsilon_length:
            raise RuntimeError(
                "The length of the spring became nearly zero. Revisit your model to avoid this "
                "situation."
            )
        return np.sqrt(x2 + epsilon_length * epsilon_length)

    def _length_and_rate(self, context):
        """(ℓ, ℓ̇, r̂, p_AoP_W, p_BoQ_W) in ``context``."""
        plant, p_WP, p_WQ, X_WA, X_WB = self._points(context)
        p_PQ_W = p_WQ - p_WP
        length = self._soft_length(p_PQ_W)
        r_hat = p_PQ_W / length
        V_WA = plant.EvalBodySpatialVelocityInWorld(context, self._bodyA)._c
        V_WB = plant.EvalBodySpatialVelocityInWorld(context, self._bodyB)._c
        p_AoP_W, p_BoQ_W = p_WP - X_WA._p, p_WQ - X_WB._p
        v_WP = V_WA[3:] + np.cross(V_WA[:3], p_AoP_W)
        v_WQ = V_WB[3:] + np.cross(V_WB[:3], p_BoQ_W)
        return length, (v_WQ - v_WP) @ r_hat, r_hat, p_AoP_W, p_BoQ_W

    def CalcAndAddForceContribution(self, context, forces):
        length, length_dot, r_hat, p_AoP_W, p_BoQ_W = self._length_and_rate(context)
        f_AP_W = self._stiffness * (length - self._free_length) * r_hat
        f_AP_W = f_AP_W + self._damping * length_dot * r_hat
        forces._add_force_at(self._bodyA, p_AoP_W, f_AP_W)
        forces._add_force_at(self._bodyB, p_BoQ_W, -f_AP_W)

    def CalcPotentialEnergy(self, context):
        """½·k·(ℓ − ℓ₀)²."""
        p_WP, p_WQ = self._points(context)[1:3]
        stretch = self._soft_length(p_WQ - p_WP) - self._free_length
        return 0.5 * self._stiffness * stretch * stretch

    def CalcConservativePower(self, context):
        """−k·(ℓ − ℓ₀)·ℓ̇."""
        length, length_dot = self._length_and_rate(context)[:2]
        return -self._stiffness * (length - self._free_length) * length_dot

    def CalcNonConservativePower(self, context):
        """−c·ℓ̇²."""
        length_dot = self._length_and_rate(context)[1]
        return -self._damping * length_dot * length_dot
