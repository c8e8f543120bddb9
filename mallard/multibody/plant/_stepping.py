"""The plant's side of the Simulator's compiled advance (systems.analysis._compiled_advance):
a PlantStepper steps a plant's state many times in one compiled call
(kernels.stepping): a discrete plant's periodic updates, or a continuous plant's explicit
integration, exactly as the Python path takes them.

It can when everything a step depends on besides the state is fixed for the call: float64
scalars; inputs that do not change between events (the Simulator checks the ports listed in
``input_ports``); no PD-controlled actuator with a desired state, no applied spatial force,
no force element besides gravity (each needs Python at every step); no collision geometry
(contact is computed in Python); no roll-pitch-yaw joint (whose singularities the Python path
checks). A discrete plant's step is the SAP solver's
with joint limits and couplers (plant._sap_driver's problem, solved compiled); not TAMSI's
(its limits are penalty forces computed in Python), nor with locked joints, deactivated
constraints, distance, ball, weld or tendon constraints (their rows are computed in Python at
each step), or limits on multi-dof joints (which SapDriver refuses). Otherwise the Simulator
takes its usual path.
"""

import numpy as np

from mallard.multibody import _layout
from mallard.multibody.plant._discrete import DiscreteStepMemory
from mallard.multibody.plant._sap_driver import SapProblem
from mallard.systems.framework._events import TriggerType


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
            and not plant.num_collision_geometries()
            and plant._topology.rpy_pitch.size == 0
            and (self.discrete or not plant.num_constraints())
            and not (
                self.discrete
                and (
                    plant._uses_tamsi()
                    or plant._sap_driver.multi_dof_limits
                    or plant.num_constraints() != len(plant._coupler_constraints)
                )
            )
        )
        #: The event the discrete update is (a periodic unrestricted or discrete update).
        self.update_event = None
        if self.discrete:
            handlers = (plant._unrestricted_update, plant._discrete_update)
            (self.update_event,) = [
                e
                for e in plant._events
                if e.handler in handlers and e.trigger == TriggerType.kPeriodic
            ]
        self._inputs = self._ec = None
        self._constraints = None  # (si, sw, the joint constraints' rows) of a discrete step
        self._scratch = None
        self._empty_problem = None  # (the SAP problem of a plant without constraints)

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
        if self.discrete:
            parameters = plant._parameters(context)
            if parameters.locked.any() or parameters.inactive_constraints:
                return False
            driver = plant._sap_driver
            if driver.may_constrain():
                problem, _ = driver._problem(ec, parameters)  # (couplers only: no bodies)
            else:  # (no rows: v⁺ = v*, no problem in the Context's cache, as SapDriver.step)
                problem = self._empty_problem
                if problem is None:
                    sizes = _layout.SapSizes(plant._nv, 0, 0)
                    locked = np.zeros(plant._nv, dtype=np.int64)
                    problem = SapProblem(sizes, plant._time_step, driver.clique, locked)
                    self._empty_problem = problem
            self._constraints = (
                (problem.si, problem.sw, driver.limits, driver.limit_bounds)
                + driver.no_pd
                + driver._coupler_rows(parameters)
            )
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
        nq, nv = plant._nq, plant._nv
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = np.empty(5 * nv + 2 * nq)
        x = plant._x_of(context._state)
        step_diagonal = plant._time_step * ec.params.damping
        u, tau_in, F_in = self._inputs
        engine = plant._engine
        done = ec.kernels.drive_discrete_steps(
            engine.mi, engine.mf, ec.ws, x, u, tau_in, F_in, step_diagonal, *self._constraints,
            scratch, t, pending, others, boundary, plant._time_step,
            self.update_event.offset_sec,
        )  # fmt: skip
        updates = done[3]
        if updates:
            if plant._use_sampled_output_ports:
                context._state._abstract._values[0]._value = self._memory(context, scratch)
            context._state_changed()
        return done

    def _memory(self, context, scratch):
        """The DiscreteStepMemory of the last update: the state it started from and its
        (v⁺ − v)/h, from ``scratch`` (see drive_discrete_steps), and the effort-limited
        actuation (SapDriver.step's net actuation without PD-controlled actuators)."""
        plant = self.plant
        nq, nv = plant._nq, plant._nv
        start = 3 * nv + nq
        x0 = scratch[start : start + nq + nv].copy()
        vdot = scratch[start + nq + nv :].copy()
        net = plant._limited_actuation(context)
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
