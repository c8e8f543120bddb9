"""LinearBushingRollPitchYaw: a massless flexible bushing between frame A (on link L0) and
frame C (on link L1), with stiffness and damping on roll-pitch-yaw angles and displacements.
"""

import numpy as np

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RollPitchYaw, RotationMatrix
from mallard.math._roll_pitch_yaw import GIMBAL_LOCK_TOLERANCE_COS_PITCH
from mallard.multibody.math import SpatialForce
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._frame import Frame

_CONSTANTS = (
    "torque_stiffness_constants",
    "torque_damping_constants",
    "force_stiffness_constants",
    "force_damping_constants",
)


class LinearBushingRollPitchYaw(ForceElement):
    """A massless bushing between frame A (on link L0) and frame C (on link L1).

    Gimbal torques τ = −(K₀₁₂·q + D₀₁₂·q̇) on q = roll-pitch-yaw of C in A act on C as the
    torque 𝐭 = Nᵀ·τ (expressed in A; q̇ = N·w_AC_A); the force 𝐟 = −(Kxyz·𝐫 + Dxyz·𝐫̇),
    𝐫 = p_AoCo = [x y z] expressed in the "halfway" frame B (half the rotation from A to C)
    and 𝐫̇ its rate in B, acts on C at Cp. A gets −𝐭 and −𝐟 at Ap; Ap and Cp are Bo, midway
    between Ao and Co. The four 3-vectors of constants (non-negative) are parameters: the
    defaults given here, values in each Context. The model instance is frame C's.
    """

    def __init__(
        self,
        frameA,
        frameC,
        torque_stiffness_constants,
        torque_damping_constants,
        force_stiffness_constants,
        force_damping_constants,
    ):
        for name, frame in (("frameA", frameA), ("frameC", frameC)):
            if not isinstance(frame, Frame):
                raise TypeError(f"LinearBushingRollPitchYaw: {name} must be a Frame, got {frame!r}")
        values = (
            torque_stiffness_constants,
            torque_damping_constants,
            force_stiffness_constants,
            force_damping_constants,
        )
        self._defaults = {
            name: self._vector3(v, name) for name, v in zip(_CONSTANTS, values, strict=True)
        }
        for name, value in self._defaults.items():
            if not np.all(value >= 0):
                raise RuntimeError(
                    f"LinearBushingRollPitchYaw: {name} must be non-negative, got {value.tolist()}"
                )
        super().__init__(frameC.model_instance())
        self._frameA, self._frameC = frameA, frameC

    # ---- frames and constants ------------------------------------------------------------
    def frameA(self):
        """Frame A (once the bushing is in a plant, as in pydrake)."""
        self._owned("frameA")
        return self._frameA

    def frameC(self):
        """Frame C (once the bushing is in a plant, as in pydrake)."""
        self._owned("frameC")
        return self._frameC

    def link0(self):
        """Link L0, the body of frame A."""
        return self.frameA().body()

    def link1(self):
        """Link L1, the body of frame C."""
        return self.frameC().body()

    def torque_stiffness_constants(self):
        """The default [k₀ k₁ k₂] (N·m/rad)."""
        return self._defaults["torque_stiffness_constants"].copy()

    def torque_damping_constants(self):
        """The default [d₀ d₁ d₂] (N·m·s/rad)."""
        return self._defaults["torque_damping_constants"].copy()

    def force_stiffness_constants(self):
        """The default [kx ky kz] (N/m)."""
        return self._defaults["force_stiffness_constants"].copy()

    def force_damping_constants(self):
        """The default [dx dy dz] (N·s/m)."""
        return self._defaults["force_damping_constants"].copy()

    def _default_parameters(self):
        return {name: value.copy() for name, value in self._defaults.items()}

    def GetTorqueStiffnessConstants(self, context):
        """[k₀ k₁ k₂] in ``context``."""
        return self._parameter(context, "torque_stiffness_constants").copy()

    def SetTorqueStiffnessConstants(self, context, torque_stiffness):
        """Sets [k₀ k₁ k₂] in ``context`` (not checked, as in pydrake)."""
        name = "torque_stiffness_constants"
        self._set_parameter(context, name, self._vector3(torque_stiffness, name))

    def GetTorqueDampingConstants(self, context):
        """[d₀ d₁ d₂] in ``context``."""
        return self._parameter(context, "torque_damping_constants").copy()

    def SetTorqueDampingConstants(self, context, torque_damping):
        """Sets [d₀ d₁ d₂] in ``context`` (not checked, as in pydrake)."""
        name = "torque_damping_constants"
        self._set_parameter(context, name, self._vector3(torque_damping, name))

    def GetForceStiffnessConstants(self, context):
        """[kx ky kz] in ``context``."""
        return self._parameter(context, "force_stiffness_constants").copy()

    def SetForceStiffnessConstants(self, context, force_stiffness):
        """Sets [kx ky kz] in ``context`` (not checked, as in pydrake)."""
        name = "force_stiffness_constants"
        self._set_parameter(context, name, self._vector3(force_stiffness, name))

    def GetForceDampingConstants(self, context):
        """[dx dy dz] in ``context``."""
        return self._parameter(context, "force_damping_constants").copy()

    def SetForceDampingConstants(self, context, force_damping):
        """Sets [dx dy dz] in ``context`` (not checked, as in pydrake)."""
        name = "force_damping_constants"
        self._set_parameter(context, name, self._vector3(force_damping, name))

    # ---- forces --------------------------------------------------------------------------
    def _force_on_A(self, context):
        """(F_Ao_A, p_AoCo_A, R_AC): the bushing's spatial force on frame A at Ao expressed in
        A (as a 6-array), with the pose of C in A it comes from (Drake's algorithm)."""
        constants = self._parameters_in(context)
        X_AC = self._frameC.CalcPose(context, self._frameA)
        R_AC, p_AoCo_A = X_AC.rotation(), X_AC._p
        V_AC_A = self._frameC.CalcSpatialVelocity(context, self._frameA, self._frameA)._c
        w_AC_A, v_ACo_A = V_AC_A[:3], V_AC_A[3:]
        # The gimbal torques τ = −(K₀₁₂·q + D₀₁₂·q̇) on q = roll-pitch-yaw of C in A, and the
        # torque 𝐭 = Nᵀ·τ they amount to on C (q̇ = N·w_AC_A).
        rpy = RollPitchYaw(R_AC)
        if rpy.DoesPitchAngleViolateGimbalLockTolerance():
            _raise_gimbal_lock(rpy.pitch_angle(), "CalcBushingRollPitchYawAngleRates")
        q = rpy.vector()
        q_dot = rpy.CalcRpyDtFromAngularVelocityInParent(w_AC_A)
        tau = -(constants["torque_stiffness_constants"] * q) - (
            constants["torque_damping_constants"] * q_dot
        )
        sp, cp = np.sin(q[1]), np.cos(q[1])
        sy, cy = np.sin(q[2]), np.cos(q[2])
        cy_over_cp, sy_over_cp = cy / cp, sy / cp
        N = np.array(
            [[cy_over_cp, sy_over_cp, 0.0], [-sy, cy, 0.0], [cy_over_cp * sp, sy_over_cp * sp, 1.0]]
        )
        t_Cp_A = N.T @ tau
        # The force 𝐟 = −(Kxyz·𝐫 + Dxyz·𝐫̇) in the halfway frame B: R_AB is half the
        # rotation R_AC, from the quaternion q_AC = [q0 q⃗] as [e0, q⃗/(2·e0)], e0 = √((q0+1)/2).
        q_AC = R_AC.ToQuaternion().wxyz()
        e0 = np.sqrt(0.5 * (q_AC[0] + 1))
        R_AB = RotationMatrix(Quaternion(np.concatenate(([e0], q_AC[1:] * (1 / (2 * e0))))))._R
        p_AoCo_B = R_AB.T @ p_AoCo_A
        DtB_p_AoCo_B = R_AB.T @ (v_ACo_A - np.cross(0.5 * w_AC_A, p_AoCo_A))
        f_C_B = -(constants["force_stiffness_constants"] * p_AoCo_B) - (
            constants["force_damping_constants"] * DtB_p_AoCo_B
        )
        # On A: −𝐭 and −𝐟 at Ap (midway between Ao and Co), shifted to Ao.
        F_Ap_A = np.concatenate((-t_Cp_A, R_AB @ -f_C_B))
        return _shift(F_Ap_A, R_AB @ (-0.5 * p_AoCo_B)), p_AoCo_A, R_AC._R

    def CalcBushingSpatialForceOnFrameA(self, context):
        """F_A_A: the bushing's spatial force on frame A, at Ao, expressed in A: the moment
        −𝐭 + p_AoAp × −𝐟 and the force −𝐟. Raises RuntimeError near gimbal lock."""
        return SpatialForce._make(self._force_on_A(context)[0])

    def CalcBushingSpatialForceOnFrameC(self, context):
        """F_C_C: the bushing's spatial force on frame C, at Co, expressed in C: the moment
        𝐭 + p_CoCp × 𝐟 and the force 𝐟. Raises RuntimeError near gimbal lock."""
        F_Ao_A, p_AoCo_A, R_AC = self._force_on_A(context)
        F_Co_A = _shift(-F_Ao_A, p_AoCo_A)
        return SpatialForce._make(np.concatenate((R_AC.T @ F_Co_A[:3], R_AC.T @ F_Co_A[3:])))

    def CalcAndAddForceContribution(self, context, forces):
        plant = self._plant_with(context)
        F_Ao_A = self._force_on_A(context)[0]
        R_WA = self._frameA.CalcRotationMatrixInWorld(context)._R
        F_Ao_W = np.concatenate((R_WA @ F_Ao_A[:3], R_WA @ F_Ao_A[3:]))
        link0, link1 = self._frameA.body(), self._frameC.body()
        X_WL0 = plant.EvalBodyPoseInWorld(context, link0)
        p_AoL0_W = -(X_WL0._R._R @ self._frameA.CalcPoseInBodyFrame(context)._p)
        F_L0_W = _shift(F_Ao_W, p_AoL0_W)
        p_L0L1_W = plant.EvalBodyPoseInWorld(context, link1)._p - X_WL0._p
        forces._F_BBo_W[int(link0.index())] += F_L0_W
        forces._F_BBo_W[int(link1.index())] += -_shift(F_L0_W, p_L0L1_W)

    def _not_implemented(self, method):
        raise RuntimeError(
            f"Error: LinearBushingRollPitchYaw::{method}() has not been implemented.  Related: "
            "Issues #12982 and #12752."
        )

    def CalcPotentialEnergy(self, context):
        """Not implemented, as in Drake (issue #12982): raises RuntimeError."""
        self._not_implemented("CalcPotentialEnergy")

    def CalcConservativePower(self, context):
        """Not implemented, as in Drake (issue #12982): raises RuntimeError."""
        self._not_implemented("CalcConservativePower")

    def CalcNonConservativePower(self, context):
        """Not implemented, as in Drake (issue #12982): raises RuntimeError."""
        self._not_implemented("CalcNonConservativePower")


def _shift(F_Bp, p_BpBq):
    """The spatial force (6-array) F_Bp shifted to point Bq: [τ − p_BpBq × f; f]."""
    return np.concatenate((F_Bp[:3] - np.cross(p_BpBq, F_Bp[3:]), F_Bp[3:]))


def _raise_gimbal_lock(pitch, function):
    """Drake's error for a bushing whose pitch angle is near gimbal lock (which, as Drake's,
    states the tolerance asin(0.008) in radians although it says degrees)."""
    raise RuntimeError(
        f"LinearBushingRollPitchYaw::{function}(): Pitch angle p = "
        f"{format(np.degrees(pitch), 'G')} degrees is within "
        f"{format(np.arcsin(GIMBAL_LOCK_TOLERANCE_COS_PITCH), 'G')} degrees of gimbal-lock "
        "which means p ≈ (n*π ± π/2) where n = 0, 1, 2, ... There is a divide-by-zero error "
        "(singularity) at gimbal-lock due to this bushing's mathematical dependence on "
        "roll-pitch-yaw angles. A pitch angle near gimbal-lock cause numerical inaccuracies.  "
        "To avoid this pitch angle problem, use a reasonable default alignment of the frames "
        "associated with this bushing and/or choose stiffness and damping properties that "
        "help avoid pitch angles near gimbal lock."
    )
