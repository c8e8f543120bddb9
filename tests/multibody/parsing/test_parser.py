"""Parser: construction overloads, accessors, options and file-type dispatch (pydrake's API and
messages)."""

import pytest

from mallard.geometry import SceneGraph
from mallard.multibody.parsing import PackageMap, Parser
from mallard.multibody.parsing._parser import _format_parser
from mallard.multibody.plant import MultibodyPlant
from tests.multibody.parsing.urdf_helpers import link, robot

TEXT = robot(link("a"), name="r")


def test_constructors():
    plant = MultibodyPlant(0.0)
    scene_graph = object()
    for parser, sg in (
        (Parser(plant), None),
        (Parser(plant, scene_graph), scene_graph),
        (Parser(plant, scene_graph, "pre"), scene_graph),
        (Parser(plant, "pre"), None),
        (Parser(plant=plant, scene_graph=scene_graph, model_name_prefix="pre"), scene_graph),
        (Parser(plant, model_name_prefix="pre"), None),
    ):
        assert parser.plant() is plant
        assert parser.scene_graph() is sg
        assert parser.builder() is None
        assert isinstance(parser.package_map(), PackageMap)
        assert parser.package_map() is parser.package_map()
        assert parser.GetAutoRenaming() is False


def test_constructor_errors():
    with pytest.raises(RuntimeError, match="plant_ != nullptr"):
        Parser(None)
    with pytest.raises(TypeError):
        Parser(42)
    with pytest.raises(TypeError):
        Parser(MultibodyPlant(0.0), None, 3)
    with pytest.raises(TypeError):
        Parser()


def test_parser_of_a_builder_finds_its_plant_and_scene_graph():
    from mallard.multibody.plant import AddMultibodyPlantSceneGraph
    from mallard.systems.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(builder)
    assert parser.plant() is plant and parser.scene_graph() is scene_graph
    parser.AddModelsFromUrl("package://mallard/acrobot.urdf")
    assert plant.num_bodies() == 3
    other = MultibodyPlant(0.0)
    assert Parser(builder=None, plant=other).plant() is other
    assert Parser(builder, model_name_prefix="left").plant() is plant
    lonely = DiagramBuilder()
    lonely.AddSystem(MultibodyPlant(0.0))  # not named "plant"
    with pytest.raises(RuntimeError, match="does not contain a subsystem named plant"):
        Parser(lonely)
    with pytest.raises(RuntimeError, match="either builder or plant"):
        Parser(builder=None)


def test_each_parser_has_its_own_package_map():
    plant = MultibodyPlant(0.0)
    first, second = Parser(plant), Parser(plant)
    assert first.package_map().GetPackageNames() == PackageMap().GetPackageNames()
    first.package_map().Remove("mallard")
    assert second.package_map().Contains("mallard")


def test_file_types():
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(RuntimeError) as info:
        parser.AddModelsFromString(TEXT, "foo")
    assert str(info.value) == (
        "error: The file '<literal-string>.foo' is not a recognized type. Known types are: "
        ".urdf, .sdf, .xml (Mujoco), .dmd.yaml, .obj"
    )
    with pytest.raises(RuntimeError, match="'/tmp/x.txt' is not a recognized type"):
        parser.AddModels("/tmp/x.txt")
    # Extensions are matched with Drake's exact case: .urdf or .URDF.
    assert parser.AddModelsFromString(TEXT, "URDF")
    with pytest.raises(RuntimeError, match="not a recognized type"):
        parser.AddModelsFromString(TEXT, "Urdf")
    with pytest.raises(NotImplementedError, match="pydrake parses but mallard does not"):
        parser.AddModelsFromString(TEXT, "obj")
    with pytest.raises(RuntimeError, match=r"^<literal-string>.dmd.yaml:1: error: Expected a"):
        parser.AddModelsFromString(TEXT, "dmd.yaml")
    # MJCF text is labeled "<literal-string>.urdf" in messages, as Drake labels it.
    with pytest.raises(RuntimeError, match=r"^<literal-string>.urdf:1: error: .* mujoco tag"):
        parser.AddModelsFromString(TEXT, "xml")


def test_sdf_goes_to_the_sdformat_parser():
    try:
        from mallard.multibody.parsing import _sdf
    except ModuleNotFoundError:
        with pytest.raises(NotImplementedError, match="SDFormat parser is not available"):
            _format_parser("model.sdf")
    else:
        assert _format_parser("model.sdf") is _sdf.parse
        assert _format_parser("model.SDF") is _sdf.parse


def test_add_models_overloads():
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(TypeError):
        parser.AddModels()
    with pytest.raises(TypeError):
        parser.AddModels(file_contents=TEXT)
    with pytest.raises(TypeError):
        parser.AddModels("x.urdf", url="package://mallard/pendulum.urdf")
    assert len(parser.AddModels(url="package://mallard/pendulum.urdf")) == 1


def test_url_errors():
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(RuntimeError) as info:
        parser.AddModelsFromUrl("http://example.com/robot.urdf")
    assert str(info.value) == (
        "error: URI 'http://example.com/robot.urdf' specifies an unsupported scheme; supported "
        "schemes are 'file://', 'model://', and 'package://'."
    )
    with pytest.raises(RuntimeError) as info:
        parser.AddModelsFromUrl("file:///nowhere/robot.urdf")
    assert str(info.value) == (
        "error: URI 'file:///nowhere/robot.urdf' resolved to '/nowhere/robot.urdf' which does "
        "not exist."
    )
    with pytest.raises(RuntimeError, match="is invalid when parsing a string"):
        parser.AddModelsFromUrl("robot.urdf")


def test_finalized_plant():
    plant = MultibodyPlant(0.0)
    plant.Finalize()
    with pytest.raises(RuntimeError, match="finalized"):
        Parser(plant).AddModelsFromString(TEXT, "urdf")


def test_auto_renaming_type():
    with pytest.raises(TypeError):
        Parser(MultibodyPlant(0.0)).SetAutoRenaming(1)


def test_strict_parsing_applies_to_later_calls():
    parser = Parser(MultibodyPlant(0.0))
    warned = TEXT.replace('<robot name="r">', '<robot name="r" version="1">')
    parser.AddModelsFromString(warned, "urdf")
    parser.SetStrictParsing()
    with pytest.raises(RuntimeError, match="error: The attribute 'version'"):
        parser.AddModelsFromString(warned.replace('"r"', '"s"'), "urdf")


def test_file_uris_make_no_package_map(tmp_path):
    """A directives' ``file://`` model and a ``file://`` mesh resolve without the map."""
    pytest.importorskip("yaml")
    mesh = f'<visual><geometry><mesh filename="file://{tmp_path}/c.obj"/></geometry></visual>'
    (tmp_path / "c.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (tmp_path / "m.urdf").write_text(robot(link("b", mesh), name="m"))
    directives = f"directives:\n- add_model: {{name: x, file: 'file://{tmp_path}/m.urdf'}}\n"
    plant = MultibodyPlant(0.0)
    plant.RegisterAsSourceForSceneGraph(SceneGraph())
    parser = Parser(plant)
    assert parser.AddModelsFromString(directives, "dmd.yaml") == [plant.GetModelInstanceByName("x")]
    assert plant.num_bodies() == 2 and parser._package_map is None


def test_warnings_go_to_logging_not_stdout(caplog, capsys):
    parser = Parser(MultibodyPlant(0.0))
    parser.AddModelsFromString(
        TEXT.replace('<robot name="r">', '<robot name="r" version="1">'), "urdf"
    )
    assert capsys.readouterr() == ("", "")
    assert [r.name for r in caplog.records] == ["mallard.parsing"]


def test_package_map_made_when_first_needed(tmp_path, monkeypatch):
    """The map is made at the first package_map() or package URI, not at Parser() (most
    documents need none), unless networking is off: then Parser() fails as Drake's does when
    drake_models is not cached."""
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    assert parser._package_map is None
    parser.AddModelsFromString(TEXT, "urdf")
    assert parser._package_map is None
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "package.xml").write_text("<package><name>pkg</name></package>")
    (package / "m.urdf").write_text(robot(link("b"), name="m"))
    parser.package_map().Add("pkg", str(package))
    assert parser.AddModelsFromUrl("package://pkg/m.urdf") == [plant.GetModelInstanceByName("m")]
    mesh = '<visual><geometry><mesh filename="package://nowhere/c.obj"/></geometry></visual>'
    (tmp_path / "n.urdf").write_text(robot(link("c", mesh), name="n"))
    other = Parser(MultibodyPlant(0.0))
    other.plant().RegisterAsSourceForSceneGraph(SceneGraph())
    with pytest.raises(RuntimeError, match="unknown package 'nowhere'"):
        other.AddModels(str(tmp_path / "n.urdf"))
    assert isinstance(other._package_map, PackageMap)
    monkeypatch.setenv("DRAKE_ALLOW_NETWORK", "none")
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path))  # (an empty download cache)
    with pytest.raises(RuntimeError, match="AddRemote on 'drake_models' only provides network"):
        Parser(MultibodyPlant(0.0))
