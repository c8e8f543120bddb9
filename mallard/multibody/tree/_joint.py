"""Joint: the base of the joint types. A joint connects a frame F on a parent body P to a
frame M on a child body B and gives M its degrees of freedom relative to F.

Each joint type sets the class attributes below; the base holds what every joint has:
frames, limits, default positions, damping, and access to its slice of q and v in a Context.
"""

import numpy as np

from mallard._scalar import as_array
from mallard.multibody.tree._frame import Frame
from mallard.multibody.tree._indices import JointIndex
from mallard.multibody.tree._multibody_element import MultibodyElement

_INF = float("inf")


class Joint(MultibodyElement):
    """A joint between a frame F on a parent body and a frame M on a child body (abstract)."""

    _index_type = JointIndex

    #: Set by each joint type: its type name, code (mallard.multibody._joint_types), sizes,
    #: coordinate suffixes and whether it can rotate / translate.
    kTypeName = None
    _jtype = None
    _nq = 0
    _nv = 0
    _position_suffixes = ()
    _velocity_suffixes = ()
    _can_rotate = False
    _can_translate = False

    def __init__(
        self,
        name,
        frame_on_parent,
        frame_on_child,
        *,
        damping=None,
        pos_lower=None,
        pos_upper=None,
        vel_lower=None,
        vel_upper=None,
        acc_lower=None,
        acc_upper=None,
    ):
        if type(self) is Joint:
            raise TypeError("mallard.multibody.tree.Joint: No constructor defined!")
        if not isinstance(name, str) or name == "":
            raise RuntimeError(f"{type(self).__name__}: the name of a joint cannot be empty")
        for what, frame in (
            ("frame_on_parent", frame_on_parent),
            ("frame_on_child", frame_on_child),
        ):
            if not isinstance(frame, Frame):
                raise TypeError(
                    f"{type(self).__name__} '{name}': {what} must be a Frame, got "
                    f"{type(frame).__name__}"
                )
        if frame_on_parent.body() is frame_on_child.body():
            raise RuntimeError(
                f"{type(self).__name__} '{name}': frame_on_parent '{frame_on_parent.name()}' "
                f"and frame_on_child '{frame_on_child.name()}' are both on body "
                f"'{frame_on_child.body().name()}'; a joint must connect two different bodies"
            )
        super().__init__(frame_on_child.model_instance())
        self._name = name
        self._frame_on_parent = frame_on_parent
        self._frame_on_child = frame_on_child
        nq, nv = self._nq, self._nv
        self._pos_lower = _limits(pos_lower, nq, -_INF)
        self._pos_upper = _limits(pos_upper, nq, _INF)
        self._vel_lower = _limits(vel_lower, nv, -_INF)
        self._vel_upper = _limits(vel_upper, nv, _INF)
        self._acc_lower = _limits(acc_lower, nv, -_INF)
        self._acc_upper = _limits(acc_upper, nv, _INF)
        for lower, upper, what in (
            (self._pos_lower, self._pos_upper, "position"),
            (self._vel_lower, self._vel_upper, "velocity"),
            (self._acc_lower, self._acc_upper, "acceleration"),
        ):
            self._check_limits(lower, upper, what)
        self._default_q = self._zero_configuration()
        self._default_damping = np.zeros(nv)
        if damping is not None:
            self._default_damping = self._checked_damping(damping)
        # Slots in q and v, assigned by the plant at Finalize().
        self._q_start = None
        self._v_start = None

    # ---- identity ------------------------------------------------------------------------
    def name(self):
        return self._name

    def scoped_name(self):
        """The ScopedName ``model_instance_name::joint_name``."""
        return self.GetParentPlant()._scoped_name(self)

    def type_name(self):
        """The joint type's name (``kTypeName``), e.g. "revolute"."""
        return self.kTypeName

    def frame_on_parent(self):
        """The frame F on the parent body."""
        return self._frame_on_parent

    def frame_on_child(self):
        """The frame M on the child body."""
        return self._frame_on_child

    def parent_body(self):
        return self._frame_on_parent.body()

    def child_body(self):
        return self._frame_on_child.body()

    def num_positions(self):
        return self._nq

    def num_velocities(self):
        return self._nv

    # ---- coordinates (after Finalize) ----------------------------------------------------
    def _slots(self, method):
        self._finalized_plant(method)
        return self._q_start, self._v_start

    def position_start(self):
        """The index of this joint's first position in the plant's q."""
        return self._slots("position_start")[0]

    def velocity_start(self):
        """The index of this joint's first velocity in the plant's v."""
        return self._slots("velocity_start")[1]

    def position_suffix(self, index):
        """The suffix naming position ``index`` of this joint (e.g. "q", "qw", "x")."""
        self._finalized_plant("position_suffix")
        return _suffix(self, self._position_suffixes, index, "position")

    def velocity_suffix(self, index):
        """The suffix naming velocity ``index`` of this joint (e.g. "w", "wx", "vx")."""
        self._finalized_plant("velocity_suffix")
        return _suffix(self, self._velocity_suffixes, index, "velocity")

    def can_rotate(self):
        """True if this joint allows rotation of M relative to F."""
        self._finalized_plant("can_rotate")
        return self._can_rotate

    def can_translate(self):
        """True if this joint allows translation of Mo relative to F."""
        self._finalized_plant("can_translate")
        return self._can_translate

    # ---- limits --------------------------------------------------------------------------
    def _check_limits(self, lower, upper, what):
        if np.any(lower > upper):
            raise RuntimeError(
                f"{self._describe()}: {what} lower limits must be less than or equal to the "
                f"upper limits; got lower {lower.tolist()} and upper {upper.tolist()}"
            )

    def _set_limits(self, lower_limits, upper_limits, n, what):
        lower = _sized(self, lower_limits, n, f"{what} lower limits")
        upper = _sized(self, upper_limits, n, f"{what} upper limits")
        self._check_limits(lower, upper, what)
        self._before_finalize_only(f"set_{what}_limits")
        return lower, upper

    def position_lower_limits(self):
        return self._pos_lower.copy()

    def position_upper_limits(self):
        return self._pos_upper.copy()

    def velocity_lower_limits(self):
        return self._vel_lower.copy()

    def velocity_upper_limits(self):
        return self._vel_upper.copy()

    def acceleration_lower_limits(self):
        return self._acc_lower.copy()

    def acceleration_upper_limits(self):
        return self._acc_upper.copy()

    def set_position_limits(self, lower_limits, upper_limits):
        """Sets the position limits (size nq each; lower ≤ upper)."""
        self._pos_lower, self._pos_upper = self._set_limits(
            lower_limits, upper_limits, self._nq, "position"
        )

    def set_velocity_limits(self, lower_limits, upper_limits):
        """Sets the velocity limits (size nv each; lower ≤ upper)."""
        self._vel_lower, self._vel_upper = self._set_limits(
            lower_limits, upper_limits, self._nv, "velocity"
        )

    def set_acceleration_limits(self, lower_limits, upper_limits):
        """Sets the acceleration limits (size nv each; lower ≤ upper)."""
        self._acc_lower, self._acc_upper = self._set_limits(
            lower_limits, upper_limits, self._nv, "acceleration"
        )

    def _before_finalize_only(self, method):
        if self._plant is not None and self._plant.is_finalized():
            raise RuntimeError(
                f"{self._describe()}: {method}() may only be called before the MultibodyPlant "
                "is finalized"
            )

    # ---- default positions ---------------------------------------------------------------
    def _zero_configuration(self):
        """The positions of the identity pose X_FM (zeros, except quaternion joints)."""
        return np.zeros(self._nq)

    def default_positions(self):
        """The positions of this joint in the plant's default state."""
        return self._default_q.copy()

    def set_default_positions(self, default_positions):
        """Sets the default positions (size nq; need not be within the limits)."""
        self._default_q = _sized(self, default_positions, self._nq, "default_positions").copy()

    # ---- damping -------------------------------------------------------------------------
    def _checked_damping(self, damping):
        d = _sized(self, damping, self._nv, "damping")
        if np.any(d < 0):
            raise RuntimeError(
                f"{self._describe()}: damping must be non-negative, got {d.tolist()}"
            )
        return d.copy()

    def default_damping_vector(self):
        """The default damping coefficients, one per velocity (τ = −d·v)."""
        return self._default_damping.copy()

    def set_default_damping_vector(self, damping):
        """Sets the default damping (size nv, non-negative); only before Finalize()."""
        d = self._checked_damping(damping)
        self._before_finalize_only("set_default_damping_vector")
        self._default_damping = d

    def GetDampingVector(self, context):
        """The damping coefficients of this joint in ``context``."""
        plant = self._plant_with(context, "GetDampingVector")
        return plant._parameters(context).damping[self._v_start : self._v_start + self._nv].copy()

    def SetDampingVector(self, context, damping):
        """Sets the damping coefficients of this joint in ``context`` (non-negative)."""
        d = self._checked_damping(damping)
        plant = self._plant_with(context, "SetDampingVector")
        plant._mutable_parameters(context).damping[self._v_start : self._v_start + self._nv] = d

    # ---- state in a Context --------------------------------------------------------------
    def _plant_with(self, context, method):
        plant = self._finalized_plant(method)
        plant.ValidateContext(context)
        return plant

    def _positions(self, context, method):
        """This joint's positions in ``context`` (a read-only view)."""
        q = self._plant_with(context, method)._q(context)
        return q[self._q_start : self._q_start + self._nq]

    def _velocities(self, context, method):
        """This joint's velocities in ``context`` (a read-only view)."""
        v = self._plant_with(context, method)._v(context)
        return v[self._v_start : self._v_start + self._nv]

    def _set_positions(self, context, values, method):
        q = self._plant_with(context, method)._mutable_q(context)
        q[self._q_start : self._q_start + self._nq] = values
        return self

    def _set_velocities(self, context, values, method):
        v = self._plant_with(context, method)._mutable_v(context)
        v[self._v_start : self._v_start + self._nv] = values
        return self

    def _sized(self, value, what, n=None):
        """``value`` as a vector of n (default nq) elements; RuntimeError otherwise."""
        return _sized(self, value, self._nq if n is None else n, what)

    def _single_dof(self, method):
        if self._nq != 1 or self._nv != 1:
            raise RuntimeError(
                f"{self._describe()}: {method}() requires a joint with exactly one position and "
                f"one velocity; this {self.kTypeName} joint has {self._nq} positions and "
                f"{self._nv} velocities"
            )

    def GetOnePosition(self, context):
        """The position of a single-dof joint."""
        self._single_dof("GetOnePosition")
        return float(self._positions(context, "GetOnePosition")[0])

    def GetOneVelocity(self, context):
        """The velocity of a single-dof joint."""
        self._single_dof("GetOneVelocity")
        return float(self._velocities(context, "GetOneVelocity")[0])

    def Lock(self, context):
        """Locks this joint in ``context``: its velocities are set to zero and stay zero."""
        plant = self._plant_with(context, "Lock")
        plant._mutable_parameters(context).locked[int(self._index)] = True
        self._set_velocities(context, 0.0, "Lock")

    def Unlock(self, context):
        """Unlocks this joint in ``context``."""
        plant = self._plant_with(context, "Unlock")
        plant._mutable_parameters(context).locked[int(self._index)] = False

    def is_locked(self, context):
        """True if this joint is locked in ``context``."""
        plant = self._plant_with(context, "is_locked")
        return bool(plant._parameters(context).locked[int(self._index)])

    # ---- default pose (floating joints only) ---------------------------------------------
    def _floating_only(self, method):
        raise RuntimeError(
            f"{self._describe()}: {method}() is only available for joints with 6 degrees of "
            f"freedom (rpy_floating, quaternion_floating), not {self.kTypeName}"
        )

    def GetDefaultPose(self):
        """X_FM of this floating joint's default positions."""
        self._floating_only("GetDefaultPose")

    def SetDefaultPose(self, X_FM):
        """Sets this floating joint's default positions to those of X_FM."""
        self._floating_only("SetDefaultPose")

    def GetDefaultPosePair(self):
        """(quaternion, translation) of this floating joint's default pose."""
        self._floating_only("GetDefaultPosePair")

    def SetDefaultPosePair(self, q_FM, p_FM):
        """Sets this floating joint's default pose from a quaternion and a translation."""
        self._floating_only("SetDefaultPosePair")

    # ---- for the plant -------------------------------------------------------------------
    def _jparam(self):
        """This joint's row of kinematic constants for the kernels: [axis; screw pitch]."""
        return np.zeros(4)


def _limits(value, n, fill):
    return np.full(n, fill) if value is None else np.asarray(value, dtype=float).reshape(n).copy()


def _sized(joint, value, n, what):
    a = as_array(value, name=what)
    a = a.reshape(-1) if a.ndim == 2 and 1 in a.shape else np.atleast_1d(a)
    if a.ndim != 1 or a.shape[0] != n:
        raise RuntimeError(f"{joint._describe()}: {what} must have size {n}, got size {a.size}")
    return a


def _suffix(joint, suffixes, index, what):
    if not 0 <= index < len(suffixes):
        raise RuntimeError(
            f"{joint._describe()}: {what} index {index} is not within [0, {len(suffixes)})"
        )
    return suffixes[index]
