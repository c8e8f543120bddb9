"""A discrete plant's step with contact through Drake's TAMSI solver (kernels.tamsi), as
Drake's TamsiDriver::CalcContactSolverResults: the mass matrix M(q0), the non-contact forces'
−τ = −M·v̇* (v̇* the plant's ``_free_motion``: every force explicit at x0, joint limits as
penalty forces), the step's point contacts (plant._contact._DiscreteContacts: their
Jacobians in the contact frames, fn0 = k·x0, k, d and the dynamic friction μ), reduced to the
unlocked velocities (a locked joint's v is 0), then TAMSI's Newton–Raphson (substepping when it
fails, Drake's error when every try fails). The step's contact forces f = [ft; fn] (on B at
C, in C) are kept in the contacts as impulses h·f, from which the contact results, the
generalized contact forces Jᵀ·f and the contact's spatial forces follow.

AutoDiffXd plants run the same kernel interpreted: the derivatives go through the Newton
iterations, as Drake's TamsiSolver<AutoDiffXd>.
"""

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._layout import INERTIAS, POSITIONS

#: The kernel's scratch: rows of its per-velocity array, columns of its per-contact array.
_VELOCITY_ROWS, _CONTACT_COLUMNS = 4, 16


def _failure(time, time_step):
    """Drake's TamsiDriver error when every substepping try failed."""
    return RuntimeError(
        "MultibodyPlant's discrete update solver failed to converge at simulation time = "
        f"{_fmt(time)} with discrete update period = {_fmt(time_step)}. This usually means "
        "that the plant's discrete update period is too large to resolve the system's "
        "dynamics for the given simulation conditions. This is often the case during abrupt "
        "collisions or during complex and fast changing contact configurations. Another "
        "common cause is the use of high gains in the simulation of closed loop systems. "
        "These might cause numerical instabilities given our discrete solver uses an "
        "explicit treatment of actuation inputs. Possible solutions include:\n"
        "  1. reduce the discrete update period set at construction,\n"
        "  2. decrease the high gains in your controller whenever possible,\n"
        "  3. switch to a continuous model (discrete update period is zero),      though "
        "this might affect the simulation run time."
    )


def _fmt(x):
    """A double as fmt prints it (shortest form, no trailing ".0")."""
    text = repr(float(x))
    return text.removesuffix(".0") if "e" not in text else text


def tamsi_step(plant, context, v0, vdot, contacts):
    """v⁺ of the TAMSI step from ``context`` (velocities ``v0``, free-motion accelerations
    ``vdot``) with the step's ``contacts`` (a _DiscreteContacts, given their impulses)."""
    h = plant._time_step
    nv, n = plant._nv, len(contacts)
    fn0, stiffness, dissipation, mu = contacts.tamsi_parameters()
    dtype = np.result_type(v0, vdot, contacts.J)
    ec = plant._engine.cache(context)
    if ec.ws.dtype == np.float64:
        model = plant._engine
        need = model.need(ec, context, POSITIONS | INERTIAS)
        ec.kernels.drive_mass_matrix(
            model.mi, model.mf, plant._x(context), ec.ws, need, ec.kernels.address("stages_at")
        )
        model.mark(ec, context, need)
        M = ec.work.M
    else:
        M = plant.CalcMassMatrix(context)
    J = contacts.J
    locked = plant._parameters(context).locked.any()
    if locked:  # (some velocity is unlocked: the contacts of locked trees only were dropped)
        unlocked = np.ones(nv, dtype=bool)
        unlocked[plant._locked_velocities(context)] = False
        M, J, v0, vdot = M[np.ix_(unlocked, unlocked)], J[:, unlocked], v0[unlocked], vdot[unlocked]
    M, J, v0 = (np.ascontiguousarray(a, dtype=dtype) for a in (M, J, v0))
    nu = M.shape[0]
    v_u = np.zeros(nu, dtype=dtype)
    f = np.zeros(3 * n, dtype=dtype)
    scratch = (
        np.zeros((nu, nu), dtype=dtype),
        np.zeros((_VELOCITY_ROWS, nu), dtype=dtype),
        np.zeros((n, _CONTACT_COLUMNS), dtype=dtype),
    )
    parameters = (np.ascontiguousarray(a, dtype=dtype) for a in (fn0, stiffness, dissipation, mu))
    substeps = kernels(dtype).tamsi_step(
        M, J, -(M @ vdot), v0, *parameters, h, plant._stiction_tolerance, v_u, f, *scratch
    )
    if substeps == 0:
        raise _failure(context.get_time(), h)
    if locked:
        v = np.zeros(nv, dtype=dtype)
        v[unlocked] = v_u
    else:
        v = v_u
    contacts.solved(h * f, v, h)
    return v
