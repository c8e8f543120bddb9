"""The fast paths taken for speed while parsing give what the general paths give: number
attributes read as C++ streams read them, shared read-only joint defaults, the cached
half-turn axis of MJCF, MJCF geom inertias computed once per shape and combined in floats,
primitive inertias and MJCF orientations in floats (to the bits of the objects' arithmetic),
MJCF shapes made from their measures and diagonal inertias without orientation taken as is,
validity checks of inertias whose sums overflow, the garbage collector paused only during
a parse, and a URDF's links and joints and an MJCF's bodies and joints added at once as the
plant's methods add them."""

import gc
import math
import os

import numpy as np
import pytest

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing import Parser
from mallard.multibody.parsing._attributes import convert_to_doubles, parse_scalar
from mallard.multibody.parsing._diagnostics import Diagnostics
from mallard.multibody.parsing._mujoco_geometry import two_vector_rows
from mallard.multibody.parsing._workspace import read_file
from mallard.multibody.parsing._xml import parse_xml
from mallard.multibody.parsing._xml_view import parse_xml_view
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    FixedOffsetFrame,
    Joint,
    RevoluteJoint,
    RotationalInertia,
    SpatialInertia,
    WeldJoint,
)
from mallard.multibody.tree._rotational_inertia import (
    could_be_physically_valid,
    could_be_physically_valid_rows,
    point_mass,
)

# (text, the numbers a C++ stream reads at its start)
STREAM_CASES = [
    ("1.5", [1.5]),
    ("  -2e3\t", [-2000.0]),
    ("0 0 -0.5", [0.0, 0.0, -0.5]),
    ("1.", [1.0]),
    (".5", [0.5]),
    ("+.5e+1", [5.0]),
    ("", []),
    ("1e-400", [0.0]),
    ("1_0", [1.0]),  # (Python's float() reads 10)
    ("\u0661", []),  # an Arabic-Indic one (float() reads 1)
    ("nan", []),
    ("inf", []),
    ("-Infinity", []),
    ("1e400", []),
    ("1 2e400 3", [1.0]),
    ("1.5abc", [1.5]),
    ("1e5.5", [100000.0, 0.5]),
    ("0x10", [0.0]),
]


@pytest.mark.parametrize(("text", "numbers"), STREAM_CASES)
def test_numbers_are_read_as_cpp_streams_read_them(text, numbers):
    assert convert_to_doubles(text) == numbers


@pytest.mark.parametrize(("text", "numbers"), STREAM_CASES)
def test_a_scalar_attribute_holds_exactly_one_number(text, numbers):
    node = parse_xml(f'<a x="{text}"/>'.encode(), "f.urdf")
    if len(numbers) == 1:
        value = parse_scalar(node, "x", Diagnostics())
        assert value == numbers[0] and type(value) is float
    else:
        with pytest.raises(RuntimeError, match="f.urdf:1: error: Expected single value"):
            parse_scalar(node, "x", Diagnostics())


def two_joints():
    plant = MultibodyPlant(0.0)
    bodies = [plant.AddRigidBody(name, SpatialInertia.Zero()) for name in "abc"]
    return [
        RevoluteJoint(f"j{i}", bodies[i].body_frame(), bodies[i + 1].body_frame(), [0, 0, 1.0])
        for i in range(2)
    ]


def test_new_joints_share_read_only_defaults_that_setters_replace():
    j0, j1 = two_joints()
    assert j0._pos_lower is j1._pos_lower  # (shared, so never written in place)
    with pytest.raises(ValueError, match="read-only"):
        j0._pos_lower[0] = 0.0
    j0.set_position_limits([-1.0], [2.0])
    j0.set_velocity_limits([-3.0], [3.0])
    j0.set_default_damping(0.5)
    j0.set_default_angle(0.25)
    assert j0.position_lower_limits().tolist() == [-1.0]
    assert j0.velocity_upper_limits().tolist() == [3.0]
    assert (j1.position_lower_limits(), j1.velocity_upper_limits()) == ([-np.inf], [np.inf])
    assert (j1.default_damping(), j1.get_default_angle()) == (0.0, 0.0)
    copy = j1.position_lower_limits()
    copy[0] = 5.0  # (getters return writeable copies)
    assert j1.position_lower_limits().tolist() == [-np.inf]


def test_limits_that_are_not_lists_of_floats_take_the_general_path():
    j0, _ = two_joints()
    j0.set_position_limits(np.array([-1]), (2,))
    assert j0.position_upper_limits().tolist() == [2.0]
    with pytest.raises(RuntimeError, match="must not exceed"):
        j0.set_position_limits([1.0], [-1.0])
    with pytest.raises(RuntimeError, match="must not exceed"):
        j0.set_position_limits([np.nan], [1.0])


def from_two_vectors(a, b):
    """R of two_vector_rows(a, b), as a 3x3 array."""
    return np.array(two_vector_rows(a, b)).reshape(3, 3)


def test_the_half_turn_of_opposite_directions_is_cached_and_read_only():
    for down in ([0.0, 0.0, -0.5], [0.0, 0.0, -2.0]):
        R = from_two_vectors((0.0, 0.0, 1.0), np.array(down))
        np.testing.assert_allclose(R @ [0, 0, 1], [0, 0, -1], atol=1e-15)
        np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-15)
    # The cache holds the SVD's axis, the same for the same unit vectors.
    R1 = from_two_vectors((0.0, 0.0, 1.0), np.array([0.0, 0.0, -0.5]))
    R2 = from_two_vectors((0.0, 0.0, 1.0), np.array([0.0, 0.0, -3.0]))
    np.testing.assert_array_equal(R1, R2)
    # Not opposite: the cross product's quaternion.
    R = from_two_vectors((0.0, 0.0, 1.0), np.array([1.0, 0.0, 0.0]))
    np.testing.assert_allclose(R @ [0, 0, 1], [1, 0, 0], atol=1e-15)


def test_validity_when_finite_elements_sum_to_infinity():
    big = 1e308
    rows = [[big, 0.0, 0.0], [0.0, big, 0.0], [0.0, 0.0, big]]  # (its trace overflows)
    assert could_be_physically_valid_rows(rows) == could_be_physically_valid(np.array(rows))
    assert not could_be_physically_valid_rows([[1.0, 0.0, 0.0], [0.0, np.nan, 0.0], [0] * 3])
    assert not could_be_physically_valid_rows([[np.inf, 0.0, 0.0], [0.0, -np.inf, 0.0], [0] * 3])


def test_make_from_central_inertia_in_floats_equals_the_array_formula():
    rng = np.random.default_rng(7)
    for _ in range(20):
        R = RotationMatrix.MakeXRotation(rng.uniform(-3, 3))
        I = RotationalInertia(*rng.uniform(1, 2, 3)).ReExpress(R)
        m, p = float(rng.uniform(0.1, 5)), rng.uniform(-1, 1, 3)
        M = SpatialInertia.MakeFromCentralInertia(m, p, I)
        expected = I.CopyToFullMatrix3() / m + point_mass(p)
        np.testing.assert_array_equal(M.get_unit_inertia().CopyToFullMatrix3(), expected)
    with pytest.raises(RuntimeError, match="IsPhysicallyValid"):
        SpatialInertia.MakeFromCentralInertia(1.0, [0, 0, 0], RotationalInertia(1, 1, 3.0))


def test_rigid_transform_constructors_copy_their_arguments():
    p, R = np.array([1.0, 2.0, 3.0]), RotationMatrix.MakeZRotation(0.5)
    for X in (RigidTransform(R, p), RigidTransform(p), RigidTransform(RigidTransform(R, p))):
        p[0] = 9.0
        R.matrix()  # (a copy, unchanged by anything above)
        assert X.translation()[0] == 1.0
        p[0] = 1.0
    X = RigidTransform(R)
    np.testing.assert_array_equal(X.rotation().matrix(), R.matrix())
    assert X.translation().tolist() == [0.0, 0.0, 0.0]


URDF = '<robot name="r"><link name="a"/><link name="b"/>{}</robot>'
JOINT = '<joint name="j" type="revolute"><parent link="a"/><child link="{}"/></joint>'


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("child", ["b", "missing"])
def test_the_garbage_collector_is_paused_only_during_a_parse(enabled, child):
    seen = []
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    original = plant._add_checked  # (how the URDF parser adds its links and joints)

    def add_checked(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    plant._add_checked = add_checked
    (gc.enable if enabled else gc.disable)()
    try:
        if child == "b":
            parser.AddModelsFromString(URDF.format(JOINT.format(child)), "urdf")
            assert seen == [False, False]  # (the links, then the joint)
        else:
            with pytest.raises(RuntimeError, match="Could not find link named 'missing'"):
                parser.AddModelsFromString(URDF.format(JOINT.format(child)), "urdf")
        assert gc.isenabled() == enabled
    finally:
        gc.enable()


MJCF_GEOMS = """<mujoco model="m"><worldbody>
<body name="a"><joint/><geom type="capsule" size="0.05" fromto="0 0 0 0 0 -0.5"/>
<geom type="box" size="0.1 0.2 0.3" pos="0 0 -0.25" mass="0.1"/></body>
<body name="b"><joint/><geom type="capsule" size="0.05" fromto="0 0 0 0.5 0 0"/>
<geom type="box" size="0.1 0.2 0.3" quat="1 1 0 0" density="10"/>
<geom type="cylinder" size="0.1 0.2" euler="0 0 0"/></body>
</worldbody></mujoco>"""


def test_mjcf_inertia_arithmetic_in_floats_equals_spatial_inertia_operations():
    from mallard.multibody.parsing._mujoco_geometry import _reexpress, composite_inertia
    from mallard.multibody.tree import UnitInertia

    rng = np.random.default_rng(3)
    parts, total = [], SpatialInertia.Zero()
    for _ in range(5):
        q = rng.normal(size=4)
        R = RotationMatrix(Quaternion(q / np.linalg.norm(q)))
        m, p = float(rng.uniform(0.1, 5)), rng.uniform(-1, 1, 3)
        G = UnitInertia(*rng.uniform(1, 2, 3)).ReExpress(RotationMatrix.MakeZRotation(1.0))
        M = SpatialInertia(m, p, G, skip_validity_check=True)
        R_rows = R.matrix().ravel().tolist()
        p_R, G_R = _reexpress(R_rows, p.tolist(), G.CopyToFullMatrix3().tolist())
        M_R = M.ReExpress(R)
        np.testing.assert_allclose(p_R, M_R.get_com(), atol=1e-15)
        np.testing.assert_allclose(G_R, M_R.get_unit_inertia().CopyToFullMatrix3(), atol=1e-15)
        parts.append((m, tuple(p_R), G_R))
        total += M_R
    M = composite_inertia(parts)
    assert M.get_mass() == total.get_mass()
    np.testing.assert_allclose(M.get_com(), total.get_com(), atol=1e-15)
    np.testing.assert_allclose(
        M.get_unit_inertia().CopyToFullMatrix3(),
        total.get_unit_inertia().CopyToFullMatrix3(),
        atol=1e-15,
    )
    assert composite_inertia([]).get_mass() == 0.0


def test_mjcf_geom_inertias_computed_once_per_shape_equal_computing_each():
    from mallard.geometry import Box, Capsule, Cylinder
    from mallard.multibody.tree import CalcSpatialInertia

    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(MJCF_GEOMS, "xml")
    # Each geom's mass spread through its shape, about the body origin, in the body frame.
    capsule = CalcSpatialInertia(Capsule(0.05, 0.5), 1000.0)
    box = CalcSpatialInertia(Box(0.2, 0.4, 0.6), 10.0)
    down = RotationMatrix.MakeXRotation(np.pi)
    side = RotationMatrix.MakeYRotation(np.pi / 2)
    expected = {
        "a": [
            capsule.ReExpress(down).Shift([0.0, 0.0, 0.25]),
            SpatialInertia.SolidBoxWithMass(0.1, 0.2, 0.4, 0.6).Shift([0.0, 0.0, 0.25]),
        ],
        "b": [
            capsule.ReExpress(side).Shift([-0.25, 0.0, 0.0]),
            box.ReExpress(RotationMatrix.MakeXRotation(np.pi / 2)).Shift([0.0, 0.0, 0.0]),
            CalcSpatialInertia(Cylinder(0.1, 0.4), 1000.0),
        ],
    }
    for name, parts in expected.items():
        M = plant.GetBodyByName(name).default_spatial_inertia()
        total = SpatialInertia.Zero()
        for part in parts:
            total += part
        assert M.get_mass() == pytest.approx(total.get_mass(), rel=1e-14)
        np.testing.assert_allclose(M.get_com(), total.get_com(), atol=1e-15)
        np.testing.assert_allclose(
            M.CalcRotationalInertia().CopyToFullMatrix3(),
            total.CalcRotationalInertia().CopyToFullMatrix3(),
            atol=1e-15,
        )


def test_a_massless_geom_adds_nothing_to_its_bodys_inertia():
    """A geom of zero mass (density 0, as MuJoCo's visual geoms) is checked, not re-expressed
    or shifted: the body's inertia is its other geoms'."""
    visual = '<geom type="box" size="0.1 0.2 0.3" pos="0.3 0 0" quat="1 1 0 0" density="0"/>'
    plain, with_visual = MultibodyPlant(0.0), MultibodyPlant(0.0)
    Parser(plain).AddModelsFromString(MJCF_GEOMS, "xml")
    Parser(with_visual).AddModelsFromString(
        MJCF_GEOMS.replace("</body>", visual + "</body>"), "xml"
    )
    for name in ("a", "b"):
        M, M_visual = (
            p.GetBodyByName(name).default_spatial_inertia() for p in (plain, with_visual)
        )
        assert M_visual.CopyToFullMatrix6().tolist() == M.CopyToFullMatrix6().tolist()


@pytest.mark.parametrize(
    "orientation, message",
    [
        ('quat="0 0 0 0"', r"The quaternion in 'quat' \(0 0 0 0\) is zero"),
        ('euler="1 2"', "Expected 3 values for attribute euler got 1 2"),
        ('axisangle="0 0 0 1"', r"The axis in 'axisangle' \(0 0 0 1\) is zero"),
        ('zaxis="0 0 0"', r"The 'zaxis' attribute \(0 0 0\) is zero"),
        ('xyaxes="1 0 0 1 0 0"', "NaN or infinite element"),
        ('quat="1 0 0 0" euler="0 0 0"', "more than one orientation attribute"),
    ],
)
def test_mjcf_geom_orientations_are_checked_where_their_rotation_is_not_used(orientation, message):
    """A geom of a body with an <inertial>, in a plant without a scene graph, needs neither
    its rotation nor its inertia: its orientation is only read and checked, with the
    messages of a plant that uses it."""
    from mallard.geometry import SceneGraph

    text = (
        '<mujoco model="m"><worldbody><body name="b"><joint/>'
        '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
        f'<geom type="box" size="0.1 0.2 0.3" {orientation}/></body></worldbody></mujoco>'
    )
    errors = []
    for registered in (False, True):
        plant = MultibodyPlant(0.0)
        if registered:
            plant.RegisterAsSourceForSceneGraph(SceneGraph())
        with pytest.raises((RuntimeError, ValueError), match=message) as error:
            Parser(plant).AddModelsFromString(text, "xml")
        errors.append(str(error.value))
        assert plant.num_bodies() == 1  # (untouched: the world body only)
    assert errors[0] == errors[1]


# A model with a link whose inertia is not physical (a warning) and one whose inertia is.
REUSED_URDF = """<robot name="r">
<link name="a"><inertial><origin xyz="0 0 -0.25" rpy="0.1 0.2 0.3"/><mass value="2"/>
<inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
<link name="bad"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="5" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="a"/><child link="bad"/>
<origin xyz="0.1 0.2 0.3" rpy="0.3 0.2 0.1"/><axis xyz="0 1 0"/></joint></robot>"""


def test_a_reused_document_reads_its_values_once_and_repeats_its_warnings(tmp_path, caplog):
    """A model that directives add again reads its inertias and joint origins once per call
    (the copies' bodies and frames get equal values of their own), except what warned, read
    again so that each copy warns as pydrake's parse of each copy does."""
    pytest.importorskip("yaml")
    (tmp_path / "r.urdf").write_text(REUSED_URDF)
    directives = "directives:\n" + "".join(
        f"- add_model: {{name: m{i}, file: 'file://{tmp_path / 'r.urdf'}'}}\n" for i in range(3)
    )
    plant = MultibodyPlant(0.0)
    with caplog.at_level("WARNING", logger="mallard.parsing"):
        instances = Parser(plant).AddModelsFromString(directives, "dmd.yaml")
    assert sum("While parsing inertia matrix" in r.message for r in caplog.records) == 3
    single = MultibodyPlant(0.0)
    (alone,) = Parser(single).AddModelsFromString(REUSED_URDF, "urdf")
    for name in ("a", "bad"):
        expected = single.GetBodyByName(name, alone).default_spatial_inertia().CopyToFullMatrix6()
        bodies = [plant.GetBodyByName(name, instance) for instance in instances]
        for body in bodies:
            assert np.array_equal(body.default_spatial_inertia().CopyToFullMatrix6(), expected)
        assert bodies[0]._M_BBo_B._G is not bodies[1]._M_BBo_B._G
    expected = single.GetFrameByName("j_parent", alone).GetFixedPoseInBodyFrame().GetAsMatrix4()
    frames = [plant.GetFrameByName("j_parent", instance) for instance in instances]
    for frame in frames:
        assert np.array_equal(frame.GetFixedPoseInBodyFrame().GetAsMatrix4(), expected)
    assert frames[0]._X_PF._p is not frames[1]._X_PF._p


def _reused_urdf_directives(tmp_path, copies):
    path = tmp_path / "r.urdf"
    path.write_text(REUSED_URDF)
    return path, "directives:\n" + "".join(
        f"- add_model: {{name: m{i}, file: 'file://{path}'}}\n" for i in range(copies)
    )


def test_a_file_directives_add_again_is_read_once_per_call(tmp_path, monkeypatch):
    """The copies of a model file that directives add are of one read of it, the call's first:
    a file rewritten between two copies (to its size, its times set back) does not change the
    later copies of that call (the next call reads it again: below)."""
    pytest.importorskip("yaml")
    from mallard.multibody.parsing import _workspace

    path, directives = _reused_urdf_directives(tmp_path, 4)
    parsed = []
    for reader in ("parse_xml", "parse_xml_view"):  # (URDF's documents are read as views)
        read = getattr(_workspace, reader)
        monkeypatch.setattr(_workspace, reader, lambda *a, r=read: parsed.append(1) or r(*a))
    load_file = _workspace.Workspace.load_file

    def rewritten_after_the_second(self, file, *args):
        root = load_file(self, file, *args)
        if file == str(path) and self.plant.num_model_instances() == 3:  # (the second copy)
            st = path.stat()
            path.write_text(REUSED_URDF.replace('<mass value="2"/>', '<mass value="3"/>'))
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        return root

    monkeypatch.setattr(_workspace.Workspace, "load_file", rewritten_after_the_second)
    plant = MultibodyPlant(0.0)
    instances = Parser(plant).AddModelsFromString(directives, "dmd.yaml")
    masses = [plant.GetBodyByName("a", instance).default_mass() for instance in instances]
    assert masses == [2.0, 2.0, 2.0, 2.0] and len(parsed) == 1


def test_a_file_rewritten_between_two_calls_is_parsed_again(tmp_path):
    """Nothing of a parse is kept from one AddModels call to the next."""
    pytest.importorskip("yaml")
    path, directives = _reused_urdf_directives(tmp_path, 2)
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.SetAutoRenaming(True)
    first = parser.AddModelsFromString(directives, "dmd.yaml")
    path.write_text(REUSED_URDF.replace('<mass value="2"/>', '<mass value="3"/>'))
    second = parser.AddModelsFromString(directives, "dmd.yaml")
    masses = [plant.GetBodyByName("a", instance).default_mass() for instance in first + second]
    assert masses == [2.0, 2.0, 3.0, 3.0]


# (YAML scalar, what a number field reads: PyYAML's value as a float)
YAML_NUMBERS = ["0", "-0", "+0", "-0.0", "017", "00", "1.5", "-2", "+3.", ".5", "1.0e+5",
                "1.5e-10", "0x1f", "1_000", "1:30", "1" * 25, "0.1" + "3" * 40]  # fmt: skip


@pytest.mark.parametrize("text", YAML_NUMBERS)
def test_directive_numbers_read_as_pyyaml_reads_them(text):
    """Model directives read plain decimals without PyYAML's constructors, to the same bits."""
    yaml = pytest.importorskip("yaml")
    from mallard.multibody.parsing import LoadModelDirectivesFromString

    directives = LoadModelDirectivesFromString(
        "directives:\n- add_model: {name: m, file: 'package://x/y.urdf', "
        f"default_joint_positions: {{j: [{text}]}}}}"
    )
    (value,) = directives.directives[0].add_model.default_joint_positions["j"]
    expected = float(yaml.safe_load(f"a: {text}")["a"])
    assert value == expected and np.copysign(1.0, value) == np.copysign(1.0, expected)


def test_validity_of_many_inertias_at_once():
    """could_be_physically_valid_batch is could_be_physically_valid_rows of each matrix: near
    the triangle inequality's bound (where the eigenvalues decide), diagonal, and invalid."""
    from mallard.multibody.tree._rotational_inertia import could_be_physically_valid_batch

    rng = np.random.default_rng(0)
    matrices = []
    for k in range(400):
        q = rng.normal(size=4)
        R = RotationMatrix(Quaternion(q / np.linalg.norm(q))).matrix()
        moments = rng.uniform(0.0, 1.0, 3)
        if k % 4 == 1:  # (at the bound, to round-off)
            moments[2] = moments[0] + moments[1] + rng.choice([-1e-16, 0.0, 1e-16, 1e-9])
        I = R @ np.diag(moments) @ R.T if k % 4 != 2 else np.diag(moments)
        matrices.append(I * 10.0 ** rng.integers(-6, 6) if k % 4 == 3 else I)
    rows = [I.tolist() for I in matrices]
    expected = [could_be_physically_valid_rows(r) for r in rows]
    assert 50 < sum(expected) < 400
    elements = np.array(rows).reshape(-1, 9).T
    assert could_be_physically_valid_batch(*elements).tolist() == expected


def _inertial(rng, k):
    """A link's ``<inertial>`` text, of the kind ``k`` (see test_urdf_inertias_read_at_once)."""
    m = rng.uniform(0.01, 10.0)
    moments = np.sort(rng.uniform(1e-4, 1.0, 3))
    q = rng.normal(size=4)
    R = RotationMatrix(Quaternion(q / np.linalg.norm(q))).matrix()
    I = R @ np.diag(moments) @ R.T
    xyz = " ".join(repr(float(x)) for x in rng.uniform(-1.0, 1.0, 3))
    origin = f'<origin xyz="{xyz}"/>'
    if k == 1:  # (diagonal)
        I = np.diag(moments)
    elif k == 2:  # (no triangle inequality: a warning)
        I = np.diag([moments[0], moments[1], moments[0] + moments[1] + 0.5])
    elif k == 3:  # (a rotated frame: read link by link)
        origin = f'<origin xyz="{xyz}" rpy="0.1 0.2 0.3"/>'
    elif k == 4:  # (no mass)
        m = 0.0
    elif k == 5:  # (near the triangle inequality's bound: the Gershgorin bound fails)
        I = R @ np.diag([0.5, 0.5, 1.0 - 1e-15]) @ R.T
    elif k == 6:  # (no origin)
        origin = ""
    elif k == 7:  # (a point mass, exactly)
        I = np.zeros((3, 3))
    elif k == 8:  # (an rpy whose rotation is the identity, to the bit but a -0.0: not applied)
        origin = f'<origin xyz="{xyz}" rpy="0 -0 0.0"/>'
    values = dict(zip(("ixx", "iyy", "izz", "ixy", "ixz", "iyz"), (
        I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]
    ), strict=True))  # fmt: skip
    inertia = " ".join(f'{n}="{float(v)!r}"' for n, v in values.items())
    return f'<inertial>{origin}<mass value="{m!r}"/><inertia {inertia}/></inertial>'


@pytest.mark.parametrize("seed", range(4))
def test_urdf_inertias_read_at_once(seed):
    """The links' spatial inertias read all at once (_urdf_inertia, rows that
    SpatialInertia._from_row reads) are parse_inertial's, to the bit, for every link they are
    given for, and are left to it (None) for every link it warns about or must rotate: so a
    parse gives the same bodies and messages."""
    from mallard.multibody.parsing._urdf import _UrdfParser
    from mallard.multibody.parsing._urdf_inertia import MIN_LINKS, spatial_inertias
    from mallard.multibody.parsing._workspace import Workspace

    rng = np.random.default_rng(seed)
    kinds = [int(k) for k in rng.integers(0, 9, 40)] + list(range(9))
    links = (
        "".join(f'<link name="l{i}">{_inertial(rng, k)}</link>' for i, k in enumerate(kinds))
        + '<link name="bare"/>'
    )
    root = parse_xml_view(f'<robot name="r">{links}</robot>', "test.urdf")
    nodes = root.findall("link")
    assert len(nodes) >= MIN_LINKS
    workspace = Workspace(MultibodyPlant(0.0), None, False, False, None)
    parser = _UrdfParser(workspace, root)
    read = spatial_inertias([node.element for node in nodes])
    assert read[-1] is None
    for node, kind, row in zip(nodes, kinds, read, strict=False):
        M = None if row is None else SpatialInertia._from_row(*row)
        warnings = workspace.diagnostics.warnings
        expected = parser.parse_inertial(node.find("inertial"))
        warned = workspace.diagnostics.warnings > warnings
        if kind in (2, 3, 4) or warned:
            assert M is None, (kind, warned)
        if kind == 8 and not warned:
            assert M is not None
        if M is None:
            continue
        assert kind not in (2, 3, 4)
        assert type(M._m) is float and M._m == expected._m
        assert M._p.tobytes() == expected._p.tobytes()
        assert M._G.tobytes() == expected._G.tobytes()
    assert sum(row is not None for row in read) >= len(kinds) // 3


def test_urdf_inertias_of_unusual_numbers_are_read_link_by_link():
    """A number that is not plain (C++ stream rules, NaN, overflow) leaves every link to
    parse_inertial, whose messages say what is wrong."""
    from mallard.multibody.parsing._urdf_inertia import MIN_LINKS, spatial_inertias

    def links(mass):
        inertial = f'<inertial><mass value="{mass}"/><inertia ixx="1" iyy="1" izz="1"/></inertial>'
        text = "".join(f'<link name="l{i}">{inertial}</link>' for i in range(MIN_LINKS))
        nodes = parse_xml_view(f'<robot name="r">{text}</robot>', "t.urdf").findall("link")
        return [node.element for node in nodes]

    assert all(M is not None for M in spatial_inertias(links("2.5")))
    for mass in ("1_0", "1e400", "nan", "2.5 3", "2.5abc", "\u0661"):
        assert spatial_inertias(links(mass)) == [None] * MIN_LINKS, mass


def _registration(plant):
    """What registering elements leaves in a plant: each element's kind, name, index, ordinal
    and model instance, the lookups by name (with the model instances of each name) and the
    joints between bodies."""
    elements = [
        (type(e).__name__, e.name(), int(e.index()), e._ordinal, int(e.model_instance()))
        for attr in ("_bodies", "_frames", "_joints")
        for e in getattr(plant, attr)
    ]
    names = {
        kind: [(key, int(e.index())) for key, e in by_name.items()]
        + [(name, by_name.instances_of(name)) for _, name in by_name]
        for kind, by_name in plant._names.items()
    }
    between = sorted((ends, j.name()) for ends, j in plant._joint_between.items())
    return elements, names, between, dict(plant._next_index)


def test_urdf_links_and_joints_added_at_once_as_the_plant_api_adds_them():
    # (plant._add_checked: the URDF parser adds a document's checked links and joints in one
    # call; the plant must be as AddRigidBody, AddFrame and AddJoint leave it)
    n = 10
    links = "".join(f'<link name="l{i}"/>' for i in range(n))
    joints = "".join(
        f'<joint name="j{i}" type="{"fixed" if i % 3 == 0 else "revolute"}">'
        f'<parent link="{"world" if i == 0 else f"l{i - 1}"}"/><child link="l{i}"/>'
        '<origin xyz="0 0 -0.5"/><axis xyz="0 1 0"/></joint>'
        for i in range(n)
    )
    parsed = MultibodyPlant(0.0)
    Parser(parsed).AddModelsFromString('<robot name="pre"><link name="p"/></robot>', "urdf")
    Parser(parsed).AddModelsFromString(f'<robot name="r">{links}{joints}</robot>', "urdf")
    built = MultibodyPlant(0.0)
    built.AddRigidBody("p", built.AddModelInstance("pre"), SpatialInertia.Zero())
    instance = built.AddModelInstance("r")
    bodies = [built.AddRigidBody(f"l{i}", instance, SpatialInertia.Zero()) for i in range(n)]
    X = RigidTransform([0.0, 0.0, -0.5])
    for i in range(n):
        parent = built.world_body() if i == 0 else bodies[i - 1]
        F = built.AddFrame(FixedOffsetFrame(f"j{i}_parent", parent.body_frame(), X, instance))
        M = bodies[i].body_frame()
        if i % 3 == 0:
            built.AddJoint(WeldJoint(f"j{i}", F, M, RigidTransform()))
        else:
            built.AddJoint(RevoluteJoint(f"j{i}", F, M, [0.0, 1.0, 0.0]))
    assert _registration(parsed) == _registration(built)
    for plant in (parsed, built):
        plant.Finalize()
    assert _registration(parsed) == _registration(built)
    assert parsed.GetJointByName("j4").parent_body().name() == "l3"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('<link name="j1_parent"/>', "already contains a frame named 'j1_parent'"),
        ('<link name="l1"/>', "already contains a body named 'l1'"),
        (
            '<joint name="k" type="fixed"><parent link="l1"/><child link="l0"/></joint>',
            "already has joint 'j1'",
        ),
        (  # (its frame j0_parent is added first, as Drake's AddJoint<WeldJoint> adds it)
            '<joint name="j0" type="fixed"><parent link="l1"/><child link="l2"/></joint>',
            "already contains a frame named 'j0_parent'",
        ),
        ('<joint name="k" type="fixed"><parent link="l2"/><child link="l2"/></joint>', "itself"),
    ],
)
def test_urdf_elements_that_the_plant_rejects_leave_it_untouched(extra, message):
    links = "".join(f'<link name="l{i}"/>' for i in range(3))
    joints = (
        '<joint name="j0" type="fixed"><parent link="world"/><child link="l0"/></joint>'
        '<joint name="j1" type="revolute"><parent link="l0"/><child link="l1"/></joint>'
    )
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString('<robot name="pre"><link name="p"/></robot>', "urdf")
    before = _registration(plant)
    with pytest.raises(RuntimeError, match=message):
        Parser(plant).AddModelsFromString(f'<robot name="r">{links}{joints}{extra}</robot>', "urdf")
    assert _registration(plant) == before


def _joint(rng, i, k):
    """A ``<joint>`` text from l{i-1} to l{i}, of the kind ``k`` (see
    test_urdf_joints_read_at_once)."""
    types = ("revolute", "continuous", "prismatic", "fixed")
    joint_type = types[int(rng.integers(4))] if i > 1 and k < 7 else "revolute"
    xyz = " ".join(repr(float(x)) for x in rng.uniform(-1.0, 1.0, 3))
    axis = " ".join(repr(float(x)) for x in rng.normal(size=3))
    lower, upper = sorted(float(x) for x in rng.uniform(-3.0, 3.0, 2))
    limit = (
        f'<limit lower="{lower!r}" upper="{upper!r}" effort="{rng.uniform(0, 9)!r}" '
        f'velocity="{rng.uniform(0, 9)!r}" drake:acceleration="{rng.uniform(0, 9)!r}"/>'
    )
    origin = f'<origin xyz="{xyz}"/>'
    extra = ""
    if k == 1:  # (a limit not given, and no origin)
        limit = f'<limit upper="{upper!r}"/>'
        origin = ""
    elif k == 2:  # (a rotated origin, its rotation made by matrix_from_rpy as parse_joint's)
        rpy = " ".join(repr(float(x)) for x in rng.uniform(-3.2, 3.2, 3))
        origin = f'<origin xyz="{xyz}" rpy="{rpy}"/>'
    elif k == 3:  # (damping, signed zero, zero friction: read at once)
        damping = ("0.25", "-0.0", "0", "7e-3")[int(rng.integers(4))]
        extra = f'<dynamics damping="{damping}" friction="0.0"/>'
    elif k == 8:  # (what parse_joint warns of: read at once, its warnings given)
        extra = (
            '<dynamics damping="0.25" friction="0.5"/>',
            '<calibration rising="0.1"/><safety_controller k_velocity="1"/>',
            '<dynamics friction="0" coulomb_window="0.1"/>',
        )[int(rng.integers(3))]
    elif k == 4:  # (no limit, no axis)
        limit = axis = ""
    elif k == 5:  # (a number that is not plain: every joint is read one by one)
        xyz = "0 0 1."
        origin = f'<origin xyz="{xyz}"/>'
    elif k == 6:  # (a tiny axis, normalized twice)
        axis = "0 3e-8 -4e-8"
    elif k == 7:  # (a mimic of j1 (revolute), read after all joints)
        extra = '<mimic joint="j1" multiplier="2"/>' if i > 1 else ""
    axis = f'<axis xyz="{axis}"/>' if axis else ""
    ignore = ' drake_ignore="false"' if k == 9 else ""  # (read joint by joint)
    return (
        f'<joint name="j{i}" type="{joint_type}"{ignore}><parent link="l{i - 1}"/>'
        f'<child link="l{i}"/>{origin}{axis}{limit}{extra}</joint>'
    )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("document", ["some left to parse_joint", "all read", "a drake:joint"])
def test_urdf_joints_read_at_once(seed, document, monkeypatch, caplog):
    """The joints' numbers read all at once (_urdf_joints) make the plant that reading them
    joint by joint (parse_joint) makes, to the bit: the same joints, frames, limits, axes,
    dampings, effort limits and coupler constraints, and the same warnings; and a joint they
    cannot be read for is left to it. (All read: the joints added at once, their warnings
    and mimics given then; with a ``<drake:joint>`` among them: all in document order.)"""
    from mallard.multibody.parsing import _urdf
    from mallard.multibody.parsing._urdf_joints import MIN_JOINTS, first_children, joint_values

    rng = np.random.default_rng(seed)
    kinds = [int(k) for k in rng.integers(0, 10, 30)] + list(range(10))
    if document == "all read":
        kinds = [k for k in kinds if k != 9]
    links = "".join(f'<link name="l{i}"/>' for i in range(len(kinds) + 1))
    joints = "".join(_joint(rng, i + 1, k) for i, k in enumerate(kinds))
    if document == "a drake:joint":
        links += (
            '<link name="ball"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/>'
            "</inertial></link>"
        )
        ball = (
            '<drake:joint name="ball" type="ball"><parent link="l3"/><child link="ball"/>'
            "</drake:joint>"
        )
        joints = joints.replace('<joint name="j5"', f'{ball}<joint name="j5"', 1)
    actuators = "".join(
        f'<transmission type="SimpleTransmission"><actuator name="a{i}"/><joint name="j{i}"/>'
        "</transmission>"
        for i in range(1, len(kinds) + 1, 3)
    )
    text = f'<robot name="r">{links}{joints}{actuators}</robot>'
    nodes = [node.element for node in parse_xml_view(text, "t.urdf").findall("joint")]
    read, warned = joint_values(nodes, first_children(nodes))
    assert len(nodes) >= MIN_JOINTS
    for j, (k, values) in enumerate(zip(kinds, read, strict=True)):
        assert (values is None) == (k == 9)  # (only drake_ignore's joints left to parse_joint)
        if k == 8:
            assert j in warned
    assert (None in read) == (document != "all read")

    limits = ("_pos_lower", "_pos_upper", "_vel_lower", "_vel_upper", "_acc_lower", "_acc_upper")

    def fingerprint(plant):
        plant.Finalize()
        rows = []
        for e in (*plant._frames, *plant._joints, *plant._actuators):
            if isinstance(e, Joint):  # (a joint's limits read from its limit row if it has one)
                rows.append([getattr(e, key).tobytes() for key in limits])
            for key, value in sorted(vars(e).items()):
                if key in limits or key == "_limit_row":
                    continue
                if isinstance(value, np.ndarray):
                    rows.append((e.name(), key, value.tobytes(), value.flags.writeable))
                elif isinstance(value, float | int | str):
                    rows.append((e.name(), key, value))
        rows.append(plant.GetEffortUpperLimits().tobytes())
        return rows, plant.num_constraints()

    def parsed():
        caplog.clear()
        plant = MultibodyPlant(0.1)
        with caplog.at_level("WARNING", logger="mallard.parsing"):
            Parser(plant).AddModelsFromString(text, "urdf")
        return fingerprint(plant), [r.getMessage() for r in caplog.records]

    fast = parsed()
    monkeypatch.setattr(_urdf, "joint_values", lambda joints, firsts: ([None] * len(joints), []))
    general = parsed()
    assert fast == general
    assert len(fast[1]) >= (8 in kinds)


@pytest.mark.parametrize(("text", "numbers"), STREAM_CASES)
@pytest.mark.parametrize("neighbors", [0, 1, 2])
def test_plain_numbers_read_at_once_are_what_cpp_streams_read(text, numbers, neighbors):
    """plain_numbers reads texts only if each holds the expected count of numbers that C++
    streams and float() read alike (else None: the caller reads element by element), the
    texts beside a text not changing what it reads; ABSENT reads as NaN."""
    from mallard.multibody.parsing._plain_numbers import ABSENT, plain_numbers

    plain = text.strip() in ("1.5", "-2e3", "0 0 -0.5", "1.", ".5", "+.5e+1", "1e-400")
    count = max(len(numbers), 1)
    other = " ".join(["7"] * count)
    texts = [other] * neighbors + [text] + [other] * neighbors

    def rejected(read):
        return read is None or any(map(math.isinf, read))

    read = plain_numbers(texts, count)
    before = [7.0] * count * neighbors
    if plain:
        assert read.tolist() == [*before, *numbers, *before]
    else:  # (or, a number out of range: ±inf, which the callers reject)
        assert rejected(read) or read[len(before) : len(before) + count].tolist() == numbers
    assert rejected(plain_numbers(texts, count + 1))
    assert plain_numbers([*texts, "1 2"], count) is None or count == 2
    assert plain_numbers([*texts, "1 2 3 4"], count) is None
    if count > 1:
        assert plain_numbers([*texts, ABSENT], count) is None
    read = plain_numbers(["7", ABSENT, " 8 "], 1)
    assert read[::2].tolist() == [7.0, 8.0] and np.isnan(read[1])


@pytest.mark.parametrize("axis", ["0 1e308 0", "0 0 1e-9", "1e200 1e200 0"])
def test_urdf_joints_whose_axis_the_joint_rejects_are_read_joint_by_joint(axis):
    """The joint whose axis parse_joint or the joint rejects gets their message."""
    from mallard.multibody.parsing._urdf_joints import MIN_JOINTS

    links = "".join(f'<link name="l{i}"/>' for i in range(MIN_JOINTS + 1))
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        f'<axis xyz="{axis if i == 3 else "0 0 1"}"/></joint>'
        for i in range(1, MIN_JOINTS + 1)
    )
    text = f'<robot name="r">{links}{joints}</robot>'
    # (squares that overflow: an infinite norm, a zero axis that the joint rejects)
    message = "Joint 'j3' axis is zero" if axis == "0 0 1e-9" else "must have nonzero length"
    with pytest.raises(RuntimeError, match=message):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "urdf")


def _bits(values):
    return [float(x).hex() for x in values]


def test_primitive_inertias_in_floats_are_calc_spatial_inertias_bits():
    # (unit_density_inertia: CalcSpatialInertia(shape, 1.0) of a primitive, in floats, for
    # the MJCF geoms; -0.0 products included)
    from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, Sphere
    from mallard.multibody.tree import CalcSpatialInertia
    from mallard.multibody.tree._calc_spatial_inertia import unit_density_inertia

    rng = np.random.default_rng(11)
    for kind, n in ((Box, 3), (Sphere, 1), (Cylinder, 2), (Capsule, 2), (Ellipsoid, 3)):
        for _ in range(200):
            measures = tuple((10.0 ** rng.uniform(-4, 3, n)).tolist())
            M = CalcSpatialInertia(kind(*measures), 1.0)
            G = M.get_unit_inertia().CopyToFullMatrix3()
            moments = G[[0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]].tolist()
            volume, floats = unit_density_inertia(kind, measures)
            assert _bits([volume, *floats]) == _bits([M.get_mass(), *moments])
            assert M.get_com().tolist() == [0.0, 0.0, 0.0]


MJCF_SHAPES = """<mujoco model="m"><worldbody><body name="b">
<geom type="box" size="0.1 0.2 0.3"/><geom type="capsule" size="0.05 0.2"/>
<geom type="capsule" fromto="0 0 0 0 0 0.4" size="0.05"/><geom type="cylinder" size="0.1 0.2"/>
<geom type="ellipsoid" size="0.1 0.2 0.3"/><geom type="sphere" size="0.1"/>
<geom type="box" size="0.1 0.2 0.3"/></body>
<body name="c"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><geom size="0"/></body>
</worldbody></mujoco>"""


def test_mjcf_shapes_made_from_their_measures_equal_the_constructors():
    """A primitive shape of acceptable measures is made from its pickled state (the same
    object as the constructor's; a document's equal shapes share one); without a scene
    graph it is not made, only checked: the constructor's error is the document's."""
    from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, SceneGraph, Sphere

    plant = MultibodyPlant(0.0)
    plant.RegisterAsSourceForSceneGraph(SceneGraph())
    Parser(plant).AddModelsFromString(MJCF_SHAPES, "xml")
    inspector = plant._geometry_link.scene_graph.model_inspector()
    shapes = [
        inspector.GetShape(g)
        for name in ("b", "c")
        for g in plant.GetVisualGeometriesForBody(plant.GetBodyByName(name))
    ]
    expected = [Box(0.2, 0.4, 0.6), Capsule(0.05, 0.4), Capsule(0.05, 0.4), Cylinder(0.1, 0.4),
                Ellipsoid(0.1, 0.2, 0.3), Sphere(0.1), Box(0.2, 0.4, 0.6), Sphere(0.0)]  # fmt: skip
    assert [type(s) for s in shapes] == [type(s) for s in expected]
    assert [s.__getstate__() for s in shapes] == [s.__getstate__() for s in expected]
    bare = MultibodyPlant(0.0)
    Parser(bare).AddModelsFromString(MJCF_SHAPES, "xml")
    M, M_bare = (p.GetBodyByName("b").default_spatial_inertia() for p in (plant, bare))
    assert M_bare.get_mass() == M.get_mass()
    assert M_bare.CopyToFullMatrix6().tolist() == M.CopyToFullMatrix6().tolist()
    with pytest.raises(RuntimeError, match="length must be finite and positive, got length = -0.4"):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(
            MJCF_SHAPES.replace('size="0.05 0.2"', 'size="0.05 -0.2"'), "xml"
        )


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # (2·1e308)
@pytest.mark.parametrize("diagonal", ["1 2 3", "-0 2 2", "1 2 -1", "1e308 1e300 1"])
def test_mjcf_diagonal_inertia_without_orientation_is_the_reexpressed_one(diagonal):
    """An inertial's diaginertia without orientation is taken as is: R·I·Rᵀ symmetrized,
    for R the identity, gives the same body inertia (or the same error) to the bit."""
    from mallard.multibody.tree._rotational_inertia import reexpress

    text = (
        '<mujoco model="m"><worldbody><body name="b"><inertial pos="0.1 0 0" mass="2" '
        f'diaginertia="{diagonal}"/></body></worldbody></mujoco>'
    )
    D = np.diag([float(x) for x in diagonal.split()])
    I = reexpress(np.eye(3), D)
    plant = MultibodyPlant(0.0)
    try:
        expected = SpatialInertia.MakeFromCentralInertia(2.0, [0.1, 0.0, 0.0], RotationalInertia(
            *I.ravel()[[0, 4, 8, 1, 2, 5]].tolist()))  # fmt: skip
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as raised:
            Parser(plant).AddModelsFromString(text, "xml")
        assert str(e) in str(raised.value)
        return
    Parser(plant).AddModelsFromString(text, "xml")
    M = plant.GetBodyByName("b").default_spatial_inertia()
    assert M.CopyToFullMatrix6().tobytes() == expected.CopyToFullMatrix6().tobytes()


def test_mjcf_orientations_in_floats_are_the_rotation_matrices_bits():
    # (Frames.rows: axisangle, xyaxes and zaxis in floats; the arrays' arithmetic as reference)
    from mallard.common._angle_axis import angle_axis_to_matrix
    from mallard.multibody.parsing._mujoco_geometry import Frames

    rng = np.random.default_rng(5)
    frames = Frames(Diagnostics())
    frames.degree = False
    for _ in range(100):
        v = rng.uniform(-2, 2, 6)
        text = " ".join(map(repr, v.tolist()))
        axis, angle = v[:3], v[3]
        node = parse_xml(f'<b axisangle="{" ".join(text.split()[:4])}"/>'.encode(), "f.xml")
        expected = angle_axis_to_matrix(angle, axis / np.sqrt(axis @ axis))
        assert _bits(frames.rows(node, "axisangle")) == _bits(expected.ravel())
        node = parse_xml(f'<b xyaxes="{text}"/>'.encode(), "f.xml")
        x = v[:3] / np.linalg.norm(v[:3])
        y = v[3:] - (x @ v[3:]) * x
        y = y / np.linalg.norm(y)
        z = np.cross(x, y)
        expected = np.column_stack([x, y, z / np.linalg.norm(z)])
        assert _bits(frames.rows(node, "xyaxes")) == _bits(expected.ravel())
        node = parse_xml(f'<b zaxis="{" ".join(text.split()[:3])}"/>'.encode(), "f.xml")
        expected = from_two_vectors((0.0, 0.0, 1.0), v[:3])
        assert _bits(frames.rows(node, "zaxis")) == _bits(expected.ravel())
    error = r"<literal-string>.urdf:1: error: RotationMatrix: the matrix has a NaN"
    with pytest.raises(RuntimeError, match=error):  # (y along x: 0/0, NaN as numpy divides)
        Parser(MultibodyPlant(0.0)).AddModelsFromString(
            '<mujoco model="m"><worldbody><body xyaxes="1 0 0 2 0 0"/></worldbody></mujoco>',
            "xml",
        )


MJCF_JOINTS = """<mujoco model="m"><compiler angle="radian"/>
<default><joint damping="0.5" range="-1 1"/></default><worldbody>
<body name="a"><joint name="ja" pos="0 0 0.1"/><geom size="0.1"/>
<body name="b"><joint name="j0" type="slide" axis="1 0 0" ref="0.1"/><joint name="j1"
range="-2 2" limited="false"/><joint name="j2" axis="0 1 1" ref="0.2"/><geom size="0.1"/>
<body name="c"><joint type="ball"/><geom size="0.1"/><body name="d"><geom size="0.1"/>
<body name="e"><freejoint/><geom size="0.1"/></body></body></body></body></body>
</worldbody></mujoco>"""


def _public_registration(monkeypatch):
    """Makes the MJCF parser add bodies and joints by the plant's public methods."""
    from mallard.multibody.parsing._mujoco import _MujocoParser

    def add_body(self, node, name, M_BBo_B):
        return self.plant.AddRigidBody(name, self.model_instance, M_BBo_B)

    def add_joint(self, joint_type, name, parent, X_PJ, child, X_CJ, axis, damping, lo, up):
        return self.plant.AddJoint(joint_type, name, parent, X_PJ, child, X_CJ, axis, lo, up,
                                   damping)  # fmt: skip

    monkeypatch.setattr(_MujocoParser, "add_body", add_body)
    monkeypatch.setattr(_MujocoParser, "add_joint", add_joint)


def _joint_values(plant):
    return [
        (j.name(), j.position_lower_limits().tolist(), j.position_upper_limits().tolist(),
         j.default_positions().tolist(), j.default_damping_vector().tolist(),
         j.frame_on_parent().GetFixedPoseInBodyFrame().GetAsMatrix34().tolist(),
         j.frame_on_child().GetFixedPoseInBodyFrame().GetAsMatrix34().tolist())
        for j in plant._joints
    ]  # fmt: skip


def test_mjcf_bodies_and_joints_added_at_once_as_the_plant_api_adds_them(monkeypatch):
    def parsed(text):
        plant = MultibodyPlant(0.0)
        Parser(plant).AddModelsFromString('<robot name="pre"><link name="a"/></robot>', "urdf")
        Parser(plant).AddModelsFromString(text, "xml")
        return plant

    at_once = parsed(MJCF_JOINTS)
    with monkeypatch.context() as patch:
        _public_registration(patch)
        public = parsed(MJCF_JOINTS)
    assert _registration(at_once) == _registration(public)
    assert _joint_values(at_once) == _joint_values(public)
    assert [j.name() for j in at_once._joints][:4] == ["ja", "j0", "j1", "j2"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('<body name="a"/>', "already contains a body named 'a'"),
        ('<body name="x"><joint name="ja"/></body>', "already contains a frame named 'ja_pa"),
        ('<body name="ja_parent"/>', "already contains a frame named 'ja_parent'"),
        ('<body name="q_child"/><body name="y"><joint name="q"/></body>', "frame named 'q_ch"),
        ('<body name="z"><joint range="1 -1"/></body>', "lower limits \\[1.0\\] must not exceed"),
    ],
)
def test_mjcf_elements_that_the_plant_rejects_give_its_errors(extra, message, monkeypatch):
    text = MJCF_JOINTS.replace("</worldbody>", f"{extra}</worldbody>")
    errors = []
    for public in (False, True):
        with monkeypatch.context() as patch:
            if public:
                _public_registration(patch)
            plant = MultibodyPlant(0.0)
            with pytest.raises(RuntimeError, match=message) as error:
                Parser(plant).AddModelsFromString(text, "xml")
            errors.append(str(error.value))
            assert plant.num_bodies() == 1 and plant.num_joints() == 0
    assert errors[0] == errors[1]


def _row_chain(n):
    """A URDF chain of ``n`` links that the bulk readers read (inertias, joints)."""
    inertial = (
        '<inertial><origin xyz="0 0 -0.25"/><mass value="2"/>'
        '<inertia ixx="0.02" iyy="0.03" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial>'
    )
    links = "".join(f'<link name="l{i}">{inertial}</link>' for i in range(n))
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        f'<origin xyz="0 0 -{i}"/><axis xyz="0 1 0"/>'
        '<limit lower="-2" upper="3" effort="10" velocity="5"/></joint>'
        for i in range(1, n)
    )
    return f'<robot name="r">{links}{joints}</robot>'


def test_urdf_elements_in_rows_read_copy_and_set_as_others():
    """Bodies, joint frames and joints that keep their row of the URDF parser's arrays (their
    inertia, pose and limits read from the row when asked): the getters give copies, the
    setters change what the element, Finalize and a Context then give."""
    from mallard.multibody.parsing._urdf_inertia import MIN_LINKS

    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(_row_chain(MIN_LINKS + 2), "urdf")
    body, joint = plant.GetBodyByName("l3"), plant.GetJointByName("j3")
    frame = joint.frame_on_parent()
    assert "_inertia_row" in vars(body)
    assert "_pose_row" in vars(frame) and "_limit_row" in vars(joint)
    com = body.default_com()
    com[:] = 7.0  # (a copy)
    np.testing.assert_array_equal(body.default_com(), [0, 0, -0.25])
    assert body.default_mass() == 2.0 and type(body.default_mass()) is float
    lower = joint.position_lower_limits()
    lower[:] = 9.0  # (a copy)
    assert joint.position_lower_limit() == -2.0 and joint.velocity_upper_limit() == 5.0
    assert joint.acceleration_lower_limits().tolist() == [-math.inf]
    joint.set_position_limits([-1.0], [1.0])
    assert (joint.position_lower_limit(), joint.position_upper_limit()) == (-1.0, 1.0)
    np.testing.assert_array_equal(frame.GetFixedPoseInBodyFrame().translation(), [0, 0, -3])
    plant.Finalize()
    assert plant.GetPositionLowerLimits()[joint.position_start()] == -1.0
    assert plant.GetPositionUpperLimits()[joint.position_start() + 1] == 3.0
    context = plant.CreateDefaultContext()
    M = body.CalcSpatialInertiaInBodyFrame(context)
    assert M.get_mass() == 2.0
    np.testing.assert_array_equal(M.get_com(), [0, 0, -0.25])
    np.testing.assert_array_equal(frame.GetPoseInParentFrame(context).translation(), [0, 0, -3])
    new = SpatialInertia.MakeFromCentralInertia(5.0, [0.1, 0, 0], RotationalInertia(1, 2, 3))
    body.SetSpatialInertiaInBodyFrame(context, new)
    assert body.CalcSpatialInertiaInBodyFrame(context).get_mass() == 5.0
    assert body.default_mass() == 2.0  # (the default unchanged)
    assert plant.CreateDefaultContext() is not None
    assert body.CalcSpatialInertiaInBodyFrame(plant.CreateDefaultContext()).get_mass() == 2.0


def test_elements_made_in_rows_at_once_have_the_fields_of_those_made_one_by_one():
    """RigidBody._in_rows, FixedOffsetFrame._in_rows and LimitedSingleDofJoint._all_checked
    (the URDF parser's elements of a document, made in one loop each) and
    BallRpyJoint._checked set the fields, in the order, that the constructors of one element
    set (their rows aside)."""
    from mallard.multibody.tree import BallRpyJoint, PrismaticJoint, RigidBody
    from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint

    plant = MultibodyPlant(0.0)
    instance = plant.AddModelInstance("m")
    rows = np.zeros((2, 13))
    made = RigidBody._in_rows(["a", "b"], instance, [(rows, 0), (rows, 1)])
    one = RigidBody._new("a", instance, SpatialInertia.Zero())
    for body in made:
        assert list(vars(body)) == [
            "_inertia_row" if name == "_M_BBo_B" else name for name in vars(one)
        ]
        assert list(vars(body._body_frame)) == list(vars(one._body_frame))
        assert body._body_frame._body is body and body._body_frame._name == body._name
    assert [body._inertia_row[1] for body in made] == [0, 1]
    a, b = made
    frames = FixedOffsetFrame._in_rows(
        ["f", "g"], [a._body_frame, b._body_frame], [(rows, 0), (rows, 1)], [instance] * 2
    )
    one = FixedOffsetFrame._new("f", a._body_frame, RigidTransform(), instance)
    for frame in frames:
        assert list(vars(frame)) == ["_pose_row" if n == "_X_PF" else n for n in vars(one)]
    assert frames[1]._body is b and frames[1]._parent_frame is b._body_frame
    axis = np.array([0.0, 0.0, 1.0])
    joints = LimitedSingleDofJoint._all_checked(
        [RevoluteJoint, PrismaticJoint], ["r", "p"], frames, [b._body_frame, a._body_frame],
        [axis, axis], [(rows, 0), (rows, 1)], [None, None],
    )  # fmt: skip
    limited = ("_pos_lower", "_pos_upper", "_vel_lower", "_vel_upper", "_acc_lower", "_acc_upper")
    for joint, cls in zip(joints, (RevoluteJoint, PrismaticJoint), strict=True):
        one = cls("r", frames[0], b._body_frame, axis)
        names = [n for n in vars(one) if n not in limited]
        names.insert(names.index("_frame_on_child") + 1, "_limit_row")
        assert type(joint) is cls and list(vars(joint)) == names
        for name in ("_default_damping", "_default_q", "_random_q", "_q_start", "_model_instance"):
            assert getattr(joint, name) is getattr(one, name)
    # (a damping given: an array of it, read-only, shared by the joints made at once with
    # that damping; the joint made alone keeps its own, read-only too)
    damped = LimitedSingleDofJoint._all_checked(
        [RevoluteJoint] * 3, ["d", "e", "f"], [frames[0]] * 3, [b._body_frame] * 3, [axis] * 3,
        [(rows, 0)] * 3, [0.5, 0.25, 0.5],
    )  # fmt: skip
    one = RevoluteJoint("d", frames[0], b._body_frame, axis, 0.5)
    assert [list(vars(joint)) for joint in damped] == [names] * 3
    assert damped[0]._default_damping.tolist() == one._default_damping.tolist() == [0.5]
    assert damped[1]._default_damping.tolist() == [0.25]
    assert damped[0]._default_damping is damped[2]._default_damping
    assert not damped[0]._default_damping.flags.writeable
    assert not one._default_damping.flags.writeable
    damped[0].set_default_damping(2.0)  # (a setter replaces the array, never writes it)
    assert damped[0].default_damping() == 2.0 and damped[2].default_damping() == 0.5
    ball = BallRpyJoint._checked("b", frames[0], b._body_frame, 0.5)
    one = BallRpyJoint("b", frames[0], b._body_frame, 0.5)
    assert list(vars(ball)) == list(vars(one))
    for name, value in vars(one).items():
        if isinstance(value, np.ndarray):
            assert getattr(ball, name).tobytes() == value.tobytes()
            assert getattr(ball, name).flags.writeable == value.flags.writeable
        else:
            assert getattr(ball, name) is value or getattr(ball, name) == value


def test_urdf_joints_read_at_once_warn_where_parse_joint_warns(monkeypatch, caplog):
    """A joint read at once that parse_joint warns of gives its warnings where parse_joint
    gives them: its unsupported children's before the error of a missing link, its dynamics'
    after it (here, never)."""
    from mallard.multibody.parsing import _urdf
    from mallard.multibody.parsing._urdf_joints import MIN_JOINTS

    ignored = ' drake_ignore="true"'  # (l3: parse_joint's error for j3)
    links = "".join(
        f'<link name="l{i}"{ignored if i == 3 else ""}/>' for i in range(MIN_JOINTS + 1)
    )
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        + (
            '<calibration rising="0"/><dynamics friction="0.5" coulomb_window="1"/>'
            if i == 3
            else ""
        )
        + "</joint>"
        for i in range(1, MIN_JOINTS + 1)
    )
    text = f'<robot name="r">{links}{joints}</robot>'

    def parsed():
        caplog.clear()
        with caplog.at_level("WARNING", logger="mallard.parsing"):
            with pytest.raises(RuntimeError, match="Could not find link named 'l3'") as error:
                Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "urdf")
        return str(error.value), [r.getMessage() for r in caplog.records]

    fast = parsed()
    monkeypatch.setattr(_urdf, "joint_values", lambda joints, firsts: ([None] * len(joints), []))
    assert fast == parsed()
    assert len(fast[1]) == 1 and "calibration" in fast[1][0]


def test_read_returns_the_file_bytes(tmp_path):
    """_workspace.read_file (os.read into one buffer): the bytes open().read() gives, for an empty
    file, a small one and one larger than a read's usual chunk."""
    for size in (0, 1, 100, 3 * 2**20 + 7):
        path = tmp_path / f"f{size}"
        path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        assert read_file(str(path)) == path.read_bytes()
    with pytest.raises(FileNotFoundError):
        read_file(str(tmp_path / "missing"))
