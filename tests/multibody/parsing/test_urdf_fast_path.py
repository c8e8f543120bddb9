"""The URDF reader's fast path (_urdf_fast) against the reader (_urdf): for every URDF document
of the tests, mallard's models, pydrake's share and example-robot-data (when installed), the
benchmark's chain, and seeded mutations of them (numbers, names, structure, bytes), the size
gate off, either the fast path declines or the plant it makes equals the reader's to the bit
(bodies, frames, joints, actuators, inertias, limits, Finalize's mass matrix, the warnings in
order), and the Parser's outcome (a plant or the reader's located error) is the reader's."""

import glob
import importlib.metadata
import logging
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mallard.multibody.parsing import Parser, _scan_gate, _urdf_fast
from mallard.multibody.plant import AddMultibodyPlantSceneGraph, MultibodyPlant
from mallard.systems.framework import DiagramBuilder
from tests.multibody.parsing.fast_path import check, outcome

HERE = Path(__file__).parent
REPOSITORY = HERE.parents[2]
sys.path.insert(0, str(REPOSITORY / "benchmarks"))
import parsing as benchmark  # noqa: E402


def corpus():
    """The paths of every URDF of the tests, mallard's models, pydrake's share and
    example-robot-data (if installed)."""
    roots = [REPOSITORY / "tests", REPOSITORY / "mallard" / "models"]
    try:
        import pydrake

        roots.append(Path(pydrake.__file__).parent / "share" / "drake")
    except ImportError:
        pass
    try:
        erd = importlib.metadata.distribution("example-robot-data")
        roots.append(Path(erd.locate_file("cmeel.prefix/share/example-robot-data/robots")))
    except importlib.metadata.PackageNotFoundError:
        pass
    return sorted({f for root in roots for f in glob.glob(f"{root}/**/*.urdf", recursive=True)})


def _outcome(add, fast, monkeypatch):
    monkeypatch.setattr(_scan_gate, "READER_FIRST", 0)  # (the scan from the first document)
    return outcome(_urdf_fast, "MIN_BYTES", add, fast, monkeypatch)


def _check(add, monkeypatch):
    monkeypatch.setattr(_scan_gate, "READER_FIRST", 0)
    return check(_urdf_fast, "MIN_BYTES", add, monkeypatch)


def _string(text):
    return lambda parser: parser.AddModelsFromString(text, "urdf")


@pytest.fixture(autouse=True)
def _no_logging_output():
    logging.disable(logging.NOTSET)
    yield


def test_every_urdf_is_read_by_the_fast_path_to_the_bit_or_declined(monkeypatch):
    accepted = {}
    for path in corpus():
        accepted[path] = _check(lambda parser, path=path: parser.AddModels(path), monkeypatch)
    # (the robots of example-robot-data and Drake's models take it, not only the chain)
    taken = [path for path, ok in accepted.items() if ok]
    assert len(taken) >= len(accepted) // 3, sorted(set(accepted) - set(taken))
    for name in ("talos_full_v2.urdf", "pr2.urdf", "iiwa14_no_collision.urdf"):
        matches = [path for path in accepted if path.endswith(os.sep + name)]
        assert all(accepted[path] for path in matches), name


@pytest.mark.parametrize("n", [2, 9, 200])
def test_the_benchmark_chain_is_read_by_the_fast_path_to_the_bit(n, monkeypatch):
    assert _check(_string(benchmark.chain_urdf(n)), monkeypatch)


def _taken(monkeypatch):
    """The list of what _urdf_fast.parse answers each call from now on (None: the reader's)."""
    answers = []
    parse = _urdf_fast.parse
    monkeypatch.setattr(
        _urdf_fast, "parse", lambda *args: answers.append(parse(*args)) or answers[-1]
    )
    return answers


def test_the_gate_leaves_small_documents_and_the_first_large_one_to_the_reader(monkeypatch):
    """A document of fewer than MIN_BYTES goes to the reader; of the larger, the process's
    first READER_FIRST too (the scan not loaded for them), the next take the fast path; a
    plant with a SceneGraph is the reader's whatever the document."""
    monkeypatch.setattr(_scan_gate, "_large", 0)  # (as in a new process)
    answers = _taken(monkeypatch)
    Parser(MultibodyPlant(0.0)).AddModelsFromString(benchmark.chain_urdf(10), "urdf")
    assert answers == []
    large = benchmark.chain_urdf(200)
    for _ in range(_scan_gate.READER_FIRST):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(large, "urdf")
    assert len(answers) == _scan_gate.READER_FIRST >= 1 and set(answers) == {None}
    Parser(MultibodyPlant(0.0)).AddModelsFromString(large, "urdf")
    Parser(MultibodyPlant(0.0)).AddModelsFromString(large, "urdf")
    assert len(answers) == _scan_gate.READER_FIRST + 2 and None not in answers[-2:]
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString(large, "urdf")
    assert answers[-1] is None and _scan_gate._large == _scan_gate.READER_FIRST + 2


@pytest.mark.parametrize("text, kind", [("chain_urdf(200)", "urdf"), ("robot_mjcf(200)", "xml")])
def test_a_process_that_parses_one_large_document_does_not_load_numba(text, kind):
    """The process's first large document (URDF: read by the reader; MJCF: by expat's
    tables) does not import numba nor the scan; its second loads them (_scan_gate)."""
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import parsing; "
        "from mallard.multibody.parsing import Parser; "
        "from mallard.multibody.plant import MultibodyPlant; "
        f"text = parsing.{text}; loaded = []\n"
        "for _ in range(2):\n"
        f"    Parser(MultibodyPlant(0.0)).AddModelsFromString(text, '{kind}')\n"
        "    loaded.append(sorted({'numba', 'mallard.multibody.parsing._xml_scan'} & "
        "set(sys.modules)))\n"
        "print(loaded)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=REPOSITORY, env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )  # fmt: skip
    assert out.stdout.strip() == "[[], ['mallard.multibody.parsing._xml_scan', 'numba']]"


#: A document of what real robots hold: materials, visuals and collisions, inertials rotated
#: or without a row, links without inertials, every joint kind the fast path reads with
#: limits, dynamics (friction, coulomb_window), calibration, safety controllers, mimics,
#: transmissions (of both type spellings, reductions, a fixed joint's, gains), gazebo tags.
ROBOT = """<?xml version="1.0"?>
<!-- a robot -->
<robot name="robot" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <material name="blue"><color rgba="0 0 0.8 1"/></material>
  <link name="base"><inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="2"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry><material name="blue"/></visual>
    <collision><geometry><sphere radius="0.5"/></geometry></collision></link>
  <link name="l1"><inertial><origin xyz="0.1 0 0" rpy="0.1 0.2 0.3"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.015" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/>
    </inertial></link>
  <link name="l3"/>
  <link name="l4"><inertial><mass value="0.25"/><inertia ixx="0.001" iyy="0.001" izz="0.001"
    ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l5"><inertial><origin xyz="0 0.123456789012345678 0"/><mass value="0.3"/>
    <inertia ixx="0.002" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2" rpy="0 0 1.5707963"/><axis xyz="0 0 1"/>
    <limit lower="-1.5" upper="1.5" effort="30" velocity="2" drake:acceleration="4"/>
    <dynamics damping="0.5" friction="0.1"/><calibration rising="0.1"/>
    <safety_controller soft_lower_limit="-1" soft_upper_limit="1" k_velocity="1"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <axis xyz="1 1 0"/><dynamics damping="0" coulomb_window="0.1"/></joint>
  <joint name="j3" type="prismatic"><parent link="l2"/><child link="l3"/>
    <origin xyz="0.1 0 0"/><limit lower="0" upper="0.2" effort="0" velocity="1"/>
    <mimic joint="j1" multiplier="2" offset="0.1"/></joint>
  <joint name="j4" type="fixed"><parent link="l3"/><child link="l4"/>
    <axis xyz="0 0 0"/></joint>
  <joint name="j5" type="revolute"><parent link="l4"/><child link="l5"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="-1" velocity="1"/></joint>
  <transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j1"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="m1"><mechanicalReduction>1</mechanicalReduction>
      <drake:rotor_inertia value="0.01"/><drake:gear_ratio value="3"/>
      <drake:controller_gains p="10" d="1"/></actuator></transmission>
  <transmission name="t2" type="SimpleTransmission"><joint name="j2"/>
    <actuator name="m2"><mechanicalReduction>50</mechanicalReduction></actuator></transmission>
  <transmission name="t3"><type>SimpleTransmission</type><joint name="j3"/>
    <actuator name="m3"/></transmission>
  <transmission name="t4"><type>SimpleTransmission</type><joint name="j4"/>
    <actuator name="m4"/></transmission>
  <transmission name="t5"><type>other</type><joint name="j2"/><actuator name="m5"/>
  </transmission>
  <gazebo reference="l1"><mu1>0.2</mu1></gazebo>
  <drake:collision_filter_group name="g"><drake:member link="l1"/></drake:collision_filter_group>
</robot>
"""


def test_a_robot_of_every_element_the_fast_path_reads(monkeypatch):
    assert _check(_string(ROBOT), monkeypatch)


@pytest.mark.parametrize("tag", sorted(_urdf_fast._DECLINED))
def test_a_root_element_it_does_not_read_declines(tag, monkeypatch):
    """A root child of a declined tag (which the scan gives no id) leaves the document to the
    reader, whatever its outcome; an unknown tag (ignored, as the reader ignores it) does not."""
    text = ROBOT.replace("<gazebo ", f'<{tag} name="x"/><gazebo ')
    reader, _ = _outcome(_string(text), False, monkeypatch)
    ours, accepted = _outcome(_string(text), True, monkeypatch)
    assert ours == reader and not accepted
    assert _check(_string(ROBOT.replace("<gazebo ", '<other name="x"/><gazebo ')), monkeypatch)


def test_its_warnings_are_errors_with_strict_parsing(monkeypatch):
    def strict(parser):
        parser.SetStrictParsing()
        parser.AddModelsFromString(ROBOT, "urdf")

    reader, _ = _outcome(strict, False, monkeypatch)
    ours, accepted = _outcome(strict, True, monkeypatch)
    assert ours == reader and reader[0] == "RuntimeError" and not accepted


#: Replacements of a number, a name or a structure, at random places (a mutation each).
_NUMBERS = ("nan", "inf", "-1", "0", "1e400", "0.1234567890123456789", "1 2", "", "1e", "+.5",
            "-0", "1E-30", "  2  ", "0x1")  # fmt: skip
_NAMES = ("", "world", "base", "l1", "j1", "nowhere", "l1_parent")
_TAGS = ("link", "joint", "drake:joint", "frame", "loop_joint", "mimic", "inertia", "mass",
         "origin", "axis", "limit", "dynamics", "gazebo", "material", "x")  # fmt: skip
_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "ball", "planar", "x")


def mutants(text, count, seed):
    """``count`` seeded mutants of the document ``text``: a value replaced (numbers, names,
    types), an attribute or element removed, a tag renamed, or a byte edited."""
    rng = random.Random(seed)
    values = list(re.finditer(r'(\w[\w:]*)="([^"]*)"', text))
    tags = list(re.finditer(r"<(/?)([\w:]+)", text))
    elements = list(re.finditer(r"<(\w+)[^<>]*/>", text))
    out = []
    for _ in range(count):
        kind = rng.randrange(6)
        if kind == 0:  # (a value)
            m = rng.choice(values)
            name = m.group(1)
            pool = _NAMES if name in ("name", "link", "joint") else (
                _TYPES if name == "type" else _NUMBERS
            )  # fmt: skip
            out.append(text[: m.start(2)] + rng.choice(pool) + text[m.end(2) :])
        elif kind == 1:  # (an attribute removed)
            m = rng.choice(values)
            out.append(text[: m.start()] + text[m.end() :])
        elif kind == 2:  # (an empty element removed)
            m = rng.choice(elements)
            out.append(text[: m.start()] + text[m.end() :])
        elif kind == 3:  # (a tag's first start or end renamed)
            m = rng.choice(tags)
            tag, new = m.group(2), rng.choice(_TAGS)
            pattern = rf"<(/?){re.escape(tag)}([\s/>])"
            out.append(re.sub(pattern, rf"<\g<1>{new}\g<2>", text, count=1))
        elif kind == 4:  # (a name repeated: a link's or a joint's given another's)
            m = rng.choice([m for m in values if m.group(1) == "name"])
            other = rng.choice([m for m in values if m.group(1) == "name"])
            out.append(text[: m.start(2)] + other.group(2) + text[m.end(2) :])
        else:  # (a byte)
            k = rng.randrange(len(text))
            out.append(text[:k] + rng.choice("<>/=\"' \n\t!?-&ab:1.e+x\r") + text[k + 1 :])
    return out


@pytest.mark.parametrize("seed", range(4))
def test_mutants_are_read_to_the_bit_or_declined(seed, monkeypatch):
    documents = mutants(ROBOT, 60, seed) + mutants(benchmark.chain_urdf(9), 40, seed)
    accepted = [_check(_string(document), monkeypatch) for document in documents]
    assert any(accepted) and not all(accepted)
