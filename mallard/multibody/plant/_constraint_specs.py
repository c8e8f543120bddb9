"""The specifications of the constraints added to a MultibodyPlant (Drake's constraint_specs.h,
its internal structs): what the discrete solver (SAP, plant._sap_driver) builds each step's
constraints from. Distance constraints' parameters are DistanceConstraintParams (public, kept
per Context)."""


class CouplerConstraintSpec:
    """q₀ = gear_ratio·q₁ + offset between two single-dof joints (by JointIndex)."""

    __slots__ = ("joint0_index", "joint1_index", "gear_ratio", "offset", "id")

    def __init__(self, joint0_index, joint1_index, gear_ratio, offset, constraint_id):
        self.joint0_index = joint0_index
        self.joint1_index = joint1_index
        self.gear_ratio = gear_ratio
        self.offset = offset
        self.id = constraint_id


class BallConstraintSpec:
    """p_PQ_W(q) = 0: point P fixed on body A (p_AP in A's frame) coincident with point Q fixed
    on body B (p_BQ in B's frame; None until Finalize() when not given: then the position of P
    in B in the default Context)."""

    __slots__ = ("body_A", "p_AP", "body_B", "p_BQ", "id")

    def __init__(self, body_A, p_AP, body_B, p_BQ, constraint_id):
        self.body_A = body_A
        self.p_AP = p_AP
        self.body_B = body_B
        self.p_BQ = p_BQ
        self.id = constraint_id


class WeldConstraintSpec:
    """X_PQ(q) = I: frame P fixed on body A (pose X_AP) coincident with frame Q fixed on body B
    (pose X_BQ)."""

    __slots__ = ("body_A", "X_AP", "body_B", "X_BQ", "id")

    def __init__(self, body_A, X_AP, body_B, X_BQ, constraint_id):
        self.body_A = body_A
        self.X_AP = X_AP
        self.body_B = body_B
        self.X_BQ = X_BQ
        self.id = constraint_id


class TendonConstraintSpec:
    """lower_limit ≤ l(q) = Σᵢ aᵢ·qᵢ + offset ≤ upper_limit over single-dof joints (by
    JointIndex), compliant (stiffness, damping; ∞ and 0 for a near-rigid limit)."""

    __slots__ = ("joints", "a", "offset", "lower_limit", "upper_limit", "stiffness", "damping",
                 "id")  # fmt: skip

    def __init__(self, joints, a, offset, lower_limit, upper_limit, stiffness, damping,
                 constraint_id):  # fmt: skip
        self.joints = joints
        self.a = a
        self.offset = offset
        self.lower_limit = lower_limit
        self.upper_limit = upper_limit
        self.stiffness = stiffness
        self.damping = damping
        self.id = constraint_id
