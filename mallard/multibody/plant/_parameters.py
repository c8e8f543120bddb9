"""The parameters a MultibodyPlant keeps in each Context, as packed arrays.

Arrays are indexed by element index (bodies by BodyIndex, frames by FrameIndex, ...) except
``damping``, indexed like v. Poses are 4×3 arrays [R; pᵀ] as the kernels use them. The whole
object is one abstract parameter of the plant's Context, so Context.Clone() copies it.
"""

import copy

import numpy as np

from mallard._scalar import as_array, as_scalar
from mallard.multibody.tree._spatial_inertia import SpatialInertia


def pose_array(R, p):
    """The 4×3 array [R; pᵀ]."""
    return np.vstack((R, np.reshape(p, (1, 3))))


class PlantParameters:
    """Mass properties of bodies, poses of fixed offset frames, joint damping, actuator rotor
    inertias and gear ratios, joint locks, the force elements' parameters (a dict per
    force element, by ForceElementIndex, of the values it declares), the constraints
    deactivated and the distance constraints' DistanceConstraintParams."""

    def __init__(
        self,
        mass,
        com,
        G,
        X_PF,
        damping,
        rotor_inertia,
        gear_ratio,
        locked,
        force_elements,
        inactive_constraints=None,
        distance_constraints=None,
    ):
        self.mass = mass  # (num_bodies,)
        self.com = com  # p_BoBcm_B, (num_bodies, 3)
        self.G = G  # G_BBo_B, (num_bodies, 3, 3)
        self.X_PF = X_PF  # pose of each frame in its parent frame, (num_frames, 4, 3)
        self.damping = damping  # (nv,)
        self.rotor_inertia = rotor_inertia  # (num_actuators,)
        self.gear_ratio = gear_ratio  # (num_actuators,)
        self.locked = locked  # (num_joints,) bool
        self.force_elements = force_elements  # [dict of name -> value] per force element
        # The MultibodyConstraintIds of the constraints deactivated in this Context.
        self.inactive_constraints = set() if inactive_constraints is None else inactive_constraints
        # MultibodyConstraintId -> DistanceConstraintParams (doubles, whatever the scalar type).
        self.distance_constraints = {} if distance_constraints is None else distance_constraints

    def __deepcopy__(self, memo):
        return PlantParameters(*(copy.deepcopy(a, memo) for a in vars(self).values()))

    # ---- bodies --------------------------------------------------------------------------
    def spatial_inertia(self, body):
        """M_BBo_B of ``body``."""
        b = int(body.index())
        return SpatialInertia._make(self.mass[b], self.com[b].copy(), self.G[b].copy())

    def set_mass(self, body, mass):
        self.mass[int(body.index())] = as_scalar(mass, "mass")

    def set_com(self, body, p_BoBcm_B):
        self.com[int(body.index())] = as_array(p_BoBcm_B, (3,), "com")

    def set_spatial_inertia(self, body, M_BBo_B):
        if not isinstance(M_BBo_B, SpatialInertia):
            raise TypeError(f"M_Bo_B must be a SpatialInertia, got {type(M_BBo_B).__name__}")
        b = int(body.index())
        self.mass[b] = M_BBo_B._m
        self.com[b] = M_BBo_B._p
        self.G[b] = M_BBo_B._G

    # ---- frames --------------------------------------------------------------------------
    def set_X_PF(self, frame, R_PF, p_PF):
        f = int(frame.index())
        self.X_PF[f, :3] = R_PF
        self.X_PF[f, 3] = p_PF
