"""DiscreteContactApproximation, DiscreteContactSolver, the plant's approximation and SAP
near-rigid threshold settings, MultibodyPlantConfig's, and their errors, against pydrake's."""

import logging

import pytest

import mallard.all as M

D = pytest.importorskip("pydrake.all")


def both(call):
    """(mallard's, pydrake's) result of ``call(module)``, or the text of what it raised
    (pydrake's failed DRAKE_THROW_UNLESS, a SystemExit, is a RuntimeError in mallard)."""
    out = []
    for module in (M, D):
        try:
            out.append(call(module))
        except (RuntimeError, TypeError, SystemExit) as e:
            out.append((type(e).__name__, str(e)))
    return out


def pendulum(module, time_step, coupler=False):
    plant = module.MultibodyPlant(time_step)
    body = plant.AddRigidBody("b", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    joint = plant.AddJoint(
        module.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 1, 0])
    )
    if coupler:
        other = plant.AddRigidBody("c", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        joint2 = plant.AddJoint(
            module.RevoluteJoint("k", body.body_frame(), other.body_frame(), [0, 1, 0])
        )
        plant.AddCouplerConstraint(joint, joint2, 1.0)
    return plant


def test_enums_as_pydrake():
    for name in ("DiscreteContactApproximation", "DiscreteContactSolver"):
        mine, theirs = getattr(M, name), getattr(D, name)
        assert list(mine.__members__) == list(theirs.__members__)
        for key, member in mine.__members__.items():
            other = theirs.__members__[key]
            assert (member.name, member.value, int(member)) == (other.name, other.value, int(other))
            assert repr(member) == repr(other) and str(member) == str(other)
            assert hash(member) == hash(other)
            assert mine(member.value) == member
        assert mine.kSap != 1 and theirs.kSap != 1
        assert str(mine(7)) == str(theirs(7)).replace("pydrake", "mallard")
    assert M.DiscreteContactApproximation.__module__ == "mallard.multibody.plant"
    assert M.DiscreteContactApproximation.kSap != M.DiscreteContactSolver.kSap


def test_defaults_and_solver_of_each_approximation():
    for time_step in (0.0, 0.01):
        mine, theirs = both(
            lambda m, h=time_step: (
                str(m.MultibodyPlant(h).get_discrete_contact_approximation()),
                str(m.MultibodyPlant(h).get_discrete_contact_solver()),
                m.MultibodyPlant(h).get_sap_near_rigid_threshold(),
            )
        )
        assert (
            mine
            == theirs
            == (
                "DiscreteContactApproximation.kLagged",
                "DiscreteContactSolver.kSap",
                1.0,
            )
        )
    for name in ("kTamsi", "kSap", "kSimilar", "kLagged"):

        def solver(m, name=name):
            plant = m.MultibodyPlant(0.01)
            plant.set_discrete_contact_approximation(getattr(m.DiscreteContactApproximation, name))
            plant.set_sap_near_rigid_threshold(0.25)
            return (
                str(plant.get_discrete_contact_approximation()),
                str(plant.get_discrete_contact_solver()),
                plant.get_sap_near_rigid_threshold(),
            )

        mine, theirs = both(solver)
        assert mine == theirs


def _message(result):
    return result[1] if isinstance(result, tuple) else result


def test_errors_as_pydrake():
    kSap = "DiscreteContactApproximation.kSap"

    def continuous(m):
        m.MultibodyPlant(0.0).set_discrete_contact_approximation(
            m.DiscreteContactApproximation.kSap
        )

    mine, theirs = both(continuous)
    assert mine[0] == "RuntimeError"  # (pydrake: SystemExit, a failed DRAKE_THROW_UNLESS)
    assert theirs[1].endswith(mine[1].split("(): ")[1])
    assert mine[1] == "set_discrete_contact_approximation(): condition 'is_discrete()' failed."

    def negative(m):
        m.MultibodyPlant(0.01).set_sap_near_rigid_threshold(-0.5)

    mine, theirs = both(negative)
    assert theirs[1].endswith(mine[1].split("(): ")[1])

    def finalized(m):
        plant = m.MultibodyPlant(0.01)
        plant.Finalize()
        errors = []
        for call in (
            lambda: plant.set_discrete_contact_approximation(m.DiscreteContactApproximation.kSap),
            lambda: plant.set_sap_near_rigid_threshold(0.5),
        ):
            try:
                call()
            except RuntimeError as e:
                errors.append(str(e))
        return errors

    mine, theirs = both(finalized)
    assert mine == theirs and len(mine) == 2

    def tamsi_then_coupler(m):
        plant = m.MultibodyPlant(0.01)
        plant.set_discrete_contact_approximation(m.DiscreteContactApproximation.kTamsi)
        return pendulum_on(plant, m)

    def pendulum_on(plant, m):
        a = plant.AddRigidBody("a", m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        b = plant.AddRigidBody("b", m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        ja = plant.AddJoint(m.RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0]))
        jb = plant.AddJoint(m.RevoluteJoint("jb", a.body_frame(), b.body_frame(), [0, 1, 0]))
        plant.AddCouplerConstraint(ja, jb, 1.0)

    mine, theirs = both(tamsi_then_coupler)
    assert mine == theirs and mine[0] == "RuntimeError"

    def coupler_then_tamsi(m):
        plant = pendulum(m, 0.01, coupler=True)
        plant.set_discrete_contact_approximation(m.DiscreteContactApproximation.kTamsi)

    mine, theirs = both(coupler_then_tamsi)
    assert mine == theirs and "TAMSI does not support constraints" in mine[1]

    def bad_types(m):
        plant = m.MultibodyPlant(0.01)
        errors = []
        for call in (
            lambda: plant.set_discrete_contact_approximation(1),
            lambda: plant.set_discrete_contact_approximation(kSap),
            lambda: plant.set_sap_near_rigid_threshold("a"),
        ):
            try:
                call()
            except TypeError as e:
                errors.append(str(e).split("\n")[0])
        return errors

    mine, theirs = both(bad_types)
    assert mine == theirs and len(mine) == 3


def test_config_takes_effect_as_pydrake():
    cases = [
        dict(time_step=0.01),
        dict(time_step=0.01, discrete_contact_approximation="sap", sap_near_rigid_threshold=0.3),
        dict(time_step=0.01, discrete_contact_approximation="similar"),
        dict(time_step=0.01, discrete_contact_approximation=""),
        dict(time_step=0.01, discrete_contact_approximation="tamsi"),
        dict(time_step=0.0, discrete_contact_approximation="sap"),
        dict(time_step=0.0, discrete_contact_approximation="nonsense"),
        dict(time_step=0.01, discrete_contact_approximation="nonsense"),
        dict(time_step=0.01, sap_near_rigid_threshold=-1.0),
    ]
    logging.disable(logging.WARNING)
    try:
        for kwargs in cases:

            def apply(m, kwargs=kwargs):
                plant = m.MultibodyPlant(kwargs["time_step"])
                m.ApplyMultibodyPlantConfig(m.MultibodyPlantConfig(**kwargs), plant)
                return (
                    str(plant.get_discrete_contact_approximation()),
                    plant.get_sap_near_rigid_threshold(),
                )

            mine, theirs = both(apply)
            if isinstance(theirs, tuple) and theirs and theirs[0] == "SystemExit":
                assert mine[0] == "RuntimeError" and theirs[1].endswith(mine[1].split("(): ")[1])
            else:
                assert mine == theirs, kwargs
    finally:
        logging.disable(logging.NOTSET)


def test_symbolic_discrete_updates_as_drake():
    """Drake's discrete updates have no symbolic scalars (SAP's, and TAMSI's contact pairs)."""
    for approximation in ("kLagged", "kTamsi"):

        def step(m, approximation=approximation):
            plant = m.MultibodyPlant(0.01)
            plant.set_discrete_contact_approximation(
                getattr(m.DiscreteContactApproximation, approximation)
            )
            body = plant.AddRigidBody("b", m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
            plant.AddJoint(m.PrismaticJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
            plant.Finalize()
            symbolic = plant.ToSymbolic()
            context = symbolic.CreateDefaultContext()
            state = symbolic.CreateDefaultContext().get_mutable_state()
            symbolic.CalcForcedUnrestrictedUpdate(context, state)
            x = state.get_discrete_state().get_vector(0).CopyToVector()
            return [float(e.Evaluate()) for e in x]

        mine, theirs = both(step)
        assert mine == theirs
        assert mine[1] == (
            "This method doesn't support T = Expression."
            if approximation == "kTamsi"
            else "Discrete updates with the SAP solver are not supported for T = "
            "symbolic::Expression"
        )


def test_limits_of_a_multi_dof_joint_raise_as_drake():
    def step(m):
        plant = m.MultibodyPlant(0.01)
        body = plant.AddRigidBody("b", m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        joint = plant.AddJoint(m.UniversalJoint("u", plant.world_frame(), body.body_frame()))
        joint.set_position_limits([-0.1, -0.1], [0.1, 0.1])
        plant.Finalize()
        m.Simulator(plant, plant.CreateDefaultContext()).AdvanceTo(0.02)

    mine, theirs = both(step)
    assert mine == theirs
    assert mine[1].startswith("Limits for joints with more than one degree of freedom")


def test_nan_desired_state_raises_as_drake_unless_the_joint_is_locked():
    for lock in (False, True):

        def step(m, lock=lock):
            plant = m.MultibodyPlant(0.01)
            body = plant.AddRigidBody("b", m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
            joint = plant.AddJoint(
                m.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 1, 0])
            )
            actuator = plant.AddJointActuator("a", joint)
            actuator.set_controller_gains(m.PdControllerGains(p=10.0, d=1.0))
            plant.Finalize()
            context = plant.CreateDefaultContext()
            if lock:
                joint.Lock(context)
            port = plant.get_desired_state_input_port(m.default_model_instance())
            port.FixValue(context, [float("nan"), 0.0])
            m.Simulator(plant, context).AdvanceTo(0.01)
            return plant.GetPositions(context).tolist()

        mine, theirs = both(step)
        assert mine == theirs
        if not lock:
            assert mine == (
                "RuntimeError",
                "Desired state input port for model instance DefaultModelInstance contains NaN.",
            )
