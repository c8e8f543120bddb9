"""Frames: the abstract Frame, the RigidBodyFrame of each body, and FixedOffsetFrame.

A frame F is fixed on a body B; its pose X_BF in B is a parameter (constant in time). Pose and
motion queries go through the parent plant's kinematics.
"""

import numpy as np

from mallard.common._pybind import overloads
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.math import SpatialAcceleration, SpatialVelocity
from mallard.multibody.tree._indices import FrameIndex
from mallard.multibody.tree._multibody_element import FieldInRow, MultibodyElement, unplaced


def _require_frame(frame, name):
    if not isinstance(frame, Frame):
        raise TypeError(f"{name} must be a Frame, got {type(frame).__name__}")
    return frame


def _check_name(name):
    if not isinstance(name, str) or name == "":
        raise RuntimeError("The name parameter to the Frame constructor is required.")


def _transform(R, p):
    return RigidTransform._make(R, p)


def _relative_velocity(R_WM, p_WM, V_WM, p_WF, V_WF, R_WE):
    """V_MF_E from the World poses and spatial velocities of frames M and F."""
    w_MF_W = V_WF[:3] - V_WM[:3]
    p_MoFo_W = p_WF - p_WM
    w_WM = V_WM[:3]
    v_MFo_W = (
        V_WF[3:]
        - V_WM[3:]
        - np.array(
            [
                w_WM[1] * p_MoFo_W[2] - w_WM[2] * p_MoFo_W[1],
                w_WM[2] * p_MoFo_W[0] - w_WM[0] * p_MoFo_W[2],
                w_WM[0] * p_MoFo_W[1] - w_WM[1] * p_MoFo_W[0],
            ]
        )
    )
    R_EW = R_WE.T
    return np.concatenate((R_EW @ w_MF_W, R_EW @ v_MFo_W))


class Frame(MultibodyElement):
    """A material frame F fixed on a body B (abstract: see RigidBodyFrame and
    FixedOffsetFrame)."""

    _index_type = FrameIndex

    def __init__(self, name, body, model_instance=None):
        if type(self) is Frame:
            raise TypeError("mallard.multibody.tree.Frame: No constructor defined!")
        _check_name(name)
        self._init_fields(
            name, body, body.model_instance() if model_instance is None else model_instance
        )

    def _init_fields(self, name, body, model_instance):
        """Sets the fields of a frame of checked arguments."""
        MultibodyElement.__init__(self, model_instance)
        self._name = name
        self._body = body

    def name(self):
        return self._name

    def scoped_name(self):
        """The ScopedName ``model_instance_name::frame_name``."""
        return self.GetParentPlant()._scoped_name(self)

    def body(self):
        """The RigidBody this frame is fixed on."""
        return self._body

    def is_world_frame(self):
        return self._index is not None and int(self._index) == 0

    def is_body_frame(self):
        return False

    # ---- pose in the body (subclasses define _default_X_BF() -> (R_BF, p_BF)) -------------
    def _plant_with(self, context):
        plant = self.GetParentPlant()
        plant.ValidateContext(context)
        return plant

    def CalcPoseInBodyFrame(self, context):
        """X_BF, this frame's pose in its body's frame B (from the parameters in context)."""
        R, p = self._plant_with(context)._X_BF(context, self)
        return _transform(R.copy(), p.copy())

    def CalcRotationMatrixInBodyFrame(self, context):
        """R_BF."""
        R, _ = self._plant_with(context)._X_BF(context, self)
        return RotationMatrix._make(R.copy())

    def CalcOffsetPoseInBody(self, context, X_FQ):
        """X_BQ = X_BF · X_FQ for a frame Q given by its pose in this frame F."""
        return self.CalcPoseInBodyFrame(context) @ X_FQ

    def CalcOffsetRotationMatrixInBody(self, context, R_FQ):
        """R_BQ = R_BF · R_FQ."""
        return self.CalcRotationMatrixInBodyFrame(context) @ R_FQ

    def GetFixedPoseInBodyFrame(self):
        """X_BF from the default offsets (this frame's pose in its body is fixed)."""
        R, p = self._default_X_BF()
        return _transform(R, p)

    def GetFixedRotationMatrixInBodyFrame(self):
        """R_BF from the default offsets."""
        return RotationMatrix._make(self._default_X_BF()[0])

    def GetFixedOffsetPoseInBody(self, X_FQ):
        """X_BQ = X_BF · X_FQ from the default offsets."""
        return self.GetFixedPoseInBodyFrame() @ X_FQ

    def GetFixedRotationMatrixInBody(self, R_FQ):
        """R_BQ = R_BF · R_FQ from the default offsets."""
        return self.GetFixedRotationMatrixInBodyFrame() @ R_FQ

    # ---- pose in other frames ------------------------------------------------------------
    def CalcPoseInWorld(self, context):
        """X_WF."""
        R, p = self._plant_with(context)._X_WF(context, self)
        return _transform(R, p)

    def CalcPose(self, context, frame_M):
        """X_MF, this frame's pose in frame M."""
        _require_frame(frame_M, "frame_M")
        return self._plant_with(context).CalcRelativeTransform(context, frame_M, self)

    def CalcRotationMatrixInWorld(self, context):
        """R_WF."""
        return RotationMatrix._make(self._plant_with(context)._X_WF(context, self)[0])

    def CalcRotationMatrix(self, context, frame_M):
        """R_MF."""
        _require_frame(frame_M, "frame_M")
        return self._plant_with(context).CalcRelativeRotationMatrix(context, frame_M, self)

    # ---- velocities ----------------------------------------------------------------------
    def EvalAngularVelocityInWorld(self, context):
        """w_WF_W, this frame's angular velocity in World (that of its body)."""
        return self._plant_with(context)._V_WF(context, self)[:3].copy()

    def CalcSpatialVelocityInWorld(self, context):
        """V_WF_W: angular velocity of F and translational velocity of Fo, in World."""
        return SpatialVelocity._make(self._plant_with(context)._V_WF(context, self))

    def _V_MF_E(self, plant, context, frame_M, frame_E):
        R_WM, p_WM = plant._X_WF(context, frame_M)
        _, p_WF = plant._X_WF(context, self)
        R_WE = plant._X_WF(context, frame_E)[0]
        V_WM = plant._V_WF(context, frame_M)
        V_WF = plant._V_WF(context, self)
        return _relative_velocity(R_WM, p_WM, V_WM, p_WF, V_WF, R_WE)

    def CalcSpatialVelocity(self, context, frame_M, frame_E):
        """V_MF_E: F's spatial velocity measured in frame M, expressed in frame E."""
        _require_frame(frame_M, "frame_M")
        _require_frame(frame_E, "frame_E")
        plant = self._plant_with(context)
        return SpatialVelocity._make(self._V_MF_E(plant, context, frame_M, frame_E))

    def CalcAngularVelocity(self, context, measured_in_frame, expressed_in_frame):
        """w_MF_E: F's angular velocity measured in frame M, expressed in frame E."""
        _require_frame(measured_in_frame, "measured_in_frame")
        _require_frame(expressed_in_frame, "expressed_in_frame")
        plant = self._plant_with(context)
        w_WF_W = plant._V_WF(context, self)[:3]
        w_WM_W = plant._V_WF(context, measured_in_frame)[:3]
        R_WE = plant._X_WF(context, expressed_in_frame)[0]
        return R_WE.T @ (w_WF_W - w_WM_W)

    def CalcRelativeSpatialVelocity(
        self, context, other_frame, measured_in_frame, expressed_in_frame
    ):
        """V_M_BC_E = V_MC_E − V_MB_E for this frame C and ``other_frame`` B."""
        _require_frame(other_frame, "other_frame")
        _require_frame(measured_in_frame, "measured_in_frame")
        _require_frame(expressed_in_frame, "expressed_in_frame")
        plant = self._plant_with(context)
        V_MC_E = self._V_MF_E(plant, context, measured_in_frame, expressed_in_frame)
        V_MB_E = other_frame._V_MF_E(plant, context, measured_in_frame, expressed_in_frame)
        return SpatialVelocity._make(V_MC_E - V_MB_E)

    def CalcRelativeSpatialVelocityInWorld(self, context, other_frame):
        """V_W_BC_W = V_WC_W − V_WB_W for this frame C and ``other_frame`` B."""
        _require_frame(other_frame, "other_frame")
        plant = self._plant_with(context)
        return SpatialVelocity._make(plant._V_WF(context, self) - plant._V_WF(context, other_frame))

    # ---- accelerations (from forward dynamics) ---------------------------------------------
    def _plant_for_acceleration(self, context, *frames):
        """The plant, after pydrake's checks: finalized, then ``context`` valid for this
        frame's plant and for those of ``frames``."""
        plant = self.GetParentPlant()
        if not plant.is_finalized():
            raise RuntimeError(
                "From 'EvalSpatialAccelerationInWorld'. The model to which this rigid body "
                "belongs must be finalized. See MultibodyPlant::Finalize()."
            )
        plant.ValidateContext(context)
        for frame in frames:
            frame.GetParentPlant().ValidateContext(context)
        return plant

    def CalcSpatialAccelerationInWorld(self, context):
        """A_WF_W: F's angular acceleration and Fo's translational acceleration in World,
        from the forward dynamics of ``context``."""
        return SpatialAcceleration._make(self._plant_for_acceleration(context)._A_WF(context, self))

    def _A_MF_E(self, plant, context, frame_M, frame_E):
        """A_MF_E = [DtM(w_MF); DtM(v_MFo)] expressed in E, from World quantities."""
        A_WF = plant._A_WF(context, self)
        if frame_M.body() is plant.world_body():
            A_MF_W = A_WF
        else:
            A_WM = plant._A_WF(context, frame_M)
            V_WM = plant._V_WF(context, frame_M)
            V_WF = plant._V_WF(context, self)
            p = plant._X_WF(context, self)[1] - plant._X_WF(context, frame_M)[1]
            w_WM, alpha_WM = V_WM[:3], A_WM[:3]
            w_MF = V_WF[:3] - w_WM
            v_MFo = V_WF[3:] - V_WM[3:] - np.cross(w_WM, p)
            A_MF_W = np.concatenate(
                (
                    A_WF[:3] - alpha_WM - np.cross(w_WM, w_MF),
                    A_WF[3:]
                    - A_WM[3:]
                    - np.cross(alpha_WM, p)
                    - np.cross(w_WM, np.cross(w_WM, p))
                    - 2.0 * np.cross(w_WM, v_MFo),
                )
            )
        R_EW = plant._X_WF(context, frame_E)[0].T
        return np.concatenate((R_EW @ A_MF_W[:3], R_EW @ A_MF_W[3:]))

    def CalcSpatialAcceleration(self, context, measured_in_frame, expressed_in_frame):
        """A_MF_E: F's spatial acceleration measured in frame M, expressed in frame E:
        [α_MF = DtM(w_MF); a_MFo = DtM(v_MFo)]."""
        _require_frame(measured_in_frame, "measured_in_frame")
        _require_frame(expressed_in_frame, "expressed_in_frame")
        plant = self._plant_for_acceleration(context, measured_in_frame, expressed_in_frame)
        return SpatialAcceleration._make(
            self._A_MF_E(plant, context, measured_in_frame, expressed_in_frame)
        )

    def CalcRelativeSpatialAcceleration(
        self, context, other_frame, measured_in_frame, expressed_in_frame
    ):
        """A_M_BC_E = A_MC_E − A_MB_E for this frame C and ``other_frame`` B (its rotational
        part is DtM(w_BC), which in 3D is not α_BC)."""
        _require_frame(other_frame, "other_frame")
        _require_frame(measured_in_frame, "measured_in_frame")
        _require_frame(expressed_in_frame, "expressed_in_frame")
        plant = self._plant_for_acceleration(
            context, other_frame, measured_in_frame, expressed_in_frame
        )
        A_MC_E = self._A_MF_E(plant, context, measured_in_frame, expressed_in_frame)
        A_MB_E = other_frame._A_MF_E(plant, context, measured_in_frame, expressed_in_frame)
        return SpatialAcceleration._make(A_MC_E - A_MB_E)

    def CalcRelativeSpatialAccelerationInWorld(self, context, other_frame):
        """A_W_BC_W = A_WC_W − A_WB_W for this frame C and ``other_frame`` B."""
        _require_frame(other_frame, "other_frame")
        plant = self._plant_for_acceleration(context, other_frame)
        return SpatialAcceleration._make(
            plant._A_WF(context, self) - plant._A_WF(context, other_frame)
        )


class RigidBodyFrame(Frame):
    """The body frame B of a RigidBody, created with it (not constructible on its own)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("mallard.multibody.tree.RigidBodyFrame: No constructor defined!")

    @classmethod
    def _for_body(cls, body):
        frame = object.__new__(cls)
        frame._init_fields(body._name, body, body._model_instance)
        return frame

    def is_body_frame(self):
        return True

    def _default_X_BF(self):
        return np.eye(3), np.zeros(3)


def _pose_in_row(rows, j):
    """The RigidTransform of row j of ``rows`` [R (row by row, 9), p (3)] (views of the row)."""
    row = rows[j]
    return RigidTransform._make(row[:9].reshape(3, 3), row[9:])


class FixedOffsetFrame(Frame):
    """A frame F fixed to a parent frame P with pose X_PF (a parameter: its default is given
    here, the value in a Context may be changed with SetPoseInParentFrame)."""

    # (the default pose of a frame made with a pose row: see _in_row)
    _X_PF = FieldInRow("_pose_row", _pose_in_row)
    _pose_row = None

    @overloads("name, P, X_PF, model_instance=", "name, bodyB, X_BF")
    def __init__(self, name, *args, **kwargs):
        if (  # (the common case: (name, P, X_PF[, model_instance]) given positionally)
            not kwargs
            and 2 <= len(args) <= 3
            and isinstance(args[0], Frame)
            and type(args[1]) is RigidTransform
        ):
            P, X_PF = args[0], args[1]
            model_instance = args[2] if len(args) == 3 else None
        else:
            P, X_PF, model_instance = _parse_fixed_offset_args(args, kwargs)
        _check_name(name)
        if model_instance is None:
            model_instance = P._model_instance
        self._init_offset(name, P, X_PF, model_instance)

    @classmethod
    def _new(cls, name, P, X_PF, model_instance):
        """The frame of arguments a caller has checked (a non-empty str, a Frame, a
        RigidTransform, a ModelInstanceIndex): the constructor without its checks."""
        frame = object.__new__(cls)
        frame._init_offset(name, P, X_PF, model_instance)
        return frame

    @classmethod
    def _in_row(cls, name, P, pose_row, model_instance):
        """As ``_new``, X_PF that of its ``pose_row`` (rows, j) in a parser's read-only array
        of rows [R_PF (row by row, 9), p_PF (3)], made when asked for (FieldInRow; the plant's
        Finalize reads the rows)."""
        return cls._in_rows((name,), (P,), (pose_row,), (model_instance,))[0]

    @classmethod
    def _in_rows(cls, names, parents, pose_rows, model_instances, places=None, ephemeral=False):
        """The frames ``_in_row`` makes of each name of ``names`` (checked: non-empty strs)
        and its frame P of ``parents``, (rows, j) of ``pose_rows`` and ModelInstanceIndex of
        ``model_instances``, in one loop (a parser's document: no call per frame). The fields
        are _init_offset's, in its order (a test compares them). ``places``: None (not in a
        plant), or (plant, their indices, their ordinals), sequences: their places in the
        plant that adds them (MultibodyPlant._add_joints_in_rows). ``ephemeral``: the frames
        Finalize adds (MultibodyPlant._add_mobilizer_frames)."""
        plant, indices, ordinals = places or unplaced(len(names), 2)
        frames, new = [], object.__new__  # (new: the loop's one lookup of object.__new__)
        for name, P, row, model_instance, index, ordinal in zip(
            names, parents, pose_rows, model_instances, indices, ordinals, strict=True
        ):
            frame = new(cls)
            frame._plant = plant
            frame._index = index
            frame._ordinal = ordinal
            frame._model_instance = model_instance
            frame._ephemeral = ephemeral
            frame._name = name
            frame._body = P._body
            frame._parent_frame = P
            frame._pose_row = row
            frames.append(frame)
        return frames

    @classmethod
    def _adopting(cls, name, P, X_PF, model_instance):
        """As ``_new``, keeping ``X_PF`` itself rather than a copy (~1 µs less): for a
        RigidTransform of float arrays that no one changes afterwards, as a parser's own (the
        plant never changes it, so frames may share one)."""
        frame = object.__new__(cls)
        frame._init_offset(name, P, X_PF, model_instance, copy=False)
        return frame

    def _init_offset(self, name, P, X_PF, model_instance, copy=True):
        """Sets the fields of a frame of checked arguments (a copy of X_PF, or X_PF itself if
        not ``copy``; _in_rows sets a frame's of a pose row)."""
        self._init_fields(name, P._body, model_instance)
        self._parent_frame = P
        if copy:
            self._X_PF = RigidTransform._make(X_PF._R._R.copy(), X_PF._p.copy())
        else:
            self._X_PF = X_PF

    def _default_X_BF(self):
        R_BP, p_BP = self._parent_frame._default_X_BF()
        R_PF = self._X_PF._R._R
        return R_BP @ R_PF, p_BP + R_BP @ self._X_PF._p

    def parent_frame(self):
        """The frame P this frame is fixed to."""
        return self._parent_frame

    def GetPoseInParentFrame(self, context):
        """X_PF in ``context``."""
        X_PF = self._plant_with(context)._parameters(context).X_PF[int(self._index)]
        return _transform(X_PF[:3].copy(), X_PF[3].copy())

    def SetPoseInParentFrame(self, context, X_PF):
        """Sets X_PF in ``context``."""
        if not isinstance(X_PF, RigidTransform):
            raise TypeError(f"X_PF must be a RigidTransform, got {type(X_PF).__name__}")
        plant = self._plant_with(context)
        plant._mutable_parameters(context).set_X_PF(self, X_PF._R._R, X_PF._p)


def _parse_fixed_offset_args(args, kwargs):
    """(P, X_PF, model_instance) from FixedOffsetFrame's two overloads."""
    from mallard.multibody.tree._rigid_body import RigidBody

    names = ("P", "X_PF", "model_instance")
    if "bodyB" in kwargs or (args and isinstance(args[0], RigidBody)):
        names = ("bodyB", "X_BF")
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"FixedOffsetFrame: unexpected argument {key!r}")
        values[key] = value
    if len(args) > len(names) or names[1] not in values or names[0] not in values:
        raise TypeError(
            "FixedOffsetFrame: expected (name, P, X_PF, model_instance=None) or (name, bodyB, X_BF)"
        )
    parent = values[names[0]]
    if isinstance(parent, RigidBody):
        parent = parent.body_frame()
    if not isinstance(parent, Frame):
        raise TypeError(f"FixedOffsetFrame: P must be a Frame, got {type(parent).__name__}")
    X_PF = values[names[1]]
    if not isinstance(X_PF, RigidTransform):
        raise TypeError(f"FixedOffsetFrame: X_PF must be a RigidTransform, got {X_PF!r}")
    return parent, X_PF, values.get("model_instance")
