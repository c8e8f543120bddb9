"""RevoluteSpring and PrismaticSpring: linear springs on a single-dof joint's coordinate."""

from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._prismatic_joint import PrismaticJoint
from mallard.multibody.tree._revolute_joint import RevoluteJoint


class _JointSpring(ForceElement):
    """Generalized force −k·(x − x₀) on the joint's coordinate x (abstract: subclasses name x₀
    and set ``_joint_type``)."""

    _joint_type = None

    def __init__(self, joint, nominal, stiffness):
        cls = type(self).__name__
        if not isinstance(joint, self._joint_type):
            raise TypeError(f"{cls}: joint must be a {self._joint_type.__name__}, got {joint!r}")
        if not float(stiffness) >= 0:
            raise RuntimeError(f"{cls}: stiffness must be non-negative, got {stiffness}")
        super().__init__(joint.model_instance())
        self._joint = joint
        self._nominal = float(nominal)
        self._stiffness = float(stiffness)

    def joint(self):
        return self._joint

    def _parameters_for(self, context):
        return self._plant_with(context)._parameters(context).force_elements[int(self._index)]

    def _default_parameters(self):
        return {"nominal": self._nominal, "stiffness": self._stiffness}

    def _x_and_rate(self, context):
        return self._joint.GetOnePosition(context), self._joint.GetOneVelocity(context)

    def _torque(self, context):
        p = self._parameters_for(context)
        x, rate = self._x_and_rate(context)
        return -p["stiffness"] * (x - p["nominal"]), rate, p

    def CalcAndAddForceContribution(self, context, forces):
        tau = self._torque(context)[0]
        forces._tau[self._joint.velocity_start()] += tau

    def CalcPotentialEnergy(self, context):
        """½·k·(x − x₀)²."""
        p = self._parameters_for(context)
        dx = self._joint.GetOnePosition(context) - p["nominal"]
        return 0.5 * p["stiffness"] * dx * dx

    def CalcConservativePower(self, context):
        """−k·(x − x₀)·ẋ."""
        tau, rate, _ = self._torque(context)
        return tau * rate

    def CalcNonConservativePower(self, context):
        return 0.0


class RevoluteSpring(_JointSpring):
    """Torque τ = −k·(θ − θ₀) on a RevoluteJoint (k in N·m/rad)."""

    _joint_type = RevoluteJoint

    def __init__(self, joint, nominal_angle, stiffness):
        super().__init__(joint, nominal_angle, stiffness)

    def default_nominal_angle(self):
        return self._nominal

    def default_stiffness(self):
        return self._stiffness

    def GetNominalAngle(self, context):
        """θ₀ in ``context``."""
        return float(self._parameters_for(context)["nominal"])

    def SetNominalAngle(self, context, nominal_angle):
        """Sets θ₀ in ``context``."""
        plant = self._plant_with(context)
        plant._mutable_parameters(context).force_elements[int(self._index)]["nominal"] = float(
            nominal_angle
        )

    def GetStiffness(self, context):
        """k in ``context``."""
        return float(self._parameters_for(context)["stiffness"])

    def SetStiffness(self, context, stiffness):
        """Sets k in ``context`` (non-negative)."""
        if not float(stiffness) >= 0:
            raise RuntimeError(f"RevoluteSpring: stiffness must be non-negative, got {stiffness}")
        plant = self._plant_with(context)
        plant._mutable_parameters(context).force_elements[int(self._index)]["stiffness"] = float(
            stiffness
        )


class PrismaticSpring(_JointSpring):
    """Force f = −k·(x − x₀) on a PrismaticJoint (k in N/m)."""

    _joint_type = PrismaticJoint

    def __init__(self, joint, nominal_position, stiffness):
        super().__init__(joint, nominal_position, stiffness)

    def nominal_position(self):
        return self._nominal

    def stiffness(self):
        return self._stiffness
