"""Model directives against pydrake: the scene of tests/multibody/parsing/dmd (Drake's example
models and an MJCF arm, frames, welds, default joint positions and free-body poses, a nested
directives file in a namespace, collision filter groups), processed by both (through
Parser.AddModels, ProcessModelDirectives, and after FlattenModelDirectives) and compared:
the plants (as in test_parsing_mjcf), the added models' ModelInstanceInfo, the flattened
directives and the collision filters. Broken directives are rejected by both."""

import logging
import os

import numpy as np
import pytest

pydrake = pytest.importorskip("pydrake")
pytest.importorskip("yaml")

from pydrake.multibody import parsing as pd_parsing  # noqa: E402

from mallard.multibody import parsing as ml_parsing  # noqa: E402
from tests.conformance.test_parsing_mjcf import _parse, compare_plants  # noqa: E402

DMD = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "multibody", "parsing", "dmd"))
SCENE = os.path.join(DMD, "scene.dmd.yaml")
PACKAGE = os.path.join(DMD, "package.xml")


@pytest.fixture(autouse=True)
def _quiet():
    loggers = [logging.getLogger(name) for name in ("drake", "mallard.parsing")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def test_scene_matches_pydrake():
    pd, pd_graph, pd_error, _ = _parse("pydrake", SCENE, scene_graph=True, packages=[PACKAGE])
    ml, ml_graph, ml_error, _ = _parse("mallard", SCENE, scene_graph=True, packages=[PACKAGE])
    assert pd_error is None and ml_error is None, (pd_error, ml_error)
    compare_plants(pd, pd_graph, ml, ml_graph)
    _compare_filters(pd, pd_graph, ml, ml_graph)


def _filtered(plant, graph):
    inspector = graph.model_inspector()
    ids = sorted(inspector.GetAllGeometryIds(), key=lambda i: inspector.GetName(i))
    ids = [i for i in ids if inspector.GetProximityProperties(i) is not None]
    names = [inspector.GetName(i) for i in ids]
    return names, [[bool(inspector.CollisionFiltered(a, b)) for b in ids if b != a] for a in ids]


def _compare_filters(pd, pd_graph, ml, ml_graph):
    assert _filtered(ml, ml_graph) == _filtered(pd, pd_graph)


def _process(library, flatten=False):
    from importlib import import_module

    parsing = {"pydrake": pd_parsing, "mallard": ml_parsing}[library]
    plant_module = import_module(f"{library}.multibody.plant")
    geometry = import_module(f"{library}.geometry")
    plant = plant_module.MultibodyPlant(0.0)
    graph = geometry.SceneGraph()
    plant.RegisterAsSourceForSceneGraph(graph)
    parser = parsing.Parser(plant)
    parser.package_map().AddPackageXml(PACKAGE)
    directives = parsing.LoadModelDirectives(SCENE)
    if flatten:
        directives = parsing.FlattenModelDirectives(directives, parser.package_map())
    infos = parsing.ProcessModelDirectives(directives, plant, parser)
    plant.Finalize()
    described = [
        (
            i.model_name,
            int(i.model_instance),
            i.parent_frame_name,
            i.child_frame_name,
            None if i.X_PC is None else i.X_PC.GetAsMatrix34().tolist(),
        )
        for i in infos
    ]
    return plant, graph, described, directives


@pytest.mark.parametrize("flatten", [False, True], ids=["nested", "flattened"])
def test_process_model_directives_matches_pydrake(flatten):
    pd, pd_graph, pd_infos, pd_directives = _process("pydrake", flatten)
    ml, ml_graph, ml_infos, ml_directives = _process("mallard", flatten)
    assert [i[:4] for i in ml_infos] == [i[:4] for i in pd_infos]
    for a, b in zip(ml_infos, pd_infos, strict=True):
        if b[4] is not None:
            np.testing.assert_allclose(a[4], b[4], rtol=0, atol=1e-15)
    compare_plants(pd, pd_graph, ml, ml_graph)
    _compare_filters(pd, pd_graph, ml, ml_graph)
    if flatten:
        assert _describe(ml_directives) == _describe(pd_directives)


def _describe(directives):
    """The directives as comparable tuples (names, files, frames, poses)."""
    result = []
    for directive in directives.directives:
        for kind in ("add_model", "add_model_instance", "add_frame", "add_weld",
                     "add_collision_filter_group", "add_directives"):  # fmt: skip
            item = getattr(directive, kind)
            if item is None:
                continue
            fields = {}
            for name in ("name", "file", "parent", "child", "model_namespace", "members",
                         "member_groups", "ignored_collision_filter_groups"):  # fmt: skip
                if hasattr(item, name):
                    fields[name] = getattr(item, name)
            for name in ("X_PF", "X_PC"):
                X = getattr(item, name, None)
                if X is not None:
                    fields[name] = (
                        X.base_frame,
                        X.GetDeterministicValue().GetAsMatrix34().round(12).tolist(),
                    )
            if kind == "add_model":
                fields["joints"] = {k: list(v) for k, v in item.default_joint_positions.items()}
            result.append((kind, sorted(fields.items())))
    return result


BROKEN = {
    "unknown_key": "directives:\n- add_model: {nme: x, file: package://drake/x.urdf}",
    "two_kinds": "directives:\n- add_model_instance: {name: a}\n  add_frame: {name: b}",
    "empty_name": "directives:\n- add_model_instance: {name: ''}",
    "frame_no_base": "directives:\n- add_frame: {name: f, X_PF: {translation: [0, 0, 1]}}",
    "missing_file": "directives:\n- add_model: {name: m, file: package://drake/no/such.urdf}",
    "unknown_frame": "directives:\n- add_weld: {parent: world, child: nowhere}",
    "unknown_package": "directives:\n- add_model: {name: m, file: package://nopkg/m.urdf}",
    "bad_joint": """directives:
- add_model:
    name: m
    file: package://drake/examples/pendulum/Pendulum.urdf
    default_joint_positions: {nope: [1]}""",
    "missing_namespace": "directives:\n- add_directives: {file: x.dmd.yaml, model_namespace: q}",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_directives_are_rejected_by_both(case):
    from importlib import import_module

    for library in ("pydrake", "mallard"):
        parsing = {"pydrake": pd_parsing, "mallard": ml_parsing}[library]
        plant = import_module(f"{library}.multibody.plant").MultibodyPlant(0.0)
        with pytest.raises((Exception, SystemExit)) as info:
            parsing.Parser(plant).AddModelsFromString(BROKEN[case], "dmd.yaml")
        if library == "mallard":
            assert isinstance(info.value, RuntimeError), info.value
            assert str(info.value).startswith("<literal-string>.dmd.yaml:"), str(info.value)
            assert plant.num_model_instances() == 2
