"""MultibodyPlant input and output ports, declared in pydrake's order.

Before Finalize() the plant has its geometry ports; Finalize() adds the rest: actuation
(whole plant and per model instance), applied generalized and spatial forces, desired
states, and the state, body kinematics, acceleration, actuation, reaction-force and contact
outputs.
"""

import numpy as np

from mallard.multibody.math import SpatialVelocity


def _not_built(what, issue):
    def calc(context, value):
        raise NotImplementedError(
            f"MultibodyPlant: the {what} output port is not implemented yet ({issue})"
        )

    return calc


class PortsMixin:
    """Port declarations and port accessors of MultibodyPlant."""

    def _declare_geometry_ports(self):
        """The ports pydrake declares at construction (geometry: not supported yet)."""

        def no_geometry(context, value):
            raise NotImplementedError(
                "MultibodyPlant: geometry (SceneGraph) is not supported yet; the geometry ports "
                "exist so that port indices match pydrake's"
            )

        self._geometry_query_port = self.DeclareAbstractInputPort("geometry_query", None)
        self._geometry_pose_port = self.DeclareAbstractOutputPort(
            "geometry_pose", lambda: None, no_geometry
        )
        self.DeclareAbstractOutputPort("deformable_body_configuration", lambda: None, no_geometry)

    def _declare_ports(self):
        nu, nv, nq = self.num_actuated_dofs(), self._nv, self._nq
        self._actuation_port = self.DeclareVectorInputPort("actuation", nu)
        self._applied_generalized_force_port = self.DeclareVectorInputPort(
            "applied_generalized_force", nv
        )
        self._applied_spatial_force_port = self.DeclareAbstractInputPort(
            "applied_spatial_force", []
        )
        self._instance_actuation_ports = []
        self._desired_state_ports = []
        for mi, name in enumerate(self._instance_names):
            nu_i = len(self._instance_u[mi])
            self._instance_actuation_ports.append(
                self.DeclareVectorInputPort(f"{name}_actuation", nu_i)
            )
            self._desired_state_ports.append(
                self.DeclareVectorInputPort(f"{name}_desired_state", 2 * nu_i)
            )
        self._state_port = self.DeclareVectorOutputPort(
            "state", nq + nv, lambda c, out: out.SetFromVector(self._x(c))
        )
        self._body_poses_port = self.DeclareAbstractOutputPort(
            "body_poses", list, self._calc_body_poses
        )
        self._body_velocities_port = self.DeclareAbstractOutputPort(
            "body_spatial_velocities", list, self._calc_body_spatial_velocities
        )
        dynamics = "MultibodyPlant dynamics, issue 4"
        self._body_accelerations_port = self.DeclareAbstractOutputPort(
            "body_spatial_accelerations", list, _not_built("body spatial accelerations", dynamics)
        )
        self._generalized_acceleration_port = self.DeclareVectorOutputPort(
            "generalized_acceleration", nv, _not_built("generalized acceleration", dynamics)
        )
        self._net_actuation_port = self.DeclareVectorOutputPort(
            "net_actuation", nu, lambda c, out: out.SetFromVector(self._actuation(c))
        )
        self._reaction_forces_port = self.DeclareAbstractOutputPort(
            "reaction_forces", list, _not_built("reaction forces", dynamics)
        )
        self._contact_results_port = self.DeclareAbstractOutputPort(
            "contact_results",
            lambda: None,
            _not_built("contact results", "contact is not supported"),
        )
        self._instance_output_ports = []
        for mi, name in enumerate(self._instance_names):
            q_slots, v_slots, u_slots = (
                self._instance_q[mi],
                self._instance_v[mi],
                self._instance_u[mi],
            )
            x_slots = np.concatenate((q_slots, nq + v_slots))
            ports = (
                self.DeclareVectorOutputPort(
                    f"{name}_state",
                    len(x_slots),
                    lambda c, out, s=x_slots: out.SetFromVector(self._x(c)[s]),
                ),
                self.DeclareVectorOutputPort(
                    f"{name}_generalized_acceleration",
                    len(v_slots),
                    _not_built("generalized acceleration", dynamics),
                ),
                self.DeclareVectorOutputPort(
                    f"{name}_generalized_contact_forces",
                    len(v_slots),
                    _not_built("generalized contact forces", "contact is not supported"),
                ),
                self.DeclareVectorOutputPort(
                    f"{name}_net_actuation",
                    len(u_slots),
                    lambda c, out, s=u_slots: out.SetFromVector(self._actuation(c)[s]),
                ),
            )
            self._instance_output_ports.append(ports)

    # ---- calcs ---------------------------------------------------------------------------
    def _calc_body_poses(self, context, poses):
        poses[:] = [self.EvalBodyPoseInWorld(context, b) for b in self._bodies]

    def _calc_body_spatial_velocities(self, context, velocities):
        V_WB = self._velocity_kinematics(context).V_WB
        velocities[:] = [SpatialVelocity._make(V_WB[k].copy()) for k in self._mobod_of_body]

    def _actuation(self, context):
        """u: the whole-plant actuation input if it has a value, else the per-model-instance
        inputs assembled (zero for those without a value)."""
        self.ValidateContext(context)
        whole = self._actuation_port._value_or_none(context)
        parts = [p._value_or_none(context) for p in self._instance_actuation_ports]
        if whole is not None:
            if any(p is not None and p.size() > 0 for p in parts):
                raise RuntimeError(
                    "MultibodyPlant: the whole-plant actuation input port and a per-model-"
                    "instance actuation input port both have values; use one or the other"
                )
            return whole.CopyToVector()
        u = np.zeros(self.num_actuated_dofs())
        for mi, part in enumerate(parts):
            if part is not None:
                u[self._instance_u[mi]] = part._data
        return u

    # ---- accessors -----------------------------------------------------------------------
    def _finalized_port(self, attribute, method):
        self._throw_if_not_finalized(method)
        return getattr(self, attribute)

    def _instance_port(self, ports, model_instance, method):
        self._throw_if_not_finalized(method)
        self._check_instance(model_instance)
        return ports[int(model_instance)]

    def get_actuation_input_port(self, model_instance=None):
        """The actuation input u (whole plant, ordered by actuator), or that of one model
        instance."""
        if model_instance is None:
            return self._finalized_port("_actuation_port", "get_actuation_input_port")
        return self._instance_port(
            self._instance_actuation_ports, model_instance, "get_actuation_input_port"
        )

    def get_desired_state_input_port(self, model_instance):
        """The desired state [q_d; v_d] of the PD-controlled actuators of ``model_instance``."""
        return self._instance_port(
            self._desired_state_ports, model_instance, "get_desired_state_input_port"
        )

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
        return self._instance_port(
            [p[0] for p in self._instance_output_ports], model_instance, "get_state_output_port"
        )

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
            [p[1] for p in self._instance_output_ports],
            model_instance,
            "get_generalized_acceleration_output_port",
        )

    def get_generalized_contact_forces_output_port(self, model_instance):
        return self._instance_port(
            [p[2] for p in self._instance_output_ports],
            model_instance,
            "get_generalized_contact_forces_output_port",
        )

    def get_net_actuation_output_port(self, model_instance=None):
        """The actuation applied: u (whole plant, or of one model instance)."""
        if model_instance is None:
            return self._finalized_port("_net_actuation_port", "get_net_actuation_output_port")
        return self._instance_port(
            [p[3] for p in self._instance_output_ports],
            model_instance,
            "get_net_actuation_output_port",
        )

    def get_reaction_forces_output_port(self):
        return self._finalized_port("_reaction_forces_port", "get_reaction_forces_output_port")

    def get_contact_results_output_port(self):
        return self._finalized_port("_contact_results_port", "get_contact_results_output_port")
