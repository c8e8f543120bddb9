"""MultibodyPlant input and output ports, declared in pydrake's order.

Before Finalize() the plant has its geometry ports; Finalize() adds the rest: actuation
(whole plant and per model instance), applied generalized and spatial forces, desired
states, and the state, body kinematics, acceleration, actuation, reaction-force and contact
outputs.

A discrete plant's acceleration, net actuation and reaction-force outputs report its last
step (zeros before the first) when it has sampled output ports (the default, as Drake's),
else the step from the current state (see _discrete); so do its contact outputs. A
continuous plant's contact outputs report its point contacts at the current state (see
_contact).
"""

import logging
import math

import numpy as np

from mallard.common.value import AbstractValue
from mallard.multibody.math import SpatialAcceleration, SpatialVelocity
from mallard.multibody.plant._contact_results import ContactResults

LOGGER = logging.getLogger("mallard.plant")


def _has_nan(a):
    """Whether the float array ``a`` has a NaN (arrays of other scalars are not checked).
    a·a is NaN exactly when some element is (infinities square to +∞), and is one BLAS call."""
    if a.dtype != np.float64:
        return False
    if a.ndim != 1:
        a = a.reshape(-1)
    return math.isnan(a.dot(a))


#: The names of each model instance's input and output ports after its name, in pydrake's
#: order.
_INSTANCE_INPUTS = ("_actuation", "_desired_state")
_INSTANCE_OUTPUTS = (
    "_state",
    "_generalized_acceleration",
    "_generalized_contact_forces",
    "_net_actuation",
)


def _instance_input(plant, index, name, i, j, _):
    """The input port ``name`` at ``index``: model instance i's actuation (j = 0) or desired
    state (j = 1) (a PortBlock's ``make``)."""
    nu = len(plant._instance_u[i])
    return plant._vector_input_port(index, name, nu if j == 0 else 2 * nu)


def _instance_output(plant, index, name, i, j, prerequisites):
    """The output port ``name`` at ``index``: model instance i's output j of
    _INSTANCE_OUTPUTS (a PortBlock's ``make``)."""
    if j == 0:
        s = plant._instance_x[i]

        def calc(c, out):
            out.SetFromVector(plant._x(c)[s])
    elif j == 1:
        s = plant._instance_v[i]

        def calc(c, out):
            out.SetFromVector(plant._vdot(c)[s])
    elif j == 2:
        s, instance = plant._instance_v[i], plant._instance_names[i]

        def calc(c, out):
            out.SetFromVector(plant._instance_contact_forces(c, instance, s))
    else:
        s = plant._instance_u[i]

        def calc(c, out):
            out.SetFromVector(plant._net_actuation(c)[s])

    return plant._vector_output_port(index, name, len(s), calc, prerequisites)


def _list_value():
    return AbstractValue.Make([])


class PortsMixin:
    """Port declarations and port accessors of MultibodyPlant."""

    def _declare_geometry_ports(self):
        """The ports pydrake declares at construction: the geometry query input, the
        geometry poses output (X_WB of the bodies with a SceneGraph frame; no direct
        feedthrough) and the deformable body configuration (mallard has no deformables)."""
        from mallard.geometry._scene_graph import FramePoseVector

        def no_deformables(context, value):
            raise NotImplementedError(
                "MultibodyPlant: deformable bodies are not supported; the port exists so that "
                "port indices match pydrake's"
            )

        self._geometry_query_port = self.DeclareAbstractInputPort("geometry_query", None)
        self._geometry_pose_port = self.DeclareAbstractOutputPort(
            "geometry_pose",
            FramePoseVector,
            self._calc_geometry_poses,
            {self.all_state_ticket(), self.all_parameters_ticket()},
        )
        self.DeclareAbstractOutputPort("deformable_body_configuration", _list_value, no_deformables)

    def _declare_ports(self):
        nu, nv, nq = self.num_actuated_dofs(), self._nv, self._nq
        self._actuation_port = self._add_vector_input("actuation", nu)
        self._applied_generalized_force_port = self._add_vector_input(
            "applied_generalized_force", nv
        )
        self._applied_spatial_force_port = self.DeclareAbstractInputPort(
            "applied_spatial_force", []
        )
        # (each model instance's ports: a block, made when first read)
        self._instance_inputs_start = self.num_input_ports()
        self._declare_port_block(
            "input", self._instance_names, self._instance_indices, _INSTANCE_INPUTS,
            _instance_input,
        )  # fmt: skip
        # Outputs that depend on the state and parameters only (no direct feedthrough).
        state_only = {self.all_state_ticket(), self.all_parameters_ticket()}
        self._state_port = self._add_vector_output(
            "state", nq + nv, lambda c, out: out.SetFromVector(self._x(c)), state_only
        )
        self._body_poses_port = self.DeclareAbstractOutputPort(
            "body_poses", _list_value, self._calc_body_poses, state_only
        )
        self._body_velocities_port = self.DeclareAbstractOutputPort(
            "body_spatial_velocities", _list_value, self._calc_body_spatial_velocities, state_only
        )
        self._body_accelerations_port = self.DeclareAbstractOutputPort(
            "body_spatial_accelerations", _list_value, self._calc_body_spatial_accelerations
        )
        self._generalized_acceleration_port = self._add_vector_output(
            "generalized_acceleration", nv, lambda c, out: out.SetFromVector(self._vdot(c))
        )
        self._net_actuation_port = self._add_vector_output(
            "net_actuation", nu, lambda c, out: out.SetFromVector(self._net_actuation(c))
        )
        self._reaction_forces_port = self.DeclareAbstractOutputPort(
            "reaction_forces", _list_value, self._calc_reaction_forces
        )
        self._contact_results_port = self.DeclareAbstractOutputPort(
            "contact_results", ContactResults, self._calc_contact_results
        )
        self._instance_outputs_start = self.num_output_ports()
        self._declare_port_block(
            "output", self._instance_names, self._instance_indices, _INSTANCE_OUTPUTS,
            _instance_output, (state_only, None, state_only, None),
        )  # fmt: skip

    # ---- calcs ---------------------------------------------------------------------------
    def _calc_body_poses(self, context, poses):
        poses.set_value([self.EvalBodyPoseInWorld(context, b) for b in self._bodies])

    def _calc_body_spatial_velocities(self, context, velocities):
        V_WB = self._velocity_kinematics(context).work.V_WB
        velocities.set_value(
            [SpatialVelocity._make(V_WB[k].copy()) for k in self._topology.mobod_of_body]
        )

    def _calc_body_spatial_accelerations(self, context, accelerations):
        if self._time_step > 0:
            memory = self._step_memory(context)
            if memory is None:
                A_WB = [SpatialAcceleration.Zero() for _ in self._bodies]
            else:
                start = self._context_at_step_start(context, memory)
                A_WB = self.CalcSpatialAccelerationsFromVdot(start, memory.vdot)
        else:
            A = self._forward_dynamics(context).work.A_WB
            A_WB = [SpatialAcceleration._make(A[k].copy()) for k in self._topology.mobod_of_body]
        accelerations.set_value(A_WB)

    def _vdot(self, context):
        """v̇ from forward dynamics; for a discrete plant, (v⁺ − v)/h of its step (see the
        module docstring)."""
        if self._time_step > 0:
            memory = self._step_memory(context)
            return np.zeros(self._nv) if memory is None else memory.vdot
        return self._forward_dynamics(context).work.vdot

    def _net_actuation(self, context):
        """The actuation applied, the actuators' PD controllers included (for a discrete
        plant, that of its step: see the module docstring)."""
        if self._time_step > 0:
            memory = self._step_memory(context)
            if memory is None:
                return np.zeros(self.num_actuated_dofs())
            return memory.net_actuation
        self._throw_if_continuous_with_constraints()
        return self._actuation_with_pd(context)

    def _instance_contact_forces(self, context, name, v_slots):
        """The generalized contact forces of the velocities ``v_slots`` of model instance
        ``name`` (a discrete plant's: those of its step, see _contact)."""
        if self._time_step > 0:
            return self._discrete_generalized_contact_forces(context)[v_slots]
        explanation = (
            f"You've tried evaluating MultibodyPlant's '{name}_generalized_contact_forces' "
            "output port."
        )
        return self._generalized_contact_forces(context, explanation)[v_slots]

    def _context_at_step_start(self, context, memory):
        """``context`` if its state is the one ``memory``'s step started from, else a
        scratch Context of this plant with that state and ``context``'s parameters."""
        x = self._x(context)
        if np.array_equal(x, memory.x0):
            return context
        scratch = self.__dict__.get("_scratch_context")
        if scratch is None:
            scratch = self._scratch_context = self.CreateDefaultContext()
        scratch.get_mutable_parameters().SetFrom(context.get_parameters())
        self.SetPositionsAndVelocities(scratch, memory.x0)
        return scratch

    def _calc_reaction_forces(self, context, value):
        """F_CJc_Jc per joint (JointIndex order): the spatial force the joint applies on its
        child body C at the origin of its child frame Jc, expressed in Jc; from inverse
        dynamics with the accelerations of forward dynamics (continuous plants) or of the
        step (discrete plants, constraint forces included as forces the joints transmit)."""
        from mallard.multibody.math import SpatialForce

        if self._time_step == 0:
            self._warn_limits_ignored()
            vdot = self._forward_dynamics(context).work.vdot
            tau, F_BBo_W = self._applied_forces(
                context,
                explanation="You've tried evaluating MultibodyPlant's 'reaction_forces' output "
                "port.",
            )
            start = context
        else:
            memory = self._step_memory(context)
            if memory is None:
                value.set_value([SpatialForce.Zero() for _ in self._joints])
                return
            start = self._context_at_step_start(context, memory)
            vdot = memory.vdot
            tau, F_BBo_W = self._step_applied_forces(start, memory)
        F = self._inverse_dynamics(start, vdot, self._mobod_forces(F_BBo_W), tau)[2]
        X_pc = self._position_kinematics(start).work.X_pc
        forces = []
        for joint in self._joints:
            k = self._topology.mobod_of_joint[joint._ordinal]
            R_WJc, p_WJc = self._X_WF(start, joint.frame_on_child())
            t, f = F[k, :3], F[k, 3:]
            t = t + np.cross(X_pc[3, k, 3] - p_WJc, f)  # shifted from Bo to Jc
            if self._topology.mobods[k].reversed:  # F is on the parent: the child gets −F
                t, f = -t, -f
            forces.append(SpatialForce._make(np.concatenate((R_WJc.T @ t, R_WJc.T @ f))))
        value.set_value(forces)

    def _warn_limits_ignored(self):
        """Drake's warning (once per plant) that a continuous plant ignores joint limits."""
        if self.__dict__.get("_warned_limits"):
            return
        self._warned_limits = True
        names = [
            j.name()
            for j in self._joints
            if np.isfinite(j._pos_lower).any() or np.isfinite(j._pos_upper).any()
        ]
        if names:
            LOGGER.warning(
                "Currently MultibodyPlant does not handle joint limits for continuous models. "
                "However some joints do specify limits. Consider setting a non-zero time step "
                "in the MultibodyPlant constructor; this will put the plant in discrete-time "
                "mode, which does support joint limits. Joints that specify limits are: "
                + ", ".join(f"'{n}'" for n in names)
            )

    def _actuation(self, context):
        """u: the sum of the whole-plant actuation input and the per-model-instance inputs
        (those without a value count as zero), as Drake adds them."""
        self.ValidateContext(context)
        whole = self._actuation_port._value_or_none(context)
        if whole is None:
            u = np.zeros(self.num_actuated_dofs())
        else:
            u = whole.CopyToVector()
            if _has_nan(u):
                raise RuntimeError("Detected NaN in the actuation input port for all instances.")
        for mi, source in enumerate(self._instance_inputs(context, 0)):
            part = None if source is None else source._eval()
            if part is not None:
                if _has_nan(part._data):
                    raise RuntimeError(
                        f"Actuation input port for model instance {self._instance_names[mi]} "
                        "contains NaN."
                    )
                u = u.astype(np.result_type(u, part._data), copy=False)
                u[self._instance_u[mi]] += part._data
        return u

    def _instance_inputs(self, context, which):
        """Per model instance, the source of its input ``which`` (0: actuation, 1: desired
        state) in ``context`` (a FixedInputPortValue or connection; None if it has none)."""
        start = self._instance_inputs_start + which
        return context._inputs[start : start + 2 * len(self._instance_names) : 2]

    # ---- accessors -----------------------------------------------------------------------
    def _finalized_port(self, attribute, method):
        self._throw_if_not_finalized(method)
        return getattr(self, attribute)

    def _instance_port(self, kind, model_instance, method, which):
        """The input (``kind`` "input") or output port ``which`` (of _INSTANCE_INPUTS or
        _INSTANCE_OUTPUTS) of ``model_instance``."""
        self._throw_if_not_finalized(method)
        self._check_instance(model_instance)
        if kind == "input":
            index = self._instance_inputs_start + len(_INSTANCE_INPUTS) * int(model_instance)
            return self._input_ports[index + which]
        index = self._instance_outputs_start + len(_INSTANCE_OUTPUTS) * int(model_instance)
        return self._output_ports[index + which]

    def get_actuation_input_port(self, model_instance=None):
        """The actuation input u (whole plant, ordered by actuator), or that of one model
        instance."""
        if model_instance is None:
            return self._finalized_port("_actuation_port", "get_actuation_input_port")
        return self._instance_port("input", model_instance, "get_actuation_input_port", 0)

    def get_desired_state_input_port(self, model_instance):
        """The desired state [q_d; v_d] of the PD-controlled actuators of ``model_instance``."""
        return self._instance_port("input", model_instance, "get_desired_state_input_port", 1)

    def get_applied_generalized_force_input_port(self):
        return self._finalized_port(
            "_applied_generalized_force_port", "get_applied_generalized_force_input_port"
        )

    def get_applied_spatial_force_input_port(self):
        return self._finalized_port(
            "_applied_spatial_force_port", "get_applied_spatial_force_input_port"
        )

    def get_geometry_query_input_port(self):
        return self._geometry_query_port

    def get_geometry_pose_output_port(self):
        return self._geometry_pose_port

    def get_state_output_port(self, model_instance=None):
        """x = [q; v] (whole plant, or of one model instance)."""
        if model_instance is None:
            return self._finalized_port("_state_port", "get_state_output_port")
        return self._instance_port("output", model_instance, "get_state_output_port", 0)

    def get_body_poses_output_port(self):
        """A list of X_WB (RigidTransform), indexed by BodyIndex."""
        return self._finalized_port("_body_poses_port", "get_body_poses_output_port")

    def get_body_spatial_velocities_output_port(self):
        """A list of V_WB_W (SpatialVelocity), indexed by BodyIndex."""
        return self._finalized_port(
            "_body_velocities_port", "get_body_spatial_velocities_output_port"
        )

    def get_body_spatial_accelerations_output_port(self):
        return self._finalized_port(
            "_body_accelerations_port", "get_body_spatial_accelerations_output_port"
        )

    def get_generalized_acceleration_output_port(self, model_instance=None):
        if model_instance is None:
            return self._finalized_port(
                "_generalized_acceleration_port", "get_generalized_acceleration_output_port"
            )
        return self._instance_port(
            "output", model_instance, "get_generalized_acceleration_output_port", 1
        )

    def get_generalized_contact_forces_output_port(self, model_instance):
        return self._instance_port(
            "output",
            model_instance,
            "get_generalized_contact_forces_output_port",
            2,
        )

    def get_net_actuation_output_port(self, model_instance=None):
        """The actuation applied: u (whole plant, or of one model instance)."""
        if model_instance is None:
            return self._finalized_port("_net_actuation_port", "get_net_actuation_output_port")
        return self._instance_port("output", model_instance, "get_net_actuation_output_port", 3)

    def get_reaction_forces_output_port(self):
        return self._finalized_port("_reaction_forces_port", "get_reaction_forces_output_port")

    def get_contact_results_output_port(self):
        return self._finalized_port("_contact_results_port", "get_contact_results_output_port")
