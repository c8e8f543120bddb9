"""LinearBushingRollPitchYaw: a massless flexible bushing between frame A (on link L0) and
frame C (on link L1), with stiffness and damping on roll-pitch-yaw angles and displacements.
"""

import numpy as np

from mallard._scalar import as_array
from mallard.common.eigen_geometry import AngleAxis
from mallard.math import RollPitchYaw, RotationMatrix
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
    """Gimbal torques τ = −K₀₁₂·q − D₀₁₂·q̇ on q = roll-pitch-yaw of C in A, applied to C as
    𝐭 = Nᵀ·τ (expressed in A); force 𝐟 = −Kxyz·𝐫 − Dxyz·𝐫̇ expressed in the "halfway"
    frame B (origin midway between Ao and Co, orientation half the rotation from A to C), with
    𝐫 = p_AoCo and 𝐫̇ its rate in B. C gets 𝐭 and 𝐟 at Bo; A gets −𝐭 and −𝐟 at Bo.
    The four constant 3-vectors are parameters (defaults here, values in a Context)."""

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
        super().__init__(frameC.model_instance())
        self._frameA, self._frameC = frameA, frameC
        values = (
            torque_stiffness_constants,
            torque_damping_constants,
            force_stiffness_constants,
            force_damping_constants,
        )
        self._defaults = {
            name: self._checked(name, value) for name, value in zip(_CONSTANTS, values, strict=True)
        }

    @staticmethod
    def _checked(name, value):
        a = as_array(value, (3,), name).astype(float)
        if np.any(a < 0):
            raise RuntimeError(
                f"LinearBushingRollPitchYaw: {name} must be non-negative, got {a.tolist()}"
            )
        return a

    # ---- frames and constants ------------------------------------------------------------
    def frameA(self):
        return self._frameA

    def frameC(self):
        return self._frameC

    def link0(self):
        """The body of frame A."""
        return self._frameA.body()

    def link1(self):
        """The body of frame C."""
        return self._frameC.body()

    def torque_stiffness_constants(self):
        return self._defaults["torque_stiffness_constants"].copy()

    def torque_damping_constants(self):
        return self._defaults["torque_damping_constants"].copy()

    def force_stiffness_constants(self):
        return self._defaults["force_stiffness_constants"].copy()

    def force_damping_constants(self):
        return self._defaults["force_damping_constants"].copy()

    def _default_parameters(self):
        return {name: value.copy() for name, value in self._defaults.items()}

    def _get(self, context, name):
        return (
            self._plant_with(context)
            ._parameters(context)
            .force_elements[int(self._index)][name]
            .copy()
        )

    def _set(self, context, name, value):
        value = self._checked(name, value)
        self._plant_with(context)._mutable_parameters(context).force_elements[int(self._index)][
            name
        ] = value

    def GetTorqueStiffnessConstants(self, context):
        return self._get(context, "torque_stiffness_constants")

    def SetTorqueStiffnessConstants(self, context, torque_stiffness):
        self._set(context, "torque_stiffness_constants", torque_stiffness)

    def GetTorqueDampingConstants(self, context):
        return self._get(context, "torque_damping_constants")

    def SetTorqueDampingConstants(self, context, torque_damping):
        self._set(context, "torque_damping_constants", torque_damping)

    def GetForceStiffnessConstants(self, context):
        return self._get(context, "force_stiffness_constants")

    def SetForceStiffnessConstants(self, context, force_stiffness):
        self._set(context, "force_stiffness_constants", force_stiffness)

    def GetForceDampingConstants(self, context):
        return self._get(context, "force_damping_constants")

    def SetForceDampingConstants(self, context, force_damping):
        self._set(context, "force_damping_constants", force_damping)

    # ---- forces --------------------------------------------------------------------------
    def _torque_and_force_A(self, context):
        """(𝐭_A, 𝐟_A, p_AoCo_A, R_AC): the torque and force on C, expressed in A."""
        constants = self._plant_with(context)._parameters(context).force_elements[int(self._index)]
        X_AC = self._frameC.CalcPose(context, self._frameA)
        R_AC, p_AC = X_AC.rotation(), X_AC._p
        V_AC = self._frameC.CalcSpatialVelocity(context, self._frameA, self._frameA)._c
        w_AC, v_AC = V_AC[:3], V_AC[3:]
        rpy = RollPitchYaw(R_AC)
        if rpy.DoesCosPitchAngleViolateGimbalLockTolerance():
            raise RuntimeError(
                "LinearBushingRollPitchYaw: the orientation of frame C in frame A is near the "
                f"gimbal-lock singularity of roll-pitch-yaw angles (pitch = {rpy.pitch_angle()})"
            )
        q = rpy.vector()
        q_dot = rpy.CalcRpyDtFromAngularVelocityInParent(w_AC)
        tau = -(
            constants["torque_stiffness_constants"] * q
            + constants["torque_damping_constants"] * q_dot
        )
        c1, s1 = np.cos(q[1]), np.sin(q[1])
        c2, s2 = np.cos(q[2]), np.sin(q[2])
        N = np.array([[c2 / c1, s2 / c1, 0.0], [-s2, c2, 0.0], [c2 * s1 / c1, s2 * s1 / c1, 1.0]])
        t_A = N.T @ tau
        angle_axis = R_AC.ToAngleAxis()
        R_AB = RotationMatrix(AngleAxis(angle_axis.angle() / 2, angle_axis.axis()))._R
        r_B = R_AB.T @ p_AC
        r_dot_B = R_AB.T @ (v_AC - np.cross(0.5 * w_AC, p_AC))
        f_B = -(
            constants["force_stiffness_constants"] * r_B
            + constants["force_damping_constants"] * r_dot_B
        )
        return t_A, R_AB @ f_B, p_AC, R_AC._R

    def CalcBushingSpatialForceOnFrameC(self, context):
        """F_C_C: the bushing's spatial force on frame C, at Co, expressed in C."""
        t_A, f_A, p_AC, R_AC = self._torque_and_force_A(context)
        R_CA = R_AC.T
        f_C = R_CA @ f_A
        return SpatialForce._make(
            np.concatenate((R_CA @ t_A + np.cross(R_CA @ (-0.5 * p_AC), f_C), f_C))
        )

    def CalcBushingSpatialForceOnFrameA(self, context):
        """F_A_A: the bushing's spatial force on frame A, at Ao, expressed in A."""
        t_A, f_A, p_AC, _ = self._torque_and_force_A(context)
        return SpatialForce._make(np.concatenate((-t_A + np.cross(0.5 * p_AC, -f_A), -f_A)))

    def CalcAndAddForceContribution(self, context, forces):
        plant = self._plant_with(context)
        for frame, F in (
            (self._frameA, self.CalcBushingSpatialForceOnFrameA(context)),
            (self._frameC, self.CalcBushingSpatialForceOnFrameC(context)),
        ):
            X_WF = frame.CalcPoseInWorld(context)
            R_WF = X_WF._R._R
            X_WB = plant.EvalBodyPoseInWorld(context, frame.body())
            forces._add_force_at(frame.body(), X_WF._p - X_WB._p, R_WF @ F._c[3:], R_WF @ F._c[:3])

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
