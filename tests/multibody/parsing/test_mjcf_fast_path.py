"""The MJCF reader's fast path (_mjcf_fast) against its element reader (_mujoco): for every
MJCF document of the tests (the models of tests/multibody/parsing/mjcf, the conformance
tests' feature documents, the benchmark's robots of several sizes and seeds) and seeded
mutations of them (numbers, names, classes, structure), either the fast path declines or the
plant it makes equals the reader's to the bit (bodies, frames, joints, actuators, inertias,
limits, gains, floating poses, the warnings and Finalize's mass matrix), and the Parser's
outcome (a plant or the reader's located error) is the reader's."""

import logging
import math
import os
import random
import re
import shutil
import sys

import pytest

from mallard.multibody.parsing import Parser, _mjcf_fast, _scan_gate
from mallard.multibody.plant import MultibodyPlant
from tests.multibody.parsing.fast_path import check
from tests.multibody.parsing.test_mujoco import _mutants

HERE = os.path.dirname(__file__)
MODELS = os.path.join(HERE, "mjcf")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "benchmarks"))
import parsing as benchmark  # noqa: E402


def _with_a_model(plant):
    """A plant that already holds a model: numbers and names shift."""
    Parser(plant, "first").AddModelsFromString(benchmark.robot_mjcf(3), "xml")


def _check(add, monkeypatch):
    """check() with the document read into expat's tables (MIN_BYTES past any document) and
    into the compiled scan's (MIN_BYTES 0): each the reader's outcome, the same documents
    accepted."""
    accepted = []
    monkeypatch.setattr(_scan_gate, "READER_FIRST", 0)  # (the scan from the first document)
    for gate in (math.inf, 0):
        monkeypatch.setattr(_mjcf_fast, "MIN_BYTES", gate)
        accepted.append(check(_mjcf_fast, "MIN_BODIES", add, monkeypatch, before=_with_a_model))
    assert accepted[0] == accepted[1]
    return accepted[1]


def _string(text):
    return lambda parser: parser.AddModelsFromString(text, "xml")


def _edited(text, old, new, count=1):
    """_string of ``text`` (which holds ``old``) with ``old`` replaced by ``new`` (the first
    ``count`` times; -1: everywhere)."""
    assert old in text
    return _string(text.replace(old, new, count))


def _robot(n, seed=24):
    """The benchmark's robot of ``n`` bodies, of its generator's seed ``seed``."""
    Random = random.Random
    benchmark.random.Random = lambda _: Random(seed)
    try:
        return benchmark.robot_mjcf(n)
    finally:
        benchmark.random.Random = Random


@pytest.fixture(autouse=True)
def _no_logging_output():
    logging.disable(logging.NOTSET)
    yield


@pytest.mark.parametrize("n", [2, 5, 12, 30, 200])
def test_the_benchmark_robot_is_read_by_the_fast_path_to_the_bit(n, monkeypatch):
    assert _check(_string(benchmark.robot_mjcf(n)), monkeypatch)


def test_robots_of_other_seeds(monkeypatch):
    accepted = [_check(_string(_robot(3 + seed % 40, seed)), monkeypatch) for seed in range(40)]
    assert all(accepted)


MESHES = os.path.join(MODELS, "meshes")
_ASSETS = (
    '<asset><texture name="grid" type="2d" builtin="checker" width="64" height="64"/>'
    '<material name="red" rgba="0.9 0.1 0.1 1" specular="0.3"/>'
    '<material name="grid" texture="grid" texrepeat="2 2"/>'
    '<mesh name="small" file="wedge.obj" scale="0.1 0.05 0.2"/><mesh file="wedge.obj"/>'
    "</asset>"
)


def with_assets(text, meshdir=MESHES):
    """The benchmark robot's document ``text`` with Menagerie-style assets (a texture,
    materials, two meshes of one .obj file, ``meshdir`` given) used by its geoms: a material
    on every third visual geom, and two mesh geoms (one weighed at a density, one visual in
    the grid material) in every fifth body."""
    text = text.replace('<compiler angle="radian"',
                        f'<compiler meshdir="{meshdir}" angle="radian"', 1)  # fmt: skip
    text = text.replace("<worldbody>", _ASSETS + "<worldbody>", 1)
    visuals = text.split('<geom class="visual"')
    text = visuals[0] + "".join(
        ('<geom class="visual" material="red"' if k % 3 == 0 else '<geom class="visual"') + part
        for k, part in enumerate(visuals[1:])
    )
    bodies = re.split(r"(<body [^>]*[^/]>\n)", text)
    for k in range(1, len(bodies), 10):
        bodies[k] += ('<geom type="mesh" mesh="small" pos="0.01 0 0.02" euler="0.1 0.2 0.3" '
                      'density="800"/>\n<geom class="visual" type="mesh" mesh="wedge" '
                      'material="grid"/>\n')  # fmt: skip
    return "".join(bodies)


@pytest.mark.parametrize("n", [12, 30, 200])
def test_the_robot_with_assets_is_read_by_the_fast_path_to_the_bit(n, monkeypatch):
    text = with_assets(benchmark.robot_mjcf(n))
    assert text.count('type="mesh"') >= 2 and text.count('material="red"') >= 1
    assert _check(_string(text), monkeypatch)


def test_mesh_assets_resolved_as_the_reader_resolves_them(monkeypatch, tmp_path):
    """A file's meshdir relative to its directory, assetdir, a mesh class's scale, a
    mesh without a name (its file's), the texture's warning; a missing file or a mesh not
    .obj is the reader's error."""
    os.symlink(MESHES, tmp_path / "assets")
    text = with_assets(benchmark.robot_mjcf(30), "assets")
    for variant in (
        text,
        text.replace("meshdir=", "assetdir="),
        text.replace('scale="0.1 0.05 0.2"', 'class="small"').replace(
            '<default class="robot">', '<default class="small"><mesh scale="0.2 0.1 0.1"/>'
            '</default><default class="robot">'),
        text.replace('mesh="wedge"', 'mesh="wedge" rgba="0 1 0 1"', 1),
        text.replace('file="wedge.obj"/>', 'file="missing.obj"/>'),
        text.replace('name="small" file="wedge.obj"', 'name="small" file="wedge.stl"'),
        text.replace('mesh="small"', 'mesh="unknown"', 1),
        text.replace('<material name="red"', "<material"),
    ):  # fmt: skip
        path = tmp_path / "robot.xml"
        path.write_text(variant)
        _check(lambda parser, path=str(path): parser.AddModels(path), monkeypatch)
    path.write_text(text)
    assert _check(lambda parser: parser.AddModels(str(path)), monkeypatch)


def with_includes(text, directory):
    """The path of the document ``text`` (a robot with_assets) written to ``directory`` as
    Menagerie splits a model: the main file's ``<default>`` in one included file, its assets'
    contents in another (included in ``<asset>``), its World and actuators in a third that
    includes a fourth (the actuators: includes nest, each relative to the main file)."""
    head, rest = text.split("<default>", 1)
    defaults, rest = rest.split("<asset>", 1)
    assets, rest = rest.split("</asset>", 1)
    world, actuators = rest.split("<actuator>", 1)
    files = {
        "defaults.xml": f"<mujoco>\n<default>{defaults}</mujoco>",
        "assets.xml": f"<mujoco>\n{assets}\n</mujoco>",
        "world.xml": f'<mujoco>{world}\n<include file="parts/actuators.xml"/></mujoco>',
        "parts/actuators.xml": f"<mujoco>\n\n<actuator>{actuators}",
        "main.xml": head + '<include file="defaults.xml"/>\n<asset>\n<include file="assets.xml"/>'
                    '</asset>\n<include file="world.xml"/>\n</mujoco>',
    }  # fmt: skip
    os.makedirs(os.path.join(directory, "parts"), exist_ok=True)
    for name, content in files.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(content)
    return os.path.join(directory, "main.xml")


@pytest.mark.parametrize("n", [30, 200])
def test_the_robot_split_by_includes_is_read_by_the_fast_path_to_the_bit(n, monkeypatch,
                                                                          tmp_path):  # fmt: skip
    path = with_includes(with_assets(benchmark.robot_mjcf(n)), tmp_path)
    assert _check(lambda parser: parser.AddModels(path), monkeypatch)


def test_includes_the_fast_path_declines(monkeypatch, tmp_path):
    """A missing file, an include without a file or with a child, a string's includes (from
    the working directory): the reader's outcome (its error, or its plant)."""
    path = with_includes(with_assets(benchmark.robot_mjcf(30)), tmp_path)
    with open(path) as f:
        main = f.read()
    for variant in (
        main.replace("assets.xml", "missing.xml"),
        main.replace('file="defaults.xml"', ""),
        main.replace('<include file="world.xml"/>', '<include file="world.xml"><body/></include>'),
        main.replace('"world.xml"', '"world.xml" extra="1"'),
    ):  # fmt: skip
        with open(path, "w") as f:
            f.write(variant)
        _check(lambda parser: parser.AddModels(path), monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert _check(_string(main), monkeypatch)


def test_mutated_included_files(monkeypatch, tmp_path):
    """Mutations (as test_mutated_documents') of the included file of the robot's World."""
    rng = random.Random(7)
    path = with_includes(with_assets(benchmark.robot_mjcf(30)), tmp_path)
    world = os.path.join(tmp_path, "world.xml")
    with open(world) as f:
        text = f.read()
    accepted = []
    for _ in range(40):
        with open(world, "w") as f:
            f.write(_mutate(text, rng))
        accepted.append(_check(lambda parser: parser.AddModels(path), monkeypatch))
    assert 0 < sum(accepted) < len(accepted)


def with_equalities(text):
    """The benchmark robot's document ``text`` with an ``<equality>`` (of a
    ``<default>`` class too): connects between bodies and to World, a weld and a joint
    coupling (ignored with Drake's warnings), a site connect (ignored with its warning)."""
    a, b, c, d = re.findall(r'<body name="([^"]+)"', text)[1:5]
    text = text.replace("<default>", '<default><default class="eq"><equality anchor="0 0.1 0" '
                        'solref="0.02 1"/></default>', 1)  # fmt: skip
    return text.replace("</mujoco>", (
        f'<equality><connect body1="{a}" body2="{b}" anchor="0.1 0 0.05"/>'
        f'<weld body1="{a}"/><connect name="c" body1="{c}" anchor="0 0 0.2"/>'
        f'<joint joint1="j"/><connect class="eq" body1="{d}" body2="{c}"/>'
        '<connect site1="s1" site2="s2"/></equality></mujoco>'))  # fmt: skip


@pytest.mark.parametrize("n", [12, 30, 200])
def test_the_robot_with_equalities_is_read_by_the_fast_path_to_the_bit(n, monkeypatch):
    text = with_equalities(benchmark.robot_mjcf(n))
    assert _check(_string(text), monkeypatch)


def test_equalities_the_reader_refuses(monkeypatch):
    """A connect of an unknown body, without an anchor, with body1 and site1, without either,
    of one body to itself: the reader's error (the fast path declined)."""
    text = with_equalities(benchmark.robot_mjcf(30))
    a = re.findall(r'<body name="([^"]+)"', text)[1]
    for old, new in (
        (f'body1="{a}"', 'body1="nobody"'),
        ('anchor="0.1 0 0.05"', ""),
        ('site1="s1"', f'body1="{a}" site1="s1"'),
        ('site1="s1" site2="s2"', ""),
        ('site1="s1" site2="s2"', f'body1="{a}" body2="{a}" anchor="0 0 0"'),
        ('anchor="0.1 0 0.05"', 'anchor="0.1 nan 0.05"'),
    ):  # fmt: skip
        assert not _check(_edited(text, old, new), monkeypatch)


#: Edits of the 30-body robot that Drake warns of (attributes it ignores), in elements and in
#: defaults: the fast path reads them and logs the reader's warnings.
_WARNED = {
    "option": ("<compiler ",
               '<option timestep="0.002" cone="elliptic" gravity="0 0 -9"/><compiler '),
    "joint default": ('<joint axis="0 1 0" damping="0.5"',
                      '<joint axis="0 1 0" frictionloss="0.1" user="1" damping="0.5"'),
    "body": ('<body name="limb0_1"', '<body gravcomp="1" mocap="false" name="limb0_1"'),
    "motor default": ('<motor ctrlrange="-1 1"/>',
                      '<motor ctrlrange="-1 1" user="3" dyntype="none"/>'),
    "position default": ('kv="1"/>', 'kv="1" dampratio="1" group="2"/>'),
    "geom default": ('<geom friction="0.8"',
                     '<geom fluidshape="ellipsoid" user="1" friction="0.8"'),
    "worldbody": ("<worldbody>", '<worldbody user="1">'),
    # (Drake's warnings of the fast path's own reading: ranges, looks)
    "asymmetric ctrlrange": ('<motor ctrlrange="-1 1"/>', '<motor ctrlrange="-1 2"/>'),
    "reversed forcerange": ('<motor ctrlrange="-1 1"/>',
                            '<motor ctrlrange="-1 1" forcerange="2 -3"/>'),
    "both ranges": ('<position ctrlrange="-2 2" kv="1"/>',
                    '<position ctrlrange="0 3" forcerange="-1 0.5" kv="1"/>'),
    "ball range": ('<joint name="limb0_1_j0"',
                   '<joint type="ball" range="0 1" limited="true"/><joint name="limb0_1_j0"'),
    "free range": ('<freejoint name="root"/>',
                   '<joint name="root" type="free" damping="0" range="0 1"/>'),
    "torsional friction": ('<geom friction="0.8"', '<geom friction="0.8 0.1"'),
    "condim": ('<geom class="collision" name="torso_g1"',
               '<geom class="collision" condim="4" name="torso_g1"'),
    "contype": ('<geom class="visual" type=', '<geom class="visual" contype="2" type='),
    "unknown material": ('<geom class="visual" type=', '<geom class="visual" material="m" type='),
}  # fmt: skip


@pytest.mark.parametrize("edit", _WARNED, ids=str)
def test_drakes_warnings_of_ignored_attributes(edit, monkeypatch):
    assert _check(_edited(benchmark.robot_mjcf(30), *_WARNED[edit]), monkeypatch)


@pytest.mark.parametrize(
    "variant",
    ["plain", "declaration and comments", "CDATA", "Windows line ends", "DOCTYPE"],
)
def test_the_lines_of_warnings(variant, monkeypatch):
    """Warnings of elements whose lines are found when asked (Tables.line: by the start
    tags' offsets, or by expat where that scan cannot tell) carry the reader's lines: with an
    XML declaration and comments holding tags, a CDATA section, Windows line ends, a
    DOCTYPE."""
    old, new = _WARNED["joint default"]
    text = benchmark.robot_mjcf(30).replace(old, new, 1)
    if variant == "declaration and comments":
        text = ('<?xml version="1.0"?>\n<!-- <body name="x"> -->\n' + text).replace(
            "<worldbody>", "<worldbody><!-- a\n<joint/>\n -->\n<?pi <geom/> ?>", 1
        )
    elif variant == "CDATA":
        text = text.replace("<actuator>", "<actuator><![CDATA[\n<motor/>\n]]>", 1)
    elif variant == "Windows line ends":
        text = text.replace("\n", "\r\n")
    elif variant == "DOCTYPE":
        text = '<?xml version="1.0"?>\n<!DOCTYPE mujoco [\n<!ELEMENT mujoco ANY>\n]>\n' + text
    assert _check(_string(text), monkeypatch)


#: Defaults that the columns read as the reader's merged dicts do: a default's orientation
#: (kept where a geom sets none, dropped where it sets one), a default's pos, size, mass and
#: type, a nested class's, a class named by a childclass, a class that does not exist.
_DEFAULTED = {
    "orientation": ('<geom contype="0"', '<geom quat="0.9 0.1 0.2 0.3" pos="0.01 0 0" contype="0"'),
    "shape": ('<geom group="3"', '<geom type="box" size="0.05 0.04 0.03" mass="0.7" group="3"'),
    "joint": ('<joint axis="0 0 1"', '<joint axis="0 0 1" pos="0 0.01 0" ref="0.1"'),
    "unknown class": ('<geom class="visual"', '<geom class="none"'),
    "childclass": ('<body name="limb0_1"', '<body childclass="visual" name="limb0_1"'),
}  # fmt: skip


@pytest.mark.parametrize("edit", sorted(_DEFAULTED))
def test_defaults_read_by_columns(edit, monkeypatch):
    assert _check(_edited(benchmark.robot_mjcf(60), *_DEFAULTED[edit], -1), monkeypatch)


#: Actuators read by columns (motors and positions, each kind with its class defaults): a
#: class without actuator defaults, an actuator's own unsupported attribute and flag beside
#: its default's range, a position's kd and a 6-number gear, an unnamed actuator (Drake's
#: motor name), two ``<actuator>``s interleaving motors and positions (the reader's order).
_ACTUATORS = {
    "class without defaults": ('<motor class="robot" name="a_limb0_0_j0"',
                               '<motor class="hip" name="a_limb0_0_j0"'),
    "own attributes": ('<motor class="robot" name="a_limb0_0_j1"',
                       '<motor user="1" ctrllimited="false" forcerange="-4 2" class="robot" '
                       'name="a_limb0_0_j1"'),
    "kd and a gear of six": ('<position class="robot" name="a_limb0_1_j0"',
                             '<position kd="3" gear="2 0 0 0 0 1" class="robot" '
                             'name="a_limb0_1_j0"'),
    "unnamed": ('name="a_limb0_2_j0" ', ""),
    "two sections": ('<motor class="robot" name="a_limb0_3_j0"',
                     '</actuator><actuator><motor class="robot" name="a_limb0_3_j0"'),
}  # fmt: skip


@pytest.mark.parametrize("edit", sorted(_ACTUATORS))
def test_actuators_read_by_columns(edit, monkeypatch):
    assert _check(_edited(benchmark.robot_mjcf(60), *_ACTUATORS[edit]), monkeypatch)


@pytest.mark.parametrize(
    "late",
    [
        '<joint name="late" axis="1 0 0"/><geom type="sphere" size="0.05"/>',
        '<inertial mass="1" diaginertia="0.1 0.1 0.1"/><geom type="box" size="0.1 0.1 0.1"/>',
        "<freejoint/>",
    ],
)
def test_elements_after_a_nested_body(late, monkeypatch):
    """A body's joints, geoms, inertial or freejoint after its nested body: read by body, each
    body's in document order (as the reader reads them), or the reader's outcome."""
    text = benchmark.robot_mjcf(60)
    _check(_string(text.replace("</body>", "</body>" + late, 1)), monkeypatch)


def test_the_robot_in_degrees(monkeypatch):
    """Angles in degrees: the hinges' ranges and refs, the Euler and axis-angle orientations
    converted as the reader converts them (slides' ranges not)."""
    text = benchmark.robot_mjcf(60).replace('angle="radian"', 'angle="degree"', 1)
    assert 'angle="degree"' in text
    assert _check(_string(text), monkeypatch)


def _model_files():
    return sorted(os.path.join(MODELS, f) for f in os.listdir(MODELS) if f.endswith(".xml"))


@pytest.mark.parametrize("path", _model_files(), ids=os.path.basename)
def test_the_test_models(path, monkeypatch):
    _check(lambda parser: parser.AddModels(path), monkeypatch)


def test_which_test_models_the_fast_path_reads(monkeypatch):
    """It reads the models Drake reads without warnings of what the fast path declines."""
    accepted = {
        os.path.basename(p): _check(lambda parser, p=p: parser.AddModels(p), monkeypatch)
        for p in _model_files()
    }
    assert accepted == {
        "arm_gripper.xml": True,  # (an asymmetric ctrlrange: Drake's warning)
        "cartpole.xml": True,
        "hand.xml": True,  # (a ball joint's range, torsional friction: Drake's warnings)
        "humanoid.xml": True,
        "quadruped.xml": True,  # (an asymmetric ctrlrange: Drake's warning)
        "quadruped_assets.xml": False,  # (no <worldbody>: no bodies)
    }


def test_the_arm_with_a_symmetric_gripper_range_is_read_by_the_fast_path(monkeypatch, tmp_path):
    """arm_gripper.xml (meshes in a meshdir, a material, classes, an <equality>) without its
    one warning the fast path declines (an asymmetric ctrlrange)."""
    shutil.copytree(MODELS, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "arm_gripper.xml"
    text = path.read_text()
    assert 'ctrlrange="0 0.04"' in text
    path.write_text(text.replace('ctrlrange="0 0.04"', 'ctrlrange="-0.04 0.04"'))
    assert _check(lambda parser: parser.AddModels(str(path)), monkeypatch)


def test_the_conformance_feature_documents(monkeypatch):
    pytest.importorskip("pydrake")
    from tests.conformance.test_parsing_mjcf import CASES

    accepted = {name: _check(_string(text), monkeypatch) for name, text in CASES.items()}
    assert any(accepted.values())


def test_small_documents_and_declined_tags_take_the_element_reader_unread(monkeypatch):
    """Documents of fewer than MIN_BODIES bodies, or with a tag the fast path declines
    wherever it is (a tendon...), are not read into tables."""
    calls, inner = [], _mjcf_fast._parse
    monkeypatch.setattr(_mjcf_fast, "_parse", lambda *a: calls.append(1) or inner(*a))
    Parser(MultibodyPlant(0.0)).AddModelsFromString(_robot(_mjcf_fast.MIN_BODIES - 1), "xml")
    assert calls == []
    text = _robot(_mjcf_fast.MIN_BODIES)
    with_tendon = text.replace("<worldbody>", '<tendon><fixed name="t"/></tendon>'
                                             "<worldbody>")  # fmt: skip
    Parser(MultibodyPlant(0.0)).AddModelsFromString(with_tendon, "xml")
    assert calls == []
    Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "xml")
    assert calls == [1]


def test_classes_no_default_defines(monkeypatch):
    """Elements of a class no ``<default>`` defines, of a kind no class gives defaults (the
    positions, the joints): read as of none, as the reader reads them (the scan's class lookup
    over no class names)."""
    text = _ACTUATED.format(gear="3", kp="50", more="")
    start, end = text.index('<default class="arm">'), text.index("</default>") + len("</default>")
    assert _check(_string(text[:start] + text[end:]), monkeypatch)


def test_large_documents_with_declined_tags_or_few_bodies_are_declined_once_scanned(
    monkeypatch,
):
    """On the compiled scan's path (a large document: no tag count before), a tag the fast
    path declines wherever it is (a tendon or a camera, which the scan's tables hold; a
    sensor, which they do not) or fewer than MIN_BODIES bodies decline the document once
    scanned; the reader reads it."""
    monkeypatch.setattr(_scan_gate, "READER_FIRST", 0)
    calls, inner = [], _mjcf_fast._parse
    monkeypatch.setattr(_mjcf_fast, "_parse", lambda *a: calls.append(1) or inner(*a))
    text = benchmark.robot_mjcf(200)
    few = _robot(_mjcf_fast.MIN_BODIES - 1).replace("<worldbody>", "<worldbody>" + " " * 40000)
    documents = [
        text.replace("<worldbody>", f"{extra}<worldbody>")
        for extra in ('<tendon><fixed name="t"/></tendon>', "<sensor/>")
    ] + [text.replace("<worldbody>", '<worldbody><camera name="c"/>'), few]
    for document in documents:
        assert len(document) >= _mjcf_fast.MIN_BYTES
        plant = MultibodyPlant(0.0)
        Parser(plant).AddModelsFromString(document, "xml")
        assert plant.num_bodies() > 1
    assert calls == []
    Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "xml")
    assert calls == [1]


def test_a_scene_graph_and_strict_parsing_take_the_element_reader(monkeypatch):
    """With a SceneGraph the fast path is not tried; with strict parsing it declines a
    document that warns, and the reader raises the warning as its error."""
    from mallard.geometry import SceneGraph

    calls, inner = [], _mjcf_fast._parse
    monkeypatch.setattr(_mjcf_fast, "_parse", lambda *a: calls.append(1) or inner(*a))
    Parser(MultibodyPlant(0.0), SceneGraph()).AddModelsFromString(benchmark.robot_mjcf(5), "xml")
    assert calls == []
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.SetStrictParsing()
    with pytest.raises(RuntimeError, match=r":14: error: The tag 'light' found as a child of "):
        parser.AddModelsFromString(benchmark.robot_mjcf(30), "xml")
    assert calls == [1] and plant.num_model_instances() == 2


#: The number attributes the fuzz replaces, and the texts it puts there (U7's).
_FUZZED = ("pos", "quat", "euler", "axisangle", "range", "diaginertia", "fullinertia", "mass",
           "fromto", "kp", "kd", "axis", "damping", "armature", "density", "gear", "size",
           "ctrlrange", "xyaxes", "scale", "anchor")  # fmt: skip
_TEXTS = ("1 2", "abc", "1 x 3", "nan", "1e999", "", "0 0 0 0", "1,2,3", "+-1",
          "1 2 3 4 5 6 7", "0.5", "-0", "1e-400", "0 0 0", "inf", "1_0", "1. 2. 3.",
          ".5 .5 .5 .5", "2 1", "-1", "0", "1 0 0 0 0 0")  # fmt: skip
_ATTRIBUTE = re.compile(r'\b(\w+)="([^"]*)"')
_NAMED = re.compile(
    r'\b(name|class|childclass|joint|type|mesh|material|file|body1|body2|site1)="([^"]*)"'
)


def _mutate(text, rng):
    """``text`` with one to three of: a number attribute given one of _TEXTS; a name, class,
    joint or type given another's text (or dropped); an element dropped or duplicated; an
    attribute or element the fast path does not read added."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        what = rng.randrange(5)
        if what == 0:
            spots = [m for m in _ATTRIBUTE.finditer(text) if m.group(1) in _FUZZED]
            spot = rng.choice(spots)
            text = text[: spot.start(2)] + rng.choice(_TEXTS) + text[spot.end(2) :]
        elif what == 1:
            spots = list(_NAMED.finditer(text))
            spot, other = rng.choice(spots), rng.choice(spots)
            if rng.random() < 0.3:
                text = text[: spot.start()] + text[spot.end() :]
            else:
                text = text[: spot.start(2)] + other.group(2) + text[spot.end(2) :]
        elif what == 2:
            lines = text.splitlines()
            k = rng.randrange(len(lines))
            if "/>" in lines[k] and "<" in lines[k]:
                lines.insert(k, lines[k]) if rng.random() < 0.5 else lines.pop(k)
            text = "\n".join(lines)
        elif what == 3:
            spots = list(re.finditer(r"<(body|joint|geom|motor|position|inertial) ", text))
            spot = rng.choice(spots)
            extra = rng.choice((
                'gravcomp="1" ', 'frictionloss="0.1" ', 'margin="0.01" ', 'ref="0.1" ',
                'limited="false" ', 'limited="true" ', 'ctrllimited="false" ',
                'euler="0 0 1" ', 'group="1" ',
            ))  # fmt: skip
            text = text[: spot.end()] + extra + text[spot.end() :]
        else:
            spots = [m.end() for m in re.finditer(r"<body [^>]*[^/]>", text)]
            at = rng.choice(spots)
            extra = rng.choice((
                '<camera name="c"/>', '<site name="s"/>', '<light/>',
                '<joint name="x" type="free"/>', '<freejoint/>',
                '<inertial mass="1" diaginertia="1 1 1"/>', '<joint type="ball" range="0 1"/>',
                '<geom size="0.1"/>',
            ))  # fmt: skip
            text = text[:at] + extra + text[at:]
    return text


@pytest.mark.parametrize("seed", range(4))
def test_mutated_documents(seed, monkeypatch):
    """Each mutation of the robots of 12 and 30 bodies: the fast path declines it, or makes
    the reader's plant and warnings; the outcome is the reader's (its plant or its error)."""
    rng = random.Random(seed)
    documents = [benchmark.robot_mjcf(12), benchmark.robot_mjcf(30)]
    accepted = [_check(_string(_mutate(rng.choice(documents), rng)), monkeypatch)
                for _ in range(60)]  # fmt: skip
    assert 0 < sum(accepted) < len(accepted)


@pytest.mark.parametrize("seed", range(2))
def test_mutated_documents_with_assets(seed, monkeypatch):
    """The same for the robots of 12 and 30 bodies with assets (with_assets; the 30-body one
    with equalities): materials, meshes, their files, names and scales, the constraints'
    bodies and anchors mutated too."""
    rng = random.Random(seed)
    documents = [with_assets(benchmark.robot_mjcf(12)),
                 with_equalities(with_assets(benchmark.robot_mjcf(30)))]  # fmt: skip
    accepted = [_check(_string(_mutate(rng.choice(documents), rng)), monkeypatch)
                for _ in range(60)]  # fmt: skip
    assert 0 < sum(accepted) < len(accepted)


@pytest.mark.parametrize("name", ["cartpole", "arm_gripper"])
def test_mutants_of_the_test_models(name, monkeypatch):
    with open(os.path.join(MODELS, f"{name}.xml")) as f:
        text = f.read()
    mutants = list(_mutants(text))
    for _, mutant in mutants[:: max(1, len(mutants) // 80)]:
        _check(_string(mutant), monkeypatch)


#: Actuators and joints of every kind the fast path makes in bulk (W2): motors unnamed
#: (Drake's motor names) and named, gears of 1 and 6 values, armatures, ctrlrange and
#: forcerange (limited and not), positions with kp and kd, kp = kd = 0 (no controller) and
#: kd alone; a weld between two moving joints, chained joints (a massless body), a ball
#: joint, slides and hinges with ref, a nested floating body. ``{...}`` marks the edits.
_ACTUATED = """<mujoco model="actuated"><compiler angle="radian" autolimits="true"/>
<default><joint damping="0.1"/>
<default class="arm"><joint armature="0.01" range="-2 2"/><position kp="30" kd="2"/></default>
</default>
<worldbody><body name="base" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/>
<body name="a" pos="0.1 0 0" childclass="arm"><joint name="ja" axis="0 0 1" ref="0.2"/>
<geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0"/>
<body name="b" pos="0.2 0 0" euler="0.1 0.2 0.3"><joint name="jb1" axis="0 1 0" pos="0 0 0.01"/>
<joint name="jb2" type="slide" axis="1 0 0" ref="0.05" range="-0.1 0.1"/>
<geom type="sphere" size="0.05"/>
<body name="w" pos="0.1 0 0"><geom type="cylinder" size="0.02 0.05"/>
<body name="d" pos="0 0 0.1"><joint name="jd" axis="1 0 0" damping="0"/>
<geom type="sphere" size="0.05"/></body></body></body></body>
<body name="e" pos="0 0.2 0"><joint name="je" type="slide" axis="0 0 1" armature="0.2"/>
<geom type="ellipsoid" size="0.05 0.04 0.03"/>
<body name="c" pos="0 0.1 0"><joint name="jc" type="ball"/><geom type="sphere" size="0.05"/>
</body>
<body name="f" pos="0 0 0.1" quat="0.9 0.1 0 0"><freejoint name="ff"/>
<geom type="sphere" size="0.05"/></body></body></body></worldbody>
<actuator><motor joint="ja" gear="{gear}" ctrlrange="-1 1"/>
<motor name="m_jb1" joint="jb1" gear="2 0 0 0 0 0" forcerange="-3 3" forcelimited="true"/>
<position class="arm" name="p_jb2" joint="jb2" ctrlrange="-0.5 0.5" ctrllimited="false"/>
<position name="p_jd" joint="jd" kp="{kp}" kd="0"/>
<position name="p_je" joint="je" kp="0" kd="4"/>{more}</actuator></mujoco>"""


#: Effort limits of the actuators (all of them at once: _effort_limits): a range reversed
#: (ignored, Drake's warning), ranges not symmetric (the larger magnitude, a warning each),
#: a range not limited beside one limited, a limit below an earlier one, a flag without a
#: range (limit 0: AddJointActuator's error), a flag the reader refuses, and two <actuator>s
#: (the reader's order: each one's motors, then its positions).
_LIMITED = [
    {"more": '<motor name="r1" joint="jd" ctrlrange="2 1"/>'},
    {"more": '<motor name="r2" joint="jd" ctrlrange="-1 2" forcerange="-3 1"/>'},
    {
        "more": '<motor name="r3" joint="jd" ctrlrange="-1 1" ctrllimited="false" '
        'forcerange="-2 2" forcelimited="true"/>'
    },
    {"more": '<motor name="r4" joint="jd" ctrlrange="-5 5" forcerange="-2 2"/>'},
    {"more": '<motor name="r5" joint="jd" ctrllimited="true"/>'},
    {"more": '<motor name="r6" joint="jd" ctrlrange="-1 1" ctrllimited="maybe"/>'},
    {
        "more": '</actuator><actuator><position name="r7" joint="ja" kp="5" ctrlrange="-1 3"/>'
        '<motor name="r8" joint="jd" ctrlrange="-3 3"/>'
    },
]


@pytest.mark.parametrize(
    "edit",
    [
        {},  # (read by the fast path)
        {"more": '<motor joint="je"/>'},  # (an unnamed motor after named ones: motor5)
        {"kp": "0"},  # (kp = kd = 0: no controller)
        {"gear": "0"},  # (a zero gear with an armature: the reader's error)
        {"kp": "-1"},  # (negative gains: set_controller_gains' error)
        {"more": '<motor name="p_je" joint="ja"/>'},  # (an actuator name taken)
        {"more": '<motor name="motor3" joint="je"/>'},  # (the first motor's name: _outcome's
        # first model has three actuators)
        {"more": '<motor joint="jc"/>'},  # (a ball joint: not single-dof)
        {"more": '<motor joint="ja" forcerange="0 0" forcelimited="true"/>'},  # (limit 0)
        *_LIMITED,
    ],
    ids=str,
)
def test_actuators_and_joints_made_in_bulk(edit, monkeypatch):
    """The fast path's bulk elements (the plant's _places / _add_placed, the actuators'
    JointActuator._in_rows) equal the reader's one by one, or the fast path declines and
    the reader gives its outcome."""
    fields = {"gear": "3", "kp": "50", "more": "", **edit}
    accepted = _check(_string(_ACTUATED.format(**fields)), monkeypatch)
    read = ({}, {"kp": "0"}, {"more": '<motor joint="je"/>'}, *_LIMITED[:4], _LIMITED[6])
    assert accepted == (edit in read)


#: The plan's cases (Plan: the bodies and joints in Drake's order, their names): a body welded
#: to World (no joint), an unnamed body (Drake's body{n}), unnamed joints (parent-child), three
#: chained joints (two massless bodies), a free joint by type on a nested body, a freejoint on
#: a body of joints (ignored, as the reader ignores it). ``{...}`` marks the edits.
_PLANNED = """<mujoco model="planned"><worldbody>
<body name="{fixed}" pos="1 0 0"><geom type="sphere" size="0.1"/>
<body pos="0 1 0"><joint axis="1 0 0"/><geom type="sphere" size="0.1"/>
<body name="c" pos="0 0 1" euler="0.1 0 0"><joint name="{c1}" axis="0 1 0"/>
<joint type="slide" axis="1 0 0" pos="0 0 0.1"/><joint name="c3" axis="0 0 1" ref="0.3"/>
<geom type="box" size="0.1 0.1 0.1"/>
<body name="d" pos="0.2 0 0"><joint type="free"{damped}/><geom type="sphere" size="0.1"/>
</body></body>
<body name="e" pos="0 0 -1"><freejoint/><joint name="je" axis="1 0 0"/>
<geom type="sphere" size="0.1"/></body></body></body></worldbody></mujoco>"""


@pytest.mark.parametrize(
    "edit",
    [
        {},  # (read by the fast path)
        {"c1": "world_welds_to_fixed"},  # (a joint named as the weld: AddJoint's error)
        {"c1": "c3"},  # (a joint name taken)
        {"fixed": "c3_parent"},  # (a body named as a joint's frame: AddFrame's error)
        {"fixed": ""},  # (an empty name)
        {"damped": ' damping="1"'},  # (a damped free joint: declined)
    ],
    ids=str,
)
def test_the_plan_of_bodies_and_joints(edit, monkeypatch):
    """Plan's walk makes the reader's bodies, frames and joints in its order with its names,
    or the fast path declines and the reader gives its outcome."""
    fields = {"fixed": "fixed", "c1": "c1", "damped": "", **edit}
    accepted = _check(_string(_PLANNED.format(**fields)), monkeypatch)
    assert accepted == (edit == {})


@pytest.mark.parametrize(
    "edit",
    [
        (
            r'(name="limb2_2_g0" type="capsule") fromto="[^"]*"',
            r'\1 fromto="180 3 0 1e150 0.1515 1e-20"',
        ),  # (its mass of 1e150 times moments of 1e299)
        (r'mass="[^"]*" diaginertia="[^"]*"', 'mass="1e-309" diaginertia="1 1 1"'),  # (I/m)
        (r'(type="sphere") size="[^"]*"', r'\1 size="1e160" mass="1"'),
        (r'(type="sphere") size="[^"]*"', r'\1 size="1e-170" mass="1"'),
        (r'(type="box") size="[^"]*"', r'\1 size="1e103 1e103 1e103"'),
        (r'fromto="0 0 0 [^"]*"', 'fromto="0 0 0 -0 -0 -1e-3"'),  # (negative zeros)
        (r'pos="[^"]*" quat', 'pos="-0 -0 -0" quat'),
    ],
    ids=str,
)
def test_inertias_beyond_float64(edit, monkeypatch):
    """A geom or inertial whose inertia overflows or vanishes, or of negative zeros: the reader
    refuses it (the fast path declines it: the first two, which the batch's check of finite
    numbers took as valid before) or reads it (the fast path makes its plant, to the bit)."""
    pattern, replacement = edit
    text = re.sub(pattern, replacement, benchmark.robot_mjcf(30), count=1)
    assert text != benchmark.robot_mjcf(30)
    _check(_string(text), monkeypatch)
