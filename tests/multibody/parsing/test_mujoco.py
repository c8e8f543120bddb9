"""The MJCF parser: what it builds (bodies, joints, inertia from geoms, actuators, geometry
registered with a scene graph, contact excludes, includes, meshes), its errors (file and line
in each), and the rollback that leaves the plant untouched after an error, checked on every
mutation of the test models. Agreement with pydrake is in tests/conformance."""

import logging
import os
import re
import shutil

import numpy as np
import pytest

from mallard.geometry import SceneGraph
from mallard.multibody.parsing import Parser
from mallard.multibody.parsing._xml import parse_xml
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import JointActuatorIndex

MODELS = os.path.join(os.path.dirname(__file__), "mjcf")
ROBOTS = ("quadruped", "humanoid", "arm_gripper", "cartpole", "hand")


def _plant(scene_graph=True):
    plant = MultibodyPlant(0.0)
    if scene_graph:
        plant.RegisterAsSourceForSceneGraph(SceneGraph())
    return plant


@pytest.fixture(autouse=True)
def _quiet_warnings():
    """The models' warnings (what Drake ignores) are not shown; the level is restored."""
    logger = logging.getLogger("mallard.parsing")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _snapshot(plant):
    return (
        plant.num_bodies(),
        plant.num_joints(),
        plant.num_frames(),
        plant.num_actuators(),
        plant.num_model_instances(),
        tuple(plant.gravity_field().gravity_vector()),
        sum(len(plant.GetCollisionGeometriesForBody(plant.world_body())) for _ in [0]),
    )


@pytest.mark.parametrize("robot", ROBOTS)
def test_models_build(robot):
    plant = _plant()
    (instance,) = Parser(plant).AddModels(os.path.join(MODELS, f"{robot}.xml"))
    assert plant.GetModelInstanceName(instance) == robot
    plant.Finalize()
    context = plant.CreateDefaultContext()
    M = plant.CalcMassMatrix(context)
    np.testing.assert_allclose(M, M.T, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(M) > 0)


def test_geometry_name_clash_is_located_and_rolled_back():
    """Two models naming a world geometry alike clash (as in Drake); mallard names the
    element and leaves the plant as it was."""
    plant = _plant()
    parser = Parser(plant)
    parser.AddModels(os.path.join(MODELS, "quadruped.xml"))
    before = _snapshot(plant)
    with pytest.raises(RuntimeError, match=r"humanoid.xml:\d+: error: The name 'floor'"):
        parser.AddModels(os.path.join(MODELS, "humanoid.xml"))
    assert _snapshot(plant) == before


def test_inertia_from_geoms_is_the_sum_of_the_solids():
    """A body without <inertial> gets the inertia of its geoms at density 1000 (or their
    mass): here a box of given mass and a sphere of density 500, about the body origin."""
    plant = _plant(scene_graph=False)
    Parser(plant).AddModelsFromString(
        """<mujoco model="m"><worldbody><body name="b"><joint/>
        <geom type="box" size="0.1 0.2 0.3" mass="3" pos="1 0 0"/>
        <geom type="sphere" size="0.1" density="500" pos="0 0 2"/></body></worldbody></mujoco>""",
        "xml",
    )
    M = plant.GetBodyByName("b").default_spatial_inertia()
    m_sphere = 500 * 4 / 3 * np.pi * 0.1**3
    assert M.get_mass() == pytest.approx(3 + m_sphere, rel=1e-14)
    np.testing.assert_allclose(M.get_com(), [3 / (3 + m_sphere), 0, 2 * m_sphere / (3 + m_sphere)])
    I = M.CalcRotationalInertia().CopyToFullMatrix3()
    box_xx = 3 * (0.4**2 + 0.6**2) / 12
    sphere = 2 / 5 * m_sphere * 0.01
    assert I[0, 0] == pytest.approx(box_xx + sphere + m_sphere * 4, rel=1e-12)


def test_joint_chain_ref_and_units():
    """Several joints in a body chain through massless bodies "{body}{k}"; a hinge's range
    and ref are in degrees by default, its ref is the default position."""
    plant = _plant(scene_graph=False)
    Parser(plant).AddModelsFromString(
        """<mujoco model="m"><worldbody><body name="b"><joint name="a" range="-90 90" ref="30"/>
        <joint name="c" type="slide" ref="0.5"/><geom size="1"/></body></worldbody></mujoco>""",
        "xml",
    )
    assert plant.HasBodyNamed("b0")
    assert plant.GetBodyByName("b0").default_mass() == 0
    a = plant.GetJointByName("a")
    np.testing.assert_allclose(a.position_lower_limits(), [-np.pi / 2])
    np.testing.assert_allclose(a.default_positions(), [np.pi / 6])
    np.testing.assert_allclose(plant.GetJointByName("c").default_positions(), [0.5])


def test_free_body_pose_in_world_is_the_product_of_the_nested_poses():
    """A free body's default pose X_WC is X_WA·X_AB·X_BC of the bodies it is nested in (the
    parser forms it only for free joints: the same products in the same order, so the same
    bits), with <freejoint> and with <joint type="free">."""
    from mallard.math import RigidTransform, RollPitchYaw

    def X(pos, euler_deg):
        return RigidTransform(RollPitchYaw(np.radians(euler_deg)), np.array(pos, dtype=float))

    for free in ("<freejoint/>", '<joint type="free"/>'):
        text = f"""<mujoco model="m"><worldbody>
          <body name="a" pos="1 2 3" euler="0 0 30"><joint/><geom size="0.1"/>
            <body name="b" pos="0 0 1" euler="5 0 0"><geom size="0.1"/>
              <body name="c" pos="0.5 0 0" euler="0 7 0">{free}<geom size="0.1"/></body>
            </body></body></worldbody></mujoco>"""
        plant = _plant(scene_graph=False)
        Parser(plant).AddModelsFromString(text, "xml")
        X_WC = plant.GetDefaultFloatingBaseBodyPose(plant.GetBodyByName("c"))
        expected = X([1, 2, 3], [0, 0, 30]) @ X([0, 0, 1], [5, 0, 0]) @ X([0.5, 0, 0], [0, 7, 0])
        np.testing.assert_allclose(
            X_WC.GetAsMatrix34(), expected.GetAsMatrix34(), rtol=0, atol=1e-14
        )


def test_actuators_gear_armature_gains():
    plant = _plant(scene_graph=False)
    Parser(plant).AddModels(os.path.join(MODELS, "arm_gripper.xml"))
    a1 = plant.get_joint_actuator(JointActuatorIndex(0))
    assert (a1.name(), a1.default_gear_ratio()) == ("a1", 100)
    assert a1.default_rotor_inertia() == pytest.approx(0.1 / 100**2)
    assert a1.effort_limit() == 80
    gripper = plant.GetJointActuatorByName("gripper")
    assert gripper.get_controller_gains().p == 200


def test_geometry_roles_color_friction():
    plant = _plant()
    Parser(plant).AddModelsFromString(
        """<mujoco model="m"><asset><material name="r" rgba="1 0 0 1"/></asset><worldbody>
        <geom name="floor" type="plane" size="1 1 1"/>
        <body name="b"><joint/><geom name="v" size="1" contype="0" conaffinity="0"
        material="r"/><geom name="c" size="1" group="3" friction="0.25"/></body>
        </worldbody></mujoco>""",
        "xml",
    )
    body = plant.GetBodyByName("b")
    assert len(plant.GetVisualGeometriesForBody(body)) == 1
    assert len(plant.GetCollisionGeometriesForBody(body)) == 1
    assert len(plant.GetCollisionGeometriesForBody(plant.world_body())) == 1


def test_geoms_of_one_look_each_get_it_and_each_warn(caplog):
    """Geoms whose role and appearance attributes read alike share what was read (one read
    per distinct set): each gets the color and friction its own attributes give, and every
    geom repeats the warnings of its attributes (zero-radius sphere, condim)."""
    plant = _plant()
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):  # (over the fixture)
        Parser(plant).AddModelsFromString(
            """<mujoco model="m"><default><default class="c">
            <geom rgba="0 1 0 1" friction="0.5"/></default></default><worldbody>
            <body name="b"><joint/><geom class="c" size="1"/><geom class="c" size="2"/>
            <geom size="1" rgba="0 0 1 1"/><geom class="c" size="1" friction="0.25"/>
            <geom condim="4" size="1"/><geom condim="4" size="1"/><geom/><geom/></body>
            </worldbody></mujoco>""",
            "xml",
        )
    inspector = plant._geometry_link.scene_graph.model_inspector()
    body = plant.GetBodyByName("b")
    colors = [
        inspector.GetIllustrationProperties(g).GetProperty("phong", "diffuse").rgba.tolist()
        for g in plant.GetVisualGeometriesForBody(body)
    ]
    assert colors[:4] == [[0, 1, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 0, 1]]
    frictions = [
        inspector.GetProximityProperties(g)
        .GetProperty("material", "coulomb_friction")
        .static_friction()
        for g in plant.GetCollisionGeometriesForBody(body)
    ]
    assert frictions[:5] == [0.5, 0.5, 1.0, 0.25, 1.0]
    assert caplog.text.count("specified condim=4, which is not supported") == 2
    assert caplog.text.count("Using zero-radius spheres") == 2


@pytest.mark.parametrize("scene_graph", [False, True])
def test_a_zero_radius_sphere_of_a_body_without_inertial_is_drakes_located_error(scene_graph):
    """A body's inertia from a zero-radius sphere geom is SolidSphereWithDensity's error,
    located, with or without a SceneGraph (without one its shape is not made), and the
    plant is left as it was."""
    plant = _plant(scene_graph=scene_graph)
    with pytest.raises(
        RuntimeError,
        match=r"^\S+:1: error: SolidSphereWithDensity\(\): radius is not positive and "
        r"finite: 0\.$",
    ):
        Parser(plant).AddModelsFromString(
            '<mujoco model="m"><worldbody><body name="b"><joint type="hinge"/>'
            '<geom type="sphere" size="0"/></body></worldbody></mujoco>',
            "xml",
        )
    assert plant.num_bodies() == 1  # (rolled back)


def test_an_actuator_finds_a_weld_joint_by_name_as_the_plant_does():
    """An actuator's joint is looked up in the plant when it is not one the document's
    joints added (a weld of a body without joints: AddJointActuator's error)."""
    plant = _plant(scene_graph=False)
    with pytest.raises(
        RuntimeError,
        match=r"^\S+:1: error: Calling AddJointActuator with joint "
        r"world_welds_to_b failed -- this joint has 0 degrees of freedom",
    ):
        Parser(plant).AddModelsFromString(
            '<mujoco model="m"><worldbody><body name="b"><geom size="1"/></body></worldbody>'
            '<actuator><motor joint="world_welds_to_b"/></actuator></mujoco>',
            "xml",
        )
    assert plant.num_bodies() == 1  # (rolled back)


def test_include_and_mesh(tmp_path):
    shutil.copytree(MODELS, tmp_path / "m")
    plant = _plant()
    Parser(plant).AddModels(str(tmp_path / "m" / "quadruped.xml"))
    Parser(plant).AddModels(str(tmp_path / "m" / "arm_gripper.xml"))
    link4 = plant.GetBodyByName("link4")
    # A closed wedge mesh of density 2000: half a unit cube scaled by 0.1 x 0.05 x 0.2.
    assert link4.default_mass() == pytest.approx(2000 * 0.5 * 0.1 * 0.05 * 0.2, rel=1e-12)


def test_contact_exclude_filters_the_pair():
    plant = _plant()
    Parser(plant).AddModels(os.path.join(MODELS, "quadruped.xml"))
    plant.Finalize()
    inspector = plant._geometry_link.scene_graph.model_inspector()
    trunk = plant.GetCollisionGeometriesForBody(plant.GetBodyByName("trunk"))
    calf = plant.GetCollisionGeometriesForBody(plant.GetBodyByName("FL_calf"))
    thigh = plant.GetCollisionGeometriesForBody(plant.GetBodyByName("FR_calf"))
    assert inspector.CollisionFiltered(trunk[0], calf[0])
    assert not inspector.CollisionFiltered(trunk[0], thigh[0])


def test_option_gravity_is_undone_on_error():
    plant = _plant(scene_graph=False)
    with pytest.raises(RuntimeError, match=r"<literal-string>.urdf:1: error: Unknown joint"):
        Parser(plant).AddModelsFromString(
            '<mujoco model="m"><option gravity="0 0 1"/><worldbody><body name="b">'
            '<joint type="x"/></body></worldbody></mujoco>',
            "xml",
        )
    np.testing.assert_array_equal(plant.gravity_field().gravity_vector(), [0, 0, -9.81])
    assert plant.num_model_instances() == 2


def test_connect_is_a_ball_constraint_to_world_or_body2(caplog):
    """<connect body1 anchor [body2]>: Drake's AddBallConstraint(body1, anchor, body2 or World)
    with Q where the anchor is at Finalize()."""
    text = """<mujoco model="m"><worldbody><body name="a" pos="0 0 2"><joint/><geom size="1"/>
    </body><body name="b" pos="1 0 0"><freejoint/><geom size="1"/></body></worldbody>
    <equality><connect body1="a" anchor="0 0 1"/><connect body1="a" body2="b" anchor="1 0 0"/>
    </equality></mujoco>"""
    plant = _plant(scene_graph=False)
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):  # (over the fixture)
        Parser(plant).AddModelsFromString(text, "xml")
    assert caplog.text == ""
    plant.Finalize()
    specs = list(plant.get_ball_constraint_specs().values())
    a, b = plant.GetBodyByName("a"), plant.GetBodyByName("b")
    assert [(s.body_A, s.body_B) for s in specs] == [
        (a.index(), plant.world_body().index()),
        (a.index(), b.index()),
    ]
    np.testing.assert_array_equal(specs[0].p_AP, [0, 0, 1])
    np.testing.assert_allclose(specs[0].p_BQ, [0, 0, 3], atol=1e-15)  # (in World)
    np.testing.assert_allclose(specs[1].p_BQ, [0, 0, 2], atol=1e-15)  # (a's (1, 0, 0) in b)
    with pytest.raises(RuntimeError, match=r":3: error: connect specified body1: z"):
        Parser(_plant(False)).AddModelsFromString(text.replace('body1="a"', 'body1="z"'), "xml")


def test_include_errors(tmp_path):
    (tmp_path / "a.xml").write_text('<mujoco model="a"><include file="missing.xml"/></mujoco>')
    with pytest.raises(RuntimeError, match=r"a.xml:1: error: Failed to load <include> file"):
        Parser(_plant()).AddModels(str(tmp_path / "a.xml"))
    (tmp_path / "b.xml").write_text('<mujoco model="b"><include/></mujoco>')
    with pytest.raises(RuntimeError, match=r"b.xml:1: error: <include> tag without file"):
        Parser(_plant()).AddModels(str(tmp_path / "b.xml"))
    (tmp_path / "c.xml").write_text('<mujoco model="c"><include file="d.xml"/></mujoco>')
    (tmp_path / "d.xml").write_text(
        '<x>\n<worldbody><body name="q"><joint type="bad"/></body></worldbody></x>'
    )
    with pytest.raises(RuntimeError, match=r"d.xml:2: error: Unknown joint type bad"):
        Parser(_plant()).AddModels(str(tmp_path / "c.xml"))


def test_mesh_errors(tmp_path):
    (tmp_path / "m.stl").write_text("solid")
    (tmp_path / "a.xml").write_text(
        '<mujoco model="a">\n<asset><mesh file="m.stl"/></asset></mujoco>'
    )
    with pytest.raises(RuntimeError, match=r"a.xml:2: error: .*only supports mesh files in .obj"):
        Parser(_plant()).AddModels(str(tmp_path / "a.xml"))
    (tmp_path / "b.xml").write_text(
        '<mujoco model="b">\n<asset><mesh file="n.obj"/></asset></mujoco>'
    )
    with pytest.raises(RuntimeError, match=r"b.xml:2: error: The mesh asset .* could not be found"):
        Parser(_plant()).AddModels(str(tmp_path / "b.xml"))


def test_zero_length_fromto_is_drakes(caplog):
    """A fromto of two equal points: the direction Eigen normalizes stays zero (an identity
    rotation), so a capsule's zero length is its located error (pydrake aborts with Capsule's
    message), a box's fromto is ignored with Drake's warning and a sphere stays at the point."""

    def parse(geom):
        text = f'<mujoco model="m"><worldbody><body name="b">\n{geom}</body></worldbody></mujoco>'
        plant = _plant()
        Parser(plant).AddModelsFromString(text, "xml")
        return plant

    with pytest.raises(RuntimeError, match=r"^\S+:2: error: Capsule\(\): length must be"):
        parse('<geom type="capsule" size="0.1" fromto="1 2 3 1 2 3"/>')
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):  # (over the fixture)
        plant = parse('<geom type="box" size="0.1 0.1 0.1" fromto="0 0 0 0 0 0"/>')
    assert "The fromto tag for box is currently unsupported; geom geom0 will be ignored" in (
        caplog.text
    )
    assert plant.GetCollisionGeometriesForBody(plant.GetBodyByName("b")) == []
    plant = parse('<geom type="sphere" size="0.1" fromto="1 2 3 1 2 3"/>')
    inspector = plant._geometry_link.scene_graph.model_inspector()
    (geometry,) = plant.GetCollisionGeometriesForBody(plant.GetBodyByName("b"))
    X_BG = inspector.GetPoseInFrame(geometry)
    assert X_BG.rotation().IsExactlyIdentity() and X_BG.translation().tolist() == [1, 2, 3]


# ---- mutations ---------------------------------------------------------------------------------
_VALUES = ("nan", "inf", "abc", "-1", "0", "1 2", "")
_LOCATED = re.compile(r"\S+:\d+: error: ")
#: How many of a model's mutants are tried (evenly spread over them: parsing each takes ms).
_MUTANTS_PER_MODEL = 150


def _elements(element):
    yield element
    for child in element.children:
        yield from _elements(child)


def _mutants(text):
    """Variants of the document ``text``: each attribute (by its text) dropped or given a bad
    value, each element's closing cut off, with a short label."""
    root = parse_xml(text, "x")
    seen = set()
    for element in _elements(root):
        for name, value in element.attrib.items():
            pattern = f'{name}="{value}"'
            if pattern in seen or text.count(pattern) == 0:
                continue
            seen.add(pattern)
            yield f"drop {pattern}", text.replace(pattern, "", 1)
            for bad in _VALUES:
                yield f"{pattern} -> {bad}", text.replace(pattern, f'{name}="{bad}"', 1)
    lines = text.splitlines()
    for k in range(1, len(lines), 3):
        yield f"cut at line {k}", "\n".join(lines[:k])


@pytest.mark.parametrize("robot", ROBOTS)
def test_every_mutation_is_loaded_or_rejected_with_file_and_line(robot, tmp_path):
    """Each mutant either loads into a plant whose dynamics are finite, or raises an error
    naming the file and line, and leaves the plant exactly as it was (the plant then still
    takes a good model)."""
    shutil.copytree(MODELS, tmp_path, dirs_exist_ok=True)
    text = (tmp_path / f"{robot}.xml").read_text()
    good = os.path.join(MODELS, "hand.xml")
    counts = {"loaded": 0, "rejected": 0}
    mutants = list(_mutants(text))
    for label, mutant in mutants[:: -(-len(mutants) // _MUTANTS_PER_MODEL)]:
        path = tmp_path / "mutant.xml"
        path.write_text(mutant)
        plant = _plant()
        Parser(plant).AddModels(good)
        before = _snapshot(plant)
        try:
            Parser(plant).AddModels(str(path))
        except (RuntimeError, ValueError) as e:
            counts["rejected"] += 1
            assert _LOCATED.search(str(e)) and str(path) in str(e), (label, str(e))
            assert _snapshot(plant) == before, label
            Parser(plant, "again").AddModels(good)
            plant.Finalize()
            continue
        counts["loaded"] += 1
        plant.Finalize()
        context = plant.CreateDefaultContext()
        M = plant.CalcMassMatrix(context)
        assert np.all(np.isfinite(M)), label
        assert np.all(np.isfinite(plant.CalcGravityGeneralizedForces(context))), label
    assert counts["loaded"] > 0 and counts["rejected"] > 0
