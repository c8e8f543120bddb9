"""The discrete contact pairs' kernel (kernels.contact.contact_problem): its contact frames are
RotationMatrix.MakeFromOneVector's to the bit, its Jacobians R_WCᵀ·(Jv_WBc − Jv_WAc) from the
point Jacobians, its SAP parameters Drake's."""

import numpy as np

from mallard._compiled import kernels
from mallard.math import RotationMatrix
from mallard.multibody._layout import SAP_FRICTION_CONE, SAP_HUNT_CROSSLEY

from .kernel_cases import Sample


def _normals(rng):
    """Random unit normals and ones whose smallest element is each of x, y, z, with ties."""
    n = rng.normal(size=(40, 3))
    n[:6] = [(0, 0, 1), (0, 1, 0), (1, 0, 0), (0.3, 0.3, 0.9), (0.6, -0.2, 0.2), (-1, 1, -1)]
    return n / np.linalg.norm(n, axis=1)[:, None]


def test_contact_frames_are_make_from_one_vector_and_jacobians_are_relative_point_jacobians():
    rng = np.random.default_rng(3)
    s = Sample(rng)
    ws = s.staged()
    nhat = _normals(rng)
    n, nv = len(nhat), s.sizes.nv
    mobods = rng.integers(0, s.sizes.n, size=(n, 2)).astype(np.int64)
    p_WC = rng.normal(size=(n, 3))
    # Point pairs whose witness points are both C (wA = 1/2: C exactly), nhat_BA = −nhat.
    bodies = np.zeros((n, 4), dtype=np.int64)
    bodies[:, 2:] = mobods
    rows = np.hstack((rng.uniform(0, 1e-3, (n, 1)), -nhat, p_WC, p_WC))
    par = np.column_stack((rng.uniform(1e3, 1e5, n), rng.uniform(0, 50, n),
                           np.full(n, 0.7), np.full(n, 0.5), np.full(n, 0.5),
                           rng.uniform(0, 0.1, (n, 2))))  # fmt: skip
    v0 = rng.normal(size=nv)
    compiled = kernels(np.float64)
    cpar = {}
    for kind in (SAP_FRICTION_CONE, SAP_HUNT_CROSSLEY):
        outputs = (np.empty((n, 3)), np.empty((n, 3)), np.empty((n, 3, 3)), np.empty((2, 6, nv)),
                   np.empty((3 * n, nv)), np.empty(n), np.empty((n, 2), np.int64),
                   np.empty((n, 10)))  # fmt: skip
        compiled.drive_contact_problem(
            s.mi, s.mf, ws, bodies, rows, par, v0, kind, 1.0, 0.8, 1e-4, np.zeros(1, np.int64),
            *outputs,
        )  # fmt: skip
        p, _, R_WC, _, J, phi0, _, cpar[kind] = outputs
        np.testing.assert_array_equal(p, p_WC)
        np.testing.assert_array_equal(phi0, -rows[:, 0])
    tau = par[:, 5] + par[:, 6]
    np.testing.assert_array_equal(cpar[SAP_FRICTION_CONE][:, :5].T,
                                  [par[:, 3], par[:, 0], tau, [0.8] * n, [1e-3] * n])  # fmt: skip
    hunt_crossley = cpar[SAP_HUNT_CROSSLEY]
    np.testing.assert_array_equal(hunt_crossley[:, 6], par[:, 0] * rows[:, 0])
    np.testing.assert_allclose(hunt_crossley[:, 7], (J @ v0)[2::3], rtol=1e-12, atol=1e-14)
    point = np.empty((1, 6, nv))
    for i in range(n):
        expected = RotationMatrix.MakeFromOneVector(nhat[i], 2).matrix()
        np.testing.assert_array_equal(R_WC[i], expected)
        Jv = []
        for k in mobods[i]:
            compiled.drive_point_jacobians(s.mi, s.mf, ws, k, p_WC[i : i + 1], point)
            Jv.append(point[0, 3:].copy())
        J_W = (Jv[1] - Jv[0])[None]
        expected_J = np.einsum("nab,nbv->nav", expected.T[None], J_W)[0]
        np.testing.assert_array_equal(J[3 * i : 3 * i + 3], expected_J)


def test_the_rows_contact_scratch_is_the_steppers():
    """kernels.discrete_step.found_views carves from a rollout's row the arrays that
    plant._stepping.found_arrays makes for the Simulator's stepping: the same shapes and
    scalar types, in a buffer of found_size."""
    from mallard.multibody._kernels.discrete_step import found_size, found_views
    from mallard.multibody.plant._stepping import found_arrays

    for sizes in [(5, 3, 4, 20, 2, 7), (0, 0, 0, 0, 0, 3), (1, 1, 9, 0, 0, 12)]:
        arrays = found_arrays(*sizes)
        views = found_views(np.zeros(found_size(*sizes)), *sizes)
        assert [(a.shape, a.dtype) for a in views] == [(a.shape, a.dtype) for a in arrays]
        assert found_size(*sizes) == sum(a.size for a in arrays)
