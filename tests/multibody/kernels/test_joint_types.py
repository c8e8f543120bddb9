"""A model's entry points of _compiled.JOINT_SPECIALIZED are compiled for its joint types
(mallard._compiled.kernels(dtype, joint_types)): each model gets the set of
_joint_types.KERNEL_JOINT_TYPES that holds its joints' types, and kernels compiled for several
sets in one process give each model exactly what the kernels for every joint type give (the
same bits), and what the interpreted kernels give; its other entry points are those for every
joint type."""

import hashlib
import os
import pathlib

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody._joint_types import (
    ALL,
    KERNEL_JOINT_TYPES,
    PRISMATIC,
    QUATERNION_FLOATING,
    REVOLUTE,
    SCREW,
    WELD,
    kernel_joint_types,
)
from mallard.multibody._layout import BIAS, INERTIAS, POSITIONS, VELOCITIES
from tests import processes

REVOLUTE_ONLY, _ = KERNEL_JOINT_TYPES
STAGES = POSITIONS | VELOCITIES | INERTIAS | BIAS


def test_kernel_joint_types():
    assert REVOLUTE_ONLY == 1 << WELD | 1 << REVOLUTE and KERNEL_JOINT_TYPES[-1] == ALL
    assert kernel_joint_types([WELD, REVOLUTE, REVOLUTE]) == REVOLUTE_ONLY
    assert kernel_joint_types([REVOLUTE]) == REVOLUTE_ONLY
    assert kernel_joint_types([]) == REVOLUTE_ONLY
    assert kernel_joint_types([WELD, PRISMATIC]) == ALL
    assert kernel_joint_types([REVOLUTE, QUATERNION_FLOATING]) == ALL
    assert kernel_joint_types([REVOLUTE, SCREW]) == ALL
    assert kernel_joint_types(range(QUATERNION_FLOATING + 1)) == ALL


def _chain(kind, time_step=0.0):
    """A finalized plant (discrete if ``time_step``): "revolute" (a double pendulum), "common"
    (with a prismatic joint and a free body) or "all" (with a ball joint and a universal joint
    too)."""
    from mallard.multibody.plant import MultibodyPlant
    from mallard.multibody.tree import (
        BallRpyJoint,
        PrismaticJoint,
        RevoluteJoint,
        SpatialInertia,
        UniversalJoint,
    )

    joints = [RevoluteJoint, RevoluteJoint]
    if kind == "common":
        joints.append(PrismaticJoint)
    if kind == "all":
        joints += [BallRpyJoint, UniversalJoint]
    plant = MultibodyPlant(time_step)
    inertia = SpatialInertia.SolidBoxWithMass(1.0, 0.3, 0.2, 0.1).Shift([0.1, 0.0, -0.2])
    count = len(joints) + (kind == "common")  # (a body without a joint: a free one)
    bodies = [plant.AddRigidBody(f"b{i}", inertia) for i in range(count)]
    parent = plant.world_frame()
    for i, joint in enumerate(joints):
        args = () if joint in (BallRpyJoint, UniversalJoint) else ([0.0, 0.6, 0.8],)
        plant.AddJoint(joint(f"j{i}", parent, bodies[i].body_frame(), *args))
        parent = bodies[i].body_frame()
    plant.Finalize()
    return plant


def _state(plant, rng):
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, plant.GetPositions(context) + 0.3 * rng.normal(size=plant._nq))
    plant.SetVelocities(context, rng.normal(size=plant._nv))
    engine = plant._engine
    return engine, plant.GetPositionsAndVelocities(context), engine.cache(context).ws


def _run(k, engine, x, ws):
    """The workspace after drive_stages (every stage)."""
    ws = ws.copy()
    k.drive_stages(engine.mi, engine.mf, x, ws, STAGES)
    return (ws,)


def test_each_model_gets_its_joint_types_and_the_same_results():
    """Models of each set in turn in one process (so that a kernel compiled for one set must
    not serve another): the kernels for the model's set give the same bits as those for every
    joint type, and agree with the interpreted ones."""
    rng = np.random.default_rng(5)
    for kind, expected in [
        ("revolute", REVOLUTE_ONLY),
        ("all", ALL),
        ("common", ALL),
        ("revolute", REVOLUTE_ONLY),
    ]:
        plant = _chain(kind)
        engine, x, ws = _state(plant, rng)
        assert engine.joint_types == expected
        assert engine.cache(plant.CreateDefaultContext()).kernels.joint_types == expected
        specialized = _run(kernels(np.float64, expected), engine, x, ws)
        general = _run(kernels(np.float64), engine, x, ws)
        interpreted = _run(kernels(object), engine, x.astype(object), ws.astype(object))
        for a, b, c in zip(specialized, general, interpreted, strict=True):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_allclose(a, c.astype(float), rtol=1e-13, atol=1e-13)


def _results(kind):
    """A digest of what a model of ``kind`` computes with its joint types' kernels: the
    workspace after every stage, and the state after 0.02 s of its continuous plant (the
    explicit steps of RK3: its joint types' driver) and of 20 steps of its discrete plant
    (its driver for every joint type)."""
    from mallard.systems.analysis import Simulator

    rng = np.random.default_rng(11)
    continuous = _chain(kind)
    engine, x, ws = _state(continuous, rng)
    results = list(_run(kernels(np.float64, engine.joint_types), engine, x, ws))
    for plant in (continuous, _chain(kind, time_step=1e-3)):
        simulator = Simulator(plant)
        plant.SetPositionsAndVelocities(simulator.get_mutable_context(), x)
        simulator.AdvanceTo(0.02)
        results.append(plant.GetPositionsAndVelocities(simulator.get_context()))
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in results))


_ORDER_SCRIPT = """
import sys
from tests.multibody.kernels.test_joint_types import _results
for kind in sys.argv[1:]:
    print(kind, _results(kind).hexdigest())
"""


@pytest.mark.slow
def test_both_sets_compiled_in_one_process_in_either_order_as_alone(tmp_path):
    """The kernels of both sets of joint types compiled in one process, in either order (the
    kernels whose code does not depend on them compiled once, below the first set's entry
    points, and shared with the second's), give each model the bits that the kernels
    compiled first in a new process give (each process in an empty cache)."""
    root = pathlib.Path(__file__).parents[3]
    digests = {}
    for order in (("revolute", "all"), ("all", "revolute")):
        env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(tmp_path / order[0]))
        printed = processes.run(_ORDER_SCRIPT, *order, cwd=root, env=env)
        digests[order] = dict(line.split() for line in printed.splitlines())
    first, second = digests.values()
    assert first == second  # (each set compiled first in one process, second in the other)


_NUMBERED_ALIKE_SCRIPT = """
import itertools, sys
import numpy as np
from numba.core import bytecode
from mallard._compiled import kernels
from tests.multibody.kernels.test_joint_types import STAGES, _chain, _state
for kind in sys.argv[1:]:
    rng = np.random.default_rng(5)
    engine, x, ws = _state(_chain(kind), rng)
    bytecode.FunctionIdentity._unique_ids = itertools.count(100000)  # (numbered alike)
    for k in (kernels(np.float64, engine.joint_types), kernels(object)):
        w = ws.astype(np.float64 if k.is_compiled else object)
        k.drive_stages(engine.mi, engine.mf, x.astype(w.dtype), w, STAGES)
        print(kind, np.asarray(w, dtype=np.float64).tobytes().hex())
"""


@pytest.mark.slow
def test_each_set_runs_its_own_kernels_from_a_cache_filled_by_two_processes(tmp_path):
    """The revolute set's entry point compiled in one process, every joint type's in
    another, the identities numba names functions by numbered alike from the entry point on
    (the linked kinematics get one mangled name in both: for_joint_types' copies share their
    qualified name), both into one cache; a third process loading the revolute set's, then
    every joint type's, gives each model what the interpreted kernels give (numba's engine
    bound the second library's kinematics to the first's: _numba_internals, 26)."""
    root = pathlib.Path(__file__).parents[3]
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def workspaces(*kinds):
        printed = processes.run(_NUMBERED_ALIKE_SCRIPT, *kinds, cwd=root, env=env)
        found = {}
        for line in printed.splitlines():
            kind, digest = line.split()
            found.setdefault(kind, []).append(digest)
        return found

    workspaces("revolute")
    workspaces("all")
    for kind, (compiled, interpreted) in workspaces("revolute", "all").items():
        ws = [np.frombuffer(bytes.fromhex(h)) for h in (compiled, interpreted)]
        np.testing.assert_allclose(*ws, rtol=1e-12, atol=1e-12, err_msg=kind)


def test_only_the_joint_specialized_entry_points_are_specialized():
    """The entry points of _compiled.JOINT_SPECIALIZED (a model's: they take ``mf``) get a
    dispatcher, and cache entries, of their own per set of joint types; the others (a
    model's, or taking no model) are the same for every set."""
    from mallard import _compiled

    for name in _compiled.JOINT_SPECIALIZED:
        code = _compiled._find(name).__code__
        assert "mf" in code.co_varnames[: code.co_argcount], name
    for_revolute = kernels(np.float64, REVOLUTE_ONLY)
    assert for_revolute is kernels(np.float64, REVOLUTE_ONLY)
    assert kernels(object, REVOLUTE_ONLY) is kernels(object)
    assert for_revolute.copy_if_finite is kernels(np.float64).copy_if_finite
    assert for_revolute.drive_qdot is kernels(np.float64).drive_qdot
    assert kernels(np.float64, ALL).drive_stages is kernels(np.float64).drive_stages
    specialized = for_revolute.drive_stages
    assert specialized is not kernels(np.float64).drive_stages
    assert specialized.py_func.__qualname__ == f"drive_stages_for_joint_types_{REVOLUTE_ONLY}"


def test_compile_for_every_joint_type(monkeypatch):
    """What ``mallard compile`` does after each task: a model entry point compiled for one set
    of joint types (here for arguments of a layout no other test uses) is compiled for the
    other set too, for the same argument types, and gives the same bits."""
    from mallard import _compiled

    drive_stages = _compiled._find("drive_stages")
    monkeypatch.setattr(_compiled, "_MODEL_ENTRY_POINTS", {drive_stages: None})
    plant = _chain("revolute")
    engine, x, ws = _state(plant, np.random.default_rng(7))
    x = np.repeat(x, 2)[::2]  # (not contiguous)
    revolute_ws, general_ws = ws.copy(), ws.copy()
    kernels(np.float64, REVOLUTE_ONLY).drive_stages(engine.mi, engine.mf, x, revolute_ws, STAGES)
    revolute = _compiled.compiled(drive_stages, REVOLUTE_ONLY)
    (signature,) = [s for s in revolute.signatures if s[2].layout == "A"]
    every = _compiled.compiled(drive_stages, ALL)
    assert signature not in every.signatures
    _compiled.compile_for_every_joint_type()
    assert signature in every.signatures
    every(engine.mi, engine.mf, x, general_ws, STAGES)
    np.testing.assert_array_equal(revolute_ws, general_ws)
