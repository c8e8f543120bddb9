"""Parsing steps shared by the format parsers (Drake's detail_common.cc): spatial inertia with
Drake's warnings for non-physical values, and Drake's force-element extensions."""

import math

import numpy as np

from mallard.multibody.tree import (
    LinearBushingRollPitchYaw,
    LinearSpringDamper,
    RotationalInertia,
    SpatialInertia,
    UnitInertia,
)
from mallard.multibody.tree._rotational_inertia import could_be_physically_valid_rows, fmt


def _fmt_matrix(I):
    """A 3x3 matrix as Drake's fmt_eigen prints it (columns right-aligned to one width)."""
    cells = [[fmt(x) for x in row] for row in I.tolist()]
    width = max(len(c) for row in cells for c in row)
    return "\n".join("[" + "  ".join(c.rjust(width) for c in row) + "]" for row in cells)


def _invalid_inertia_message(I):
    """Drake's MakeFromMomentsAndProductsOfInertia() message for the invalid 3x3 ``I``."""
    text = (
        f"MakeFromMomentsAndProductsOfInertia(): The rotational inertia\n{_fmt_matrix(I)}\n"
        "did not pass the test CouldBePhysicallyValid()."
    )
    if not np.all(np.isfinite(I)):
        return text
    moments = np.linalg.eigvalsh(I)
    text += "\nThe associated principal moments of inertia:\n" + "  ".join(map(fmt, moments))
    if moments[0] < 0:
        return text + "\nare invalid since at least one is negative."
    return text + "\ndo not satisfy the triangle inequality."


_IDENTITY = np.eye(3).tolist()


def parse_spatial_inertia(diagnostics, node, X_BBi, mass, moments_and_products):
    """M_BBo_B from a link's inertial data, as Drake's ParseSpatialInertia: the COM at X_BBi's
    origin, the inertia (ixx, iyy, izz, ixy, ixz, iyz) about the COM in frame Bi.

    Non-physical data is a warning (located at ``node``), and the body then gets a plausible
    stand-in: a solid sphere of water with the given mass (or 1 kg) at the COM.
    """
    ixx, iyy, izz, ixy, ixz, iyz = moments_and_products
    p_BoBcm_B = X_BBi.translation()

    def dummy():
        plausible_mass = mass if math.isfinite(mass) and mass > 0 else 1.0
        radius = np.cbrt((3.0 / (4.0 * np.pi)) * (plausible_mass / 1000.0))
        return SpatialInertia.SolidSphereWithDensity(1000.0, radius).Shift(-p_BoBcm_B)

    rows = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
    if not could_be_physically_valid_rows(rows):
        I = np.array(rows, dtype=float)
        diagnostics.warning(node, f"While parsing inertia matrix: {_invalid_inertia_message(I)}")
        return dummy()
    if mass == 0.0 and not any(moments_and_products):
        return SpatialInertia(0.0, np.zeros(3), UnitInertia(0.0, 0.0, 0.0))
    if X_BBi._R._R.tolist() != _IDENTITY:  # (re-expressing in the same frame changes no bit)
        I_BBcm_B = RotationalInertia._make(np.array(rows, dtype=float))
        rows = I_BBcm_B.ReExpress(X_BBi.rotation())._I.tolist()
    if not mass > 0:
        reason = "SetFromRotationalInertia(): condition 'mass > 0' failed."
    else:
        try:  # (MakeFromCentralInertia, of the floats)
            return SpatialInertia._from_central_rows(float(mass), p_BoBcm_B.tolist(), rows)
        except RuntimeError as e:
            reason = str(e)
    diagnostics.warning(node, f"While re-expressing as central inertia: {reason}")
    return dummy()


def add_linear_bushing(plant, read_vector, read_frame):
    """Adds a LinearBushingRollPitchYaw from Drake's ``drake:bushing_*`` tags; None if a frame
    is missing (after the reader reported it)."""
    frame_A = read_frame("drake:bushing_frameA")
    if frame_A is None:
        return None
    frame_C = read_frame("drake:bushing_frameC")
    if frame_C is None:
        return None
    return plant.AddForceElement(
        LinearBushingRollPitchYaw(
            frame_A,
            frame_C,
            read_vector("drake:bushing_torque_stiffness"),
            read_vector("drake:bushing_torque_damping"),
            read_vector("drake:bushing_force_stiffness"),
            read_vector("drake:bushing_force_damping"),
        )
    )


def add_linear_spring_damper(plant, read_vector, read_body, read_double):
    """Adds a LinearSpringDamper from Drake's ``drake:linear_spring_damper_*`` tags."""
    body_A = read_body("drake:linear_spring_damper_body_A")
    if body_A is None:
        return None
    body_B = read_body("drake:linear_spring_damper_body_B")
    if body_B is None:
        return None
    p_AP = read_vector("drake:linear_spring_damper_p_AP")
    p_BQ = read_vector("drake:linear_spring_damper_p_BQ")
    values = []
    for name in ("free_length", "stiffness", "damping"):
        value = read_double(f"drake:linear_spring_damper_{name}")
        if value is None:
            return None
        values.append(value)
    return plant.AddForceElement(LinearSpringDamper(body_A, p_AP, body_B, p_BQ, *values))


def add_ball_constraint(plant, read_vector, read_body):
    """Adds a ball constraint from Drake's ``drake:ball_constraint_*`` tags; None if a body is
    missing (after the reader reported it)."""
    body_A = read_body("drake:ball_constraint_body_A")
    if body_A is None:
        return None
    body_B = read_body("drake:ball_constraint_body_B")
    if body_B is None:
        return None
    p_AP = read_vector("drake:ball_constraint_p_AP")
    p_BQ = read_vector("drake:ball_constraint_p_BQ")
    return plant.AddBallConstraint(body_A, p_AP, body_B, p_BQ)


def add_tendon_constraint(plant, joints, read_double):
    """Adds a tendon constraint from Drake's ``drake:tendon_constraint_*`` tags, given its
    joints ((JointIndex, coefficient a) pairs, from the ``drake:tendon_constraint_joint``
    elements); None if a value is missing (after the reader reported it)."""
    values = []
    for name in ("offset", "lower_limit", "upper_limit", "stiffness", "damping"):
        value = read_double(f"drake:tendon_constraint_{name}")
        if value is None:
            return None
        values.append(value)
    return plant.AddTendonConstraint([j for j, _ in joints], [a for _, a in joints], *values)
