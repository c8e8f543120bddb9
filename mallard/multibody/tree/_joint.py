"""Joint: the base of the joint types. A joint connects a frame F on a parent body P to a
frame M on a child body B and gives M its degrees of freedom relative to F.

Each joint type sets the class attributes below; the base holds what every joint has:
frames, limits, default positions, damping, and access to its slice of q and v in a Context.

Arguments are converted as pydrake's bindings convert them: a ``float`` parameter takes any
real number (not a one-element array), a fixed-size vector takes exactly that many numbers
(as a 1-D array or a column), and a wrong type raises TypeError. Errors pydrake raises as
RuntimeError carry pydrake's text; where pydrake aborts (SystemExit), mallard raises a
RuntimeError naming the element and the method.
"""

import numbers

import numpy as np

from mallard._scalar import as_scalar
from mallard.common.eigen_geometry import Quaternion
from mallard.math import RigidTransform
from mallard.multibody.tree._frame import Frame
from mallard.multibody.tree._indices import JointIndex
from mallard.multibody.tree._multibody_element import FieldInRow, MultibodyElement

_INF = float("inf")

#: Joint types whose AddInOneForce raises, with the name Drake's message gives them.
_NO_ONE_FORCE = {
    "ball_rpy": "Ball RPY",
    "rpy_floating": "RpyFloating",
    "quaternion_floating": "QuaternionFloating",
}


def to_float(value):
    """``value`` as a float if pybind11 would convert it to a C++ double (a real number or a
    0-d numeric array, not a one-element vector), else None."""
    if type(value) is float:
        return value
    if isinstance(value, numbers.Real) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "biuf"
    ):
        return float(value)
    return None


_CONSTANTS = {}
_JOINT_DEFAULTS = {}  # joint type -> a new joint's limits, damping, zero configuration


def constant(n, value):
    """A read-only array of ``n`` copies of ``value`` (float), shared by every caller."""
    try:
        return _CONSTANTS[n, value]
    except KeyError:
        array = _CONSTANTS[n, value] = np.full(n, value)
        array.flags.writeable = False
        return array


def _limit_column(c):
    """FieldInRow's reader of a joint's limit in column ``c`` of its limit row (position
    lower, upper, velocity lower, upper, acceleration lower, upper): a 1-array view."""
    return lambda rows, j: rows[j, c : c + 1]


class ElementChecks:
    """For Joint and JointActuator: argument conversion as pydrake's bindings convert, errors
    that name the element and the method, and the checks of the plant and a Context."""

    def _error(self, method, text):
        """A RuntimeError naming this element and ``method``."""
        return RuntimeError(f"{self._describe()}: {method}(): {text}")

    def _type_error(self, method, what, expected, value):
        return TypeError(
            f"{self._describe()}: {method}(): {what} must be {expected}, got "
            f"{type(value).__name__} {value!r}"
        )

    def _as_float(self, value, what, method):
        """``value`` as a float (see to_float); TypeError otherwise."""
        result = to_float(value)
        if result is None:
            # An element of a MultibodyPlant_[T] (mallard._template) also takes T scalars.
            T = getattr(type(self), "_template_scalar", None)
            if T is not None and isinstance(value, T):
                return value
            raise self._type_error(method, what, "a float", value)
        return result

    def _as_index(self, value, method):
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)
        raise self._type_error(method, "arg0", "an int", value)

    def _as_vector(self, value, n, what, method):
        """``value`` as a new 1-D float array: n numbers (any number if n is None) given as a
        1-D array or a column, as pybind11 converts Eigen vectors; TypeError otherwise."""
        if type(value) is list and all(type(x) is float for x in value):  # (the common case)
            if n is None or len(value) == n:
                return np.array(value)
        elif type(value) is np.ndarray and value.dtype == np.float64 and value.ndim == 1:
            if n is None or len(value) == n:  # (a float vector: as below, without the checks)
                return value.copy()
        expected = "a vector" if n is None else f"a vector of {n} numbers"
        a = np.asarray(value)
        if a.dtype == object and all(isinstance(x, numbers.Real) for x in a.flat):
            a = a.astype(float)
        T = getattr(type(self), "_template_scalar", None)  # elements of a MultibodyPlant_[T]
        if a.dtype == object and T is not None and all(isinstance(x, T) for x in a.flat):
            if (a.ndim == 1 or a.ndim == 2 and a.shape[1] == 1) and n in (None, a.size):
                return a.reshape(-1).copy()
        if (
            a.dtype.kind not in "biuf"
            or not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1))
            or (n is not None and a.size != n)
        ):
            raise self._type_error(method, what, expected, value)
        return a.astype(float).reshape(-1)

    def _as_instance(self, value, cls, what, method):
        if not isinstance(value, cls):
            raise self._type_error(method, what, f"a {cls.__name__}", value)
        return value

    def _before_finalize(self, method):
        if self._plant is not None and self._plant.is_finalized():
            raise self._error(method, "may only be called before the MultibodyPlant is finalized")

    def _finalized(self, method):
        """The parent plant, which must be finalized; RuntimeError naming ``method`` if this
        element is in no plant or the plant is not finalized."""
        if self._plant is None:
            raise self._error(method, "this element was not added to a MultibodyPlant")
        return self._finalized_plant(method)

    def _plant_with(self, context, method):
        """The finalized parent plant, checked to own ``context``."""
        plant = self._finalized(method)
        plant.ValidateContext(context)
        return plant


class Joint(ElementChecks, MultibodyElement):
    """A joint between a frame F on a parent body and a frame M on a child body (abstract)."""

    _index_type = JointIndex

    #: Set by each joint type (besides ``kTypeName``): its code (mallard.multibody._joint_types),
    #: sizes, coordinate suffixes and whether it can rotate / translate.
    _jtype = None
    _nq = 0
    _nv = 0
    _position_suffixes = ()
    _velocity_suffixes = ()
    _can_rotate = False
    _can_translate = False
    # (the limits of a joint made with a limit row: see _init_fields)
    _pos_lower = FieldInRow("_limit_row", _limit_column(0))
    _pos_upper = FieldInRow("_limit_row", _limit_column(1))
    _vel_lower = FieldInRow("_limit_row", _limit_column(2))
    _vel_upper = FieldInRow("_limit_row", _limit_column(3))
    _acc_lower = FieldInRow("_limit_row", _limit_column(4))
    _acc_upper = FieldInRow("_limit_row", _limit_column(5))

    def __init__(self, name, frame_on_parent, frame_on_child):
        """Limits start at ∓∞, damping at zero; the joint types set theirs after this."""
        if type(self) is Joint:
            raise TypeError("mallard.multibody.tree.Joint: No constructor defined!")
        if type(name) is not str or name == "":
            self._check_name(name)
        if not (isinstance(frame_on_parent, Frame) and isinstance(frame_on_child, Frame)):
            frames = {"frame_on_parent": frame_on_parent, "frame_on_child": frame_on_child}
            for what, frame in frames.items():
                if not isinstance(frame, Frame):
                    raise TypeError(
                        f"{type(self).__name__} '{name}': {what} must be a Frame, got "
                        f"{type(frame).__name__}"
                    )
        self._init_fields(name, frame_on_parent, frame_on_child)

    def _init_fields(self, name, frame_on_parent, frame_on_child, limit_row=None):
        """Sets the fields of a joint of checked arguments (damping zero; limits ∓∞, or, for a
        one-dof joint, those of its ``limit_row`` (rows, j) in a read-only array of rows of
        position lower, upper, velocity lower, upper, acceleration lower, upper limits, read
        when asked for: FieldInRow)."""
        MultibodyElement.__init__(self, frame_on_child._model_instance)
        self._name = name
        self._frame_on_parent = frame_on_parent
        self._frame_on_child = frame_on_child
        defaults = _JOINT_DEFAULTS.get(type(self)) or self._shared_defaults()
        if limit_row is None:
            self._pos_lower, self._pos_upper, lower, upper = defaults[:4]
            self._vel_lower = self._acc_lower = lower
            self._vel_upper = self._acc_upper = upper
        else:
            self._limit_row = limit_row
        self._default_damping, zero = defaults[4:]
        self._default_q = self._zero_configuration() if zero is None else zero
        self._random_q = None  # the random distribution of q (set_random_*), Expressions
        # Slots in q and v, assigned by the plant at Finalize().
        self._q_start = None
        self._v_start = None

    @classmethod
    def _shared_defaults(cls):
        """The defaults new joints of this type share, read-only arrays (setters replace
        them, never write), made once (_JOINT_DEFAULTS): position limits, velocity (and
        acceleration) limits, damping and, unless the type makes its own, the zero
        configuration."""
        nq, nv = cls._nq, cls._nv
        shared_zero = cls._zero_configuration is Joint._zero_configuration
        defaults = _JOINT_DEFAULTS[cls] = (
            constant(nq, -_INF), constant(nq, _INF), constant(nv, -_INF), constant(nv, _INF),
            constant(nv, 0.0), constant(nq, 0.0) if shared_zero else None,
        )  # fmt: skip
        return defaults

    def _check_name(self, name):
        cls = type(self).__name__
        if not isinstance(name, str):
            raise TypeError(f"{cls}: name must be a str, got {type(name).__name__}")
        if name == "":
            raise RuntimeError(f"{cls}: the name of a joint cannot be empty")

    # ---- identity ------------------------------------------------------------------------
    def name(self):
        return self._name

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
    def position_start(self):
        """The index of this joint's first position in the plant's q."""
        self._finalized("position_start")
        return self._q_start

    def velocity_start(self):
        """The index of this joint's first velocity in the plant's v."""
        self._finalized("velocity_start")
        return self._v_start

    def position_suffix(self, arg0, /):
        """The suffix naming position ``arg0`` of this joint (e.g. "q", "qw", "x")."""
        return self._suffix(self._position_suffixes, arg0, "position_suffix")

    def velocity_suffix(self, arg0, /):
        """The suffix naming velocity ``arg0`` of this joint (e.g. "w", "wx", "vx")."""
        return self._suffix(self._velocity_suffixes, arg0, "velocity_suffix")

    def _suffix(self, suffixes, index, method):
        index = self._as_index(index, method)
        self._finalized(method)
        if not 0 <= index < len(suffixes):
            raise self._error(method, f"index {index} is not in [0, {len(suffixes)})")
        return suffixes[index]

    def can_rotate(self):
        """True if this joint allows rotation of M relative to F."""
        self._finalized("can_rotate")
        return self._can_rotate

    def can_translate(self):
        """True if this joint allows translation of Mo relative to F."""
        self._finalized("can_translate")
        return self._can_translate

    # ---- limits --------------------------------------------------------------------------
    def _check_limits(self, lower, upper, what, method):
        if not np.all(lower <= upper):
            raise self._error(
                method,
                f"the {what} lower limits {lower.tolist()} must not exceed the upper limits "
                f"{upper.tolist()}",
            )

    def _checked_limits(self, lower_limits, upper_limits, n, what, method):
        if (  # (the common case: lists of n floats, lower ≤ upper)
            type(lower_limits) is list
            and type(upper_limits) is list
            and len(lower_limits) == n == len(upper_limits)
            and all(
                isinstance(lo, float) and isinstance(up, float) and lo <= up
                for lo, up in zip(lower_limits, upper_limits, strict=True)
            )
        ):
            return np.array(lower_limits), np.array(upper_limits)
        lower = self._as_vector(lower_limits, None, "lower_limits", method)
        upper = self._as_vector(upper_limits, None, "upper_limits", method)
        if lower.size != n or upper.size != n:
            raise self._error(
                method,
                f"the {what} limits must have {n} values each, got {lower.size} and {upper.size}",
            )
        self._check_limits(lower, upper, what, method)
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
        """Sets the position limits (nq values each, lower ≤ upper)."""
        self._pos_lower, self._pos_upper = self._checked_limits(
            lower_limits, upper_limits, self._nq, "position", "set_position_limits"
        )

    def set_velocity_limits(self, lower_limits, upper_limits):
        """Sets the velocity limits (nv values each, lower ≤ upper)."""
        self._vel_lower, self._vel_upper = self._checked_limits(
            lower_limits, upper_limits, self._nv, "velocity", "set_velocity_limits"
        )

    def set_acceleration_limits(self, lower_limits, upper_limits):
        """Sets the acceleration limits (nv values each, lower ≤ upper)."""
        self._acc_lower, self._acc_upper = self._checked_limits(
            lower_limits, upper_limits, self._nv, "acceleration", "set_acceleration_limits"
        )

    # ---- default positions ---------------------------------------------------------------
    def _zero_configuration(self):
        """The positions of the identity pose X_FM (zeros, except quaternion joints), as a
        read-only array."""
        return constant(self._nq, 0.0)

    def default_positions(self):
        """The positions of this joint in the plant's default state."""
        return self._default_q.copy()

    def set_default_positions(self, default_positions):
        """Sets the default positions (nq values; they need not be within the limits)."""
        q = self._as_vector(default_positions, None, "default_positions", "set_default_positions")
        if q.size != self._nq:
            name = self._name if self._plant is None else self._plant._scoped_name(self).get_full()
            raise RuntimeError(
                f"set_default_positions: The number of positions in the input ({q.size}) does "
                f"not match the number of positions of the joint '{name}' ({self._nq})."
            )
        self._default_q = q

    def _set_default_slice(self, start, values):
        """Sets default positions ``start, start + 1, ...`` to ``values``."""
        q = self._default_q.copy()
        q[start : start + np.size(values)] = values
        self._default_q = q

    # ---- damping -------------------------------------------------------------------------
    def _checked_damping(self, damping, method):
        d = self._as_vector(damping, None, "damping", method)
        if d.size != self._nv:
            raise self._error(method, f"damping must have size {self._nv}, got size {d.size}")
        if not (d >= 0).all():  # (the method: np.all's Python wrapper costs more)
            raise self._error(method, f"damping must be non-negative, got {d.tolist()}")
        return d

    def default_damping_vector(self):
        """The default damping coefficients, one per velocity (τ = −d·v)."""
        return self._default_damping.copy()

    def set_default_damping_vector(self, damping):
        """Sets the default damping (nv non-negative values); only before Finalize()."""
        self._set_default_damping(damping, "set_default_damping_vector")

    def _set_default_damping(self, damping, method):
        d = self._checked_damping(damping, method)
        self._before_finalize(method)
        self._default_damping = d

    def GetDampingVector(self, context):
        """The damping coefficients of this joint in ``context``."""
        damping = self._plant_with(context, "GetDampingVector")._parameters(context).damping
        return damping[self._v_start : self._v_start + self._nv].copy()

    def SetDampingVector(self, context, damping):
        """Sets the damping coefficients of this joint in ``context`` (non-negative)."""
        self._set_damping(context, damping, "SetDampingVector")

    def _set_damping(self, context, damping, method):
        plant = self._plant_with(context, method)
        d = self._checked_damping(damping, method)
        plant._mutable_parameters(context).damping[self._v_start : self._v_start + self._nv] = d

    # ---- applied forces ------------------------------------------------------------------
    def _generalized_forces(self, context, forces, method):
        """This joint's slice of the generalized forces in ``forces``, after checking
        ``context`` and that ``forces`` fits the plant."""
        from mallard.multibody.tree._multibody_forces import MultibodyForces

        plant = self._plant_with(context, method)
        self._as_instance(forces, MultibodyForces, "forces", method)
        forces._check_plant(plant, f"{self._describe()}: {method}")
        return forces._tau[self._v_start : self._v_start + self._nv]

    def AddInOneForce(self, context, joint_dof, joint_tau, forces):
        """Adds the generalized force ``joint_tau`` on this joint's velocity ``joint_dof``
        (0 ≤ joint_dof < num_velocities()) to ``forces``. The ball and floating joints, whose
        velocities are angular velocities, do not allow it."""
        method = "AddInOneForce"
        if not isinstance(joint_dof, numbers.Integral):
            raise self._type_error(method, "joint_dof", "an int", joint_dof)
        dof = int(joint_dof)
        tau = self._as_float(joint_tau, "joint_tau", method)
        if not 0 <= dof < self._nv:
            raise self._error(
                method, f"joint_dof must be in [0, {self._nv}) (num_velocities()), got {dof}"
            )
        tau_joint = self._generalized_forces(context, forces, method)
        if self.kTypeName in _NO_ONE_FORCE:
            raise RuntimeError(
                f"{_NO_ONE_FORCE[self.kTypeName]} joints do not allow applying forces to "
                "individual degrees of freedom."
            )
        tau_joint[dof] += tau

    def AddInDamping(self, context, forces):
        """Adds this joint's damping forces, −d·v per velocity (d from ``context``), to
        ``forces``."""
        tau_joint = self._generalized_forces(context, forces, "AddInDamping")
        damping = self._plant_with(context, "AddInDamping")._parameters(context).damping
        v = self._velocities(context, "AddInDamping")
        tau_joint -= damping[self._v_start : self._v_start + self._nv] * v

    # ---- state in a Context --------------------------------------------------------------
    def _positions(self, context, method, start=0, n=None):
        """Positions ``start, ..., start + n - 1`` (default: to the last) of this joint in
        ``context``, as a new array."""
        q = self._plant_with(context, method)._q(context)
        q0 = self._q_start + start
        return q[q0 : self._q_start + self._nq if n is None else q0 + n].copy()

    def _velocities(self, context, method, start=0, n=None):
        """Velocities ``start, ..., start + n - 1`` (default: to the last) of this joint in
        ``context``, as a new array."""
        v = self._plant_with(context, method)._v(context)
        v0 = self._v_start + start
        return v[v0 : self._v_start + self._nv if n is None else v0 + n].copy()

    def _set_positions(self, context, values, method, start=0):
        """Writes ``values`` to positions ``start, start + 1, ...``; returns this joint."""
        q = self._plant_with(context, method)._mutable_q(context)
        q0 = self._q_start + start
        q[q0 : q0 + np.size(values)] = values
        return self

    def _set_velocities(self, context, values, method, start=0):
        """Writes ``values`` to velocities ``start, start + 1, ...``; returns this joint."""
        v = self._plant_with(context, method)._mutable_v(context)
        v0 = self._v_start + start
        v[v0 : v0 + np.size(values)] = values
        return self

    def _single_dof(self, method):
        if self._nq != 1 or self._nv != 1:
            raise self._error(
                method,
                f"requires a joint with one degree of freedom; this {self.kTypeName} joint has "
                f"{self._nq} positions and {self._nv} velocities",
            )

    def GetOnePosition(self, context):
        """The position of a single-dof joint."""
        self._single_dof("GetOnePosition")
        return as_scalar(self._positions(context, "GetOnePosition")[0])

    def GetOneVelocity(self, context):
        """The velocity of a single-dof joint."""
        self._single_dof("GetOneVelocity")
        return as_scalar(self._velocities(context, "GetOneVelocity")[0])

    def Lock(self, context):
        """Locks this joint in ``context``: its velocities are set to zero and stay zero."""
        plant = self._plant_with(context, "Lock")
        plant._mutable_parameters(context).locked[self._ordinal] = True
        self._set_velocities(context, np.zeros(self._nv), "Lock")

    def Unlock(self, context):
        """Unlocks this joint in ``context``."""
        plant = self._plant_with(context, "Unlock")
        plant._mutable_parameters(context).locked[self._ordinal] = False

    def is_locked(self, context):
        """True if this joint is locked in ``context``."""
        plant = self._plant_with(context, "is_locked")
        return bool(plant._parameters(context).locked[self._ordinal])

    # ---- default pose (implemented by the floating joints) -------------------------------
    def GetDefaultPose(self):
        """X_FM of the default positions (floating joints only)."""
        return RigidTransform(*self.GetDefaultPosePair())

    def SetDefaultPose(self, X_FM):
        """Sets the default positions to those of the pose X_FM (floating joints only)."""
        self._as_instance(X_FM, RigidTransform, "X_FM", "SetDefaultPose")
        self.SetDefaultPosePair(X_FM.rotation().ToQuaternion(), X_FM.translation())

    def GetDefaultPosePair(self):
        """(q_FM, p_FM): the default pose as a Quaternion and p_FoMo_F (floating joints only)."""
        raise RuntimeError(f"GetDefaultPose(): not implemented for joint type {self.kTypeName}.")

    def SetDefaultPosePair(self, q_FM, p_FM):
        """Sets the default pose from a Quaternion q_FM and p_FoMo_F (floating joints only)."""
        self._as_instance(q_FM, Quaternion, "q_FM", "SetDefaultPosePair")
        self._as_vector(p_FM, 3, "p_FM", "SetDefaultPosePair")
        raise RuntimeError(f"SetDefaultPose(): not implemented for joint type {self.kTypeName}.")

    # ---- random distributions ------------------------------------------------------------
    def _as_expression(self, value, what, method):
        """``value`` (a float, Variable or Expression) as an Expression; TypeError otherwise."""
        from mallard.symbolic import Expression, Variable

        if isinstance(value, (Expression, Variable)):
            return Expression(value)
        if to_float(value) is None:
            raise self._type_error(method, what, "an Expression", value)
        return Expression(to_float(value))

    def _as_expressions(self, value, n, what, method):
        """``value`` (n floats, Variables or Expressions as a 1-D array or a column) as a 1-D
        object array of Expressions; TypeError otherwise."""
        from mallard.symbolic import Expression, Variable

        a = np.asarray(value, dtype=object)
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)) or a.size != n:
            raise self._type_error(method, what, f"a vector of {n} Expressions", value)
        for x in a.flat:
            if not isinstance(x, (Expression, Variable)) and to_float(x) is None:
                raise self._type_error(method, what, f"a vector of {n} Expressions", value)
        return np.array([Expression(x) for x in a.flat], dtype=object)

    def _set_random_positions(self, values, method, start=0):
        """Sets positions ``start, start + 1, ...`` of this joint's random distribution to the
        Expressions ``values``; the other positions keep theirs, or take the zero
        configuration's values if none was set. The plant's SetRandomState draws q from it
        and sets v to zero. RuntimeError unless the plant is finalized (Drake keeps the
        distribution in the joint's mobilizer, which Finalize() makes)."""
        self._finalized(method)
        if self._random_q is None:
            from mallard.symbolic import Expression

            self._random_q = np.array(
                [Expression(float(x)) for x in self._zero_configuration()], dtype=object
            )
        self._random_q[start : start + len(values)] = values

    def _sample_random_positions(self, generator):
        """q drawn from this joint's random distribution with ``generator`` (its random
        variables once each, in id order), or None if it has no distribution."""
        if self._random_q is None:
            return None
        from mallard.symbolic import Evaluate

        return Evaluate(self._random_q, generator=generator).reshape(-1)

    # ---- for the plant -------------------------------------------------------------------
    def _jparam(self):
        """This joint's row of kinematic constants for the kernels: (axis; screw pitch), 4
        floats."""
        return (0.0, 0.0, 0.0, 0.0)
