"""What the one-dof joints share. RevoluteJoint, PrismaticJoint and ScrewJoint move M along
or about a unit axis â fixed in F (â_F = â_M), with one damping coefficient d (τ = −d·v);
RevoluteJoint and PrismaticJoint also take position limits and have scalar limit getters."""

import math

import numpy as np

from mallard._scalar import as_scalar
from mallard.multibody.tree._joint import _JOINT_DEFAULTS, Joint
from mallard.multibody.tree._joint_axis import EPSILON, unit_axis
from mallard.multibody.tree._multibody_element import unplaced


class SingleDofJoint(Joint):
    """A joint with one position and one velocity along or about an axis (abstract)."""

    _nq = 1
    _nv = 1
    #: How pydrake's messages name the type ("Revolute"), and its zero-axis tolerance.
    _kind = None
    _axis_tolerance = EPSILON
    #: Meters of translation along the axis per revolution (screw joints only).
    _pitch = 0.0

    def __init__(
        self,
        name,
        frame_on_parent,
        frame_on_child,
        axis,
        damping,
        pos_lower_limit=-np.inf,
        pos_upper_limit=np.inf,
    ):
        super().__init__(name, frame_on_parent, frame_on_child)
        if type(pos_lower_limit) is float and type(pos_upper_limit) is float:  # (the common case)
            lower, upper = pos_lower_limit, pos_upper_limit
        else:
            lower = self._as_float(pos_lower_limit, "pos_lower_limit", "__init__")
            upper = self._as_float(pos_upper_limit, "pos_upper_limit", "__init__")
        d = damping if type(damping) is float else self._as_float(damping, "damping", "__init__")
        if type(lower) is float and type(upper) is float and lower <= upper:
            if lower != -math.inf or upper != math.inf:
                self._pos_lower, self._pos_upper = np.array([lower]), np.array([upper])
        else:
            self._pos_lower, self._pos_upper = self._checked_limits(
                [lower], [upper], 1, "position", "__init__"
            )
        self._axis = unit_axis(self, axis, self._axis_tolerance)
        if not d >= 0:
            raise RuntimeError(f"{self._kind} joint damping must be nonnegative.")
        if not (type(d) is float and d == 0.0 and math.copysign(1.0, d) > 0):
            self._default_damping = np.array([d])
            self._default_damping.flags.writeable = False  # (as _all_checked's, shared)

    # ---- the coordinate and its rate -----------------------------------------------------
    def _get_position(self, context, method):
        return as_scalar(self._positions(context, method)[0])

    def _get_velocity(self, context, method):
        return as_scalar(self._velocities(context, method)[0])

    def _set_position(self, context, value, what, method):
        return self._set_positions(context, self._as_float(value, what, method), method)

    def _set_velocity(self, context, value, what, method):
        return self._set_velocities(context, self._as_float(value, what, method), method)

    def _set_default_position(self, value, what, method):
        self._default_q = np.array([self._as_float(value, what, method)])

    # ---- damping -------------------------------------------------------------------------
    def default_damping(self):
        """The default damping coefficient d."""
        return float(self._default_damping[0])

    def GetDamping(self, context):
        """The damping coefficient in ``context``."""
        return as_scalar(self.GetDampingVector(context)[0])

    def SetDamping(self, context, damping):
        """Sets the damping coefficient in ``context`` (non-negative)."""
        self._set_damping(context, [self._as_float(damping, "damping", "SetDamping")], "SetDamping")

    def _jparam(self):
        return (*self._axis.tolist(), float(self._pitch))


class LimitedSingleDofJoint(SingleDofJoint):
    """A revolute or prismatic joint: scalar limits and a settable default damping."""

    @classmethod
    def _new(cls, name, frame_on_parent, frame_on_child, axis, damping, pos_lower_limit,
             pos_upper_limit):  # fmt: skip
        """The revolute or prismatic joint of these arguments, all given in this order (the
        constructor without the binding of its overloads)."""
        joint = object.__new__(cls)
        SingleDofJoint.__init__(
            joint, name, frame_on_parent, frame_on_child, axis, damping, pos_lower_limit,
            pos_upper_limit,
        )  # fmt: skip
        return joint

    @classmethod
    def _checked(cls, name, frame_on_parent, frame_on_child, axis, limit_row, damping=None):
        """The joint that ``_new`` makes of arguments a caller has checked and converted: a
        non-empty str, two Frames, ``axis`` the unit axis unit_axis returns (a float array of
        3), ``limit_row`` its limits' (rows, j) as Joint._init_fields takes it (each lower ≤
        upper, ∓∞ where not given), ``damping`` a float ≥ 0 other than +0.0, or None (zero:
        the shared default)."""
        return LimitedSingleDofJoint._all_checked(
            (cls,), (name,), (frame_on_parent,), (frame_on_child,), (axis,), (limit_row,),
            (damping,),
        )[0]  # fmt: skip

    @staticmethod
    def _all_checked(classes, names, frames_on_parent, frames_on_child, axes, limit_rows,
                     dampings, places=None):  # fmt: skip
        """The joints ``_checked`` makes: of each class of ``classes`` (RevoluteJoint or
        PrismaticJoint) and its arguments of the other lists, in one loop (a parser's
        document: no call per joint). The fields are Joint._init_fields' with a limit row,
        in its order, then the axis (a test compares them); the joints of one damping share
        its array (read-only: setters replace it, never write it). ``places``: None (not in
        a plant), or (plant, their indices, their ordinals), sequences: their places in the
        plant that adds them (MultibodyPlant._add_joints_in_rows)."""
        plant, indices, ordinals = places or unplaced(len(names), 2)
        joints, new = [], object.__new__  # (new: the loop's one lookup of object.__new__)
        damped = {}  # (a damping's read-only array, shared by the joints of that damping)
        for cls, name, F, M, axis, row, damping, index, ordinal in zip(
            classes, names, frames_on_parent, frames_on_child, axes, limit_rows, dampings,
            indices, ordinals, strict=True,
        ):  # fmt: skip
            defaults = _JOINT_DEFAULTS.get(cls) or cls._shared_defaults()
            joint = new(cls)
            joint._plant = plant
            joint._index = index
            joint._ordinal = ordinal
            joint._model_instance = M._model_instance
            joint._ephemeral = False
            joint._name = name
            joint._frame_on_parent = F
            joint._frame_on_child = M
            joint._limit_row = row
            if damping is None:
                joint._default_damping = defaults[4]
            else:
                d = damped.get(damping)
                if d is None:
                    d = damped[damping] = np.array([damping])
                    d.flags.writeable = False
                joint._default_damping = d
            zero = defaults[5]
            joint._default_q = joint._zero_configuration() if zero is None else zero
            joint._random_q = None
            joint._q_start = None
            joint._v_start = None
            joint._axis = axis
            joints.append(joint)
        return joints

    def position_lower_limit(self):
        return float(self._pos_lower[0])

    def position_upper_limit(self):
        return float(self._pos_upper[0])

    def velocity_lower_limit(self):
        return float(self._vel_lower[0])

    def velocity_upper_limit(self):
        return float(self._vel_upper[0])

    def acceleration_lower_limit(self):
        return float(self._acc_lower[0])

    def acceleration_upper_limit(self):
        return float(self._acc_upper[0])

    def set_default_damping(self, damping):
        """Sets the default damping coefficient (non-negative); only before Finalize()."""
        d = self._as_float(damping, "damping", "set_default_damping")
        self._set_default_damping([d], "set_default_damping")


def bind_overloads(cls_name, overloads, args, kwargs):
    """The argument values of the first overload, a (names, defaults) pair, that the call
    binds to (as pybind11 picks one); TypeError listing the overloads if none does."""
    if not kwargs:  # (the common case: positional arguments, the defaults they leave)
        tail = _positional_tail(overloads, len(args))
        if tail is not None:
            return [*args, *tail]
    for names, defaults in overloads:
        if len(args) > len(names) or not set(kwargs) <= set(names[len(args) :]):
            continue
        values = {**dict(zip(names, args, strict=False)), **kwargs}
        if all(n in values or n in defaults for n in names):
            return [values[n] if n in values else defaults[n] for n in names]
    listing = "\n".join(
        f"    {cls_name}({', '.join(f'{n}={defaults[n]}' if n in defaults else n for n in names)})"
        for names, defaults in overloads
    )
    raise TypeError(
        f"{cls_name}: incompatible constructor arguments. The supported signatures are:\n{listing}"
    )


_TAILS = {}  # (id of a module's overload table, count) -> _positional_tail's answer


def _positional_tail(overloads, count):
    """The default values that complete ``count`` positional arguments in the first of the
    ``overloads`` they bind to, or None if they bind to none (remembered: overload tables are
    module constants, of immutable defaults)."""
    key = (id(overloads), count)
    if key in _TAILS:
        return _TAILS[key]
    tail = None
    for names, defaults in overloads:
        if count <= len(names) and all(n in defaults for n in names[count:]):
            tail = tuple(defaults[n] for n in names[count:])
            break
    _TAILS[key] = tail
    return tail
