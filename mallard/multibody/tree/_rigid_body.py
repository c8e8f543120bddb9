"""RigidBody: a body with a rigid body frame and a spatial inertia about its origin."""

import numpy as np

from mallard._scalar import as_array
from mallard.common._bindings import scalar_out
from mallard.common._pybind import overloads
from mallard.multibody.math import SpatialForce
from mallard.multibody.tree._frame import RigidBodyFrame
from mallard.multibody.tree._indices import BodyIndex, ModelInstanceIndex, default_model_instance
from mallard.multibody.tree._multibody_element import (
    FieldInRow,
    MultibodyElement,
    unplaced,
    use_instead,
    warn_deprecated,
)
from mallard.multibody.tree._spatial_inertia import SpatialInertia


class RigidBody(MultibodyElement):
    """A rigid body B with body frame B and default spatial inertia M_BBo_B (about Bo,
    expressed in B). Its mass properties are parameters of each Context."""

    _index_type = BodyIndex
    # (the default spatial inertia of a body made with an inertia row: see _in_row)
    _M_BBo_B = FieldInRow("_inertia_row", SpatialInertia._from_row)
    _inertia_row = None

    @overloads("body_name, M_BBo_B=", "body_name, model_instance, M_BBo_B=")
    def __init__(self, body_name, *args, **kwargs):
        if (  # (the common case: (name, model_instance, M_BBo_B) given positionally)
            len(args) == 2
            and not kwargs
            and type(args[0]) is ModelInstanceIndex
            and type(args[1]) is SpatialInertia
        ):
            model_instance, M_BBo_B = args
        else:
            model_instance, M_BBo_B = _parse_ctor(args, kwargs)
        if type(body_name) is not str or body_name == "":
            if not isinstance(body_name, str):
                raise TypeError(
                    f"RigidBody: body_name must be a str, got {type(body_name).__name__}"
                )
            if body_name == "":
                raise RuntimeError("The name parameter to the RigidBody constructor is required.")
        self._init_fields(body_name, model_instance, M_BBo_B)

    @classmethod
    def _new(cls, body_name, model_instance, M_BBo_B):
        """The body of arguments a caller has checked (a non-empty str, a ModelInstanceIndex,
        a SpatialInertia): the constructor without its checks."""
        body = object.__new__(cls)
        body._init_fields(body_name, model_instance, M_BBo_B)
        return body

    @classmethod
    def _adopting(cls, body_name, model_instance, M_BBo_B):
        """As ``_new``, keeping ``M_BBo_B`` itself rather than a copy (~1 µs less): for a
        SpatialInertia of float arrays that no one changes afterwards, as a parser's own (the
        plant never changes it, so bodies may share one)."""
        body = object.__new__(cls)
        body._init_fields(body_name, model_instance, M_BBo_B, copy=False)
        return body

    @classmethod
    def _in_row(cls, body_name, model_instance, inertia_row):
        """As ``_new``, M_BBo_B that of its ``inertia_row`` (rows, j) in a parser's read-only
        array of rows as SpatialInertia._from_row reads, made when asked for (FieldInRow;
        the plant's Finalize reads the rows: _fill_inertias)."""
        return cls._in_rows((body_name,), model_instance, (inertia_row,))[0]

    @classmethod
    def _in_rows(cls, body_names, model_instance, inertia_rows, places=None):
        """The bodies ``_in_row`` makes of each name of ``body_names`` (checked: non-empty
        strs) and its (rows, j) of ``inertia_rows``, with their body frames, in one loop (a
        parser's document: no call per body). The fields are _init_fields' and
        RigidBodyFrame._for_body's, in their order (a test compares them). ``places``: None
        (not in a plant), or (plant, the bodies' indices, their frames' indices, the bodies'
        ordinals, the frames' ordinals), sequences: their places in the plant that adds them
        (MultibodyPlant._add_bodies_in_rows)."""
        plant, body_indices, frame_indices, body_ordinals, frame_ordinals = places or unplaced(
            len(body_names), 4
        )
        bodies, new = [], object.__new__  # (new: the loop's one lookup of object.__new__)
        for name, row, body_index, frame_index, body_ordinal, frame_ordinal in zip(
            body_names, inertia_rows, body_indices, frame_indices, body_ordinals,
            frame_ordinals, strict=True,
        ):  # fmt: skip
            body = new(cls)
            frame = new(RigidBodyFrame)
            body._plant = frame._plant = plant
            body._index, frame._index = body_index, frame_index
            body._ordinal, frame._ordinal = body_ordinal, frame_ordinal
            body._model_instance = frame._model_instance = model_instance
            body._ephemeral = frame._ephemeral = False
            body._name = frame._name = name
            body._inertia_row = row
            body._body_frame = frame
            frame._body = body
            body._mobod = None
            bodies.append(body)
        return bodies

    def _init_fields(self, body_name, model_instance, M_BBo_B, copy=True):
        """Sets the fields of a body of checked arguments (a copy of M_BBo_B, or M_BBo_B
        itself if not ``copy``; _in_rows sets a body's of an inertia row)."""
        MultibodyElement.__init__(self, model_instance)
        self._name = body_name
        if copy:
            self._M_BBo_B = SpatialInertia._make(M_BBo_B._m, M_BBo_B._p.copy(), M_BBo_B._G.copy())
        else:
            self._M_BBo_B = M_BBo_B
        self._body_frame = RigidBodyFrame._for_body(self)
        self._mobod = None  # its mobilized body in the plant's tree, set at Finalize()

    def name(self):
        return self._name

    def scoped_name(self):
        """The ScopedName ``model_instance_name::body_name``."""
        return self.GetParentPlant()._scoped_name(self)

    def body_frame(self):
        """The RigidBodyFrame B of this body."""
        return self._body_frame

    # ---- default mass properties ---------------------------------------------------------
    def default_mass(self):
        """The default mass."""
        return self._M_BBo_B.get_mass()

    def default_com(self):
        """The default p_BoBcm_B."""
        return self._M_BBo_B.get_com()

    def default_unit_inertia(self):
        """The default G_BBo_B."""
        return self._M_BBo_B.get_unit_inertia()

    def default_rotational_inertia(self):
        """The default I_BBo_B."""
        return self._M_BBo_B.CalcRotationalInertia()

    def default_spatial_inertia(self):
        """The default M_BBo_B."""
        M = self._M_BBo_B
        return SpatialInertia._make(M._m, M._p.copy(), M._G.copy())

    # ---- mass properties in a Context ----------------------------------------------------
    def get_mass(self, context):
        """This body's mass in ``context``."""
        return scalar_out(self._plant_for(context)._parameters(context).mass[int(self._index)])

    def CalcCenterOfMassInBodyFrame(self, context):
        """p_BoBcm_B in ``context``."""
        return self._plant_for(context)._parameters(context).com[int(self._index)].copy()

    def CalcSpatialInertiaInBodyFrame(self, context):
        """M_BBo_B in ``context``."""
        return self._plant_for(context)._parameters(context).spatial_inertia(self)

    def SetMass(self, context, mass):
        """Sets the mass in ``context``, keeping the unit inertia G_BBo_B (so I_BBo_B scales)."""
        self._plant_for(context)._mutable_parameters(context).set_mass(self, mass)

    def SetCenterOfMassInBodyFrame(self, context, com):
        """Sets p_BoBcm_B in ``context``, keeping G_BBo_B (the inertia about Bo)."""
        self._plant_for(context)._mutable_parameters(context).set_com(self, com)

    def SetSpatialInertiaInBodyFrame(self, context, M_Bo_B):
        """Sets M_BBo_B in ``context``."""
        self._plant_for(context)._mutable_parameters(context).set_spatial_inertia(self, M_Bo_B)

    def _plant_for(self, context):
        plant = self.GetParentPlant()
        plant.ValidateContext(context)
        return plant

    # ---- kinematics ----------------------------------------------------------------------
    def EvalPoseInWorld(self, context):
        """X_WB, the pose of this body's frame in World."""
        return self.GetParentPlant().EvalBodyPoseInWorld(context, self)

    def EvalSpatialVelocityInWorld(self, context):
        """V_WB_W, the spatial velocity of this body's frame in World, expressed in World."""
        return self.GetParentPlant().EvalBodySpatialVelocityInWorld(context, self)

    def CalcCenterOfMassTranslationalVelocityInWorld(self, context):
        """v_WBcm_W, the velocity of this body's center of mass in World."""
        return self.GetParentPlant()._body_com_velocity_in_world(context, self)

    def EvalSpatialAccelerationInWorld(self, context):
        """A_WB_W, the spatial acceleration of this body's frame in World, expressed in World
        (from the forward dynamics, which this may run)."""
        plant = self._finalized_plant("EvalSpatialAccelerationInWorld")
        return plant.EvalBodySpatialAccelerationInWorld(context, self)

    def CalcCenterOfMassTranslationalAccelerationInWorld(self, context):
        """a_WBcm_W, the acceleration of this body's center of mass in World: A_WB_W shifted
        from Bo to Bcm, a + α × p + ω × (ω × p) with p = p_BoBcm_W."""
        A_WB_W = self.EvalSpatialAccelerationInWorld(context)._c
        w_WB_W = self.EvalSpatialVelocityInWorld(context)._c[:3]
        R_WB = self.EvalPoseInWorld(context)._R._R
        p_BoBcm_W = R_WB @ self.CalcCenterOfMassInBodyFrame(context)
        return (
            A_WB_W[3:]
            + np.cross(A_WB_W[:3], p_BoBcm_W)
            + np.cross(w_WB_W, np.cross(w_WB_W, p_BoBcm_W))
        )

    # ---- applied forces ------------------------------------------------------------------
    def _body_forces(self, context, forces, method):
        """This body's row of ``forces`` (F_BBo_W), after checking ``context`` and that
        ``forces`` fits the plant."""
        from mallard.multibody.tree._multibody_forces import MultibodyForces

        plant = self._plant_for(context)
        if not isinstance(forces, MultibodyForces):
            raise TypeError(
                f"RigidBody.{method}(): forces must be a MultibodyForces, got "
                f"{type(forces).__name__}"
            )
        forces._check_plant(plant, f"RigidBody.{method}")
        return forces._F_BBo_W[int(self._index)]

    def AddInForceInWorld(self, context, F_Bo_W, forces):
        """Adds the spatial force F_Bo_W (on this body at Bo, expressed in World) to
        ``forces``."""
        F = _spatial_force(F_Bo_W, "F_Bo_W", "AddInForceInWorld")
        self._body_forces(context, forces, "AddInForceInWorld")[:] += F

    def AddInForce(self, context, p_BP_E, F_Bp_E, frame_E, forces):
        """Adds the spatial force F_Bp_E, applied at the point P of this body at p_BP_E (from
        Bo) and expressed (like p_BP_E) in ``frame_E``, to ``forces``, as the equivalent
        force at Bo in World: F_Bo_W = [R_WE·τ + p_BoP_W × f_W; f_W], f_W = R_WE·f."""
        from mallard.multibody.tree._frame import Frame

        F = _spatial_force(F_Bp_E, "F_Bp_E", "AddInForce")
        p_BP_E = as_array(p_BP_E, (3,), "p_BP_E")
        if not isinstance(frame_E, Frame):
            raise TypeError(
                f"RigidBody.AddInForce(): frame_E must be a Frame, got {type(frame_E).__name__}"
            )
        row = self._body_forces(context, forces, "AddInForce")
        R_WE = frame_E.CalcRotationMatrixInWorld(context)._R
        f_W = R_WE @ F[3:]
        row[:3] += R_WE @ F[:3] + np.cross(R_WE @ p_BP_E, f_W)
        row[3:] += f_W

    def GetForceInWorld(self, context, forces):
        """F_BBo_W: the spatial force on this body at Bo, expressed in World, in ``forces``."""
        return SpatialForce._make(self._body_forces(context, forces, "GetForceInWorld").copy())

    # ---- floating bodies -----------------------------------------------------------------
    def _finalized_plant(self, method):
        """The parent plant, which must be finalized for ``method`` (Drake's message)."""
        plant = self.GetParentPlant()
        if not plant.is_finalized():
            raise RuntimeError(
                f"From '{method}'. The model to which this rigid body belongs must be finalized. "
                "See MultibodyPlant::Finalize()."
            )
        return plant

    def _inboard_joint(self, method):
        """The joint that mobilizes this body (None for World); the plant must be finalized."""
        return self._finalized_plant(method)._inboard_joint(self)

    def _floating_joint(self, method):
        """The floating joint the plant added for this body; RuntimeError if it has none."""
        joint = self._inboard_joint(method)
        if joint is None or not joint.is_ephemeral():
            if method in ("Lock", "Unlock"):
                raise RuntimeError(
                    f"Attempted to call {method}() on non-floating-base rigid body {self._name}"
                )
            raise RuntimeError(
                f"{method}(): {self._describe()} is not a floating base body (it has no floating "
                "joint added by MultibodyPlant::Finalize())"
            )
        return joint

    def is_floating_base_body(self):
        """True if the plant gave this body a floating joint to World at Finalize() (not for a
        floating joint added by the user)."""
        joint = self._inboard_joint("is_floating_base_body")
        return joint is not None and joint.is_ephemeral()

    def is_floating(self):
        """Deprecated: use is_floating_base_body()."""
        warn_deprecated(use_instead("is_floating_base_body"))
        return self.is_floating_base_body()

    def has_quaternion_dofs(self):
        """True if this body's inboard joint has a quaternion as its first 4 positions."""
        joint = self._inboard_joint("has_quaternion_dofs")
        return joint is not None and joint.type_name() == "quaternion_floating"

    def floating_positions_start(self):
        """The index of this floating body's first position in q."""
        return self._floating_joint("floating_positions_start").position_start()

    def floating_velocities_start_in_v(self):
        """The index of this floating body's first velocity in v."""
        return self._floating_joint("floating_velocities_start_in_v").velocity_start()

    def floating_position_suffix(self, index):
        """The suffix naming position ``index`` of this floating body ("qw", ..., "z")."""
        return self._floating_joint("floating_position_suffix").position_suffix(index)

    def floating_velocity_suffix(self, index):
        """The suffix naming velocity ``index`` of this floating body ("wx", ..., "vz")."""
        return self._floating_joint("floating_velocity_suffix").velocity_suffix(index)

    def Lock(self, context):
        """Locks this floating base body in ``context``: its velocities are zeroed now, and
        the dynamics keep them zero until Unlock()."""
        self._floating_joint("Lock").Lock(context)

    def Unlock(self, context):
        """Unlocks this floating base body in ``context``."""
        self._floating_joint("Unlock").Unlock(context)

    def is_locked(self, context):
        """True if this body's inboard joint is locked in ``context`` (False for World)."""
        joint = self._inboard_joint("is_locked")
        return joint is not None and joint.is_locked(context)


def _spatial_force(value, name, method):
    """The 6 numbers [τ; f] of the SpatialForce ``value``; TypeError if it is not one."""
    if not isinstance(value, SpatialForce):
        raise TypeError(
            f"RigidBody.{method}(): {name} must be a SpatialForce, got {type(value).__name__}"
        )
    return value._c


def _parse_ctor(args, kwargs):
    """(model_instance, M_BBo_B) from RigidBody's two overloads' trailing arguments."""
    args = list(args)
    model_instance = kwargs.pop("model_instance", None)
    M_BBo_B = kwargs.pop("M_BBo_B", None)
    if kwargs:
        raise TypeError(f"RigidBody: unexpected arguments {sorted(kwargs)}")
    if args and isinstance(args[0], ModelInstanceIndex):
        model_instance = args.pop(0)
    if args:
        M_BBo_B = args.pop(0)
    if args:
        raise TypeError("RigidBody: too many arguments")
    if model_instance is None:
        model_instance = default_model_instance()
    if not isinstance(model_instance, ModelInstanceIndex):
        raise TypeError("RigidBody: model_instance must be a ModelInstanceIndex")
    if M_BBo_B is None:
        M_BBo_B = SpatialInertia.Zero()
    if not isinstance(M_BBo_B, SpatialInertia):
        raise TypeError(f"RigidBody: M_BBo_B must be a SpatialInertia, got {M_BBo_B!r}")
    return model_instance, M_BBo_B
