"""Drake's compliant point contact of a continuous MultibodyPlant
(MultibodyPlant::CalcContactResultsPointPairContinuous and
CalcAndAddPointContactForcesContinuous): per penetrating point pair, the Hunt–Crossley normal
force and the regularized (Stribeck) Coulomb friction, and their spatial forces on the bodies.

A pair's row of ``pairs`` is its PenetrationAsPointPair: [depth x, nhat_BA_W, p_WCa, p_WCb]
(nhat_BA_W points out of B into A); its row of ``bodies``: [body A, body B, mobod A, mobod B];
its row of ``par``: the combined stiffness k, dissipation d (s/m) and the combined static and
dynamic friction μs, μd. With C = (Ca + Cb)/2, v_AcBc = v_WBc − v_WAc (the points of A and B at
C) and vn = v_AcBc·nhat_BA_W (positive when the bodies approach):

    fn = k·x·(1 + d·vn);  when fn > 0:  f_AC = fn·nhat_BA_W + μ(‖vt‖)·fn·vt/‖vt‖,

vt the tangential part of v_AcBc (no friction when ‖vt‖ ≤ 1e-14), μ Drake's Stribeck curve of
s = ‖vt‖/v_stiction: μs·step5(s) below 1, from μs to μd by step5((s − 1)/2) up to 3, μd above
(step5(x) = 10x³ − 15x⁴ + 6x⁵). B gets f_Bc_W = −f_AC at C. Pairs with fn ≤ 0 apply nothing and
are not reported, as in Drake.

A pair's bodies and combined parameters come from its geometries' by :func:`contact_pairs`
(multibody._contact_parameters' formulas). A discrete plant's contact pairs (Drake's
DiscreteContactPairs, taken by its SAP and TAMSI solvers) get their contact frames,
Jacobians and SAP parameters from :func:`contact_problem`.
"""

import numpy as np

from mallard._compiled import entry_point
from mallard.multibody._contact_parameters import (
    combine_friction,
    combine_point_contact_parameters,
    pair_parameters,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.engine import stages_by_address
from mallard.multibody._kernels.jacobians import calc_point_jacobian
from mallard.multibody._kernels.kinematics import LAYER_WB
from mallard.multibody._kernels.views import model, workspace
from mallard.multibody._layout import SAP_FRICTION_CONE, SAP_HUNT_CROSSLEY

jitable(combine_friction)
jitable(combine_point_contact_parameters)
jitable(pair_parameters)

#: ‖vt‖² at or below which a contact has no friction (Drake's kNonZeroSqd).
NON_ZERO_SQUARED = 1.0e-14 * 1.0e-14


@jitable
def step5(x):
    """10x³ − 15x⁴ + 6x⁵: from 0 at x = 0 to 1 at x = 1, flat at both ends."""
    x3 = x * x * x
    return x3 * (10.0 + x * (6.0 * x - 15.0))


@jitable
def stribeck_friction(s, mu_s, mu_d):
    """Drake's Stribeck friction coefficient at the slip speed s in stiction tolerances."""
    if s >= 3.0:
        return mu_d
    if s >= 1.0:
        return mu_s - (mu_s - mu_d) * step5((s - 1.0) / 2.0)
    return mu_s * step5(s)


@jitable
def point_contact_forces(work, bodies, pairs, par, inv_stiction, info, kept, F_B):
    """Writes, for each pair with a positive normal force, in order, [f_Bc_W, p_WC, vn, ‖vt‖]
    in ``info`` and its row in ``kept``; sets F_B (per body, at Bo, in World: [torque; force])
    to the sum of their spatial forces on the bodies (none on World). Returns how many pairs
    it kept."""
    for b in range(F_B.shape[0]):
        for j in range(6):
            F_B[b, j] = 0.0 * F_B[b, j]
    count = 0
    for i in range(pairs.shape[0]):
        x = pairs[i, 0]
        n0, n1, n2 = pairs[i, 1], pairs[i, 2], pairs[i, 3]
        c0 = 0.5 * (pairs[i, 4] + pairs[i, 7])
        c1 = 0.5 * (pairs[i, 5] + pairs[i, 8])
        c2 = 0.5 * (pairs[i, 6] + pairs[i, 9])
        a, b = bodies[i, 2], bodies[i, 3]
        # p_AoC, p_BoC and the velocities of the points Ac of A and Bc of B at C, in World.
        ra0 = c0 - work.X_pc[LAYER_WB, a, 3, 0]
        ra1 = c1 - work.X_pc[LAYER_WB, a, 3, 1]
        ra2 = c2 - work.X_pc[LAYER_WB, a, 3, 2]
        rb0 = c0 - work.X_pc[LAYER_WB, b, 3, 0]
        rb1 = c1 - work.X_pc[LAYER_WB, b, 3, 1]
        rb2 = c2 - work.X_pc[LAYER_WB, b, 3, 2]
        V = work.V_WB
        va0 = V[a, 3] + V[a, 1] * ra2 - V[a, 2] * ra1
        va1 = V[a, 4] + V[a, 2] * ra0 - V[a, 0] * ra2
        va2 = V[a, 5] + V[a, 0] * ra1 - V[a, 1] * ra0
        vb0 = V[b, 3] + V[b, 1] * rb2 - V[b, 2] * rb1
        vb1 = V[b, 4] + V[b, 2] * rb0 - V[b, 0] * rb2
        vb2 = V[b, 5] + V[b, 0] * rb1 - V[b, 1] * rb0
        v0, v1, v2 = vb0 - va0, vb1 - va1, vb2 - va2
        vn = v0 * n0 + v1 * n1 + v2 * n2
        k, d, mu_s, mu_d = par[i, 0], par[i, 1], par[i, 2], par[i, 3]
        fn = k * x * (1.0 + d * vn)
        if not fn > 0.0:
            continue
        t0, t1, t2 = v0 - vn * n0, v1 - vn * n1, v2 - vn * n2
        vt_squared = t0 * t0 + t1 * t1 + t2 * t2
        slip = 0.0 * vt_squared
        f0, f1, f2 = fn * n0, fn * n1, fn * n2  # f_AC, the force on A at C
        if vt_squared > NON_ZERO_SQUARED:
            slip = vt_squared**0.5
            ft = stribeck_friction(slip * inv_stiction, mu_s, mu_d) * fn / slip
            f0, f1, f2 = f0 + ft * t0, f1 + ft * t1, f2 + ft * t2
        info[count, 0], info[count, 1], info[count, 2] = -f0, -f1, -f2
        info[count, 3], info[count, 4], info[count, 5] = c0, c1, c2
        info[count, 6], info[count, 7] = vn, slip
        kept[count] = i
        count += 1
        A, B = bodies[i, 0], bodies[i, 1]
        if A != 0:
            F_B[A, 0] += ra1 * f2 - ra2 * f1
            F_B[A, 1] += ra2 * f0 - ra0 * f2
            F_B[A, 2] += ra0 * f1 - ra1 * f0
            F_B[A, 3] += f0
            F_B[A, 4] += f1
            F_B[A, 5] += f2
        if B != 0:
            F_B[B, 0] -= rb1 * f2 - rb2 * f1
            F_B[B, 1] -= rb2 * f0 - rb0 * f2
            F_B[B, 2] -= rb0 * f1 - rb1 * f0
            F_B[B, 3] -= f0
            F_B[B, 4] -= f1
            F_B[B, 5] -= f2
    return count


@entry_point
@jitable(inline=True)
def drive_point_contact(
    mi, mf, x, ws, need, bodies, pairs, par, inv_stiction, info, kept, F_B, at
):  # fmt: skip
    """:func:`point_contact_forces` at the state x, the stages in ``need`` (of the positions
    and velocities stages only, which it reads) brought up to date first by the kernel at
    ``at`` (kernels.engine.stages_by_address)."""
    stages_by_address(mi, mf, x, ws, need, at)
    work = workspace(mi, ws)
    return point_contact_forces(work, bodies, pairs, par, inv_stiction, info, kept, F_B)


@jitable
def contact_frame(n, R):
    """R (3×3) = R_WC of a contact frame whose z axis is along the vector n (3, contiguous) in
    World, x and y by Drake's RotationMatrix::MakeFromOneVector(n, 2): with u = n/|n| and e
    the unit vector along u's smallest-magnitude element (the first on ties), x = e × u/|e × u|
    and y = u × x. The norms are np.dot's (as numpy's, which fuses the multiply-adds), so that
    R is RotationMatrix's to the bit; R's first row holds e × u meanwhile."""
    norm = np.sqrt(np.dot(n, n))
    u0, u1, u2 = n[0] / norm, n[1] / norm, n[2] / norm
    a0, a1, a2 = abs(u0), abs(u1), abs(u2)
    x = R[0]
    if a0 <= a1 and a0 <= a2:
        x[0], x[1], x[2] = 0.0, -u2, u1
    elif a1 <= a2:
        x[0], x[1], x[2] = u2, 0.0, -u0
    else:
        x[0], x[1], x[2] = -u1, u0, 0.0
    norm = np.sqrt(np.dot(x, x))
    x0, x1, x2 = x[0] / norm, x[1] / norm, x[2] / norm
    R[0, 0], R[1, 0], R[2, 0] = x0, x1, x2
    R[0, 1], R[1, 1], R[2, 1] = u1 * x2 - u2 * x1, u2 * x0 - u0 * x2, u0 * x1 - u1 * x0
    R[0, 2], R[1, 2], R[2, 2] = u0, u1, u2


@jitable
def contact_jacobians(m, work, mobods, nhat_AB_W, p_WC, R_WC, scratch, J):
    """Per contact pair i (between the bodies of mobods[i] = (A, B), at the point p_WC[i] with
    the normal nhat_AB_W[i] pointing out of A into B): its contact frame R_WC[i] (z along the
    normal, :func:`contact_frame`) and its rows 3i..3i + 2 of J, J_C = R_WCᵀ·(Jv_WBc − Jv_WAc)
    (tangential, tangential, normal: J_C·v is the velocity of Bc relative to Ac in C), at the
    positions of ``work``. ``scratch``: (2, 6, nv)."""
    nv = J.shape[1]
    for i in range(mobods.shape[0]):
        R = R_WC[i]
        contact_frame(nhat_AB_W[i], R)
        calc_point_jacobian(m, work, mobods[i, 0], p_WC[i], scratch[0])
        calc_point_jacobian(m, work, mobods[i, 1], p_WC[i], scratch[1])
        for r in range(3):
            row = J[3 * i + r]
            for v in range(nv):
                total = 0.0
                for b in range(3):
                    total += R[b, r] * (scratch[1, 3 + b, v] - scratch[0, 3 + b, v])
                row[v] = total


@jitable
def contact_problem(m, work, bodies, rows, par, v0, kind, lagged, beta, stiction, body_clique,
                    p_WC, nhat_AB_W, R_WC, scratch, J, phi0, cliques, cpar):  # fmt: skip
    """A discrete step's contact pairs as Drake's DiscreteContactPairs (plant._contact.
    _DiscreteContacts), at the positions of ``work``, from the point pairs' ``bodies``, rows
    [depth, nhat_BA_W, p_WCa, p_WCb] and parameters ``par`` [k, d, μs, μd, wA, τA, τB]
    (:func:`contact_pairs`), n = rows.shape[0] of them: per pair i the contact point
    p_WC[i] = wA·Ca + (1 − wA)·Cb, the normal nhat_AB_W[i] = −nhat_BA_W, the frame R_WC[i] and
    rows 3i..3i + 2 of J (:func:`contact_jacobians`), φ0[i] = −depth, its cliques (the trees
    of its bodies with dofs, ``body_clique``; one clique if one has none or both share it:
    the second −1) and, for a SAP constraint (``kind`` SAP_FRICTION_CONE or
    SAP_HUNT_CROSSLEY; any other value: none), its parameters cpar[i] (kernels.sap): kSap's
    [μd, k, τA + τB, ``beta``, σ = 1e-3], the Hunt–Crossley's [``lagged``, μd, k, d,
    ``stiction``, σ = 1e-3, k·depth, vn0 = (J·v0) of its normal row] (the rest of the row
    zero)."""
    n = rows.shape[0]
    for i in range(n):
        wA = par[i, 4]
        for k in range(3):
            p_WC[i, k] = wA * rows[i, 4 + k] + (1.0 - wA) * rows[i, 7 + k]
            nhat_AB_W[i, k] = -rows[i, 1 + k]
    contact_jacobians(m, work, bodies[:, 2:4], nhat_AB_W, p_WC, R_WC, scratch, J)
    nv = J.shape[1]
    for i in range(n):
        depth = rows[i, 0]
        phi0[i] = -depth
        cA, cB = body_clique[bodies[i, 0]], body_clique[bodies[i, 1]]
        if cA < 0 or cB < 0 or cA == cB:
            cliques[i, 0], cliques[i, 1] = max(cA, cB), -1
        else:
            cliques[i, 0], cliques[i, 1] = cA, cB
        if kind != SAP_FRICTION_CONE and kind != SAP_HUNT_CROSSLEY:
            continue
        row = cpar[i]
        for k in range(row.shape[0]):
            row[k] = 0.0 * row[k]
        k_i, d_i, mu = par[i, 0], par[i, 1], par[i, 3]
        if kind == SAP_FRICTION_CONE:
            row[0], row[1], row[2] = mu, k_i, par[i, 5] + par[i, 6]
            row[3], row[4] = beta, 1.0e-3
        else:
            vn0 = 0.0
            normal = J[3 * i + 2]
            for j in range(nv):
                vn0 = vn0 + normal[j] * v0[j]
            row[0], row[1], row[2], row[3] = lagged, mu, k_i, d_i
            row[4], row[5], row[6], row[7] = stiction, 1.0e-3, k_i * depth, vn0


@entry_point
@jitable(inline=True)
def drive_contact_problem(mi, mf, ws, bodies, rows, par, v0, kind, lagged, beta, stiction,
                          body_clique, p_WC, nhat_AB_W, R_WC, scratch, J, phi0, cliques,
                          cpar):  # fmt: skip
    """:func:`contact_problem` at the positions of ``ws`` (up to date)."""
    contact_problem(
        model(mi, mf), workspace(mi, ws), bodies, rows, par, v0, kind, lagged, beta, stiction,
        body_clique, p_WC, nhat_AB_W, R_WC, scratch, J, phi0, cliques, cpar,
    )  # fmt: skip


@entry_point
@jitable
def contact_pairs(ab, body, mobod, values, bodies, par):
    """Per pair i of geometries ab[i] = (a, b): bodies[i] = [body A, body B, mobod A, mobod B]
    and par[i] = [k, d, μs, μd, wA, τA, τB] (multibody._contact_parameters.pair_parameters) from
    the geometries' body, mobod and [k, d, μs, μd, τ] rows (plant._contact._ContactTable)."""
    for i in range(ab.shape[0]):
        a, b = ab[i, 0], ab[i, 1]
        bodies[i, 0], bodies[i, 1] = body[a], body[b]
        bodies[i, 2], bodies[i, 3] = mobod[a], mobod[b]
        pair_parameters(values[a], values[b], par[i])
