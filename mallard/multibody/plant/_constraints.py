"""The constraints of a MultibodyPlant (Drake's "Constraints" API): couplers, distance, ball,
weld and tendon constraints, their ids, their active status and the distance constraints'
parameters per Context.

Constraints are added before Finalize() and enforced by the SAP solver of discrete plants
(plant._sap_driver): a TAMSI plant refuses them when they are added, a continuous plant when
its dynamics are evaluated (as Drake's). Each has a MultibodyConstraintId; they are listed by
kind (couplers, distance, ball, weld, tendon), then in the order added, as Drake's maps.
A Context holds, per constraint, whether it is active (True by default) and, per distance
constraint, its DistanceConstraintParams (the plant's defaults until set).
"""

import math
import numbers

import numpy as np

from mallard._scalar import values_or_none
from mallard.common._pybind import incompatible_arguments
from mallard.math import RigidTransform
from mallard.multibody.plant._constraint_specs import (
    BallConstraintSpec,
    CouplerConstraintSpec,
    TendonConstraintSpec,
    WeldConstraintSpec,
)
from mallard.multibody.plant._distance_constraint_params import DistanceConstraintParams
from mallard.multibody.tree._indices import JointIndex, MultibodyConstraintId
from mallard.multibody.tree._joint import Joint

_MODULE = "mallard.multibody.plant"
#: The plant's dicts of constraints (MultibodyConstraintId → spec), in Drake's order of kinds.
CONSTRAINT_KINDS = (
    "_coupler_constraints",
    "_distance_constraints",
    "_ball_constraints",
    "_weld_constraints",
    "_tendon_constraints",
)
_CONTINUOUS_CONSTRAINTS = (
    "Currently this MultibodyPlant is set to use continuous time. Continuous time does not "
    "support constraints. Use a discrete time model and set_discrete_contact_approximation() "
    "to set a model approximation that uses the SAP solver instead (kSap, kSimilar, or "
    "kLagged)."
)


def _vector3(method, value, name):
    """``value`` as a 3-vector of doubles (TypeError if it is not one)."""
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError):
        a = None
    if a is None or a.size != 3 or not (a.ndim == 1 or 1 in a.shape):
        raise TypeError(f"{method}(): {name} must be a 3-vector of numbers, got {value!r}")
    return a.reshape(3)


def _require_id(method, parameters, args, others_valid=True):
    """pybind11's TypeError unless ``args[2]`` (the id after self and context) is a
    MultibodyConstraintId and ``others_valid``; ``parameters``: the signature after ``id``."""
    if not (isinstance(args[2], MultibodyConstraintId) and others_valid):
        raise incompatible_arguments(
            method,
            (
                f"(self: {_MODULE}.MultibodyPlant, context: mallard.systems.framework.Context, "
                f"id: mallard.multibody.tree.MultibodyConstraintId{parameters}",
            ),  # fmt: skip
            args,
            {},
        )


def _require_finite(method, body_A, body_B, values):
    """RuntimeError naming the constraint unless each of ``values`` (name → array or number)
    is finite (pydrake accepts them, and its SAP solver fails at the first step)."""
    for name, value in values.items():
        if not np.all(np.isfinite(value)):
            raise RuntimeError(
                f"{method}(): the constraint between bodies '{body_A}' and '{body_B}' needs a "
                f"finite {name}, got {np.asarray(value).tolist()}"
            )


def _real(method, value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{method}(): {name} must be a number, got {value!r}")
    return float(value)


class ConstraintsMixin:
    """MultibodyPlant's constraints (see the module)."""

    # ---- adding --------------------------------------------------------------------------
    def _check_constraint_added(self, method, kind):
        """Drake's checks of every Add*Constraint: before Finalize(), not on a TAMSI plant."""
        self._throw_if_finalized(method)
        if self._time_step > 0 and self._uses_tamsi():
            raise RuntimeError(
                "Currently this MultibodyPlant is set to use the TAMSI solver. TAMSI does not "
                f"support {kind} constraints. Use set_discrete_contact_approximation() to set "
                "a model approximation that uses the SAP solver instead (kSap, kSimilar, or "
                "kLagged)."
            )

    def _constraint_bodies(self, method, body_A, body_B):
        for body in (body_A, body_B):
            self._check_body_of_plant(body, method)

    def AddCouplerConstraint(self, joint0, joint1, gear_ratio, offset=0.0):
        """Adds q₀ = gear_ratio·q₁ + offset between the single-dof joints ``joint0`` and
        ``joint1``. Returns its MultibodyConstraintId."""
        method = "AddCouplerConstraint"
        for joint in (joint0, joint1):
            if not isinstance(joint, Joint):
                raise TypeError(f"{method}(): expected a Joint, got {type(joint).__name__}")
        gear_ratio, offset = (
            _real(method, gear_ratio, "gear_ratio"),
            _real(method, offset, "offset"),
        )
        self._check_constraint_added(method, "coupler")
        for joint in (joint0, joint1):
            if joint._plant is not self:
                raise RuntimeError(
                    f"{method}(): joint '{joint.name()}' is not part of this MultibodyPlant"
                )
        if joint0.num_velocities() != 1 or joint1.num_velocities() != 1:
            raise RuntimeError(
                "Coupler constraints can only be defined on single-DOF joints. However joint "
                f"'{joint0.name()}' has {joint0.num_velocities()} DOFs and joint "
                f"'{joint1.name()}' has {joint1.num_velocities()} DOFs."
            )
        constraint_id = MultibodyConstraintId.get_new_id()
        self._coupler_constraints[constraint_id] = CouplerConstraintSpec(
            joint0.index(), joint1.index(), gear_ratio, offset, constraint_id
        )
        return constraint_id

    def AddDistanceConstraint(self, body_A, p_AP, body_B, p_BQ, distance, stiffness=math.inf,
                              damping=0.0):  # fmt: skip
        """Adds ‖p_PQ‖ = ``distance`` between the point P of ``body_A`` (at p_AP in its frame)
        and the point Q of ``body_B`` (at p_BQ): a rigid massless rod (``stiffness`` ∞), or a
        spring f = −stiffness·(d − distance) − damping·ḋ along p_PQ. Its parameters are the
        default DistanceConstraintParams of every new Context. RuntimeError if the bodies are
        the same, ``distance`` is not positive, ``stiffness`` not positive or ``damping``
        negative, or a point or ``distance`` is not finite. Returns its MultibodyConstraintId."""
        method = "AddDistanceConstraint"
        self._constraint_bodies(method, body_A, body_B)
        p_AP, p_BQ = _vector3(method, p_AP, "p_AP"), _vector3(method, p_BQ, "p_BQ")
        values = [
            _real(method, x, name)
            for x, name in ((distance, "distance"), (stiffness, "stiffness"), (damping, "damping"))
        ]
        self._check_constraint_added(method, "distance")
        _require_finite(method, body_A.name(), body_B.name(),
                        {"p_AP": p_AP, "p_BQ": p_BQ, "distance": values[0]})  # fmt: skip
        constraint_id = MultibodyConstraintId.get_new_id()
        params = DistanceConstraintParams(body_A.index(), p_AP, body_B.index(), p_BQ, *values)
        self._distance_constraints[constraint_id] = params
        return constraint_id

    def AddBallConstraint(self, body_A, p_AP, body_B, p_BQ=None):
        """Adds the constraint that point P of ``body_A`` (at p_AP in its frame) and point Q
        of ``body_B`` coincide (a ball-and-socket joint); p_BQ None: Q is where P is in the
        default Context at Finalize(). RuntimeError if the bodies are the same or a point is
        not finite. Returns its MultibodyConstraintId."""
        method = "AddBallConstraint"
        self._constraint_bodies(method, body_A, body_B)
        p_AP = _vector3(method, p_AP, "p_AP")
        p_BQ = None if p_BQ is None else _vector3(method, p_BQ, "p_BQ")
        self._check_constraint_added(method, "ball")
        points = {"p_AP": p_AP} if p_BQ is None else {"p_AP": p_AP, "p_BQ": p_BQ}
        _require_finite(method, body_A.name(), body_B.name(), points)
        constraint_id = MultibodyConstraintId.get_new_id()
        if body_A is body_B:
            raise RuntimeError(
                f"Invalid set of parameters for constraint between bodies '{body_A.name()}' and "
                f"'{body_B.name()}'. For a ball constraint, points P and Q must be on two "
                "distinct bodies, i.e. body_A != body_B must be satisfied."
            )
        self._ball_constraints[constraint_id] = BallConstraintSpec(
            body_A.index(), p_AP, body_B.index(), p_BQ, constraint_id
        )
        return constraint_id

    def AddWeldConstraint(self, body_A, X_AP, body_B, X_BQ):
        """Adds the constraint that frame P of ``body_A`` (pose X_AP in its frame) and frame Q
        of ``body_B`` (pose X_BQ) coincide (a weld joint). RuntimeError if the bodies are the
        same or a pose is not finite. Returns its MultibodyConstraintId."""
        method = "AddWeldConstraint"
        self._constraint_bodies(method, body_A, body_B)
        for name, X in (("X_AP", X_AP), ("X_BQ", X_BQ)):
            if not isinstance(X, RigidTransform) or X._p.dtype != np.float64:
                raise TypeError(f"{method}(): {name} must be a RigidTransform, got {X!r}")
        self._check_constraint_added(method, "weld")
        _require_finite(method, body_A.name(), body_B.name(),
                        {"X_AP": X_AP.GetAsMatrix34(), "X_BQ": X_BQ.GetAsMatrix34()})  # fmt: skip
        constraint_id = MultibodyConstraintId.get_new_id()
        if body_A is body_B:
            raise RuntimeError(
                f"AddWeldConstraint(): Invalid set of parameters for constraint between bodies "
                f"'{body_A.name()}' and '{body_B.name()}'. For a weld constraint, frames P and "
                "Q must be on two distinct bodies, i.e. body_A != body_B must be satisfied."
            )
        self._weld_constraints[constraint_id] = WeldConstraintSpec(
            body_A.index(), RigidTransform(X_AP), body_B.index(), RigidTransform(X_BQ),
            constraint_id,
        )  # fmt: skip
        return constraint_id

    def AddTendonConstraint(self, joints, a, offset=None, lower_limit=None, upper_limit=None,
                            stiffness=None, damping=None):  # fmt: skip
        """Adds lower_limit ≤ l(q) = Σᵢ a[i]·q(joints[i]) + offset ≤ upper_limit over distinct
        single-dof ``joints`` (JointIndex), at least one limit finite; compliant with
        ``stiffness`` (> 0, ∞ by default: near rigid) and ``damping`` (≥ 0, 0 by default);
        ``offset`` 0 by default. Drake's C++ API (pydrake binds it not; its parsers add these
        from ``drake:tendon_constraint``). Returns its MultibodyConstraintId."""
        method = "AddTendonConstraint"
        inf = math.inf
        self._check_constraint_added(method, "tendon")

        def require(condition, text):
            if not condition:
                raise RuntimeError(f"{method}(): condition '{text}' failed.")

        joints = [JointIndex(int(j)) for j in joints]
        require(len(joints) > 0, "joints.size() > 0")
        if len(set(int(j) for j in joints)) != len(joints):
            raise RuntimeError(
                "AddTendonConstraint(): Duplicated joint in `joints`. `joints` must be a unique "
                "set of JointIndex."
            )
        a = [_real(method, x, "a") for x in a]
        require(len(a) == len(joints), "a.size() == joints.size()")
        for j in joints:
            require(self.has_joint(j), "this->has_joint(joints[i])")
            require(self.get_joint(j).num_velocities() == 1,
                    "this->get_joint(joints[i]).num_velocities() == 1")  # fmt: skip
        offset = 0.0 if offset is None else _real(method, offset, "offset")
        if lower_limit is None:
            lower_limit = -inf
        else:
            lower_limit = _real(method, lower_limit, "lower_limit")
            require(lower_limit < inf, "*lower_limit < kInf")
        if upper_limit is None:
            upper_limit = inf
        else:
            upper_limit = _real(method, upper_limit, "upper_limit")
            require(upper_limit > -inf, "*upper_limit > -kInf")
        require(
            lower_limit != -inf or upper_limit != inf,
            "*lower_limit != -kInf || *upper_limit != kInf",
        )
        require(lower_limit <= upper_limit, "*lower_limit <= *upper_limit")
        if stiffness is None:
            stiffness = inf
        else:
            stiffness = _real(method, stiffness, "stiffness")
            require(stiffness > 0.0, "*stiffness > 0.0")
        if damping is None:
            damping = 0.0
        else:
            damping = _real(method, damping, "damping")
            require(damping >= 0.0, "*damping >= 0.0")
        constraint_id = MultibodyConstraintId.get_new_id()
        self._tendon_constraints[constraint_id] = TendonConstraintSpec(
            joints, a, offset, lower_limit, upper_limit, stiffness, damping, constraint_id
        )
        return constraint_id

    def RemoveConstraint(self, id):  # noqa: A002 (pydrake's name)
        """Removes the constraint ``id`` (before Finalize())."""
        if not isinstance(id, MultibodyConstraintId):
            raise incompatible_arguments(
                "RemoveConstraint",
                (
                    f"(self: {_MODULE}.MultibodyPlant, id: mallard.multibody.tree."
                    "MultibodyConstraintId) -> None",
                ),  # fmt: skip
                (self, id),
                {},
            )
        self._throw_if_finalized("RemoveConstraint")
        for kind in CONSTRAINT_KINDS:
            if getattr(self, kind).pop(id, None) is not None:
                return
        raise RuntimeError(
            f"RemoveConstraint(): The constraint id {id.get_value()} does not match any "
            "constraint registered with this plant. Note that this method does not check "
            "constraints registered with DeformableModel."
        )

    def _finalize_constraints(self):
        """At Finalize(): a ball constraint's point Q where none was given, from the default
        Context (Drake's FinalizeConstraints); whether the plant is a continuous plant with
        constraints (whose dynamics raise: constraints are added before Finalize only)."""
        self._continuous_constraints = self._time_step == 0 and self.num_constraints() > 0
        if not any(spec.p_BQ is None for spec in self._ball_constraints.values()):
            return
        context = self.CreateDefaultContext()
        for spec in self._ball_constraints.values():
            if spec.p_BQ is None:
                frame_A = self.get_body(spec.body_A).body_frame()
                frame_B = self.get_body(spec.body_B).body_frame()
                p_BQ = self.CalcPointsPositions(context, frame_A, spec.p_AP, frame_B)
                spec.p_BQ = np.array(values_or_none(p_BQ), dtype=float).reshape(3)

    # ---- introspection -------------------------------------------------------------------
    def num_constraints(self):
        """The number of constraints added (every kind)."""
        return sum(len(getattr(self, kind)) for kind in CONSTRAINT_KINDS)

    def num_coupler_constraints(self):
        return len(self._coupler_constraints)

    def num_distance_constraints(self):
        return len(self._distance_constraints)

    def num_ball_constraints(self):
        return len(self._ball_constraints)

    def num_weld_constraints(self):
        return len(self._weld_constraints)

    def num_tendon_constraints(self):
        return len(self._tendon_constraints)

    def GetConstraintIds(self):
        """The ids of every constraint: couplers, distance, ball, weld, tendon constraints,
        each kind in the order added."""
        return [i for kind in CONSTRAINT_KINDS for i in getattr(self, kind)]

    def _constraint_specs(self, kind, id, method):  # noqa: A002
        specs = getattr(self, kind)
        if id is None:
            return dict(specs)
        if id not in specs:
            raise RuntimeError(f"{method}(): condition '{kind[1:-1]}s_specs_.contains(id)' failed.")
        return specs[id]

    def get_coupler_constraint_specs(self, id=None):  # noqa: A002
        """The CouplerConstraintSpec of ``id``, or all of them by id (Drake's internal API)."""
        return self._constraint_specs("_coupler_constraints", id, "get_coupler_constraint_specs")

    def get_ball_constraint_specs(self, id=None):  # noqa: A002
        """The BallConstraintSpec of ``id``, or all of them by id (Drake's internal API)."""
        return self._constraint_specs("_ball_constraints", id, "get_ball_constraint_specs")

    def get_weld_constraint_specs(self, id=None):  # noqa: A002
        """The WeldConstraintSpec of ``id``, or all of them by id (Drake's internal API)."""
        return self._constraint_specs("_weld_constraints", id, "get_weld_constraint_specs")

    def get_tendon_constraint_specs(self, id=None):  # noqa: A002
        """The TendonConstraintSpec of ``id``, or all of them by id (Drake's internal API)."""
        return self._constraint_specs("_tendon_constraints", id, "get_tendon_constraint_specs")

    # ---- per Context ---------------------------------------------------------------------
    def _constraint_status(self, method, parameters, args):
        """Drake's checks of (self, context, id, ...) ``args``."""
        context, constraint_id = args[1], args[2]
        self._throw_if_not_finalized(method)
        _require_id(method, parameters, args)
        self.ValidateContext(context)
        if not any(constraint_id in getattr(self, kind) for kind in CONSTRAINT_KINDS):
            value = constraint_id.get_value()
            raise RuntimeError(
                f"{method}(): the constraint id {value} does not belong to any multibody "
                "constraint of this plant"
            )

    def GetConstraintActiveStatus(self, context, id):  # noqa: A002 (pydrake's name)
        """Whether the constraint ``id`` is active in ``context`` (True by default)."""
        self._constraint_status("GetConstraintActiveStatus", ") -> bool", (self, context, id))
        return id not in self._parameters(context).inactive_constraints

    def SetConstraintActiveStatus(self, context, id, status):  # noqa: A002
        """Activates or deactivates the constraint ``id`` in ``context``."""
        self._constraint_status(
            "SetConstraintActiveStatus", ", status: bool) -> None", (self, context, id, status)
        )
        inactive = self._mutable_parameters(context).inactive_constraints
        if status:
            inactive.discard(id)
        else:
            inactive.add(id)

    def GetDefaultDistanceConstraintParams(self):
        """The distance constraints' parameters as added, by id (a new dict)."""
        return dict(self._distance_constraints)

    def _distance_id(self, constraint_id):
        if constraint_id not in self._distance_constraints:
            value = constraint_id.get_value()
            raise RuntimeError(
                f"The constraint id {value} does not match any distance constraint registered "
                "with this plant. "
            )

    def GetDistanceConstraintParams(self, context, id=None):  # noqa: A002
        """The DistanceConstraintParams of the distance constraint ``id`` in ``context``, or,
        without ``id``, all of them by id."""
        self.ValidateContext(context)
        params = self._parameters(context).distance_constraints
        if id is None:
            return dict(params)
        _require_id(
            "GetDistanceConstraintParams",
            f") -> {_MODULE}.DistanceConstraintParams",
            (self, context, id),
        )
        self._distance_id(id)
        return params[id]

    def SetDistanceConstraintParams(self, context, id, params):  # noqa: A002
        """Stores ``params`` in ``context`` for the distance constraint ``id``. RuntimeError
        if ``id`` is not a distance constraint, a body index of ``params`` is not a body of
        this plant, or its points or distance are not finite."""
        _require_id(
            "SetDistanceConstraintParams",
            f", params: {_MODULE}.DistanceConstraintParams) -> None",
            (self, context, id, params),
            isinstance(params, DistanceConstraintParams),
        )
        self.ValidateContext(context)
        self._distance_id(id)
        for name, index in (("A", params.bodyA()), ("B", params.bodyB())):
            if not (index.is_valid() and int(index) < self.num_bodies()):
                raise RuntimeError(
                    f"Index {int(index)} provided for body {name} does not correspond to a rigid "
                    "body in this MultibodyPlant."
                )
        _require_finite(
            "SetDistanceConstraintParams",
            self.get_body(params.bodyA()).name(),
            self.get_body(params.bodyB()).name(),
            {"p_AP": params.p_AP(), "p_BQ": params.p_BQ(), "distance": params.distance()},
        )
        self._mutable_parameters(context).distance_constraints[id] = params

    def _throw_if_continuous_with_constraints(self):
        if self._continuous_constraints:
            raise RuntimeError(_CONTINUOUS_CONSTRAINTS)
