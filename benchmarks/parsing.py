"""Parsing large model files: mallard beside pydrake, in one run.

Cases (written to a temporary directory):

* ``comment.urdf``: one link after a comment of ``--comment-mb`` MB (30 by default);
* ``chain.urdf``: a chain of ``--links`` links (2000 by default), each hanging 0.5 m below
  the last from a revolute joint with limits, the axes cycling x, y, z; and the same chain
  of ``--short-links`` links (200 by default), where no library's cost that grows faster
  than the file (pydrake's Finalize and SDFormat poses) hides the cost per element;
* ``chain.sdf``: the same chains in SDFormat, each link's pose ``relative_to`` the link
  before it (libsdformat resolves a pose by walking the graph up to the model frame, so a
  deep graph costs pydrake time quadratic in its depth);
* ``robot.xml``: an MJCF robot of ``--mjcf-links`` bodies (200 by default), written as the
  MuJoCo Menagerie's models are (``robot_mjcf``): every body, joint and geom differs from
  the others in its pose, orientation attribute, axis, range, shape, size or ``<default>``
  class, half the bodies give an ``<inertial>``, a few hold sites, most joints have an
  actuator. (It was a chain of 200 bodies identical but their names until this round: a
  parser that reads a repeated element once was 30% faster on it and 2-5% slower on real
  models, so the chain measured something users never parse.) It is parsed twice: into a
  plant alone, and into a plant with a SceneGraph (``AddMultibodyPlantSceneGraph``, as users
  parse MJCF nearly always; its geoms are then made and registered as geometries);
* ``scene.dmd.yaml``: model directives adding ``--models`` copies (200 by default) of a
  small URDF, each with a frame, a weld to it and default joint positions.

Each timing is ``Parser(plant).AddModels(path)`` into a new plant (alone, or made by
``AddMultibodyPlantSceneGraph`` in a new DiagramBuilder for the SceneGraph row) ("parse":
pydrake's AddModels also adds the elements to the plant, so both sides time the same call),
then also ``plant.Finalize()`` ("+ Finalize"). Both libraries first parse a small model of
each format, alone and with a SceneGraph, then each timed document twice, untimed, so that no
library's first use is timed (lazy imports; a kernel loaded from numba's cache at its first
call, as the XML scan of mallard's URDF and MJCF fast paths, which a process loads at its second
large document: _scan_gate.READER_FIRST). A round times every (case, library) once, the
libraries alternating, so that drifts of a shared machine hit both alike; the table gives the
median over ``--rounds`` rounds (3 by default) and mallard's time as a ratio of pydrake's
(below 1: mallard is faster). ``--timer cpu`` times the process's CPU time instead of the
wall clock (steadier on a loaded machine; both libraries parse in one thread).

Run: python benchmarks/parsing.py [--links N] [--short-links N] [--comment-mb MB]
[--mjcf-links N] [--models N] [--rounds R] [--timer wall|cpu] [--case TEXT]
(``--case``: only the cases whose label contains TEXT, any case, e.g. MJCF; repeatable)
(pydrake's 2000-link SDFormat chain takes ~10 s a round).
"""

import argparse
import collections
import gc
import importlib
import random
import statistics
import tempfile
import time
from pathlib import Path

INERTIAL = (
    '<inertial><origin xyz="0 0 -0.25"/><mass value="1"/>'
    '<inertia ixx="0.02" iyy="0.02" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>'
)
AXES = ("1 0 0", "0 1 0", "0 0 1")


def comment_urdf(megabytes):
    comment = "x" * (megabytes * 2**20)
    return f'<robot name="commented">\n<!-- {comment} -->\n<link name="base"/>\n</robot>\n'


def chain_urdf(n):
    lines = ['<robot name="chain">', f'<link name="link0">{INERTIAL}</link>']
    for i in range(1, n):
        lines += [
            f'<link name="link{i}">{INERTIAL}</link>',
            f'<joint name="joint{i}" type="revolute"><parent link="link{i - 1}"/>'
            f'<child link="link{i}"/><origin xyz="0 0 -0.5"/><axis xyz="{AXES[i % 3]}"/>'
            '<limit lower="-2" upper="2" effort="10" velocity="5"/></joint>',
        ]
    return "\n".join([*lines, "</robot>"])


def chain_sdf(n):
    inertial = (
        "<inertial><pose>0 0 -0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.02</ixx>"
        "<iyy>0.02</iyy><izz>0.002</izz></inertia></inertial>"
    )
    lines = ['<sdf version="1.9">', '<model name="chain">', f'<link name="link0">{inertial}</link>']
    for i in range(1, n):
        lines += [
            f'<link name="link{i}"><pose relative_to="link{i - 1}">0 0 -0.5 0 0 0</pose>'
            f"{inertial}</link>",
            f'<joint name="joint{i}" type="revolute"><parent>link{i - 1}</parent>'
            f"<child>link{i}</child><axis><xyz>{AXES[i % 3]}</xyz><limit><lower>-2</lower>"
            "<upper>2</upper><effort>10</effort><velocity>5</velocity></limit></axis></joint>",
        ]
    return "\n".join([*lines, "</model>", "</sdf>"])


def robot_mjcf(n):
    """An MJCF robot of ``n`` bodies as MuJoCo Menagerie writes them: a free-floating torso
    and limbs of 3 to 8 nested bodies, each body with its own pose (pos and a quat, euler,
    axisangle or xyaxes, or none), half of them an ``<inertial>`` (diaginertia, some
    fullinertia), one or two joints (hinge, a few slide or ball) of a ``<default>`` class or
    with their own axis, range and pos, one to three geoms (capsule, box, sphere, cylinder,
    ellipsoid; fromto or pos and orientation; visual or collision class; some with a mass),
    a few sites; a motor or position actuator per hinge or slide joint. The numbers are
    pseudo-random (fixed seed): the same file every run."""
    rng = random.Random(24)

    def num(low, high):
        return f"{rng.uniform(low, high):.4g}"

    def nums(k, low, high):
        return " ".join(num(low, high) for _ in range(k))

    def orientation():
        kind = rng.randrange(6)
        if kind == 0:
            return f' quat="{nums(4, -1, 1)}"'
        if kind == 1:
            return f' euler="{nums(3, -1.6, 1.6)}"'
        if kind == 2:
            return f' axisangle="{nums(3, -1, 1)} {num(-3, 3)}"'
        if kind == 3 and rng.random() < 0.3:
            return f' xyaxes="1 {num(-0.5, 0.5)} 0 0 1 {num(-0.5, 0.5)}"'
        return ""

    def inertial():
        a, b, c = (rng.uniform(0.02, 0.2) for _ in range(3))
        m = rng.uniform(0.2, 5.0)
        ixx, iyy, izz = m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12
        at = f'pos="{nums(3, -0.05, 0.05)}" mass="{m:.4g}"'
        if rng.random() < 0.25:
            p = 0.05 * min(ixx, iyy, izz)
            return (
                f'<inertial {at} fullinertia="{ixx:.5g} {iyy:.5g} {izz:.5g} {p:.3g} {-p:.3g} '
                f'{p / 2:.3g}"/>'
            )
        return f'<inertial {at}{orientation()} diaginertia="{ixx:.5g} {iyy:.5g} {izz:.5g}"/>'

    def geoms(body):
        lines = []
        for g in range(rng.randrange(1, 4)):
            kind = rng.choice(("capsule", "capsule", "box", "sphere", "cylinder", "ellipsoid"))
            role = rng.choice(("visual", "collision", "collision"))
            name = f' name="{body}_g{g}"' if role == "collision" else ""
            mass = f' mass="{num(0.05, 2)}"' if rng.random() < 0.3 else ""
            if kind in ("capsule", "cylinder") and rng.random() < 0.7:
                frame = f'fromto="0 0 0 {nums(3, -0.3, 0.3)}" size="{num(0.02, 0.06)}"'
            else:
                size = {"sphere": 1, "capsule": 2, "cylinder": 2, "box": 3, "ellipsoid": 3}[kind]
                frame = f'size="{nums(size, 0.02, 0.12)}" pos="{nums(3, -0.1, 0.1)}"{orientation()}'
            lines.append(f'<geom class="{role}"{name} type="{kind}" {frame}{mass}/>')
        return lines

    lines, actuated = [], []

    def body(name):
        lines.append(f'<body name="{name}" pos="{nums(3, -0.3, 0.3)}"{orientation()}>')
        if rng.random() < 0.5:
            lines.append(inertial())
        for j in range(2 if rng.random() < 0.2 else 1):
            joint = f"{name}_j{j}"
            role = rng.choice(("hip", "knee", "wrist", None))
            attributes = f' class="{role}"' if role else f' axis="{nums(3, -1, 1)}"'
            kind = rng.random()
            if kind < 0.04 and j == 0:
                lines.append(f'<joint name="{joint}" type="ball"/>')
                break
            if kind < 0.08:
                attributes += ' type="slide" range="-0.1 0.2"'
            elif rng.random() < 0.4:
                attributes += f' range="{num(-3, -0.1)} {num(0.1, 3)}"'
            if rng.random() < 0.3:
                attributes += f' pos="{nums(3, -0.05, 0.05)}"'
            lines.append(f'<joint name="{joint}"{attributes}/>')
            actuated.append(joint)
        lines.extend(geoms(name))
        if rng.random() < 0.1:
            lines.append(f'<site name="{name}_site" pos="{nums(3, -0.1, 0.1)}"/>')

    lines += ['<body name="torso" pos="0 0 1" childclass="robot">', '<freejoint name="root"/>']
    lines += geoms("torso")
    count, limb = 1, 0
    while count < n:
        length = min(rng.randrange(3, 9), n - count)
        for k in range(length):
            body(f"limb{limb}_{k}")
        lines.append("</body>" * length)
        count, limb = count + length, limb + 1
    lines.append("</body>")
    actuators = [
        f'<position class="robot" name="a_{joint}" joint="{joint}" kp="{num(20, 200)}"/>'
        if k % 3 == 2
        else f'<motor class="robot" name="a_{joint}" joint="{joint}" gear="{num(10, 100)}"/>'
        for k, joint in enumerate(actuated)
    ]
    defaults = [
        '<default class="robot">',
        '<joint axis="0 1 0" damping="0.5" armature="0.01"/>',
        '<geom friction="0.8" rgba="0.7 0.7 0.7 1"/>',
        '<motor ctrlrange="-1 1"/><position ctrlrange="-2 2" kv="1"/>',
        '<default class="hip"><joint axis="1 0 0" range="-0.8 0.8"/></default>',
        '<default class="knee"><joint range="-2.6 -0.1" armature="0.02"/></default>',
        '<default class="wrist"><joint axis="0 0 1" range="-3 3" damping="0.1"/></default>',
        '<default class="visual"><geom contype="0" conaffinity="0" group="2" density="0"/>'
        "</default>",
        '<default class="collision"><geom group="3" rgba="0.2 0.4 0.8 1"/></default>',
        "</default>",
    ]
    return "\n".join(
        [
            '<mujoco model="robot"><compiler angle="radian" autolimits="true"/>',
            "<default>", *defaults, "</default>",
            '<worldbody><light pos="0 0 3"/><geom name="floor" type="plane" size="0 0 0.05"/>',
            *lines,
            "</worldbody><actuator>", *actuators, "</actuator></mujoco>",
        ]
    )  # fmt: skip


def scene_dmd(n, urdf):
    lines = ["directives:"]
    for i in range(n):
        lines += [
            f"- add_model: {{name: m{i}, file: 'file://{urdf}', "
            "default_joint_positions: {j: [0.1]}}",
            f"- add_frame: {{name: f{i}, X_PF: {{base_frame: world, translation: [{i}, 0, 0]}}}}",
            f"- add_weld: {{parent: f{i}, child: m{i}::a}}",
        ]
    return "\n".join(lines)


SMALL_URDF = (
    f'<robot name="small"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
    '<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>'
    "</joint></robot>"
)
SMALL = {
    "urdf": '<robot name="small"><link name="a"/></robot>',
    "sdf": '<sdf version="1.9"><model name="small"><link name="a"/></model></sdf>',
    "xml": '<mujoco model="small"><worldbody><body><joint/><geom size="1"/></body></worldbody>'
    "</mujoco>",
    "dmd.yaml": "directives:\n- add_model_instance: {name: small}",
}


#: The cases: (the size that makes one, its label, file name, text of that size, whether the
#: plant is made with a SceneGraph).
CASES = (
    ("comment_mb", "URDF, {} MB comment", "comment.urdf", comment_urdf, False),
    ("links", "URDF, {}-link chain", "chain.urdf", chain_urdf, False),
    ("short_links", "URDF, {}-link chain", "short.urdf", chain_urdf, False),
    ("links", "SDFormat, {}-link chain", "chain.sdf", chain_sdf, False),
    ("short_links", "SDFormat, {}-link chain", "short.sdf", chain_sdf, False),
    ("mjcf_links", "MJCF, {}-body robot", "robot.xml", robot_mjcf, False),
    ("mjcf_links", "MJCF, {}-body robot, SceneGraph", "robot.xml", robot_mjcf, True),
    ("models", "directives, {} models", "scene.dmd.yaml", None, False),  # (scene_dmd)
)

#: A case written: its file, and whether its plant is made with a SceneGraph.
Case = collections.namedtuple("Case", "path scene_graph")


def write_cases(directory, **sizes):
    """Writes into ``directory`` the CASES whose size is given (``links=200``...); returns
    {label: Case} in CASES' order."""
    directory = Path(directory)
    small_urdf = directory / "small.urdf"
    small_urdf.write_text(SMALL_URDF)
    cases = {}
    for size_name, label, name, text, scene_graph in CASES:
        size = sizes.get(size_name)
        if size is None:
            continue
        path = directory / name
        path.write_text(scene_dmd(size, small_urdf) if text is None else text(size))
        cases[label.format(size)] = Case(path, scene_graph)
    return cases


def select(cases, texts):
    """The entries of ``cases`` whose label contains one of ``texts`` (any case; None: all)."""
    if not texts:
        return cases
    return {
        label: case
        for label, case in cases.items()
        if any(text.lower() in label.lower() for text in texts)
    }


def library(name):
    """(MultibodyPlant, Parser) of ``name`` ("mallard" or "pydrake"), warmed up."""
    plant_class = importlib.import_module(f"{name}.multibody.plant").MultibodyPlant
    parser_class = importlib.import_module(f"{name}.multibody.parsing").Parser
    for file_type, text in SMALL.items():
        for scene_graph in (False, True):
            plant = new_plant(plant_class, scene_graph)
            parser_class(plant).AddModelsFromString(text, file_type)
            plant.Finalize()
    return plant_class, parser_class


def new_plant(plant_class, scene_graph=False):
    """A new continuous plant of ``plant_class``'s library: alone, or with a SceneGraph by
    ``AddMultibodyPlantSceneGraph`` into a new DiagramBuilder."""
    if not scene_graph:
        return plant_class(0.0)
    name = plant_class.__module__.split(".")[0]
    builder = importlib.import_module(f"{name}.systems.framework").DiagramBuilder()
    add = importlib.import_module(f"{name}.multibody.plant").AddMultibodyPlantSceneGraph
    return add(builder, 0.0)[0]


def time_once(plant_class, parser_class, path, timer=time.perf_counter, scene_graph=False):
    """(parse, parse + Finalize) seconds of ``path`` into a new plant (with a SceneGraph if
    ``scene_graph``)."""
    plant = new_plant(plant_class, scene_graph)
    gc.collect()
    start = timer()
    parser_class(plant).AddModels(str(path))
    parsed = timer()
    plant.Finalize()
    return parsed - start, timer() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--links", type=int, default=2000)
    parser.add_argument("--short-links", type=int, default=200)
    parser.add_argument("--comment-mb", type=int, default=30)
    parser.add_argument("--mjcf-links", type=int, default=200)
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    parser.add_argument(
        "--case",
        action="append",
        help="only the cases whose label contains this text (any case; repeatable), e.g. MJCF",
    )
    args = parser.parse_args(argv)
    timer = time.perf_counter if args.timer == "wall" else time.process_time
    libraries = {"mallard": library("mallard")}
    try:
        libraries["pydrake"] = library("pydrake")
    except ImportError:
        print("pydrake is not installed: mallard only")
    with tempfile.TemporaryDirectory() as directory:
        cases = write_cases(
            directory,
            comment_mb=args.comment_mb,
            links=args.links,
            short_links=args.short_links,
            mjcf_links=args.mjcf_links,
            models=args.models,
        )
        cases = select(cases, args.case)
        times = {(case, lib): [] for case in cases for lib in libraries}
        for path, scene_graph in cases.values():  # (each document's first uses, untimed)
            for lib in libraries:
                for _ in range(2):
                    time_once(*libraries[lib], path, timer, scene_graph=scene_graph)
        for round_ in range(args.rounds):
            for case, (path, scene_graph) in cases.items():
                order = list(libraries) if round_ % 2 == 0 else list(reversed(libraries))
                for lib in order:
                    times[case, lib].append(
                        time_once(*libraries[lib], path, timer, scene_graph=scene_graph)
                    )
    clock = "wall-clock" if args.timer == "wall" else "CPU"
    print(f"median of {args.rounds} rounds, {clock} seconds (ratio: mallard / pydrake)")
    print(f"{'case':38s} {'step':11s} " + " ".join(f"{lib:>8s}" for lib in libraries) + "   ratio")
    for case in cases:
        for step, label in enumerate(("parse", "+ Finalize")):
            medians = [statistics.median(t[step] for t in times[case, lib]) for lib in libraries]
            ratio = f"{medians[0] / medians[1]:7.2f}" if len(medians) == 2 else ""
            print(f"{case:38s} {label:11s} " + " ".join(f"{m:8.4f}" for m in medians) + f" {ratio}")


if __name__ == "__main__":
    main()
