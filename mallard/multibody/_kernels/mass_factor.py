"""The mass matrix factored by its tree's sparsity, M = Lᵀ·L (Featherstone's LTL factorization,
"Rigid Body Dynamics Algorithms" §6.5), its solves and M⁻¹, restricted to some of the dofs (the
others held at zero, as locked joints' velocities).

A dof's ancestors are the dofs before it in its mobilizer, then those of its mobod's ancestors:
the chain of its parent dofs λ(i) (``model.dof_parent``, the tree's parent array expanded to
dofs, −1 past a root); M_ij is zero unless i ⪯ j or j ⪯ i. Factored from
the tips to the root, L (lower triangular) keeps that pattern without fill: L_ij is nonzero
only for j ⪯ i. So a factorization costs O(Σ depth²) and a solve O(Σ depth) per column, where a
Cholesky factor L·Lᵀ in the mobods' order (root first) fills the whole triangle (for the G1
humanoid, nv = 35: 306 entries of L below the diagonal in place of 595). The mobods
are numbered depth first, so the dofs of a dof's subtree follow it: [i, v_end[k]) for dof i of
mobod k.

``model`` is the model's views (its tree, v_end and dof_parent are read); ``free`` (1 for a
dof solved for, else 0) a plain array; M, L and the right-hand sides may be lane views
(kernels.batch: L states at once).
"""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.lanes import positive
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES
from mallard.multibody._layout import JTYPE, V_START


@jitable
def factor(model, M, free, L):
    """L (its lower triangle on M's pattern; its other entries are not written) with
    Lᵀ·L = M restricted to the dofs with ``free`` nonzero (the others' rows and columns of M
    replaced by those of the identity), M symmetric positive definite (its lower triangle is
    read). Returns False if it is not positive definite (of lanes: in some lane)."""
    parent = model.dof_parent
    for i in range(model.nv):
        j = i
        while j >= 0:
            if free[i] != 0 and free[j] != 0:
                L[i, j] = M[i, j]
            elif i == j:
                L[i, j] = 1.0 + 0.0 * M[i, j]
            else:
                L[i, j] = 0.0 * M[i, j]
            j = parent[j]
    # Tips to root (the dofs in reverse: a dof's descendants follow it): row i's diagonal and
    # its ancestors' entries, then i eliminated from the rows of its ancestors
    # (L_jl −= L_ij·L_il for l ⪯ j ≺ i).
    for i in range(model.nv - 1, -1, -1):
        s = L[i, i]
        if not positive(s):  # (of lanes: every lane)
            return False
        d = s**0.5
        L[i, i] = d
        j = parent[i]
        while j >= 0:
            L[i, j] = L[i, j] / d
            j = parent[j]
        j = parent[i]
        while j >= 0:
            L_ij = L[i, j]
            l = j
            while l >= 0:
                L[j, l] -= L_ij * L[i, l]
                l = parent[l]
            j = parent[j]
    return True


@jitable
def solve(model, L, free, B, sign):
    """B = sign·M⁻¹·B in place (B nv×m) with L from :func:`factor`: Lᵀ·Y = B tips to root,
    then L·X = Y root to tips (:func:`_root_to_tips`), row by row, each row's columns side by
    side (a vector loop). The rows of B of the dofs not ``free`` are set to zero (and not
    read)."""
    tree, v_end, m = model.tree, model.v_end, B.shape[1]
    for k in range(model.n - 1, 0, -1):
        c0, end = tree[k, V_START], v_end[k]
        for i in range(c0 + NUM_VELOCITIES[tree[k, JTYPE]] - 1, c0 - 1, -1):
            if free[i] == 0:
                for c in range(m):
                    B[i, c] = 0.0 * B[i, c]
                continue  # (L's row i is zero but for its diagonal)
            # Y_i = (B_i − Σ L_li·Y_l)/L_ii over i's descendants l, the dofs i + 1 to end − 1,
            # two rows at a time.
            for l in range(i + 1, end - 1, 2):
                L_li, L_mi = L[l, i], L[l + 1, i]
                for c in range(m):
                    B[i, c] -= L_li * B[l, c] + L_mi * B[l + 1, c]
            if (end - i) % 2 == 0:
                L_li = L[end - 1, i]
                for c in range(m):
                    B[i, c] -= L_li * B[end - 1, c]
            L_ii = L[i, i]
            for c in range(m):
                B[i, c] = B[i, c] / L_ii
    _root_to_tips(model, L, free, B, sign)


@jitable
def _root_to_tips(model, L, free, Y, sign):
    """Y = L⁻¹·(sign·Y) in place, the rows of the dofs not ``free`` left as they are:
    X_i = (sign·Y_i − Σ L_ij·X_j)/L_ii over i's ancestors j, two at a time."""
    parent, m = model.dof_parent, Y.shape[1]
    for i in range(model.nv):
        if free[i] == 0:
            continue
        for c in range(m):
            Y[i, c] = sign * Y[i, c]
        j = parent[i]
        while j >= 0:
            h = parent[j]
            if h < 0:
                L_ij = L[i, j]
                for c in range(m):
                    Y[i, c] -= L_ij * Y[j, c]
                break
            L_ij, L_ih = L[i, j], L[i, h]
            for c in range(m):
                Y[i, c] -= L_ij * Y[j, c] + L_ih * Y[h, c]
            j = parent[h]
        L_ii = L[i, i]
        for c in range(m):
            Y[i, c] = Y[i, c] / L_ii


@jitable
def inverse(model, L, free, Minv):
    """Minv = M⁻¹ (nv×nv) with L from :func:`factor`, its rows and columns of the dofs not
    ``free`` zero: Lᵀ·Y = 1 (row i of Y is zero but over i's subtree [i, v_end)), tips to root,
    then L·X = Y as :func:`solve`."""
    tree, v_end, parent, nv = model.tree, model.v_end, model.dof_parent, Minv.shape[0]
    if nv == 0:
        return
    z = 0.0 * L[0, 0]  # (of the state's type: a lane value in lanes)
    for i in range(nv):
        for c in range(nv):
            Minv[i, c] = z
        if free[i] != 0:
            Minv[i, i] = 1.0 + z
    for k in range(model.n - 1, 0, -1):
        c0, end = tree[k, V_START], v_end[k]
        for i in range(c0 + NUM_VELOCITIES[tree[k, JTYPE]] - 1, c0 - 1, -1):
            if free[i] == 0:
                continue
            L_ii = L[i, i]
            for c in range(i, end):
                Minv[i, c] = Minv[i, c] / L_ii
            j = parent[i]
            while j >= 0:
                L_ij = L[i, j]
                for c in range(i, end):
                    Minv[j, c] -= L_ij * Minv[i, c]
                j = parent[j]
    _root_to_tips(model, L, free, Minv, 1.0)
