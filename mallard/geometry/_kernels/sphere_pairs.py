"""A sphere S with a sphere, box, capsule, cylinder or half space O, as Drake answers them:
from the signed distance φ_O of the sphere's center So (kernels.point_distance): the depth is
r − φ_O(So), the normal ∇φ_O(So), the witness on O the point of O nearest So, the witness on S
So − r·∇φ_O(So). Any scalar (AutoDiffXd interpreted).

Results are written in a row of the queries' results (_proximity_layout): a penetration as
(depth, nhat_BA_W, p_WCa, p_WCb), a signed distance as (φ, nhat_BA_W, p_ACa, p_BCb); the
pair is (A, B) in the caller's order: ``sphere_is_a`` says which one is the sphere.
"""

from mallard.geometry._kernels.point_distance import closed_form, rotate_to_geometry, to_world
from mallard.multibody._kernels._machinery import jitable


@jitable
def _store(out, s, a, b, c):
    """out[0] = s, then the 3-tuples a, b, c."""
    out[0] = s
    out[1], out[2], out[3] = a[0], a[1], a[2]
    out[4], out[5], out[6] = b[0], b[1], b[2]
    out[7], out[8], out[9] = c[0], c[1], c[2]


@jitable
def sphere_penetration(radius, X_S, kind_O, m_O, X_O, sphere_is_a, out):
    """Writes the penetration of sphere S (radius, pose X_S) and shape O (kind, measures
    m_O, pose X_O) in ``out``; returns whether they touch or overlap (depth ≥ 0)."""
    p_WSo = (X_S[3, 0], X_S[3, 1], X_S[3, 2])
    phi, p_ON, grad = closed_form(kind_O, m_O, X_O, p_WSo)
    depth = radius - phi
    if depth < 0:
        return False
    p_WCo = to_world(X_O, p_ON)
    p_WCs = (p_WSo[0] - radius * grad[0], p_WSo[1] - radius * grad[1], p_WSo[2] - radius * grad[2])
    if sphere_is_a:
        _store(out, depth, grad, p_WCs, p_WCo)
    else:
        _store(out, depth, (-grad[0], -grad[1], -grad[2]), p_WCo, p_WCs)
    return True


@jitable
def sphere_distance(radius, X_S, kind_O, m_O, X_O, sphere_is_a, out):
    """Writes the signed distance between sphere S and shape O in ``out``."""
    p_WSo = (X_S[3, 0], X_S[3, 1], X_S[3, 2])
    phi, p_ON, grad = closed_form(kind_O, m_O, X_O, p_WSo)
    g_S = rotate_to_geometry(X_S, grad)
    p_SCs = (-radius * g_S[0], -radius * g_S[1], -radius * g_S[2])
    if sphere_is_a:
        _store(out, phi - radius, grad, p_SCs, p_ON)
    else:
        _store(out, phi - radius, (-grad[0], -grad[1], -grad[2]), p_ON, p_SCs)
