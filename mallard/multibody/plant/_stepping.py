"""The plant's side of the Simulator's compiled advance (systems.analysis._compiled_advance):
a PlantStepper steps a plant's state many times in one compiled call
(kernels.stepping): a discrete plant's periodic updates, or a continuous plant's explicit
integration, exactly as the Python path takes them.

It can when everything a step depends on besides the state is fixed for the call: float64
scalars; inputs that do not change between events (the Simulator checks the ports listed in
``input_ports``); no PD-controlled actuator with a desired state, no applied spatial force,
no force element besides gravity (each needs Python at every step); no locked joint or
deactivated constraint, no roll-pitch-yaw joint (whose singularities the Python path
checks). Otherwise the Simulator takes its usual path.
"""

import numpy as np

from mallard.multibody.plant._discrete import DiscreteStepMemory, _Projection


class PlantStepper:
    """The compiled stepping of one finalized plant (``plant._compiled_stepper()``)."""

    def __init__(self, plant):
        self.plant = plant
        self.discrete = plant._time_step > 0
        self.input_ports = (
            [plant._actuation_port, plant._applied_generalized_force_port]
            + list(plant._instance_actuation_ports)
            + [plant._applied_spatial_force_port]
            + list(plant._desired_state_ports)
        )
        self.possible = (
            len(plant._force_elements) == 1
            and plant._dynamics_topology().rpy_pitch.size == 0
            and (self.discrete or not plant._coupler_constraints)
        )
        #: The event the discrete update is (a periodic unrestricted or discrete update).
        self.update_event = None
        if self.discrete:
            handlers = (plant._unrestricted_update, plant._discrete_update)
            (self.update_event,) = [e for e in plant._events if e.handler in handlers]
        self._inputs = self._ec = None
        self._discrete_arguments = None

    def prepare(self, context):
        """Whether the plant's state in ``context`` (its own) can be stepped now; if so, takes
        the inputs (constant for the call)."""
        plant = self.plant
        if not self.possible:
            return False
        ec = plant._engine.cache(context)
        if ec.ws.dtype != np.float64 or plant._has_pd_input(context):
            return False
        if plant._applied_spatial_force_port._value_or_none(context):
            return False
        parameters = plant._parameters(context)
        if self.discrete and (parameters.locked.any() or parameters.inactive_constraints):
            return False
        self._inputs = plant._forward_dynamics_inputs(context, ec)
        self._ec = ec
        return True

    # ---- discrete plants -------------------------------------------------------------------
    def discrete_steps(self, context, t, pending, others, boundary):
        """Iterations of the Simulator's loop (kernels.stepping.drive_discrete_steps) on the
        plant's state in ``context``, after :meth:`prepare`; the Context is told of the new
        state (and, with sampled output ports, of the last update's DiscreteStepMemory).
        Returns (time, pending, iterations, updates, status, the last iteration's start)."""
        plant, ec = self.plant, self._ec
        arguments = self._discrete_arguments
        if arguments is None:
            arguments = self._discrete_arguments = self._make_discrete_arguments()
        x = plant._x_of(context._state)
        step_diagonal = plant._time_step * ec.params.damping
        u, tau_in, F_in = self._inputs
        engine = plant._engine
        done = ec.kernels.drive_discrete_steps(
            engine.mi, engine.mf, ec.ws, x, u, tau_in, F_in, step_diagonal, *arguments,
            t, pending, others, boundary, plant._time_step, self.update_event.offset_sec,
        )  # fmt: skip
        updates = done[3]
        if updates:
            if plant._use_sampled_output_ports:
                context._state._abstract._values[0]._value = self._memory(context, arguments[-1])
            context._state_changed()
        return done

    def _make_discrete_arguments(self):
        """The constraint rows, the projection's scratch and the step's scratch."""
        plant = self.plant
        nq, nv = plant._nq, plant._nv
        p = _Projection(nv, plant._c_J.shape[0])
        return (
            plant._c_J, plant._c_g, plant._c_q0, plant._c_q1, plant._c_equality,
            p.r, p.lam, p.X, p.active, p.Y, p.L, p.W, p.S, p.L_S, np.ones(nv, dtype=np.int64),
            np.empty(5 * nv + 2 * nq),
        )  # fmt: skip

    def _memory(self, context, scratch):
        """The DiscreteStepMemory of the last update: the state it started from and its
        (v⁺ − v)/h, from ``scratch`` (see drive_discrete_steps)."""
        plant = self.plant
        nq, nv = plant._nq, plant._nv
        start = 3 * nv + nq
        x0 = scratch[start : start + nq + nv].copy()
        vdot = scratch[start + nq + nv :].copy()
        net = plant._net_actuation_at(context, plant._x_of(context._state)[nq:])
        generalized, spatial = plant._applied_input_values(context)
        return DiscreteStepMemory(x0, vdot, net, generalized, spatial)

    # ---- continuous plants -----------------------------------------------------------------
    def explicit_steps(self, xc, integrator_arrays, control, counts):
        """Iterations of the Simulator's loop integrating the plant's state ``xc`` (the
        integrator's array) by an explicit scheme (kernels.stepping.drive_explicit_steps),
        after :meth:`prepare`: ``integrator_arrays`` are the integrator's (K, x0, x0_save, err,
        scales, weights, qbar, scratch); ``control`` and ``counts`` its settings and
        statistics, updated. Returns the iterations taken."""
        plant, ec = self.plant, self._ec
        u, tau_in, F_in = self._inputs
        engine = plant._engine
        return ec.kernels.drive_explicit_steps(
            engine.mi, engine.mf, ec.ws, xc, u, tau_in, F_in, *integrator_arrays, control, counts
        )


def compiled_stepper(plant):
    """The plant's PlantStepper (made once, after Finalize)."""
    stepper = plant.__dict__.get("_stepper")
    if stepper is None:
        stepper = plant._stepper = PlantStepper(plant)
    return stepper
