"""The constraint tags Drake's parsers read: ``drake:ball_constraint`` and
``drake:tendon_constraint`` (URDF and SDFormat), MJCF's ``<equality><connect>``; the
constraints they add, and the errors and warnings of bad tags, located, with Drake's text
(as pydrake 1.51 reports them; the same models against pydrake: tests/conformance/
test_constraints.py)."""

import logging

import numpy as np
import pytest

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant

INERTIAL = (
    '<inertial><mass value="1"/>'
    '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
)
URDF_LINKS = f"""<link name="base"/><link name="l1">{INERTIAL}</link>
<link name="l2">{INERTIAL}</link><joint name="j1" type="revolute"><parent link="base"/>
<child link="l1"/><axis xyz="0 1 0"/></joint>
<joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0 0 -1"/>
<axis xyz="0 1 0"/></joint>"""  # (lines 2-6)
SDF_INERTIAL = (
    "<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz><ixy>0</ixy>"
    "<ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
)
SDF_LINKS = f"""<link name="l1">{SDF_INERTIAL}</link>
<link name="l2"><pose>0 0 -1 0 0 0</pose>{SDF_INERTIAL}</link>
<joint name="j1" type="revolute"><parent>world</parent><child>l1</child>
<axis><xyz>0 1 0</xyz></axis></joint>
<joint name="j2" type="revolute"><parent>l1</parent><child>l2</child>
<axis><xyz>0 1 0</xyz></axis></joint>"""  # (lines 3-8)


def urdf(body):
    """A two-link URDF with ``body`` on line 7."""
    return f'<robot name="r" xmlns:drake="http://drake.mit.edu">\n{URDF_LINKS}\n{body}\n</robot>'


def sdf(body):
    """A two-link SDFormat model with ``body`` on line 9."""
    return (
        '<sdf version="1.7" xmlns:drake="http://drake.mit.edu">\n<model name="m">\n'
        f"{SDF_LINKS}\n{body}\n</model>\n</sdf>"
    )


def ball(kind, body_B="l2", p_AP="0 0 -1", p_BQ="0 0 0", extra=""):
    """A ball constraint between l1 and ``body_B`` (a child tag left out if None)."""
    values = {"body_A": "l1", "body_B": body_B, "p_AP": p_AP, "p_BQ": p_BQ}
    tags = []
    for key, value in values.items():
        if value is None:
            continue
        tag = f"drake:ball_constraint_{key}"
        if kind == "urdf":
            attribute = "name" if key.startswith("body") else "value"
            tags.append(f'<{tag} {attribute}="{value}"/>')
        else:
            tags.append(f"<{tag}>{value}</{tag}>")
    return f"<drake:ball_constraint>{''.join(tags)}{extra}</drake:ball_constraint>"


TENDON_VALUES = {"offset": "0.1", "lower_limit": "-0.5", "upper_limit": "0.5",
                 "stiffness": "1000", "damping": "10"}  # fmt: skip


def tendon(kind, joints='name="j1" a="1.0"|name="j2" a="-2.0"', extra="", **changes):
    """A tendon constraint on j1 and j2 (values ``changes``; None leaves a tag out)."""
    values = dict(TENDON_VALUES, **changes)
    tags = [f"<drake:tendon_constraint_joint {j}/>" for j in joints.split("|") if j]
    for key, value in values.items():
        if value is None:
            continue
        tag = f"drake:tendon_constraint_{key}"
        tags.append(f'<{tag} value="{value}"/>' if kind == "urdf" else f"<{tag}>{value}</{tag}>")
    return f"<drake:tendon_constraint>{''.join(tags)}{extra}</drake:tendon_constraint>"


def load(kind, body, time_step=0.01):
    plant = MultibodyPlant(time_step)
    text = urdf(body) if kind == "urdf" else sdf(body)
    Parser(plant).AddModelsFromString(text, kind)
    return plant


def error_of(kind, body):
    with pytest.raises(RuntimeError) as info:
        load(kind, body)
    return str(info.value)


@pytest.mark.parametrize("kind", ["urdf", "sdf"])
def test_ball_and_tendon_constraints_are_added(kind):
    plant = load(kind, ball(kind) + tendon(kind))
    assert plant.num_ball_constraints() == 1 and plant.num_tendon_constraints() == 1
    plant.Finalize()
    l1, l2 = plant.GetBodyByName("l1"), plant.GetBodyByName("l2")
    (spec,) = plant.get_ball_constraint_specs().values()
    assert (spec.body_A, spec.body_B) == (l1.index(), l2.index())
    np.testing.assert_array_equal(spec.p_AP, [0, 0, -1])
    np.testing.assert_array_equal(spec.p_BQ, [0, 0, 0])
    (spec,) = plant.get_tendon_constraint_specs().values()
    j1, j2 = plant.GetJointByName("j1"), plant.GetJointByName("j2")
    assert spec.joints == [j1.index(), j2.index()] and spec.a == [1.0, -2.0]
    values = (spec.offset, spec.lower_limit, spec.upper_limit, spec.stiffness, spec.damping)
    assert values == (0.1, -0.5, 0.5, 1000.0, 10.0)


def test_urdf_constraint_errors_as_drake():
    S = "<literal-string>.urdf:7: error: "
    cases = [
        (ball("urdf", body_B=None), "Unable to find the <drake:ball_constraint_body_B> tag"),
        (ball("urdf", body_B="zz"),
         "Body: zz specified for <drake:ball_constraint_body_B> does not exist in the model."),
        (ball("urdf", p_BQ=None), "Unable to find the <drake:ball_constraint_p_BQ> tag"),
        (ball("urdf", body_B="world"),
         "Body: world specified for <drake:ball_constraint_body_B> does not exist in the model."),
        (tendon("urdf", offset=None), "Unable to find the <drake:tendon_constraint_offset> tag"),
        (tendon("urdf", joints='name="jx" a="1.0"'),
         "<drake:tendon_constraint>: Joint 'jx' specified for <drake:tendon_constraint_joint> "
         "does not exist in the model."),
        (tendon("urdf", joints='name="j1"'),
         "Unable to read the 'a' attribute for the <drake:tendon_constraint_joint> tag"),
        (tendon("urdf", joints='a="1"'),
         'The tag <drake:tendon_constraint_joint> does not specify the required attribute '
         '"name".'),
        (tendon("urdf", joints='name="j1" a="x"'),
         "Expected single value for attribute 'a' got 'x'"),
    ]  # fmt: skip
    for body, message in cases:
        assert error_of("urdf", body) == S + message
    message = error_of("urdf", tendon("urdf").replace('"0.1"', '""'))
    assert message.startswith(S + "Expected single value for attribute 'value' got ''")


def test_sdf_constraint_errors_and_warnings_as_drake(caplog):
    S = "<literal-string>.sdf:9: error: "
    cases = [
        (ball("sdf", body_B=None),
         "<drake:ball_constraint>: Unable to find the <drake:ball_constraint_body_B> child tag."),
        (ball("sdf", body_B="zz"),
         "<drake:ball_constraint>: Body 'zz' specified for <drake:ball_constraint_body_B> does "
         "not exist in the model."),
        (ball("sdf", p_BQ=None),
         "<drake:ball_constraint>: Unable to find the <drake:ball_constraint_p_BQ> child tag."),
        (tendon("sdf", offset=None),
         "<drake:tendon_constraint>: Unable to find the <drake:tendon_constraint_offset> child "
         "tag."),
        (tendon("sdf", joints='name="jx" a="1.0"'),
         "<drake:tendon_constraint>: Joint 'jx' specified for <drake:tendon_constraint_joint> "
         "does not exist in the model."),
        (tendon("sdf", joints='name="j1"'),
         'The tag <drake:tendon_constraint_joint> is missing the required attribute "a"'),
        (tendon("sdf", joints='a="1"'),
         'The tag <drake:tendon_constraint_joint> is missing the required attribute "name"'),
        ("<drake:distance_constraint/>",
         "Unsupported SDFormat element in model: drake:distance_constraint"),
    ]  # fmt: skip
    for body, message in cases:
        assert error_of("sdf", body) == S + message
    caplog.set_level(logging.WARNING, logger="mallard.parsing")
    plant = load("sdf", ball("sdf", extra="<foo/>") + tendon("sdf", extra="<bar/>"))
    assert plant.num_constraints() == 2
    warnings = [r.getMessage() for r in caplog.records if r.name == "mallard.parsing"]
    assert warnings == [
        "<literal-string>.sdf:9: warning: Ignoring unsupported SDFormat element in "
        "drake:ball_constraint: foo",
        "<literal-string>.sdf:9: warning: Ignoring unsupported SDFormat element in "
        "drake:tendon_constraint: bar",
    ]


@pytest.mark.parametrize("kind", ["urdf", "sdf"])
def test_the_plants_checks_apply_to_parsed_constraints(kind):
    """The plant's errors (AddBallConstraint, AddTendonConstraint), as Drake raises them from
    its parsers, and nothing is added."""
    message = error_of(kind, ball(kind, body_B="l1"))
    assert message == (
        "Invalid set of parameters for constraint between bodies 'l1' and 'l1'. For a ball "
        "constraint, points P and Q must be on two distinct bodies, i.e. body_A != body_B must "
        "be satisfied."
    )
    assert error_of(kind, tendon(kind, stiffness="-1000")) == (
        "AddTendonConstraint(): condition '*stiffness > 0.0' failed."
    )
    assert error_of(kind, tendon(kind, joints="")) == (
        "AddTendonConstraint(): condition 'joints.size() > 0' failed."
    )
    if kind == "sdf":  # (a URDF value is a C++ stream extraction: no "inf")
        assert error_of(kind, tendon(kind, lower_limit="inf")) == (
            "AddTendonConstraint(): condition '*lower_limit < kInf' failed."
        )
    plant = MultibodyPlant(0.01)
    with pytest.raises(RuntimeError):
        Parser(plant).AddModelsFromString(
            urdf(ball("urdf") + ball("urdf", body_B="l1"))
            if kind == "urdf"
            else sdf(ball("sdf") + ball("sdf", body_B="l1")),
            kind,
        )
    assert plant.num_constraints() == 0 and plant.num_bodies() == 1
