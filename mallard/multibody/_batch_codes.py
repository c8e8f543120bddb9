"""The codes the batched kernels (kernels.batch) share with BatchedPlant, kept numba-free.

A thread's part in a call (``mode``), which dynamics an entry point of both computes, a
group's state in a call's ``flags`` and where its parts are, and the status codes of states
(``kind + KINDS · detail``): see kernels.batch.
"""

#: A thread's part in a call: a helper, the caller (who returns the results), or the caller
#: alone (no other thread: no atomic operations).
HELPER, CALLER, ALONE = 0, 1, 2

#: Which dynamics' derivatives batch_dynamics_derivatives computes (its ``forward``).
INVERSE, FORWARD = 0, 1
#: Which operation batch_evaluate computes (its ``op``).
MASS_MATRIX, FORWARD_DYNAMICS, POINT_JACOBIAN = 0, 1, 2

#: A group's state in ``flags``.
FREE, CLAIMED, STOLEN, COMMITTING, DONE = 0, 1, 2, 3, 4
#: Where ``flags`` holds the next group to hand out, the caller's scan, and the groups' states.
NEXT, SCAN, GROUPS = 0, 1, 2

#: A state's status: ``kind + KINDS · detail``, 0 for a state computed. NONFINITE: an input
#: is NaN or infinite (detail: ``argument + ARGUMENTS · column``); ZERO_QUATERNION: the
#: quaternion of mobod ``detail`` is zero; NOT_POSITIVE_DEFINITE: mobod ``detail``'s
#: articulated inertia across its mobilizer is not positive definite; SOLVER_FAILED (rollouts):
#: the SAP solver failed (detail: ``status + SOLVER_STATUSES · step``, status _layout's
#: SAP_* code); PAIR_FAILED (collision checks): the narrowphase failed for allowed pair
#: ``detail`` (mallard.geometry._kernels.batch).
NONFINITE, ZERO_QUATERNION, NOT_POSITIVE_DEFINITE, SOLVER_FAILED, PAIR_FAILED = 1, 2, 3, 4, 5
KINDS = 6
SOLVER_STATUSES = 16
ARGUMENTS = 8

#: How a rollout (kernels.rollouts) steps: the discrete plant's step, or a continuous plant's
#: fixed-step explicit integrator (those of mallard.systems.analysis).
DISCRETE_STEP, EXPLICIT_EULER, RUNGE_KUTTA2, RUNGE_KUTTA3 = 0, 1, 2, 3
#: A rollout's arguments in its NONFINITE codes: the initial states, the actuation (column
#: t·nu + j), the PD targets, and the state during the rollout (column: the step it became
#: non-finite at).
X0_ARGUMENT, ACTUATION_ARGUMENT, TARGET_ARGUMENT, STATE_ARGUMENT = 0, 1, 2, 3
