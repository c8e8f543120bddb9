"""MultibodyPlant topology, introspection and kinematics against pydrake on one rich model.

The same function builds the model in mallard and in pydrake (their module paths mirror each
other): every joint type, chains of FixedOffsetFrames, joints between offset frames, several
model instances, lone free bodies, a floating subgraph, reversed joints (a World joint whose
child is World, a joint from a tip body to a body already in the tree), joints and actuators
added out of order, WeldFrames and random inertias. Everything the plant reports is compared at
random states (with non-unit quaternions), to 1e-10.
"""

import types

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.common.eigen_geometry as d_eigen_geometry  # noqa: E402
import pydrake.math as d_math  # noqa: E402
import pydrake.multibody.math as d_multibody_math  # noqa: E402
import pydrake.multibody.plant as d_plant  # noqa: E402
import pydrake.multibody.tree as d_tree  # noqa: E402

import mallard.common.eigen_geometry as m_eigen_geometry  # noqa: E402
import mallard.math as m_math  # noqa: E402
import mallard.multibody.math as m_multibody_math  # noqa: E402
import mallard.multibody.plant as m_plant  # noqa: E402
import mallard.multibody.tree as m_tree  # noqa: E402

TOL = dict(rtol=1e-10, atol=1e-10)
NUM_STATES = 3


def _namespace(plant, tree, math, multibody_math, eigen_geometry):
    ns = types.SimpleNamespace()
    for module in (tree, math, multibody_math):
        for name in dir(module):
            if not name.startswith("_"):
                setattr(ns, name, getattr(module, name))
    ns.MultibodyPlant = plant.MultibodyPlant
    ns.Quaternion = eigen_geometry.Quaternion
    return ns


MALLARD = _namespace(m_plant, m_tree, m_math, m_multibody_math, m_eigen_geometry)
DRAKE = _namespace(d_plant, d_tree, d_math, d_multibody_math, d_eigen_geometry)


# ---- the model -----------------------------------------------------------------------------
def _random_inertia(m, rng):
    """A physically valid M_BBo_B: random mass, center of mass and central inertia."""
    moments = rng.uniform(0.1, 1.0, size=3)
    moments[2] = rng.uniform(abs(moments[0] - moments[1]) + 0.05, moments[0] + moments[1])
    R = m.RotationMatrix(m.RollPitchYaw(rng.uniform(-3, 3, size=3))).matrix()
    I = R @ np.diag(moments) @ R.T
    return m.SpatialInertia.MakeFromCentralInertia(
        rng.uniform(0.5, 3.0),
        rng.normal(scale=0.3, size=3),
        m.RotationalInertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]),
    )


def build(m, seed=7, time_step=0.0):
    """The model, built with the classes of ``m`` (MALLARD or DRAKE); returns (plant, items),
    ``items`` naming model instances and elements the tests use."""
    rng = np.random.default_rng(seed)

    def pose():
        R = m.RotationMatrix(m.RollPitchYaw(rng.uniform(-3, 3, size=3)))
        return m.RigidTransform(R, rng.normal(size=3))

    def axis():
        return rng.normal(size=3)

    plant = m.MultibodyPlant(time_step)
    robot = plant.AddModelInstance("robot")
    arm = plant.AddModelInstance("arm")
    objects = plant.AddModelInstance("objects")
    default = m.default_model_instance()
    bodies = {}
    # Bodies in an order unrelated to the tree's.
    for name, mi in [
        ("l3", robot),
        ("l6", robot),
        ("base", robot),
        ("l1", robot),
        ("ball", objects),
        ("l2", robot),
        ("z", objects),
        ("a2", arm),
        ("l4", robot),
        ("l5", robot),
        ("x", objects),
        ("a1", arm),
        ("y", objects),
        ("tool", arm),
        ("lone", default),
        ("a3", arm),
        ("w", objects),
        ("l7", robot),
        ("nub", arm),
        ("free6", arm),
    ]:
        bodies[name] = plant.AddRigidBody(name, mi, _random_inertia(m, rng))
    b = bodies
    world = plant.world_frame()

    def frame(name, parent, *instance):
        return plant.AddFrame(m.FixedOffsetFrame(name, parent, pose(), *instance))

    F_world = frame("F_world", world)
    F_base_a = frame("F_base_a", b["base"].body_frame())
    F_base_b = frame("F_base_b", F_base_a)  # A chain of offset frames ...
    F_base_c = frame("F_base_c", F_base_b, arm)  # ... one in another instance.
    M_l1 = frame("M_l1", b["l1"].body_frame())
    F_l1 = frame("F_l1", M_l1)
    M_l2 = frame("M_l2", b["l2"].body_frame())
    F_l2 = frame("F_l2", b["l2"].body_frame())
    F_l3 = frame("F_l3", b["l3"].body_frame())
    M_l5 = frame("M_l5", b["l5"].body_frame())
    F_l4 = frame("F_l4", b["l4"].body_frame(), arm)
    F_a1 = frame("F_a1", b["a1"].body_frame())
    F_a1b = frame("F_a1b", F_a1)
    F_tool = frame("F_tool", b["tool"].body_frame())
    F_z = frame("F_z", b["z"].body_frame())
    F_w = frame("F_w", b["w"].body_frame())
    frame("F_ball", b["ball"].body_frame())  # On a floating base body.
    F_a3 = frame("F_a3", b["a3"].body_frame())

    joints = {}

    def add(joint):
        joints[joint.name()] = plant.AddJoint(joint)
        return joints[joint.name()]

    # Tip joints first (out of order).
    add(m.ScrewJoint("jscrew", F_l2, b["l3"].body_frame(), axis(), 0.3, 0.0))
    add(m.PrismaticJoint("jpri", F_l1, M_l2, axis(), -1.0, 2.0, 0.1))
    # Reversed: the parent l6 is a tip body, the child l3 is already in the tree. (Drake
    # reverses only revolute, prismatic and weld joints.)
    add(m.RevoluteJoint("jtip", b["l6"].body_frame(), F_l3, axis()))
    add(m.BallRpyJoint("jball", b["l5"].body_frame(), b["l7"].body_frame()))
    add(m.RevoluteJoint("jrev", F_base_b, M_l1, axis(), -2.0, 1.5, 0.2))
    joints["weld_base"] = plant.WeldFrames(F_world, F_base_c, pose())
    # A user 6-dof joint to (a frame on) World: free6 is not a floating base body.
    add(m.QuaternionFloatingJoint("jquat_w", F_world, b["free6"].body_frame()))
    add(m.UniversalJoint("juni", b["l1"].body_frame(), b["l4"].body_frame()))
    # Reversed World joint: World is the child.
    add(m.RevoluteJoint("jrev_w", M_l5, world, axis()))
    add(m.PlanarJoint("jplanar", world, F_a1, np.array([0.1, 0.2, 0.3])))
    add(m.RpyFloatingJoint("jrpy", F_a1b, b["a2"].body_frame()))
    joints["weld_tool"] = plant.WeldFrames(b["a2"].body_frame(), F_tool, pose())
    add(m.QuaternionFloatingJoint("jquat", F_l4, b["a3"].body_frame()))
    add(m.WeldJoint("wrev", b["nub"].body_frame(), F_a3, pose()))  # Reversed weld.
    # Floating subgraph x -> y <- z, with w welded to y: z (lower index) is its base body, and
    # jxy is reversed.
    add(m.RevoluteJoint("jxy", b["x"].body_frame(), b["y"].body_frame(), axis()))
    add(m.PrismaticJoint("jzy", F_z, b["y"].body_frame(), axis()))
    add(m.WeldJoint("wy", b["y"].body_frame(), F_w, pose()))

    for name in ("jzy", "jrev_w", "jscrew", "jtip", "jrev", "jxy", "jpri"):
        plant.AddJointActuator("u_" + name, joints[name])

    joints["jrev"].set_default_angle(0.3)
    joints["jpri"].set_default_translation(0.2)
    joints["juni"].set_position_limits([-1.0, -0.5], [1.0, 0.7])
    joints["jplanar"].set_velocity_limits([-1.0, -2.0, -3.0], [1.0, 2.0, 3.0])
    joints["jquat"].set_acceleration_limits(-np.arange(1.0, 7.0), np.arange(1.0, 7.0))
    # A rotation whose quaternion by Eigen's algorithm has w < 0 (pydrake stores w > 0).
    R_WB = m.RotationMatrix(m.RollPitchYaw([-0.3, -2.2, -0.6]))
    plant.SetDefaultFloatingBaseBodyPose(b["ball"], m.RigidTransform(R_WB, [0.1, 0.2, 0.3]))
    plant.Finalize()
    items = types.SimpleNamespace(
        instances=[m.ModelInstanceIndex(i) for i in range(plant.num_model_instances())],
        robot=robot,
        arm=arm,
        objects=objects,
        bodies=b,
        joints=joints,
    )
    return plant, items


@pytest.fixture(scope="module")
def models():
    return build(MALLARD), build(DRAKE)


# ---- helpers -------------------------------------------------------------------------------
def arr(x):
    """A value type as an array (RigidTransform as 3×4, SpatialVelocity as 6, ...)."""
    for attribute in ("GetAsMatrix34", "matrix", "get_coeffs", "wxyz"):
        if hasattr(x, attribute):
            return np.asarray(getattr(x, attribute)())
    return np.asarray(x, dtype=float)


def close(ours, theirs, what=""):
    np.testing.assert_allclose(arr(ours), arr(theirs), err_msg=what, **TOL)


def states(plant, seed=11):
    """NUM_STATES (q, v) pairs for the pydrake ``plant``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(NUM_STATES):
        q = rng.normal(size=plant.num_positions())
        for i in range(plant.num_joints()):
            joint = plant.get_joint(d_tree.JointIndex(i))
            s = joint.position_start()
            if joint.type_name() == "quaternion_floating":
                q[s : s + 4] = rng.normal(size=4)  # Not normalized.
            elif joint.type_name() in ("ball_rpy", "rpy_floating"):
                q[s + 1] = rng.uniform(-1.2, 1.2)
        out.append((q, rng.normal(size=plant.num_velocities())))
    return out


def contexts(models):
    """Pairs of (mallard, pydrake) contexts at the same random states."""
    (m_plant_, _), (d_plant_, _) = models
    for q, v in states(d_plant_):
        m_ctx, d_ctx = m_plant_.CreateDefaultContext(), d_plant_.CreateDefaultContext()
        for plant, ctx in ((m_plant_, m_ctx), (d_plant_, d_ctx)):
            plant.SetPositions(ctx, q)
            plant.SetVelocities(ctx, v)
        yield m_ctx, d_ctx


def elements(plant, ns, kind):
    """Every body / frame / joint of ``plant`` in index order."""
    count, get, index = {
        "body": (plant.num_bodies, plant.get_body, ns.BodyIndex),
        "frame": (plant.num_frames, plant.get_frame, ns.FrameIndex),
        "joint": (plant.num_joints, plant.get_joint, ns.JointIndex),
        "actuator": (plant.num_actuators, plant.get_joint_actuator, ns.JointActuatorIndex),
    }[kind]
    return [get(index(i)) for i in range(count())]


def pairs(models, kind):
    """(mallard, pydrake) elements of the same index."""
    (m_plant_, _), (d_plant_, _) = models
    return list(
        zip(elements(m_plant_, MALLARD, kind), elements(d_plant_, DRAKE, kind), strict=True)
    )


def same_element(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__
    assert ours.name() == theirs.name()
    assert int(ours.index()) == int(theirs.index())
    assert int(ours.model_instance()) == int(theirs.model_instance())


# ---- topology and introspection ------------------------------------------------------------
def test_counts(models):
    (ours, o), (theirs, t) = models
    for method in ("num_bodies", "num_joints", "num_frames", "num_model_instances"):
        assert getattr(ours, method)() == getattr(theirs, method)(), method
    for method in (
        "num_positions",
        "num_velocities",
        "num_actuated_dofs",
        "num_actuators",
        "num_multibody_states",
    ):
        assert getattr(ours, method)() == getattr(theirs, method)(), method
        for mo, mt in zip(o.instances, t.instances, strict=True):
            assert getattr(ours, method)(mo) == getattr(theirs, method)(mt), (method, mt)


def test_elements(models):
    for kind in ("body", "frame", "joint", "actuator"):
        for ours, theirs in pairs(models, kind):
            same_element(ours, theirs)
    for ours, theirs in pairs(models, "frame"):
        same_element(ours.body(), theirs.body())
        assert ours.is_body_frame() == theirs.is_body_frame()
        assert ours.is_world_frame() == theirs.is_world_frame()
    for ours, theirs in pairs(models, "joint"):
        for method in (
            "position_start",
            "velocity_start",
            "num_positions",
            "num_velocities",
            "type_name",
            "is_ephemeral",
        ):
            assert getattr(ours, method)() == getattr(theirs, method)(), (theirs.name(), method)
        for method in ("frame_on_parent", "frame_on_child", "parent_body", "child_body"):
            same_element(getattr(ours, method)(), getattr(theirs, method)())
    for ours, theirs in pairs(models, "actuator"):
        same_element(ours.joint(), theirs.joint())
        assert ours.input_start() == theirs.input_start()


def test_names(models):
    (ours, o), (theirs, t) = models
    for method in ("GetPositionNames", "GetVelocityNames"):
        for args in [(), (False,), (True, False), (False, False)]:
            assert getattr(ours, method)(*args) == getattr(theirs, method)(*args), (method, args)
    for method in ("GetStateNames", "GetActuatorNames"):
        for args in [(), (False,)]:
            assert getattr(ours, method)(*args) == getattr(theirs, method)(*args), (method, args)
    compared = 0
    for mo, mt in zip(o.instances, t.instances, strict=True):
        for method, arg_lists in [
            ("GetPositionNames", [(), (True,), (False, False)]),
            ("GetVelocityNames", [(), (True,), (False, False)]),
            ("GetStateNames", [(), (True,)]),
            ("GetActuatorNames", [(), (True,)]),
        ]:
            for args in arg_lists:
                try:
                    expected = getattr(theirs, method)(mt, *args)
                except SystemExit:  # pydrake fails on non-contiguous instances.
                    continue
                assert getattr(ours, method)(mo, *args) == expected, (method, mt, args)
                compared += 1
    assert compared > 20


def test_defaults_and_limits(models):
    (ours, o), (theirs, t) = models
    for method in (
        "GetPositionLowerLimits",
        "GetPositionUpperLimits",
        "GetVelocityLowerLimits",
        "GetVelocityUpperLimits",
        "GetAccelerationLowerLimits",
        "GetAccelerationUpperLimits",
        "GetEffortLowerLimits",
        "GetEffortUpperLimits",
    ):
        np.testing.assert_array_equal(getattr(ours, method)(), getattr(theirs, method)(), method)
    m_ctx, d_ctx = ours.CreateDefaultContext(), theirs.CreateDefaultContext()
    # The floating base body "ball" has a default pose: its quaternion must have w > 0.
    close(ours.GetPositionsAndVelocities(m_ctx), theirs.GetPositionsAndVelocities(d_ctx))
    close(ours.GetDefaultPositions(), theirs.GetDefaultPositions())
    for mo, mt in zip(o.instances, t.instances, strict=True):
        close(ours.GetDefaultPositions(mo), theirs.GetDefaultPositions(mt), str(mt))
    for ours_j, theirs_j in pairs(models, "joint"):
        close(ours_j.default_positions(), theirs_j.default_positions(), theirs_j.name())


def test_selector_and_actuation_matrices(models):
    (ours, o), (theirs, t) = models
    close(ours.MakeActuationMatrix(), theirs.MakeActuationMatrix())
    names = ["jquat", "jrev_w", "weld_base", "jplanar", "jxy", "jrev"]
    m_joints = [o.joints[n].index() for n in names]
    d_joints = [t.joints[n].index() for n in names]
    close(ours.MakeStateSelectorMatrix(m_joints), theirs.MakeStateSelectorMatrix(d_joints))
    close(ours.MakeStateSelectorMatrix([]), theirs.MakeStateSelectorMatrix([]))
    order = [4, 0, 6, 2]
    close(
        ours.MakeActuatorSelectorMatrix([MALLARD.JointActuatorIndex(i) for i in order]),
        theirs.MakeActuatorSelectorMatrix([DRAKE.JointActuatorIndex(i) for i in order]),
    )
    names = ["jxy", "jpri", "jrev_w"]
    close(
        ours.MakeActuatorSelectorMatrix([o.joints[n].index() for n in names]),
        theirs.MakeActuatorSelectorMatrix([t.joints[n].index() for n in names]),
    )


def test_body_introspection(models):
    (ours, o), (theirs, t) = models
    for ours_b, theirs_b in pairs(models, "body"):
        what = theirs_b.name()
        assert ours_b.is_floating_base_body() == theirs_b.is_floating_base_body(), what
        assert ours_b.has_quaternion_dofs() == theirs_b.has_quaternion_dofs(), what
        if theirs_b.is_floating_base_body():
            for method in ("floating_positions_start", "floating_velocities_start_in_v"):
                assert getattr(ours_b, method)() == getattr(theirs_b, method)(), (what, method)
        assert ours.IsAnchored(ours_b) == theirs.IsAnchored(theirs_b), what
        assert [int(b.index()) for b in ours.GetBodiesWeldedTo(ours_b)] == [
            int(b.index()) for b in theirs.GetBodiesWeldedTo(theirs_b)
        ], what
    for names in (["jrev"], ["jquat", "jplanar"], ["weld_base"], ["jzy", "jrev_w"]):
        assert [
            int(b)
            for b in ours.GetBodiesKinematicallyAffectedBy([o.joints[n].index() for n in names])
        ] == [
            int(b)
            for b in theirs.GetBodiesKinematicallyAffectedBy([t.joints[n].index() for n in names])
        ], names


def test_graphviz_and_floating_bases(models):
    (ours, _), (theirs, _) = models
    assert ours.GetTopologyGraphvizString() == theirs.GetTopologyGraphvizString()
    assert sorted(int(b) for b in ours.GetFloatingBaseBodies()) == sorted(
        int(b) for b in theirs.GetFloatingBaseBodies()
    )


def test_ephemeral_frames(models):
    """At Finalize(), pydrake adds FixedOffsetFrames for revolute and prismatic joints whose
    (mobilizer) axis is not +x, +y or +z, and for welds whose X_FM is not the identity."""
    (ours, _), (theirs, _) = models
    ephemeral = [f for f in elements(theirs, DRAKE, "frame") if f.is_ephemeral()]
    assert len(ephemeral) == 16
    assert ours.num_frames() == theirs.num_frames()
    m_ctx, d_ctx = ours.CreateDefaultContext(), theirs.CreateDefaultContext()
    for ours_f, theirs_f in pairs(models, "frame"):
        assert ours_f.is_ephemeral() == theirs_f.is_ephemeral()
        close(ours_f.GetFixedPoseInBodyFrame(), theirs_f.GetFixedPoseInBodyFrame())
        if hasattr(theirs_f, "GetPoseInParentFrame"):
            close(ours_f.GetPoseInParentFrame(m_ctx), theirs_f.GetPoseInParentFrame(d_ctx))


# ---- kinematics at random states -----------------------------------------------------------
def compare_bodies(models, m_ctx, d_ctx):
    """Poses, spatial velocities and center-of-mass velocities of every body."""
    (ours, _), (theirs, _) = models
    for ours_b, theirs_b in pairs(models, "body"):
        what = theirs_b.name()
        close(
            ours.EvalBodyPoseInWorld(m_ctx, ours_b),
            theirs.EvalBodyPoseInWorld(d_ctx, theirs_b),
            what,
        )
        close(
            ours.EvalBodySpatialVelocityInWorld(m_ctx, ours_b),
            theirs.EvalBodySpatialVelocityInWorld(d_ctx, theirs_b),
            what,
        )
        close(ours_b.EvalPoseInWorld(m_ctx), theirs_b.EvalPoseInWorld(d_ctx), what)
        close(
            ours_b.EvalSpatialVelocityInWorld(m_ctx),
            theirs_b.EvalSpatialVelocityInWorld(d_ctx),
            what,
        )
        close(
            ours_b.CalcCenterOfMassTranslationalVelocityInWorld(m_ctx),
            theirs_b.CalcCenterOfMassTranslationalVelocityInWorld(d_ctx),
            what,
        )


def compare_relative_kinematics(models, m_ctx, d_ctx, rng, count=40):
    """The plant's relative poses and point kinematics between random frames."""
    (ours, _), (theirs, _) = models
    frame_pairs = pairs(models, "frame")
    for _ in range(count):
        (oA, tA), (oB, tB), (oE, tE) = (
            frame_pairs[i] for i in rng.integers(len(frame_pairs), size=3)
        )
        what = f"A={tA.name()} B={tB.name()} E={tE.name()}"
        close(
            ours.CalcRelativeTransform(m_ctx, oA, oB),
            theirs.CalcRelativeTransform(d_ctx, tA, tB),
            what,
        )
        close(
            ours.CalcRelativeRotationMatrix(m_ctx, oA, oB),
            theirs.CalcRelativeRotationMatrix(d_ctx, tA, tB),
            what,
        )
        p_BQi = rng.normal(size=(3, 4))
        close(
            ours.CalcPointsPositions(m_ctx, oB, p_BQi, oA),
            theirs.CalcPointsPositions(d_ctx, tB, p_BQi, tA),
            what,
        )
        close(
            ours.CalcPointsVelocities(m_ctx, oB, p_BQi, oA, oE),
            theirs.CalcPointsVelocities(d_ctx, tB, p_BQi, tA, tE),
            what,
        )


def compare_frame_methods(models, m_ctx, d_ctx, rng):
    """Every Frame method on every frame, with random other frames as arguments."""
    frame_pairs = pairs(models, "frame")
    both = (m_ctx, d_ctx)
    for oF, tF in frame_pairs:
        M, E, B = (frame_pairs[i] for i in rng.integers(len(frame_pairs), size=3))
        rpy, p = rng.uniform(-3, 3, size=3), rng.normal(size=3)
        X_FQ = tuple(
            ns.RigidTransform(ns.RotationMatrix(ns.RollPitchYaw(rpy)), p) for ns in (MALLARD, DRAKE)
        )
        R_FQ = tuple(X.rotation() for X in X_FQ)
        for method, args in [
            ("CalcPoseInBodyFrame", [both]),
            ("CalcRotationMatrixInBodyFrame", [both]),
            ("CalcOffsetPoseInBody", [both, X_FQ]),
            ("CalcOffsetRotationMatrixInBody", [both, R_FQ]),
            ("GetFixedPoseInBodyFrame", []),
            ("GetFixedOffsetPoseInBody", [X_FQ]),
            ("GetFixedRotationMatrixInBodyFrame", []),
            ("GetFixedRotationMatrixInBody", [R_FQ]),
            ("CalcPoseInWorld", [both]),
            ("CalcPose", [both, M]),
            ("CalcRotationMatrix", [both, M]),
            ("CalcRotationMatrixInWorld", [both]),
            ("EvalAngularVelocityInWorld", [both]),
            ("CalcAngularVelocity", [both, M, E]),
            ("CalcSpatialVelocityInWorld", [both]),
            ("CalcSpatialVelocity", [both, M, E]),
            ("CalcRelativeSpatialVelocity", [both, B, M, E]),
            ("CalcRelativeSpatialVelocityInWorld", [both, B]),
        ]:
            names = [a[1].name() for a in args[1:] if hasattr(a[1], "name")]
            what = " ".join([f"{tF.name()}.{method}", *names])
            close(
                getattr(oF, method)(*(a[0] for a in args)),
                getattr(tF, method)(*(a[1] for a in args)),
                what,
            )


def test_body_kinematics(models):
    for m_ctx, d_ctx in contexts(models):
        compare_bodies(models, m_ctx, d_ctx)


def test_discrete_plant():
    discrete = build(MALLARD, time_step=0.01), build(DRAKE, time_step=0.01)
    rng = np.random.default_rng(29)
    for m_ctx, d_ctx in contexts(discrete):
        compare_bodies(discrete, m_ctx, d_ctx)
        compare_relative_kinematics(discrete, m_ctx, d_ctx, rng, count=10)


def test_cache_invalidation(models):
    """One context pair through several states: q alone, then v alone, changes."""
    (ours, _), (theirs, _) = models
    m_ctx, d_ctx = ours.CreateDefaultContext(), theirs.CreateDefaultContext()
    compare_bodies(models, m_ctx, d_ctx)
    for q, v in states(theirs, seed=23):
        for plant, ctx in ((ours, m_ctx), (theirs, d_ctx)):
            plant.SetPositions(ctx, q)
        compare_bodies(models, m_ctx, d_ctx)
        for plant, ctx in ((ours, m_ctx), (theirs, d_ctx)):
            plant.SetVelocities(ctx, v)
        compare_bodies(models, m_ctx, d_ctx)


def test_relative_kinematics(models):
    rng = np.random.default_rng(3)
    for m_ctx, d_ctx in contexts(models):
        compare_relative_kinematics(models, m_ctx, d_ctx, rng)


def test_frame_methods(models):
    rng = np.random.default_rng(5)
    for m_ctx, d_ctx in contexts(models):
        compare_frame_methods(models, m_ctx, d_ctx, rng)


def test_qdot_maps(models):
    (ours, _), (theirs, _) = models
    nq, nv = theirs.num_positions(), theirs.num_velocities()
    rng = np.random.default_rng(9)
    for m_ctx, d_ctx in contexts(models):
        v, qdot = rng.normal(size=nv), rng.normal(size=nq)
        close(ours.MapVelocityToQDot(m_ctx, v), theirs.MapVelocityToQDot(d_ctx, v))
        close(ours.MapQDotToVelocity(m_ctx, qdot), theirs.MapQDotToVelocity(d_ctx, qdot))
        # pydrake returns these as scipy sparse matrices: build them column by column.
        N = np.column_stack([theirs.MapVelocityToQDot(d_ctx, e) for e in np.eye(nv)])
        Nplus = np.column_stack([theirs.MapQDotToVelocity(d_ctx, e) for e in np.eye(nq)])
        close(ours.MakeVelocityToQDotMap(m_ctx), N)
        close(ours.MakeQDotToVelocityMap(m_ctx), Nplus)


def test_mass_center_of_mass_and_momentum(models):
    (ours, o), (theirs, t) = models
    groups = [[1, 3], [4], [2, 3, 4], [0, 1]]
    rng = np.random.default_rng(13)
    for m_ctx, d_ctx in contexts(models):
        p_WoP_W = rng.normal(size=3)
        assert type(ours.CalcTotalMass(m_ctx)) is type(theirs.CalcTotalMass(d_ctx)) is float
        close(ours.CalcTotalMass(m_ctx), theirs.CalcTotalMass(d_ctx))
        for method in (
            "CalcCenterOfMassPositionInWorld",
            "CalcCenterOfMassTranslationalVelocityInWorld",
        ):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)
        close(
            ours.CalcSpatialMomentumInWorldAboutPoint(m_ctx, p_WoP_W),
            theirs.CalcSpatialMomentumInWorldAboutPoint(d_ctx, p_WoP_W),
        )
        for group in groups:
            mo = [o.instances[i] for i in group]
            mt = [t.instances[i] for i in group]
            close(ours.CalcTotalMass(m_ctx, mo), theirs.CalcTotalMass(d_ctx, mt), str(group))
            for method in (
                "CalcCenterOfMassPositionInWorld",
                "CalcCenterOfMassTranslationalVelocityInWorld",
            ):
                close(getattr(ours, method)(m_ctx, mo), getattr(theirs, method)(d_ctx, mt), method)
            close(
                ours.CalcSpatialMomentumInWorldAboutPoint(m_ctx, mo, p_WoP_W),
                theirs.CalcSpatialMomentumInWorldAboutPoint(d_ctx, mt, p_WoP_W),
                str(group),
            )


# Getters of the joints' state, by joint type; every joint's are called on both sides.
JOINT_GETTERS = {
    "revolute": ["get_angle", "get_angular_rate"],
    "prismatic": ["get_translation", "get_translation_rate"],
    "screw": [
        "get_rotation",
        "get_translation",
        "get_angular_velocity",
        "get_translational_velocity",
    ],
    "universal": ["get_angles", "get_angular_rates"],
    "planar": [
        "get_translation",
        "get_rotation",
        "get_translational_velocity",
        "get_angular_velocity",
    ],
    "ball_rpy": ["get_angles", "get_angular_velocity"],
    "rpy_floating": [
        "get_angles",
        "get_translation",
        "GetPose",
        "get_angular_velocity",
        "get_translational_velocity",
    ],
    "quaternion_floating": [
        "get_quaternion",
        "get_translation",
        "GetPose",
        "get_angular_velocity",
        "get_translational_velocity",
    ],
    "weld": [],
}


def test_joint_getters(models):
    joint_pairs = pairs(models, "joint")
    for m_ctx, d_ctx in contexts(models):
        for ours_j, theirs_j in joint_pairs:
            for method in JOINT_GETTERS[theirs_j.type_name()]:
                close(
                    getattr(ours_j, method)(m_ctx),
                    getattr(theirs_j, method)(d_ctx),
                    f"{theirs_j.name()}.{method}",
                )
            if theirs_j.num_positions() == 1:
                assert ours_j.GetOnePosition(m_ctx) == theirs_j.GetOnePosition(d_ctx)
                assert ours_j.GetOneVelocity(m_ctx) == theirs_j.GetOneVelocity(d_ctx)


def test_free_body_api(models):
    (ours, o), (theirs, t) = models
    rng = np.random.default_rng(17)
    body_pairs = pairs(models, "body")
    free = ["ball", "z", "lone", "a3", "a2", "free6"]  # Floating base bodies, user 6-dof joints.
    for m_ctx, d_ctx in contexts(models):
        for name in free:
            close(
                ours.GetFreeBodyPose(m_ctx, o.bodies[name]),
                theirs.GetFreeBodyPose(d_ctx, t.bodies[name]),
                name,
            )
        for name in free:
            R, p, V = rng.uniform(-3, 3, size=3), rng.normal(size=3), rng.normal(size=6)
            for ns, plant, ctx, items in ((MALLARD, ours, m_ctx, o), (DRAKE, theirs, d_ctx, t)):
                X = ns.RigidTransform(ns.RotationMatrix(ns.RollPitchYaw(R)), p)
                plant.SetFreeBodyPose(ctx, items.bodies[name], X)
                plant.SetFreeBodySpatialVelocity(ctx, items.bodies[name], ns.SpatialVelocity(V))
        for name in ("ball", "z"):
            R, p = rng.uniform(-3, 3, size=3), rng.normal(size=3)
            for ns, plant, ctx, items in ((MALLARD, ours, m_ctx, o), (DRAKE, theirs, d_ctx, t)):
                X_FB = ns.RigidTransform(ns.RotationMatrix(ns.RollPitchYaw(R)), p)
                F = plant.GetFrameByName("F_base_a")
                plant.SetFloatingBaseBodyPoseInAnchoredFrame(ctx, F, items.bodies[name], X_FB)
        close(ours.GetVelocities(m_ctx), theirs.GetVelocities(d_ctx))
        for ours_b, theirs_b in body_pairs:
            close(
                ours.EvalBodyPoseInWorld(m_ctx, ours_b),
                theirs.EvalBodyPoseInWorld(d_ctx, theirs_b),
                theirs_b.name(),
            )
            close(
                ours.EvalBodySpatialVelocityInWorld(m_ctx, ours_b),
                theirs.EvalBodySpatialVelocityInWorld(d_ctx, theirs_b),
                theirs_b.name(),
            )
        close(ours.GetPositions(m_ctx), theirs.GetPositions(d_ctx))
        for name in free:
            close(
                ours.GetFreeBodyPose(m_ctx, o.bodies[name]),
                theirs.GetFreeBodyPose(d_ctx, t.bodies[name]),
                name,
            )


def test_not_a_free_body(models):
    (ours, o), (theirs, t) = models
    m_ctx, d_ctx = ours.CreateDefaultContext(), theirs.CreateDefaultContext()
    with pytest.raises(RuntimeError) as theirs_error:
        theirs.GetFreeBodyPose(d_ctx, t.bodies["l1"])
    with pytest.raises(RuntimeError) as ours_error:
        ours.GetFreeBodyPose(m_ctx, o.bodies["l1"])
    assert str(ours_error.value) == str(theirs_error.value)


def test_output_ports(models):
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        close(ours.get_state_output_port().Eval(m_ctx), theirs.get_state_output_port().Eval(d_ctx))
        for mo, mt in zip(o.instances, t.instances, strict=True):
            close(
                ours.get_state_output_port(mo).Eval(m_ctx),
                theirs.get_state_output_port(mt).Eval(d_ctx),
            )
        poses = ours.get_body_poses_output_port().Eval(m_ctx)
        expected = theirs.get_body_poses_output_port().Eval(d_ctx)
        assert len(poses) == len(expected)
        for ours_X, theirs_X in zip(poses, expected, strict=True):
            close(ours_X, theirs_X)
        velocities = ours.get_body_spatial_velocities_output_port().Eval(m_ctx)
        expected = theirs.get_body_spatial_velocities_output_port().Eval(d_ctx)
        assert len(velocities) == len(expected)
        for ours_V, theirs_V in zip(velocities, expected, strict=True):
            close(ours_V, theirs_V)


def test_parameters(models):
    """Mass properties and frame offsets changed in a Context change its results alike.
    (pydrake's frame velocities keep using the default offsets: see KinematicsMixin._V_WF.)"""
    (ours, o), (theirs, t) = models
    rng = np.random.default_rng(19)
    rpy, p, com = rng.uniform(-3, 3, size=(3, 3)), rng.normal(size=(3, 3)), rng.normal(size=3)
    inertia_seed = rng.integers(1 << 30)
    for m_ctx, d_ctx in contexts(models):
        compare_bodies(models, m_ctx, d_ctx)  # Fills the caches, which must be invalidated.
        for ns, plant, ctx, items in ((MALLARD, ours, m_ctx, o), (DRAKE, theirs, d_ctx, t)):
            items.bodies["l2"].SetMass(ctx, 2.5)
            items.bodies["a3"].SetCenterOfMassInBodyFrame(ctx, com)
            M = _random_inertia(ns, np.random.default_rng(inertia_seed))
            items.bodies["z"].SetSpatialInertiaInBodyFrame(ctx, M)
            # F_base_a carries F_base_b (jrev's inboard frame) and F_base_c (welded to World);
            # F_l4 is jquat's inboard frame, F_a1b jrpy's.
            for k, name in enumerate(("F_base_a", "F_l4", "F_a1b")):
                X = ns.RigidTransform(ns.RotationMatrix(ns.RollPitchYaw(rpy[k])), p[k])
                plant.GetFrameByName(name).SetPoseInParentFrame(ctx, X)
        close(ours.CalcTotalMass(m_ctx), theirs.CalcTotalMass(d_ctx))
        for method in (
            "CalcCenterOfMassPositionInWorld",
            "CalcCenterOfMassTranslationalVelocityInWorld",
        ):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)
        close(
            ours.CalcSpatialMomentumInWorldAboutPoint(m_ctx, com),
            theirs.CalcSpatialMomentumInWorldAboutPoint(d_ctx, com),
        )
        for ours_b, theirs_b in pairs(models, "body"):
            close(ours_b.get_mass(m_ctx), theirs_b.get_mass(d_ctx), theirs_b.name())
            close(
                ours_b.CalcCenterOfMassInBodyFrame(m_ctx),
                theirs_b.CalcCenterOfMassInBodyFrame(d_ctx),
                theirs_b.name(),
            )
        compare_bodies(models, m_ctx, d_ctx)
        compare_relative_kinematics(models, m_ctx, d_ctx, rng)
        compare_frame_methods(models, m_ctx, d_ctx, rng)


def _finalize_error(m, kind, world_is_child):
    """The message of Finalize()'s RuntimeError on a plant whose ``kind`` joint must be
    reversed (World its child, or its child already in the tree), or None."""
    plant = m.MultibodyPlant(0.0)
    mi = plant.AddModelInstance("m")
    a, b = (plant.AddRigidBody(n, mi, m.SpatialInertia.SolidBoxWithMass(1, 1, 1, 1)) for n in "ab")
    if world_is_child:
        parent, child = a.body_frame(), plant.world_frame()
    else:
        plant.AddJoint(m.RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [1, 0, 0]))
        parent, child = b.body_frame(), a.body_frame()
    if kind == "ScrewJoint":
        joint = m.ScrewJoint("j", parent, child, [0, 0, 1], 0.1, 0.0)
    else:
        joint = getattr(m, kind)("j", parent, child)
    plant.AddJoint(joint)
    try:
        plant.Finalize()
    except RuntimeError as error:
        return str(error)
    return None


@pytest.mark.parametrize("world_is_child", [True, False])
@pytest.mark.parametrize(
    "kind",
    [
        "ScrewJoint",
        "UniversalJoint",
        "PlanarJoint",
        "BallRpyJoint",
        "RpyFloatingJoint",
        "QuaternionFloatingJoint",
    ],
)
def test_joints_that_cannot_be_reversed(kind, world_is_child):
    """Drake mobilizes only revolute, prismatic and weld joints reversed."""
    expected = _finalize_error(DRAKE, kind, world_is_child)
    assert expected is not None and "would have to be reversed" in expected
    assert _finalize_error(MALLARD, kind, world_is_child) == expected


def _one_joint_frame_motion(m, kind, axis, reverse):
    """(num_frames, X_WF, V_WF) of a frame F on a body mobilized by one ``kind`` joint about
    (along) ``axis``, World its parent (its child if ``reverse``), at q = 2, v = 3."""
    plant = m.MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", m.SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
    F = plant.AddFrame(m.FixedOffsetFrame("F", a.body_frame(), m.RigidTransform([10, 0, 0])))
    frames = (plant.world_frame(), a.body_frame())
    plant.AddJoint(getattr(m, kind)("j", *(frames[::-1] if reverse else frames), axis))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [2.0, 3.0])
    return (
        plant.num_frames(),
        F.CalcPoseInWorld(context),
        F.CalcSpatialVelocityInWorld(context),
    )


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [[1e-9, 0, 1], [0, 1, 1e-9], [1e-9, 1e-9, -1], [2, 3, 1e-9]])
@pytest.mark.parametrize("kind", ["RevoluteJoint", "PrismaticJoint"])
def test_nearly_coordinate_axes(kind, axis, reverse):
    """An axis with an element that normalizes to exactly ±1.0 makes pydrake mobilize about
    that coordinate axis (with no mobilizer frames), ignoring the other elements."""
    ours = _one_joint_frame_motion(MALLARD, kind, axis, reverse)
    theirs = _one_joint_frame_motion(DRAKE, kind, axis, reverse)
    assert ours[0] == theirs[0]
    if not np.allclose(arr(ours[1]), arr(theirs[1]), **TOL):
        pytest.xfail("MultibodyPlant._build_flat_model does not use _topology.mobilizer_axes")
    close(ours[2], theirs[2])
