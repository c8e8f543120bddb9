"""RevoluteSpring and PrismaticSpring: linear springs on a single-dof joint's coordinate."""

from mallard._scalar import as_scalar
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._prismatic_joint import PrismaticJoint
from mallard.multibody.tree._revolute_joint import RevoluteJoint


class _JointSpring(ForceElement):
    """Generalized force k·(x₀ − x) on the joint's coordinate x, with x₀ and k kept in each
    Context (abstract: subclasses set ``_joint_type`` and ``_nominal_name``)."""

    _joint_type = None
    _nominal_name = None

    def __init__(self, joint, nominal, stiffness):
        cls = type(self).__name__
        if not isinstance(joint, self._joint_type):
            raise TypeError(f"{cls}: joint must be a {self._joint_type.__name__}, got {joint!r}")
        super().__init__(joint.model_instance())
        self._joint = joint
        self._nominal = self._float(nominal, self._nominal_name)
        self._stiffness = self._checked_stiffness(stiffness)

    def _checked_stiffness(self, stiffness):
        k = self._float(stiffness, "stiffness")
        if not k >= 0:
            raise RuntimeError(f"{type(self).__name__}: stiffness must be non-negative, got {k}")
        return k

    def joint(self):
        """The joint this spring acts on (once the spring is in a plant, as in pydrake)."""
        self._owned("joint")
        return self._joint

    def _default_parameters(self):
        return {"nominal": self._nominal, "stiffness": self._stiffness}

    def _stretch_and_stiffness(self, context):
        """(x₀ − x, k) in ``context``."""
        p = self._parameters_in(context)
        return p["nominal"] - self._joint.GetOnePosition(context), p["stiffness"]

    def CalcAndAddForceContribution(self, context, forces):
        delta, k = self._stretch_and_stiffness(context)
        forces._tau[self._joint.velocity_start()] += k * delta

    def CalcPotentialEnergy(self, context):
        """½·k·(x₀ − x)²."""
        delta, k = self._stretch_and_stiffness(context)
        return 0.5 * k * delta * delta

    def CalcConservativePower(self, context):
        """k·(x₀ − x)·ẋ."""
        delta, k = self._stretch_and_stiffness(context)
        return k * delta * self._joint.GetOneVelocity(context)

    def CalcNonConservativePower(self, context):
        """Zero: the spring is conservative."""
        self._plant_with(context)
        return 0.0


class RevoluteSpring(_JointSpring):
    """Torque τ = −k·(θ − θ₀) on a RevoluteJoint's angle θ (k in N·m/rad). θ₀ and k are
    parameters: the defaults given here, values in each Context."""

    _joint_type = RevoluteJoint
    _nominal_name = "nominal_angle"

    def __init__(self, joint, nominal_angle, stiffness):
        super().__init__(joint, nominal_angle, stiffness)

    def default_nominal_angle(self):
        """The default θ₀ (rad)."""
        return self._nominal

    def default_stiffness(self):
        """The default k (N·m/rad)."""
        return self._stiffness

    def GetNominalAngle(self, context):
        """θ₀ in ``context``."""
        return as_scalar(self._parameter(context, "nominal"))

    def SetNominalAngle(self, context, nominal_angle):
        """Sets θ₀ in ``context``."""
        self._set_parameter(context, "nominal", self._float(nominal_angle, "nominal_angle"))

    def GetStiffness(self, context):
        """k in ``context``."""
        return as_scalar(self._parameter(context, "stiffness"))

    def SetStiffness(self, context, stiffness):
        """Sets k in ``context`` (RuntimeError if negative)."""
        self._set_parameter(context, "stiffness", self._checked_stiffness(stiffness))


class PrismaticSpring(_JointSpring):
    """Force f = −k·(x − x₀) on a PrismaticJoint's translation x (k in N/m)."""

    _joint_type = PrismaticJoint
    _nominal_name = "nominal_position"

    def __init__(self, joint, nominal_position, stiffness):
        super().__init__(joint, nominal_position, stiffness)

    def nominal_position(self):
        """x₀ (m)."""
        return self._nominal

    def stiffness(self):
        """k (N/m)."""
        return self._stiffness
