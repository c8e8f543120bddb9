"""MultibodyPlant state access: positions and velocities in a Context or a State, per model
instance and in arrays, default state, and the free-body API."""

import numpy as np

from mallard._compiled import kernels
from mallard._scalar import as_array
from mallard.common._pybind import overloads
from mallard.math import RigidTransform
from mallard.multibody.math import SpatialVelocity
from mallard.multibody.tree._floating_joint import FloatingJoint
from mallard.multibody.tree._indices import ModelInstanceIndex
from mallard.multibody.tree._multibody_element import use_instead, warn_deprecated
from mallard.multibody.tree._rigid_body import RigidBody
from mallard.systems.framework import State

_F64 = np.dtype(np.float64)
_CONTIGUOUS = (8,)  # the strides of a contiguous float64 vector


def _vector(value, name):
    a = as_array(value, name=name)
    return a.reshape(-1) if a.ndim == 2 and 1 in a.shape else a


def _check_size(a, n, method, what):
    """``a`` if it is a vector of n finite values; RuntimeError naming ``method`` otherwise."""
    if a.ndim != 1 or a.shape[0] != n:
        raise RuntimeError(
            f"{method}(): {what} must have size {n}, got an array of shape {a.shape}"
        )
    if a.dtype == np.float64 and not np.all(np.isfinite(a)):
        raise RuntimeError(f"{method}(): {what} must be finite, got {a.tolist()}")
    return a


def _split_instance(args, kwargs, value_name):
    """(model_instance or None, value) from ``(value)`` or ``(model_instance, value)``."""
    args = list(args)
    mi = kwargs.pop("model_instance", None)
    if args and isinstance(args[0], ModelInstanceIndex):
        mi = args.pop(0)
    if args:
        value = args.pop(0)
    elif value_name in kwargs:
        value = kwargs.pop(value_name)
    else:
        raise TypeError(f"missing argument {value_name!r}")
    if args or kwargs:
        raise TypeError(f"unexpected arguments {args or list(kwargs)}")
    return mi, value


class StateAccessMixin:
    """State access methods of MultibodyPlant."""

    _copy_if_finite = None  # the setters' compiled copy (see _set_fast), made on first use

    # ---- the state vector x = [q; v] of a Context or State -------------------------------
    def _x_of(self, state):
        if self._time_step > 0:
            return state._discrete._groups[0]._data
        return state._continuous._vector._data

    def _x(self, context):
        """x = [q; v] of ``context`` (validated), to read."""
        self.ValidateContext(context)
        return self._x_of(context._state)

    def _q(self, context):
        return self._x(context)[: self._nq]

    def _v(self, context):
        return self._x(context)[self._nq :]

    def _mutable_q(self, context):
        """q of ``context``, to write: marks what depends on q out of date."""
        x = self._x(context)
        context._q_changed()
        return x[: self._nq]

    def _mutable_v(self, context):
        """v of ``context``, to write: marks what depends on v out of date."""
        x = self._x(context)
        context._v_changed()
        return x[self._nq :]

    def _state_x(self, context, state, method):
        """x of ``state`` (a State of ``context``, which is validated), to write."""
        self.ValidateContext(context)
        if not isinstance(state, State):
            raise TypeError(f"{method}(): state must be a State, got {type(state).__name__}")
        if state is context._state:
            context._state_changed()
        return self._x_of(state)

    def _instance_slots(self, model_instance, which):
        self._check_instance(model_instance)
        return (self._instance_q if which == "q" else self._instance_v)[int(model_instance)]

    # ---- getters -------------------------------------------------------------------------
    def GetPositionsAndVelocities(self, context, model_instance=None):
        """x = [q; v] (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("GetPositionsAndVelocities")
        x = self._x(context)
        if model_instance is None:
            return x.copy()
        q = x[self._instance_slots(model_instance, "q")]
        v = x[self._nq + self._instance_slots(model_instance, "v")]
        return np.concatenate((q, v))

    def GetPositions(self, context, model_instance=None):
        """q (of ``model_instance``, if given: its positions in increasing q order)."""
        self._throw_if_not_finalized("GetPositions")
        q = self._q(context)
        if model_instance is None:
            return q.copy()
        return q[self._instance_slots(model_instance, "q")]

    def GetVelocities(self, context, model_instance=None):
        """v (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("GetVelocities")
        v = self._v(context)
        if model_instance is None:
            return v.copy()
        return v[self._instance_slots(model_instance, "v")]

    # ---- setters -------------------------------------------------------------------------
    def _set(self, context, args, kwargs, value_name, which, method):
        """Sets q, v or x of a Context, or of a State of it: ``(context, [state,]
        [model_instance,] value)``."""
        self._throw_if_not_finalized(method)
        args = list(args)
        state = kwargs.pop("state", None)
        if args and isinstance(args[0], State):
            state = args.pop(0)
        mi, value = _split_instance(args, kwargs, value_name)
        if state is None:
            self.ValidateContext(context)
            x = self._x_of(context._state)
            {"q": context._q_changed, "v": context._v_changed}.get(which, context._state_changed)()
        else:
            x = self._state_x(context, state, method)
        value = _vector(value, value_name)
        if which == "x":
            if mi is None:
                x[:] = _check_size(value, x.shape[0], method, value_name)
                return
            q_slots = self._instance_slots(mi, "q")
            v_slots = self._nq + self._instance_slots(mi, "v")
            slots = np.concatenate((q_slots, v_slots))
        else:
            offset = 0 if which == "q" else self._nq
            if mi is None:
                n = self._nq if which == "q" else self._nv
                x[offset : offset + n] = _check_size(value, n, method, value_name)
                return
            slots = offset + self._instance_slots(mi, which)
        x[slots] = _check_size(value, slots.shape[0], method, value_name)

    def _set_fast(self, context, args, kwargs, start, size):
        """The common case of a setter, ``(context, values)`` with a float64 vector of the
        right size, finite, for a float64 Context of this plant: copies and returns True;
        else returns False (the general path then validates and reports)."""
        try:
            if len(args) != 1 or kwargs or context._system is not self:
                return False
        except AttributeError:  # not a Context: the general path reports it
            return False
        values = args[0]
        if (
            type(values) is not np.ndarray
            or values.dtype is not _F64
            or values.strides != _CONTIGUOUS
            or values.shape != (size,)
        ):
            return False
        x = self._x_of(context._state)
        if x.dtype is not _F64:
            return False
        copy = self._copy_if_finite
        if copy is None:
            # Called without numba's dispatch: values and x are contiguous float64 vectors
            # (state vectors always are).
            compiled = kernels(_F64)
            copy = self._copy_if_finite = compiled.bind("copy_if_finite", args=(values, x, 0))
        return copy(values, x, start)

    @overloads(
        "context, q_v", "context, model_instance, q_v", "context, state, model_instance, q_v"
    )
    def SetPositionsAndVelocities(self, context, *args, **kwargs):
        """Sets x = [q; v]: ``(context, q_v)`` or ``(context, model_instance, q_v)``."""
        if self._is_finalized and self._set_fast(context, args, kwargs, 0, self._nq + self._nv):
            context._state_changed()
            return
        self._set(context, args, kwargs, "q_v", "x", "SetPositionsAndVelocities")

    @overloads("context, q", "context, model_instance, q", "context, state, model_instance, q")
    def SetPositions(self, context, *args, **kwargs):
        """Sets q: ``(context, q)``, ``(context, model_instance, q)`` or
        ``(context, state, model_instance, q)``."""
        if self._is_finalized and self._set_fast(context, args, kwargs, 0, self._nq):
            context._q_changed()
            return
        self._set(context, args, kwargs, "q", "q", "SetPositions")

    @overloads("context, v", "context, model_instance, v", "context, state, model_instance, v")
    def SetVelocities(self, context, *args, **kwargs):
        """Sets v: ``(context, v)``, ``(context, model_instance, v)`` or
        ``(context, state, model_instance, v)``."""
        if self._is_finalized and self._set_fast(context, args, kwargs, self._nq, self._nv):
            context._v_changed()
            return
        self._set(context, args, kwargs, "v", "v", "SetVelocities")

    # ---- arrays --------------------------------------------------------------------------
    def _array_slots(self, model_instance, which):
        """(size of the full array, ``model_instance``'s slots in it) for q, v or u."""
        self._throw_if_not_finalized("num_actuated_dofs" if which == "u" else "num_positions")
        self._check_instance(model_instance)
        full = {"q": self._nq, "v": self._nv, "u": len(self._actuators)}[which]
        slots = {"q": self._instance_q, "v": self._instance_v, "u": self._instance_u}[which]
        return full, slots[int(model_instance)]

    def _from_array(self, model_instance, array, which):
        n, slots = self._array_slots(model_instance, which)
        a = _vector(array, which)
        if a.ndim != 1 or a.shape[0] != n:
            raise RuntimeError("Passed in array is not properly sized.")
        return a[slots]

    def _in_array(self, model_instance, values, array, which, method):
        n, slots = self._array_slots(model_instance, which)
        if not isinstance(array, np.ndarray) or not array.flags.writeable:
            raise TypeError(
                f"{method}(): the output array {which} must be a writeable numpy array, got "
                f"{type(array).__name__}"
            )
        values = _vector(values, f"{which}_instance")
        if array.ndim != 1 or array.shape[0] != n or values.shape != slots.shape:
            raise RuntimeError("Passed in array(s) is not properly sized.")
        array[slots] = values

    def GetPositionsFromArray(self, model_instance, q):
        """The positions of ``model_instance`` taken out of a full q."""
        return self._from_array(model_instance, q, "q")

    def GetVelocitiesFromArray(self, model_instance, v):
        """The velocities of ``model_instance`` taken out of a full v."""
        return self._from_array(model_instance, v, "v")

    def GetActuationFromArray(self, model_instance, u):
        """The actuation of ``model_instance`` taken out of a full actuation vector u."""
        return self._from_array(model_instance, u, "u")

    def SetPositionsInArray(self, model_instance, q_instance, q):
        """Writes ``q_instance`` into ``model_instance``'s slots of the array ``q``."""
        self._in_array(model_instance, q_instance, q, "q", "SetPositionsInArray")

    def SetVelocitiesInArray(self, model_instance, v_instance, v):
        """Writes ``v_instance`` into ``model_instance``'s slots of the array ``v``."""
        self._in_array(model_instance, v_instance, v, "v", "SetVelocitiesInArray")

    def SetActuationInArray(self, model_instance, u_instance, u):
        """Writes ``u_instance`` into ``model_instance``'s slots of the actuation array ``u``."""
        self._in_array(model_instance, u_instance, u, "u", "SetActuationInArray")

    # ---- defaults ------------------------------------------------------------------------
    def SetDefaultState(self, context, state):
        """Sets ``state`` to the joints' default positions and zero velocities."""
        self._throw_if_not_finalized("SetDefaultState")
        self.ValidateContext(context)
        x = self._state_x(context, state, "SetDefaultState")
        x[:] = 0.0
        x[: self._nq] = self._joints_default_q()

    def _joints_default_q(self):
        """The joints' default positions, each in its slots of q: in mobod order (q is
        assigned so), as one array (of their scalars)."""
        joints = self._joints
        q = [joints[j]._default_q for j in self._topology.mobod_joint[1:].tolist()]
        return np.concatenate(q) if q else np.zeros(0)

    def GetDefaultPositions(self, model_instance=None):
        """The default q (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("GetDefaultPositions")
        q = np.empty(self._nq)
        q[:] = self._joints_default_q()
        if model_instance is None:
            return q
        return q[self._instance_slots(model_instance, "q")]

    @overloads("q", "model_instance, q_instance")
    def SetDefaultPositions(self, *args, **kwargs):
        """Sets the joints' default positions from a full q, or ``(model_instance, q_instance)``."""
        self._throw_if_not_finalized("SetDefaultPositions")
        with_instance = "model_instance" in kwargs or (
            args and isinstance(args[0], ModelInstanceIndex)
        )
        mi, q = _split_instance(args, kwargs, "q_instance" if with_instance else "q")
        q = _vector(q, "q")
        full = self.GetDefaultPositions()
        if mi is None:
            _check_size(q, self._nq, "SetDefaultPositions", "q")
            full[:] = q
        else:
            slots = self._instance_slots(mi, "q")
            _check_size(q, slots.shape[0], "SetDefaultPositions", "q_instance")
            full[slots] = q
        if not np.all(np.isfinite(full)):
            raise RuntimeError("SetDefaultPositions(): the positions must be finite")
        for j in self._joints:
            j.set_default_positions(full[j._q_start : j._q_start + j.num_positions()])

    # ---- free bodies ---------------------------------------------------------------------
    def _free_joint(self, body, method, floating_base=False):
        """The floating joint mobilizing ``body``; RuntimeError unless there is one (added by
        the plant at Finalize(), if ``floating_base``)."""
        if not isinstance(body, RigidBody):
            raise TypeError(f"{method}(): body must be a RigidBody, got {type(body).__name__}")
        self._throw_if_not_finalized(method)
        self._check_body_of_plant(body, method)
        joint = self._inboard_joint(body)
        if floating_base and not (joint is not None and joint.is_ephemeral()):
            raise RuntimeError(f"{method}(): body '{body.name()}' is not a floating base body.")
        if not isinstance(joint, FloatingJoint) or joint.child_body() is not body:
            raise RuntimeError(f"Body '{body.name()}' is not a free body.")
        return joint

    def GetFreeBodyPose(self, context, body):
        """X_JpJc: the pose of the free ``body``'s frame in its floating joint's parent frame
        (World for the floating joints the plant adds)."""
        return self._free_joint(body, "GetFreeBodyPose").GetPose(context)

    @overloads("context, body, X_JpJc", "context, body, X_PB", "context, state, body, X_JpJc")
    def SetFreeBodyPose(self, context, *args, **kwargs):
        """Sets the free ``body``'s pose in its joint's parent frame: ``(context, body, X_PB)``
        or ``(context, state, body, X_PB)``."""
        args = list(args)
        state = args.pop(0) if args and isinstance(args[0], State) else kwargs.pop("state", None)
        body = args.pop(0) if args else kwargs.pop("body")
        X = args.pop(0) if args else kwargs.pop("X_PB", kwargs.pop("X_JpJc", None))
        if not isinstance(X, RigidTransform):
            raise TypeError(f"SetFreeBodyPose(): X_PB must be a RigidTransform, got {X!r}")
        joint = self._free_joint(body, "SetFreeBodyPose")
        q = np.concatenate((joint._orientation_from_R(X._R._R), X._p))
        if state is None:
            joint._set_positions(context, q, "SetFreeBodyPose")
        else:
            self._state_x(context, state, "SetFreeBodyPose")[
                joint._q_start : joint._q_start + joint.num_positions()
            ] = q

    def SetFloatingBaseBodyPoseInWorldFrame(self, context, body, X_WB):
        """Sets the pose in World of a floating base body."""
        self._free_joint(body, "SetFloatingBaseBodyPoseInWorldFrame", floating_base=True)
        self.SetFreeBodyPose(context, body, X_WB)

    @overloads("context, body, V_JpJc", "body, V_PB, context", "context, state, body, V_JpJc")
    def SetFreeBodySpatialVelocity(self, *args, **kwargs):
        """Sets the free ``body``'s spatial velocity in its joint's parent frame:
        ``(context, body, V_PB)`` or ``(context, state, body, V_PB)``."""
        args = list(args)
        if args and isinstance(args[0], RigidBody):  # pydrake's deprecated order
            warn_deprecated(
                "The parameter order and V_PB parameter name for SetFreeBodySpatialVelocity() "
                "are deprecated and will be removed 2026-06-01. Use context, body, V_JpJc "
                "instead."
            )
            body, V, context = args
            state = None
        else:
            context = args.pop(0) if args else kwargs.pop("context")
            state = (
                args.pop(0) if args and isinstance(args[0], State) else kwargs.pop("state", None)
            )
            body = args.pop(0) if args else kwargs.pop("body")
            V = args.pop(0) if args else kwargs.pop("V_PB", kwargs.pop("V_JpJc", None))
        if not isinstance(V, SpatialVelocity):
            raise TypeError(f"SetFreeBodySpatialVelocity(): expected a SpatialVelocity, got {V!r}")
        joint = self._free_joint(body, "SetFreeBodySpatialVelocity")
        if state is None:
            joint._set_velocities(context, V._c, "SetFreeBodySpatialVelocity")
        else:
            x = self._state_x(context, state, "SetFreeBodySpatialVelocity")
            x[self._nq + joint._v_start : self._nq + joint._v_start + 6] = V._c

    def SetFloatingBaseBodyPoseInAnchoredFrame(self, context, frame_F, body, X_FB):
        """Sets the pose of a floating base body so that its pose in the anchored frame F is
        X_FB."""
        self._throw_if_not_finalized("SetFloatingBaseBodyPoseInAnchoredFrame")
        self._check_frame(frame_F, "frame_F")
        self._free_joint(body, "SetFloatingBaseBodyPoseInAnchoredFrame", floating_base=True)
        if not self.IsAnchored(frame_F.body()):
            raise RuntimeError(f"Frame '{frame_F.name()}' must be anchored to the world frame.")
        X_WF = frame_F.CalcPoseInWorld(context)
        self.SetFreeBodyPose(context, body, X_WF @ X_FB)

    def SetFreeBodyPoseInAnchoredFrame(self, context, frame_F, body, X_FB):
        """Same as SetFloatingBaseBodyPoseInAnchoredFrame."""
        self.SetFloatingBaseBodyPoseInAnchoredFrame(context, frame_F, body, X_FB)

    def SetDefaultFloatingBaseBodyPose(self, body, X_WB):
        """Sets the default pose in World of ``body`` if it becomes (or is) a floating base
        body; otherwise it has no effect."""
        if not isinstance(X_WB, RigidTransform):
            raise TypeError(f"X_WB must be a RigidTransform, got {X_WB!r}")
        self._default_floating_poses[int(body.index())] = RigidTransform(X_WB)
        if self._is_finalized:
            joint = self._inboard_joint(body)
            if joint is not None and joint.is_ephemeral():
                joint.SetDefaultPose(X_WB)

    def SetDefaultFreeBodyPose(self, body, X_PB):
        """Deprecated: use SetDefaultFloatingBaseBodyPose."""
        warn_deprecated(use_instead("SetDefaultFloatingBaseBodyPose"))
        self.SetDefaultFloatingBaseBodyPose(body, X_PB)

    def GetDefaultFloatingBaseBodyPose(self, body):
        """The default pose in World of ``body`` as a floating base body (identity if unset)."""
        if self._is_finalized:
            joint = self._inboard_joint(body)
            if joint is not None and joint.is_ephemeral():
                return joint.GetDefaultPose()
        pose = self._default_floating_poses.get(int(body.index()))
        return RigidTransform() if pose is None else RigidTransform(pose)

    def GetDefaultFreeBodyPose(self, body):
        """Deprecated: use GetDefaultFloatingBaseBodyPose."""
        warn_deprecated(use_instead("GetDefaultFloatingBaseBodyPose"))
        return self.GetDefaultFloatingBaseBodyPose(body)
