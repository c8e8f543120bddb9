"""Model directives in mallard: loading (YAML errors and invalid directives name file and
line), processing (namespaces, the Parser's prefix, rollback after an error), flattening,
GetScopedFrameByName, and a mutation test of the test scene. Agreement with pydrake is in
tests/conformance/test_parsing_dmd.py."""

import dataclasses
import logging
import os
import re
import shutil

import numpy as np
import pytest

pytest.importorskip("yaml")

from mallard.common.schema import Rotation, Transform  # noqa: E402
from mallard.geometry import SceneGraph  # noqa: E402
from mallard.multibody.parsing import (  # noqa: E402
    AddFrame,
    AddModel,
    FlattenModelDirectives,
    GetScopedFrameByName,
    LoadModelDirectives,
    LoadModelDirectivesFromString,
    ModelDirective,
    ModelDirectives,
    Parser,
    ProcessModelDirectives,
)
from mallard.multibody.parsing._package_map import drake_share  # noqa: E402
from mallard.multibody.plant import MultibodyPlant  # noqa: E402

DMD = os.path.join(os.path.dirname(__file__), "dmd")
MALLARD_PENDULUM = "package://mallard/pendulum.urdf"


@pytest.fixture(autouse=True)
def _quiet():
    logger = logging.getLogger("mallard.parsing")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def _plant():
    plant = MultibodyPlant(0.0)
    plant.RegisterAsSourceForSceneGraph(SceneGraph())
    return plant


def test_load_from_string_and_types():
    directives = LoadModelDirectivesFromString(
        f"""directives:
- add_model: {{name: p, file: "{MALLARD_PENDULUM}", default_joint_positions: {{theta: [0.5]}}}}
- add_frame:
    name: f
    X_PF: {{base_frame: p::arm, translation: [1, 2, 3], rotation: !AngleAxis {{angle_deg: 90,
      axis: [0, 0, 2]}}}}
"""
    )
    assert isinstance(directives, ModelDirectives) and directives.IsValid()
    add_model = directives.directives[0].add_model
    assert add_model == AddModel(MALLARD_PENDULUM, "p", {"theta": [0.5]}) or (
        add_model.name == "p" and list(add_model.default_joint_positions["theta"]) == [0.5]
    )
    X = directives.directives[1].add_frame.X_PF.GetDeterministicValue()
    np.testing.assert_allclose(
        X.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15
    )
    np.testing.assert_array_equal(X.translation(), [1, 2, 3])
    plant = _plant()
    infos = ProcessModelDirectives(directives, plant)
    assert [i.model_name for i in infos] == ["p"]
    assert plant.GetJointByName("theta").default_positions()[0] == 0.5
    assert GetScopedFrameByName(plant, "p::f").name() == "f"
    assert GetScopedFrameByName(plant, "world") is plant.world_frame()
    with pytest.raises(RuntimeError, match="Could not find Frame 'p::nope'"):
        GetScopedFrameByName(plant, "p::nope")


def test_a_scalar_is_typed_by_its_text_and_quoting_in_every_document():
    # (the loader resolves a plain scalar's tag once per text and quoting: "1" quoted is a
    # string, plain a number, in any document loaded after the other)
    frame = "- add_frame: {{name: {}, X_PF: {{base_frame: world, translation: [{}, 0, 0]}}}}"
    for _ in range(2):
        directives = LoadModelDirectivesFromString(
            "directives:\n" + frame.format("'1'", "1") + "\n" + frame.format("2", "2.5")
        )
        first, second = (d.add_frame for d in directives.directives)
        assert (first.name, second.name) == ("1", "2")
        assert first.X_PF.translation.tolist() == [1.0, 0.0, 0.0]
        assert second.X_PF.translation.tolist() == [2.5, 0.0, 0.0]
        for number in ("'1'", "true", "null"):
            with pytest.raises(RuntimeError, match="Expected a number"):
                LoadModelDirectivesFromString("directives:\n" + frame.format("f", number))


def test_directives_built_in_python():
    frame = AddFrame(
        name="f", X_PF=Transform("world", [0, 0, 1], Rotation(Rotation.Rpy([0, 0, 90])))
    )
    directives = ModelDirectives([ModelDirective(add_frame=frame)])
    assert directives.IsValid()
    assert not ModelDirectives([ModelDirective()]).IsValid()
    plant = _plant()
    assert ProcessModelDirectives(directives, Parser(plant)) == []
    assert plant.HasFrameNamed("f")


_ERRORS = [
    ("directives:\n- add_model: {nme: x}", 2, "The key 'nme' is not a field of add_model"),
    ("directives:\n- add_model_instance: {name: ''}", 2, "not valid"),
    ("directives:\n  - [1\n", 3, "expected"),
    (
        "directives:\n- add_frame:\n    name: f\n    X_PF: {rotation: !Uniform {}}",
        4,
        "rotation tag '!Uniform'",
    ),  # fmt: skip
    (
        "directives:\n- add_frame: {name: f, X_PF: {base_frame: world,\n"
        "    translation: [.nan, 0, 0]}}",
        3,
        "must be finite",
    ),  # fmt: skip
    ("directives:\n- add_model: {name: m, file: package://nopkg/m.urdf}", 2, "unknown package"),
    # (frames and joints looked up once: the messages of a failed lookup are Drake's)
    (
        f"directives:\n- add_model: {{name: m0, file: '{MALLARD_PENDULUM}'}}\n"
        f"- add_model: {{name: m1, file: '{MALLARD_PENDULUM}'}}\n"
        "- add_weld: {parent: arm, child: m1::arm}",
        4,
        "HasFrameNamed(): A Frame named 'arm' appears in multiple model instances (m0, m1)",
    ),
    (
        f"directives:\n- add_model: {{name: m0, file: '{MALLARD_PENDULUM}'}}\n"
        "- add_weld: {parent: world, child: m9::arm}",
        3,
        "There is no frame named 'm9::arm' in the plant",
    ),
    (
        f"directives:\n- add_model: {{name: m0, file: '{MALLARD_PENDULUM}',\n"
        "    default_joint_positions: {nojoint: [1]}}",
        2,
        "the model 'm0' has no joint named 'nojoint' (default_joint_positions)",
    ),
]


@pytest.mark.parametrize("text, line, message", _ERRORS)
def test_errors_name_file_and_line(text, line, message):
    plant = _plant()
    with pytest.raises(RuntimeError) as info:
        Parser(plant).AddModelsFromString(text, "dmd.yaml")
    assert str(info.value).startswith(f"<literal-string>.dmd.yaml:{line}: error: "), info.value
    assert message in str(info.value)
    assert plant.num_model_instances() == 2


def test_error_in_nested_file_names_it_and_rolls_back(tmp_path):
    (tmp_path / "package.xml").write_text("<package><name>t</name></package>")
    (tmp_path / "inner.dmd.yaml").write_text(
        "directives:\n- add_weld:\n    parent: world\n    child: nowhere\n"
    )
    (tmp_path / "outer.dmd.yaml").write_text(
        f"directives:\n- add_model: {{name: p, file: '{MALLARD_PENDULUM}'}}\n"
        "- add_directives: {file: 'package://t/inner.dmd.yaml'}\n"
    )
    plant = _plant()
    parser = Parser(plant)
    parser.package_map().AddPackageXml(str(tmp_path / "package.xml"))
    with pytest.raises(RuntimeError, match=r"inner.dmd.yaml:3: error: There is no frame named"):
        parser.AddModels(str(tmp_path / "outer.dmd.yaml"))
    assert (plant.num_model_instances(), plant.num_bodies()) == (2, 1)


def test_a_directives_file_as_a_model_is_an_error(tmp_path):
    """add_model of a directives file: Drake's error, at the directive's line, the model
    added before it rolled back."""
    (tmp_path / "inner.dmd.yaml").write_text("directives: []\n")
    (tmp_path / "outer.dmd.yaml").write_text(
        f"directives:\n- add_model: {{name: p, file: '{MALLARD_PENDULUM}'}}\n"
        f"- add_model: {{name: q, file: 'file://{tmp_path}/inner.dmd.yaml'}}\n"
    )
    plant = _plant()
    with pytest.raises(
        RuntimeError,
        match=r"outer.dmd.yaml:3: error: '\S+inner.dmd.yaml' is a model directives data source",
    ):
        Parser(plant).AddModels(str(tmp_path / "outer.dmd.yaml"))
    assert (plant.num_model_instances(), plant.num_bodies()) == (2, 1)


def test_parser_prefix_is_the_namespace():
    plant = _plant()
    parser = Parser(plant, "scene")
    plant.AddModelInstance("scene")
    parser.AddModelsFromString(
        f"directives:\n- add_model: {{name: p, file: '{MALLARD_PENDULUM}'}}\n"
        "- add_frame: {name: f, X_PF: {base_frame: p::arm}}",
        "dmd.yaml",
    )
    assert plant.HasModelInstanceNamed("scene::p")
    assert GetScopedFrameByName(plant, "scene::p::f").name() == "f"


def test_add_frame_of_an_empty_name_in_a_namespace_is_located():
    """``w::`` names no frame: the Frame constructor's error, at the directive's line, and a
    frame added of a pose no other frame or directive shares."""
    plant = _plant()
    text = (
        "directives:\n- add_model_instance: {name: w}\n"
        "- add_frame: {name: 'w::f', X_PF: {base_frame: world, translation: [1, 2, 3]}}\n"
        "- add_frame: {name: 'w::', X_PF: {base_frame: world}}\n"
    )
    with pytest.raises(RuntimeError, match=r":4: error: The name parameter to the Frame constr"):
        Parser(plant).AddModelsFromString(text, "dmd.yaml")
    assert plant.num_frames() == 1
    directives = LoadModelDirectivesFromString(text.rsplit("- add_frame", 1)[0])
    ProcessModelDirectives(directives, plant)
    frame = GetScopedFrameByName(plant, "w::f")
    assert frame.model_instance() == plant.GetModelInstanceByName("w")
    directives.directives[1].add_frame.X_PF.translation[:] = 0  # (the frame's pose is its own)
    assert frame.GetFixedPoseInBodyFrame().translation().tolist() == [1, 2, 3]


@pytest.mark.skipif(drake_share() is None, reason="needs Drake's resources (pydrake)")
def test_flatten_is_idempotent_and_processes_alike():
    parser = Parser(_plant())
    parser.package_map().AddPackageXml(os.path.join(DMD, "package.xml"))
    directives = LoadModelDirectives(os.path.join(DMD, "scene.dmd.yaml"))
    flat = FlattenModelDirectives(directives, parser.package_map())
    assert all(d.add_directives is None for d in flat.directives)
    again = FlattenModelDirectives(flat, parser.package_map())
    assert again == flat


def test_load_model_directives_missing_file(tmp_path):
    with pytest.raises(RuntimeError, match="No such file .* during LoadModelDirectives"):
        LoadModelDirectives(tmp_path / "none.dmd.yaml")


# ---- the two YAML loaders ------------------------------------------------------------------------
def _canonical(value):
    """``value`` (loaded directives) as nested tuples of exact values, every field included
    (the ``_where`` of each directive too)."""
    if dataclasses.is_dataclass(value):
        fields = [(f.name, _canonical(getattr(value, f.name))) for f in dataclasses.fields(value)]
        return (type(value).__name__, *fields)
    if isinstance(value, (Transform, Rotation)):
        return (type(value).__name__, *sorted((k, _canonical(v)) for k, v in vars(value).items()))
    if isinstance(value, dict):
        return ("dict", *[(k, _canonical(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, *[float(x).hex() for x in value.ravel()])
    if isinstance(value, float):
        return float(value).hex()
    return value


def _load(text):
    try:
        return _canonical(LoadModelDirectivesFromString(text))
    except RuntimeError as e:
        return ("error", str(e))


def _loader_cases():
    cases = [text for text, _, _ in _ERRORS]
    for name in ("scene", "arm"):
        with open(os.path.join(DMD, f"{name}.dmd.yaml")) as f:
            original = f.read()
        cases += [original, *(mutant for _, mutant in _mutants(original))]
    frame = "- add_frame: {{name: {}, X_PF: {{base_frame: world, translation: [{}, 0, 0]}}}}"
    for name, number in (
        ("'1'", "1"),
        ("2", "-0"),
        ("f", "0x10"),
        ("f", "1e3"),
        ("f", "1_0"),
        ("f", ".inf"),
        ("f", "017"),
        ("null", "1.5"),
        ("f", "!!str 1"),
    ):
        cases.append("directives:\n" + frame.format(name, number))  # fmt: skip
    cases += ["", "directives:", "directives: []\n---\ndirectives: []", "- a\n- b", "&a [*a]",
              "directives: [&d {add_model_instance: {name: a}}, *d]", "directives: [*u]",
              "directives:\n- add_model_instance: {name: a, name: b}", "{[1]: 2}"]  # fmt: skip
    return cases


@pytest.mark.skipif(not __import__("yaml").__with_libyaml__, reason="PyYAML without libyaml")
def test_libyaml_and_pyyaml_loaders_read_alike(monkeypatch):
    """Directives are read with libyaml's loader when PyYAML has it, else with PyYAML's own:
    the same directives (values, types, lines) and the same messages, for the test files, each
    of their mutants and YAML's corner cases."""
    import yaml

    cases = _loader_cases()
    with_libyaml = [_load(text) for text in cases]
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    pure = [_load(text) for text in cases]
    for text, a, b in zip(cases, with_libyaml, pure, strict=True):
        assert a == b, text
    assert any(r[0] == "error" for r in pure) and any(r[0] != "error" for r in pure)


# ---- the JSON reading of common documents ------------------------------------------------------
_JSON_CASES = [
    # block style, comments, 4-space and indentless sequences, quoted keys, tags, numbers
    """# a comment
directives:   # (not in the subset: a comment after content)
- add_model_instance: {name: a}
""",
    """# a comment

directives:
    - add_model:
          name:   spaced model
          file: "package://x/y z.sdf"
          default_joint_positions:
              j1: [1, -0, 0.5e+3, .5, -0.0, +1., 12345678901234567890, 1.5e-3]
              'true': []
          default_free_body_pose:
              "":
                  translation: [0, 0, 1]
                  rotation: !Rpy {deg: [1, 2, 3]}
              body:
                  base_frame: world
                  rotation: !Identity
              other: {rotation: {deg: [4, 5, 6]}}
      # inside
    - add_weld:
        parent: yes
        child: 2001
        X_PC:
          translation: [1.0e-3, 2.0, -3]
          rotation: !AngleAxis { angle_deg: 45, axis: [0, 0, 1] }
    - add_collision_filter_group:
        name: g
        model_namespace: ns
        members:
        - a
        - 'b'
        member_groups: []
        ignored_collision_filter_groups: [g, "h"]
    - add_directives: {file: 'package://a/b.dmd.yaml', model_namespace: n}
    - add_frame: {name: f, X_PF: {base_frame: w, rotation: !Identity {}}}
""",
    # outside the subset (or not read as plain values): PyYAML reads them
    "directives:\n- add_weld: {parent: a, child: 2001-01-01}",
    "directives:\n- add_model_instance: {name: [a,\n  b]}",
    "directives:\n- add_model_instance: {name: &x a}",
    "directives:\n- add_model_instance:\n    name: a\n  extra: b",
    "directives:\n- add_model_instance: {name: it's}",
    "directives:\n- {add_model_instance: {name: a}}",
    "directives:\n- add_model_instance: {name: a}, add_model_instance: {name: b}",
    "directives:\n- add_model_instance: {'name': a}",
    "directives:\n- add_frame: {name: f, X_PF: {base_frame: w, rotation: !Rpy}}",
    "directives:\n- add_frame: {name: f, X_PF: !Rpy {base_frame: w}}",
    "directives:\n- add_model_instance: {name: a}\n---\ndirectives: []",
    "directives:\n\t- add_model_instance: {name: a}",
    "directives:\n- add_model_instance: {name:'a'}",
    "directives:\n- add_model:\n    name: m\n    file: f\n    default_joint_positions:\n"
    + f"      {'j' * 1100}: [1]",
    "directives:\n- add_model: {name: m, file: f, default_joint_positions: {0x1F: [1]}}",
    "directives:\n- add_model: {name: m, file: f, default_joint_positions: {1.50: [1]}}",
    "directives:\n- add_model: {name: m, file: f, default_joint_positions: {true: [1]}}",
]


def _read_as_json(text):
    """The ModelDirectives that reading ``text`` as JSON gives, or None if it is not."""

    from mallard.multibody.parsing import _model_directives, _yaml_json

    document = _yaml_json.read(text)
    if document is None:
        return None
    try:
        return _model_directives._JsonReader(STRING, _model_directives._plain_tag()).load(*document)
    except _model_directives._Declined:
        return None


STRING = "<literal-string>.dmd.yaml"


def test_common_documents_are_read_as_json_as_pyyaml_reads_them():
    """Documents of a common subset of YAML are read as JSON (_yaml_json), to the directives
    that PyYAML's reading gives (values to the bit, types, lines); the others (errors, YAML's
    corner cases, the test files' mutants) are read by PyYAML."""
    from mallard.multibody.parsing._model_directives import _Reader

    as_json = 0
    for text in [*_loader_cases(), *_JSON_CASES]:
        try:
            reference = _canonical(_Reader(STRING).load(text))
        except RuntimeError as e:
            reference = ("error", str(e))
        fast = _read_as_json(text)
        if fast is not None:
            as_json += 1
            assert _canonical(fast) == reference, text
        assert _load(text) == reference, text
    assert as_json > 50
    for name in ("scene", "arm"):
        with open(os.path.join(DMD, f"{name}.dmd.yaml")) as f:
            assert _read_as_json(f.read()) is not None
    assert _read_as_json(_JSON_CASES[1]) is not None
    assert all(_read_as_json(text) is None for text in [_JSON_CASES[0], *_JSON_CASES[2:]])


def test_a_text_loaded_again_gives_new_directives():
    """The ModelDirectives of each load of one text are new objects, equal, that share nothing
    that can be changed; the same text of another file is located in that file."""
    from mallard.multibody.parsing._model_directives import load_model_directives

    text = _JSON_CASES[1]
    again = "".join(list(text))  # (equal, not the same str)
    first, second = (load_model_directives(t, STRING) for t in (text, again))
    assert _canonical(first) == _canonical(second)
    for a, b in zip(first.directives, second.directives, strict=True):
        kind, item = a._item()
        assert item is not b._item()[1]
        for name, value in vars(item).items():
            if isinstance(value, (list, dict, np.ndarray, Transform)):
                assert value is not getattr(b._item()[1], name), (kind, name)
    other = load_model_directives(text, "other.dmd.yaml")  # (the same text, another file)
    assert [d._item()[1]._where for d in other.directives] == [
        ("other.dmd.yaml", where[1]) for where in (d._item()[1]._where for d in first.directives)
    ]


# ---- mutations ---------------------------------------------------------------------------------
_LOCATED = re.compile(r"\S+\.dmd\.yaml:\d+: error: |\S+:\d+: error: ")


def _mutants(text):
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if ":" not in line or line.lstrip().startswith("#"):
            continue
        key, _, value = line.partition(":")
        for new in ("", " x", " [1, 2]", " {}", " .nan", " ''"):
            yield (
                f"line {k + 1} -> {new!r}",
                "\n".join(lines[:k] + [key + ":" + new] + lines[k + 1 :]),
            )
        yield f"drop line {k + 1}", "\n".join(lines[:k] + lines[k + 1 :])


@pytest.mark.skipif(drake_share() is None, reason="the scene uses Drake's example models")
@pytest.mark.parametrize("name", ["scene", "arm"])
def test_every_mutation_is_loaded_or_rejected_with_file_and_line(name, tmp_path):
    """Each mutant of a directives file either loads (finite dynamics) or raises an error
    naming a file and line, and leaves the plant as it was."""
    shutil.copytree(DMD, tmp_path / "dmd")
    shutil.copytree(os.path.join(os.path.dirname(__file__), "mjcf"), tmp_path / "mjcf")
    original = (tmp_path / "dmd" / f"{name}.dmd.yaml").read_text()
    mutants = list(_mutants(original))
    counts = {"loaded": 0, "rejected": 0}
    for label, mutant in mutants[:: max(1, len(mutants) // 120)]:
        (tmp_path / "dmd" / f"{name}.dmd.yaml").write_text(mutant)
        plant = _plant()
        parser = Parser(plant)
        parser.package_map().AddPackageXml(str(tmp_path / "dmd" / "package.xml"))
        before = (plant.num_model_instances(), plant.num_bodies(), plant.num_frames())
        path = str(tmp_path / "dmd" / f"{name}.dmd.yaml")
        try:
            parser.AddModels(path)
        except (RuntimeError, ValueError) as e:
            counts["rejected"] += 1
            assert _LOCATED.search(str(e)), (label, str(e))
            assert (plant.num_model_instances(), plant.num_bodies(), plant.num_frames()) == before
            continue
        counts["loaded"] += 1
        plant.Finalize()
        context = plant.CreateDefaultContext()
        assert np.all(np.isfinite(plant.CalcMassMatrix(context))), label
    assert counts["loaded"] > 0 and counts["rejected"] > 0


def _read(name, position):
    """The model name and default position of joint j of directives giving them as ``name``
    and ``position``."""
    directives = LoadModelDirectivesFromString(
        f"directives:\n- add_model: {{name: {name}, file: 'package://x/y.urdf', "
        f"default_joint_positions: {{j: [{position}]}}}}"
    )
    add_model = directives.directives[0].add_model
    return add_model.name, *add_model.default_joint_positions["j"]


def _customize_pyyaml(monkeypatch):
    """Adds to PyYAML's safe loaders (their tables restored after the test) a resolver that
    tags the plain scalars m and x "!name" (no constructor: an error where it is used), a
    constructor of ints that reads 7 and a path resolver of the root."""
    import yaml

    for loader in (yaml.SafeLoader, yaml.CSafeLoader):
        for table in ("yaml_implicit_resolvers", "yaml_path_resolvers", "yaml_constructors"):
            value = getattr(loader, table)
            copy = {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
            monkeypatch.setattr(loader, table, copy)
        loader.add_implicit_resolver("!name", re.compile(r"^[mx]$"), list("mx"))
        loader.add_constructor("tag:yaml.org,2002:int", lambda loader, node: 7)
        yaml.add_path_resolver("!root", [], dict, Loader=loader)


def test_directives_read_alike_whatever_a_program_adds_to_pyyamls_loaders(monkeypatch):
    """Resolvers and constructors a program adds to PyYAML's loaders, after mallard read
    directives or before, change nothing of how it reads them (pydrake's yaml-cpp knows none
    of them). (mallard's memo of PyYAML's resolver kept m a str, while x, not seen yet, became
    "!name", an error; 0x10 read 7.)"""
    from mallard.multibody.parsing import _model_directives

    memos = (_model_directives._loader, _model_directives._resolver)
    memos += (_model_directives._plain_resolver, _model_directives._memoizing)
    expected = [("m", 1.25), ("x", 16.0), ("m", 3.0)]
    assert _read("m", "1.25") == expected[0]
    _customize_pyyaml(monkeypatch)
    assert [_read("m", "1.25"), _read("x", "0x10"), _read("m", "3")] == expected
    try:
        for memo in memos:
            memo.cache_clear()  # (as in a process that customized PyYAML first)
        assert [_read("m", "1.25"), _read("x", "0x10"), _read("m", "3")] == expected
    finally:
        for memo in memos:
            memo.cache_clear()
