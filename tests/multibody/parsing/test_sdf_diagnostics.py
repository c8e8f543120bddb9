"""Diagnostics of the SDFormat parser: located errors ("{file}:{line}: error: ...") for broken
documents, warnings through the "mallard.parsing" logger (errors with strict parsing), and no
half-built plant left behind."""

import logging
import re

import pytest

from mallard.multibody.parsing import PackageMap, _sdf
from mallard.multibody.parsing._workspace import Workspace
from mallard.multibody.plant import MultibodyPlant


def _parse(text, plant=None, strict=False, file="<literal-string>.sdf"):
    plant = plant or MultibodyPlant(0.0)
    workspace = Workspace(plant, PackageMap(), strict, False, None)
    return _sdf.parse(workspace, workspace.load_xml(text, file))


def _model(body):
    """``body`` in a model; its first line is line 3."""
    return f'<sdf version="1.9">\n<model name="m">\n{body}\n</model>\n</sdf>\n'


REVOLUTE = (
    '<link name="a"/><joint name="j" type="revolute"><parent>world</parent>'
    "<child>a</child>{}</joint>"
)

ERRORS = {
    "broken_xml": (
        '<sdf version="1.9">\n<model name="m">\n<link name="a">\n</model>\n</sdf>',
        4,
        "Failed to parse XML string: mismatched tag",
    ),
    "no_version": (
        '<sdf><model name="m"><link name="a"/></model></sdf>',
        1,
        "Required attribute[version] in element[sdf] is not specified",
    ),
    "future_version": (
        '<sdf version="2.5"><model name="m"><link name="a"/></model></sdf>',
        1,
        "Unable to convert from SDF version 2.5",
    ),
    "no_model": (
        '<sdf version="1.9"></sdf>',
        1,
        "File must have exactly one <model> or exactly one <world>, but instead has 0 "
        "models and 0 worlds",
    ),
    "two_models": (
        '<sdf version="1.9"><model name="a"><link name="l"/></model>\n'
        '<model name="b"><link name="l"/></model></sdf>',
        2,
        "Root object can only contain one model",
    ),
    "unknown_joint_type": (
        _model(
            '<link name="a"/><link name="b"/>\n<joint name="j" '
            'type="foo"><parent>a</parent><child>b</child></joint>'
        ),
        4,
        "Joint type of foo is invalid",
    ),
    "unknown_child": (
        _model(
            '<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent>'
            "<child>zz</child></joint>"
        ),
        4,
        "Child frame with name[zz] specified by joint with name[j] not found in "
        "model with name[m].",
    ),
    "unknown_parent": (
        _model(
            '<link name="a"/>\n<joint name="j" type="fixed"><parent>zz'
            "</parent><child>a</child></joint>"
        ),
        4,
        "Parent frame with name[zz] specified by joint with name[j] not found",
    ),
    "unknown_relative_to": (
        _model('<link name="a">\n<pose relative_to="nope">0 0 0 0 0 0</pose></link>'),
        4,
        "relative_to name[nope] specified by link with name[a] does not "
        "match a nested model, link, joint, or frame name in model with "
        "name[m].",
    ),
    "unknown_attached_to": (
        _model('<link name="a"/>\n<frame name="f" attached_to="zz"/>'),
        4,
        "attached_to name[zz] specified by frame with name[f] does not match",
    ),
    "attached_to_cycle": (
        _model(
            '<link name="a"/>\n<frame name="f" attached_to="g"/><frame name="g" attached_to="f"/>'
        ),
        4,
        "FrameAttachedToGraph cycle detected",
    ),
    "relative_to_cycle": (
        _model(
            '<link name="a">\n<pose relative_to="f"/></link>'
            '<frame name="f" attached_to="a"><pose relative_to="a"/>'
            "</frame>"
        ),
        None,
        "PoseRelativeToGraph cycle detected",
    ),
    "duplicate_name": (
        _model('<link name="a"/>\n<frame name="a"/>'),
        4,
        "Non-unique name[a] detected 2 times in XML children of model with name[m].",
    ),
    "missing_name": (
        _model("<link/>"),
        3,
        "Required attribute[name] in element[link] is not specified in SDF.",
    ),
    "no_links": (_model('<frame name="f"/>'), 2, "A model must have at least one link."),
    "unknown_element": (
        _model('<link name="a">\n<foo/></link><bar/>'),
        4,
        "XML Element[foo], child of element[link], not defined in SDF.",
    ),
    "unknown_drake_element": (
        _model('<link name="a">\n<drake:foo/></link>'),
        4,
        "Unsupported SDFormat element in link: drake:foo",
    ),
    "bad_number": (
        _model('<link name="a"><inertial>\n<mass>abc</mass></inertial></link>'),
        4,
        "Error reading element <mass>",
    ),
    "bad_pose": (
        _model('<link name="a">\n<pose>1 2 3</pose></link>'),
        4,
        "Error reading element <pose>",
    ),
    "zero_axis": (
        _model(REVOLUTE.format("<axis>\n<xyz>0 0 0</xyz></axis>")),
        4,
        "The norm of the xyz vector cannot be zero",
    ),
    "no_axis": (_model(REVOLUTE.format("")), 3, "An axis must be specified for joint 'j'"),
    "negative_damping": (
        _model(REVOLUTE.format("<axis><dynamics><damping>-1</damping></dynamics></axis>")),
        3,
        "Joint damping is negative for joint 'j'. Joint damping must be a non-negative number.",
    ),
    "reversed_limits": (
        _model(REVOLUTE.format("<axis><limit><lower>1</lower><upper>0</upper></limit></axis>")),
        3,
        "The lower limit must be lower (or equal) than the upper limit for joint 'j'.",
    ),
    "negative_acceleration": (
        _model(
            REVOLUTE.format(
                "<axis><limit>\n<drake:acceleration>-1</drake:acceleration></limit></axis>"
            )
        ),
        3,
        "Acceleration limit is negative",
    ),
    "negative_prismatic_stiffness": (
        _model(
            REVOLUTE.replace("revolute", "prismatic").format(
                "<axis><dynamics><spring_stiffness>-1</spring_stiffness></dynamics></axis>"
            )
        ),
        3,
        "The stiffness specified for joint 'j' must be non-negative.",
    ),
    "self_joint": (
        _model(
            '<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent>'
            "<child>a</child></joint>"
        ),
        4,
        "must specify different frame names for parent and child",
    ),
    "world_child": (
        _model(
            '<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent>'
            "<child>world</child></joint>"
        ),
        4,
        "specified invalid child link",
    ),
    "gearbox": (
        _model(
            '<link name="a"/><link name="b"/>\n<joint name="j" type="gearbox">'
            "<parent>a</parent><child>b</child></joint>"
        ),
        4,
        "Joint type (gearbox) not supported for joint 'j'.",
    ),
    "static_revolute": (
        _model(
            "<static>true</static>"
            + REVOLUTE.replace("world", "b").format("<axis/>")
            + '<link name="b"/>'
        ),
        2,
        "Only fixed joints are permitted in static models.",
    ),
    "world_revolute": (
        '<sdf version="1.9"><world name="w"><model name="m"><link name="a"/>'
        '</model>\n<joint name="j" type="revolute"><parent>world</parent>'
        "<child>m::a</child><axis/></joint></world></sdf>",
        1,
        "Only fixed joints are permitted in world joints.",
    ),
    "non_orthogonal_universal": (
        _model(
            '<link name="a"/>\n<joint name="u" type="universal"><parent>world</parent>'
            "<child>a</child><axis><xyz>1 0 0</xyz></axis><axis2><xyz>1 1 0</xyz></axis2>"
            "</joint>"
        ),
        4,
        "axis and axis2 must be orthogonal for joint 'u'",
    ),
    "undefined_package": (
        _model('<link name="a"/>\n<include><uri>package://nopkg/x.sdf</uri></include>'),
        4,
        "URI 'package://nopkg/x.sdf' refers to unknown package 'nopkg'",
    ),
    "relative_uri_in_string": (
        _model('<link name="a"/>\n<include><uri>x.sdf</uri></include>'),
        4,
        "is invalid when parsing a string instead of a filename",
    ),
    "drake_joint_unknown_frame": (
        _model(
            '<link name="a"/>\n<drake:joint name="p" type="planar"><drake:parent>zz'
            "</drake:parent><drake:child>a</drake:child><drake:damping>0 0 0</drake:damping>"
            "</drake:joint>"
        ),
        4,
        "Frame 'zz' specified for <drake:parent> does not exist",
    ),
    "drake_joint_unknown_type": (
        _model(
            '<link name="a"/><link name="b"/>\n<drake:joint name="p" type="spiral">'
            "<drake:parent>a</drake:parent><drake:child>b</drake:child></drake:joint>"
        ),
        4,
        "has unrecognized value for 'type' attribute: spiral",
    ),
    "controller_gains_without_d": (
        _model(REVOLUTE.format('<axis/>\n<drake:controller_gains p="1"/>')),
        4,
        "<drake:controller_gains>: Unable to find the 'd' attribute.",
    ),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_error_is_located_and_leaves_the_plant_unchanged(case):
    text, line, message = ERRORS[case]
    plant = MultibodyPlant(0.0)
    before = (plant.num_model_instances(), plant.num_bodies(), plant.num_frames())
    with pytest.raises(RuntimeError) as info:
        _parse(text, plant)
    where = "<literal-string>.sdf:" + (f"{line}:" if line is not None else "")
    assert str(info.value).startswith(where), str(info.value)
    assert ": error: " in str(info.value)
    assert message in str(info.value)
    assert (plant.num_model_instances(), plant.num_bodies(), plant.num_frames()) == before


def test_missing_include_file_is_located(tmp_path):
    path = tmp_path / "main.sdf"
    path.write_text(_model('<link name="a"/>\n<include><uri>missing.sdf</uri></include>'))
    workspace = Workspace(MultibodyPlant(0.0), PackageMap(), False, False, None)
    with pytest.raises(RuntimeError, match=rf"{path}:4: error: URI 'missing.sdf' resolved to"):
        _sdf.parse(workspace, workspace.load_file(str(path)))


def test_a_loop_parses_and_finalize_rejects_it():
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent>{p}</parent><child>{c}</child><axis/></joint>'
        for i, (p, c) in enumerate((("a", "b"), ("b", "c"), ("c", "a")))
    )
    plant = MultibodyPlant(0.0)
    _parse(_model('<link name="a"/><link name="b"/><link name="c"/>' + joints), plant)
    with pytest.raises(RuntimeError, match="loop"):
        plant.Finalize()


def test_non_physical_inertia_warns_and_gets_a_plausible_stand_in(caplog):
    plant = MultibodyPlant(0.0)
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        _parse(
            _model(
                '<link name="a"><inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy>'
                "<izz>5</izz></inertia></inertial></link>"
            ),
            plant,
        )
    assert "<literal-string>.sdf:3: warning: While parsing inertia matrix" in caplog.text
    body = plant.GetBodyByName("a")
    assert body.default_mass() == pytest.approx(2.0)  # a solid sphere of water of 2 kg


def test_negative_mass_warns(caplog):
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        _parse(_model('<link name="a"><inertial><mass>-1</mass></inertial></link>'))
    assert "While re-expressing as central inertia" in caplog.text


@pytest.mark.parametrize(
    "body, message",
    [
        (
            '<link name="a"><self_collide>1</self_collide></link>',
            "Ignoring unsupported SDFormat element in link: self_collide",
        ),
        (
            '<link name="a"><gravity>0</gravity></link>',
            "Unsupported value for SDFormat element gravity: false",
        ),
        (
            '<link name="a"/><joint name="b" type="ball"><parent>world</parent><child>a</child>'
            "<axis/></joint>",
            "A ball joint axis will be ignored.",
        ),
    ],
)
def test_warnings_are_logged_or_errors_when_strict(body, message, caplog):
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        _parse(_model(body))
    assert ": warning: " in caplog.text
    assert message in caplog.text
    plant = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match=re.escape(message)):
        _parse(_model(body), plant, strict=True)
    assert plant.num_bodies() == 1


def test_model_name_override_needs_a_single_model():
    text = (
        '<sdf version="1.9"><world name="w"><model name="a"><link name="l"/></model>'
        '<model name="b"><link name="l"/></model></world></sdf>'
    )
    plant = MultibodyPlant(0.0)
    workspace = Workspace(plant, PackageMap(), False, False, None)
    with pytest.raises(RuntimeError, match="File must have a single <model> element."):
        _sdf.parse(workspace, workspace.load_xml(text, "<literal-string>.sdf"), "x")


def test_a_warnings_record_is_the_parsers_at_diagnostics_warning(caplog):
    """Each warning is one record of the ``mallard.parsing`` logger at WARNING, its caller
    Diagnostics.warning (made without looking up the stack)."""
    from mallard.multibody.parsing import _diagnostics

    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        _parse(_model('<link name="a"><self_collide>true</self_collide></link>'))
    (record,) = caplog.records
    assert (record.name, record.levelno, record.funcName) == ("mallard.parsing", 30, "warning")
    assert record.pathname == _diagnostics.__file__
    assert record.lineno == _diagnostics.Diagnostics.warning.__code__.co_firstlineno
    assert record.getMessage().endswith(
        ": warning: Ignoring unsupported SDFormat element in link: self_collide"
    )
