"""Drake's combination of two geometries' point contact parameters into a pair's: the one
formula of mallard's, for the plant's Python (CoulombFriction) and for the kernels
(kernels.contact compiles it). It imports nothing, so that the kernels' compiled code depends
on this file alone."""


def combine_friction(mu_1, mu_2):
    """2·μ₁·μ₂/(μ₁ + μ₂), zero if both are zero (Drake's
    CalcContactFrictionFromSurfaceProperties, per coefficient)."""
    return 0.0 if mu_1 + mu_2 == 0 else 2.0 * mu_1 * mu_2 / (mu_1 + mu_2)


def combine_point_contact_parameters(k1, k2, d1, d2):
    """(k, d) of a pair from its geometries' stiffnesses and dissipations (Drake's
    CombinePointContactParameters; 0/0 is 0)."""
    total = k1 + k2
    if total == 0:
        return 0.0, 0.0
    return k1 * k2 / total, (k2 / total) * d1 + (k1 / total) * d2


def pair_parameters(values_A, values_B, par):
    """par = [k, d, μs, μd, wA, τA, τB] of a pair from its geometries' [k, d, μs, μd, τ]:
    the combined stiffness, dissipation and friction, A's weight wA = kA/(kA + kB) in the
    contact point (1/2 if both are 0) and the geometries' relaxation times."""
    kA, kB = values_A[0], values_B[0]
    par[0], par[1] = combine_point_contact_parameters(kA, kB, values_A[1], values_B[1])
    par[2] = combine_friction(values_A[2], values_B[2])
    par[3] = combine_friction(values_A[3], values_B[3])
    par[4] = 0.5 if kA + kB == 0 else kA / (kA + kB)
    par[5], par[6] = values_A[4], values_B[4]
