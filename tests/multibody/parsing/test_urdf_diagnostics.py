"""URDF diagnostics: every error raises RuntimeError located as "{file}:{line}: error: ..."
(with Drake's text), every warning is logged to "mallard.parsing" (an error with strict
parsing), and a model that fails to load leaves the plant as it was."""

import pytest

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant
from tests.multibody.parsing.urdf_helpers import capture, joint, link, load, robot, warnings_of

S = "<literal-string>.urdf"


def error_of(text, **kwargs):
    with pytest.raises(RuntimeError) as info:
        load(text, **kwargs)
    return str(info.value)


def test_broken_tag_is_a_located_xml_error():
    text = robot(link("a"), "<link name='b'>", "</robot>")
    message = error_of(text)
    assert message.startswith(f"{S}:4: error: Failed to parse XML string: ")


def test_missing_file(tmp_path):
    path = str(tmp_path / "missing.urdf")
    with pytest.raises(RuntimeError, match=f"^{path}:0: error: Failed to parse XML file: "):
        Parser(MultibodyPlant(0.0)).AddModels(path)


def test_broken_file_names_the_absolute_path(tmp_path, monkeypatch):
    (tmp_path / "bad.urdf").write_text('<robot name="x">\n<link name="a">\n</robot>')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError) as info:
        Parser(MultibodyPlant(0.0)).AddModels("bad.urdf")
    assert str(info.value).startswith(f"{tmp_path / 'bad.urdf'}:3: error: Failed to parse XML file")


def test_missing_mass_warns_and_uses_a_plausible_inertia(caplog):
    capture(caplog)
    inertial = '<inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
    plant, _, _ = load(robot(link("a", inertial)))
    (message,) = warnings_of(caplog)
    assert message == (
        f"{S}:2: warning: While re-expressing as central inertia: SetFromRotationalInertia(): "
        "condition 'mass > 0' failed."
    )
    # Drake's stand-in: a 1 kg solid sphere of water at the COM.
    assert plant.GetBodyByName("a").default_mass() == pytest.approx(1.0)


def test_missing_mass_and_inertia_is_a_massless_body(caplog):
    capture(caplog)
    plant, _, _ = load(robot(link("a", "<inertial/>"), link("b", "")))
    assert warnings_of(caplog) == []
    assert plant.GetBodyByName("a").default_mass() == 0.0
    assert plant.GetBodyByName("b").default_mass() == 0.0


@pytest.mark.parametrize(
    "moments, reason",
    [
        ('ixx="-1" iyy="1" izz="1"', "are invalid since at least one is negative."),
        ('ixx="1" iyy="1" izz="3"', "do not satisfy the triangle inequality."),
    ],
)
def test_non_physical_inertia_warns(caplog, moments, reason):
    capture(caplog)
    inertial = (
        f'<inertial><origin xyz="1 0 0"/><mass value="2"/>'
        f'<inertia {moments} ixy="0" ixz="0" iyz="0"/></inertial>'
    )
    plant, _, _ = load(robot(link("a", inertial)))
    (message,) = warnings_of(caplog)
    assert message.startswith(
        f"{S}:2: warning: While parsing inertia matrix: MakeFromMomentsAndProductsOfInertia(): "
        "The rotational inertia\n["
    )
    assert "did not pass the test CouldBePhysicallyValid()." in message
    assert message.endswith(reason)
    body = plant.GetBodyByName("a")
    assert body.default_mass() == pytest.approx(2.0)
    assert body.default_com() == pytest.approx([1.0, 0.0, 0.0])


def test_unknown_joint_type():
    text = robot(link("a"), joint("j", "hinge", "world", "a"))
    assert error_of(text) == f"{S}:3: error: Joint 'j' has unrecognized type: 'hinge'"


def test_undefined_package_in_a_url():
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(RuntimeError) as info:
        parser.AddModelsFromUrl("package://nowhere/robot.urdf")
    assert str(info.value) == (
        "error: URI 'package://nowhere/robot.urdf' refers to unknown package 'nowhere'"
    )


def test_undefined_package_in_a_mesh_with_a_scene_graph():
    mesh = '<visual><geometry><mesh filename="package://nowhere/arm.obj"/></geometry></visual>'
    text = robot(link("a", extra=mesh))
    # Without a scene graph, geometry is not parsed (as Drake): no error.
    load(text)
    assert error_of(text, scene_graph=object()) == (
        f"{S}:2: error: URI 'package://nowhere/arm.obj' refers to unknown package 'nowhere'"
    )


def test_loop_fails_at_finalize_as_in_drake():
    text = robot(
        link("a"),
        link("b"),
        link("c"),
        joint("ab", "revolute", "a", "b"),
        joint("bc", "revolute", "b", "c"),
        joint("ca", "revolute", "c", "a"),
    )
    plant, _, _ = load(text)
    with pytest.raises(RuntimeError, match="form one or more loops in the system graph"):
        plant.Finalize()


def test_loop_joint_element():
    text = robot(link("a"), '<loop_joint name="x" type="revolute"/>')
    assert error_of(text) == f"{S}:1: error: loop joints are not supported in MultibodyPlant"


def test_link_not_found():
    text = robot(link("a"), joint("j", "revolute", "world", "b"))
    assert error_of(text) == (
        f"{S}:1: error: Could not find link named 'b' with model instance ID 2 for element 'j'."
    )


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "<robot/>",
            "1: error: Your robot must have a name attribute or a model name must be specified.",
        ),
        ('<model name="x"/>', "1: error: URDF does not contain a robot tag."),
        ('<robot name="x"><link/></robot>', "1: error: link tag is missing name attribute."),
        (
            '<robot name="x"><joint type="fixed"/></robot>',
            "1: error: joint tag is missing name attribute",
        ),
        (
            '<robot name="x"><joint name="j"/></robot>',
            "1: error: joint 'j' is missing type attribute",
        ),
        (
            '<robot name="x"><joint name="j" type="fixed"/></robot>',
            "1: error: joint 'j' doesn't have a parent node!",
        ),
        (
            '<robot name="x"><joint name="j" type="fixed"><parent/></joint></robot>',
            "1: error: joint j's parent does not have a link attribute!",
        ),
        (
            '<robot name="x"><joint name="j" type="fixed"><parent link="world"/></joint></robot>',
            "1: error: joint 'j' doesn't have a child node!",
        ),
        ('<robot name="x"><frame link="world"/></robot>', "1: error: parsing frame name."),
        ('<robot name="x"><frame name="f"/></robot>', "1: error: missing link name for frame f."),
        (
            '<robot name="x"><material name="m"/></robot>',
            "1: error: Material 'm' not previously defined, but has no color or texture "
            "information.",
        ),
        (
            '<robot name="x"><material/></robot>',
            "1: error: Material tag is missing a required name",
        ),
    ],
)
def test_missing_parts(body, message):
    assert error_of(body) == f"{S}:{message}"


def test_bad_numbers():
    text = robot(link("a", '<inertial><mass value="1 2"/></inertial>'))
    assert error_of(text) == f"{S}:2: error: Expected single value for attribute 'value' got '1 2'"
    text = robot(link("a"), joint("j", "revolute", "world", "a", '<limit upper="inf"/>'))
    # (Drake's message, and why: URDF numbers are read as C++ streams read them, never inf.)
    assert error_of(text) == (
        f"{S}:3: error: Expected single value for attribute 'upper' got 'inf' "
        "(numbers must be finite: NaN and inf are not read)"
    )
    # As C++ stream extraction, a number followed by text reads the number.
    plant, _, _ = load(
        robot(link("a"), joint("j", "revolute", "world", "a", '<limit upper="1.5abc"/>'))
    )
    assert plant.GetJointByName("j").position_upper_limits() == [1.5]


def test_bad_vectors_raise_value_error_as_pydrake():
    text = robot(link("a"), joint("j", "revolute", "world", "a", '<origin xyz="1 2"/>'))
    with pytest.raises(ValueError) as info:
        load(text)
    assert str(info.value) == f"{S}:3: error: Expected 3 values for attribute xyz got 1 2"


def test_zero_axis():
    text = robot(link("a"), joint("j", "revolute", "world", "a", '<axis xyz="0 0 0"/>'))
    assert error_of(text) == f"{S}:3: error: Joint 'j' axis is zero.  Don't do that."


def test_custom_and_standard_joint_spellings():
    text = robot(link("a"), joint("j", "ball", "world", "a"))
    assert error_of(text) == (
        f"{S}:3: error: Joint j of type ball is a custom joint type, and should be a <drake:joint>"
    )
    text = robot(link("a"), joint("j", "revolute", "world", "a", tag="drake:joint"))
    assert error_of(text) == (
        f"{S}:3: error: Joint j of type revolute is a standard joint type, and should be a <joint>"
    )


def test_screw_joint_needs_a_pitch():
    text = robot(link("a"), joint("j", "screw", "world", "a", tag="drake:joint"))
    assert error_of(text) == (
        f"{S}:3: error: A screw joint is missing the <drake:screw_thread_pitch> tag."
    )


def test_curvilinear_joint_is_not_supported():
    text = robot(link("a"), joint("j", "curvilinear", "world", "a", tag="drake:joint"))
    assert "mallard does not support yet" in error_of(text)


def test_unsupported_elements_and_attributes_warn(caplog):
    capture(caplog)
    extra = (
        '<calibration rising="0"/><safety_controller/><dynamics friction="1" coulomb_window="2"/>'
    )
    text = robot(
        link("a").replace("<link", '<link type="x"'), joint("j", "revolute", "world", "a", extra)
    )
    load(text.replace('<robot name="r">', '<robot name="r" version="1.0">'))
    assert warnings_of(caplog) == [
        f"{S}:1: warning: The attribute 'version' found in a 'robot' tag is currently "
        "unsupported and will be ignored.",
        f"{S}:2: warning: The attribute 'type' found in a 'link' tag is currently unsupported "
        "and will be ignored.",
        f"{S}:3: warning: The tag 'calibration' found as a child of 'joint' is currently "
        "unsupported and will be ignored.",
        f"{S}:3: warning: The tag 'safety_controller' found as a child of 'joint' is currently "
        "unsupported and will be ignored.",
        f"{S}:3: warning: A joint has specified a non-zero value for the 'friction' attribute of "
        "a joint/dynamics tag. MultibodyPlant does not currently support non-zero joint "
        "friction.",
        f"{S}:3: warning: A joint has specified a value for the 'coulomb_window' attribute of a "
        "<joint> tag. Drake no longer makes use of that attribute; all instances will be "
        "ignored.",
    ]


def test_strict_parsing_turns_warnings_into_errors():
    text = robot(link("a"), joint("j", "revolute", "world", "a", "<calibration/>"))
    assert error_of(text, strict=True) == (
        f"{S}:3: error: The tag 'calibration' found as a child of 'joint' is currently "
        "unsupported and will be ignored."
    )


def test_world_link_inertial_warns(caplog):
    capture(caplog)
    load(robot(link("world")))
    assert warnings_of(caplog) == [
        f'{S}:2: warning: A URDF file declared the "world" link and then attempted to assign '
        "mass properties (via the <inertial> tag). Only geometries, <collision> and <visual>, "
        "can be assigned to the world link. The <inertial> tag is being ignored."
    ]


def test_floating_joint_warns_and_leaves_the_body_free(caplog):
    capture(caplog)
    plant, _, _ = load(robot(link("a"), joint("j", "floating", "world", "a")), finalize=True)
    assert warnings_of(caplog) == [
        f"{S}:3: warning: Joint 'j' specified as type floating which is not supported by "
        "MultibodyPlant.  Leaving 'a' as a free body."
    ]
    assert plant.GetJointByName("a").type_name() == "quaternion_floating"


def mimic_robot(mimic, joint_type="revolute"):
    return robot(
        link("a"),
        link("b"),
        joint("j1", "revolute", "world", "a"),
        joint("j2", joint_type, "a", "b", mimic),
    )


def test_mimic_adds_a_coupler_constraint(caplog):
    capture(caplog)
    plant, _, _ = load(mimic_robot('<mimic joint="j1" multiplier="2" offset="0.5"/>'))
    assert warnings_of(caplog) == []
    assert plant.num_constraints() == 1
    (spec,) = plant._coupler_constraints.values()
    assert (int(spec.joint0_index), int(spec.joint1_index)) == (1, 0)
    assert (spec.gear_ratio, spec.offset) == (2.0, 0.5)


@pytest.mark.parametrize(
    "mimic, joint_type, message",
    [
        (
            "<mimic/>",
            "revolute",
            "Joint 'j2' mimic element is missing the required 'joint' attribute.",
        ),
        (
            '<mimic joint="q"/>',
            "revolute",
            "Joint 'j2' mimic element specifies joint 'q' which does not exist.",
        ),
        (
            '<mimic joint="j2"/>',
            "revolute",
            "Joint 'j2' mimic element specifies joint 'j2'. Joints cannot mimic themselves.",
        ),
        (
            '<mimic joint="j1"/>',
            "fixed",
            "Joint 'j2' which has 0 DOF cannot mimic joint 'j1' which has 1 DOF.",
        ),
    ],
)
def test_mimic_errors(mimic, joint_type, message):
    assert error_of(mimic_robot(mimic, joint_type)) == f"{S}:5: error: {message}"


def transmission_robot(limit="", transmission=None):
    transmission = transmission or (
        "<transmission><type>transmission_interface/SimpleTransmission</type>"
        '<joint name="j"/><actuator name="m"/></transmission>'
    )
    return robot(link("a"), joint("j", "revolute", "world", "a", limit), transmission)


@pytest.mark.parametrize(
    "transmission, message",
    [
        (
            '<transmission><joint name="j"/><actuator name="m"/></transmission>',
            "Transmission element is missing a type.",
        ),
        (
            '<transmission type="SimpleTransmission"><joint name="j"/></transmission>',
            "Transmission is missing an actuator element.",
        ),
        (
            '<transmission type="SimpleTransmission"><actuator/></transmission>',
            "Transmission is missing an actuator name.",
        ),
        (
            '<transmission type="SimpleTransmission"><actuator name="m"/></transmission>',
            "Transmission is missing a joint element.",
        ),
        (
            '<transmission type="SimpleTransmission"><joint/><actuator name="m"/></transmission>',
            "Transmission is missing a joint name.",
        ),
        (
            '<transmission type="SimpleTransmission"><joint name="q"/><actuator name="m"/>'
            "</transmission>",
            "Transmission specifies joint 'q' which does not exist.",
        ),
        (
            '<transmission type="SimpleTransmission"><joint name="j"/><actuator name="m">'
            "<drake:rotor_inertia/></actuator></transmission>",
            'joint actuator m\'s drake:rotor_inertia does not have a "value" attribute!',
        ),
    ],
)
def test_transmission_errors(transmission, message):
    assert error_of(transmission_robot(transmission=transmission)) == f"{S}:4: error: {message}"


def test_transmission_with_negative_effort():
    assert error_of(transmission_robot('<limit effort="-1"/>')) == (
        f"{S}:4: error: Transmission specifies joint 'j' which has a negative effort limit."
    )


def test_transmission_warnings(caplog):
    capture(caplog)
    plant, _, _ = load(transmission_robot('<limit effort="0"/>'))
    assert warnings_of(caplog) == [
        f'{S}:4: warning: Skipping transmission since it\'s attached to joint "j" which has a '
        "zero effort limit 0."
    ]
    assert plant.num_actuators() == 0
    caplog.clear()
    other = "<transmission><type>DifferentialTransmission</type></transmission>"
    reduction = (
        '<transmission type="SimpleTransmission"><joint name="j"/><actuator name="m">'
        "<mechanicalReduction>50</mechanicalReduction></actuator></transmission>"
    )
    load(transmission_robot(transmission=other + reduction))
    assert warnings_of(caplog) == [
        f"{S}:4: warning: A <transmission> has a type that isn't 'SimpleTransmission'. Drake "
        "only supports 'SimpleTransmission'; all other transmission types will be ignored.",
        f"{S}:4: warning: A 'actuator' element contains a mechanicalReduction element with a "
        "value '50' other than the default of 1. MultibodyPlant does not currently support "
        "non-default mechanical reductions.",
    ]


def test_transmission_on_a_fixed_joint_warns(caplog):
    capture(caplog)
    text = robot(
        link("a"),
        joint("j", "fixed", "world", "a"),
        '<transmission type="SimpleTransmission"><joint name="j"/><actuator name="m"/>'
        "</transmission>",
    )
    plant, _, _ = load(text)
    assert warnings_of(caplog) == [
        f'{S}:4: warning: Skipping transmission since it\'s attached to a fixed joint "j".'
    ]


def test_material_redefinition():
    material = '<material name="m"><color rgba="1 0 0 1"/></material>'
    assert error_of(robot(material, material)) == (
        f"{S}:3: error: Material 'm' was previously defined.\n"
        "  - existing definition: RGBA: 1 0 0 1, Diffuse map: None\n"
        "  - new definition:      RGBA: 1 0 0 1, Diffuse map: None"
    )


def test_texture_in_a_string_cannot_be_resolved():
    text = robot('<material name="m"><texture filename="wood.png"/></material>')
    assert error_of(text) == (
        f"{S}:2: error: URI 'wood.png' is invalid when parsing a string instead of a filename."
    )


def test_geometry_errors_only_with_a_scene_graph():
    visual = '<visual><geometry><box size="1 0 1"/></geometry></visual>'
    load(robot(link("a", extra=visual)))
    message = error_of(robot(link("a", extra=visual)), scene_graph=object())
    assert message.startswith(f"{S}:2: error: Box(): depth must be finite and positive")
    text = robot(link("a", extra="<visual><geometry/></visual>"))
    assert error_of(text, scene_graph=object()) == (
        f"{S}:2: error: Warning: geometry element does not have a recognizable shape type"
    )
    text = robot(link("a", extra="<collision/>"))
    assert error_of(text, scene_graph=object()) == (
        f"{S}:2: error: Link 'a' has a collision element without geometry"
    )


# ---- a failed load leaves the plant unchanged ---------------------------------------------------
def test_failed_load_rolls_back():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.AddModelsFromString(robot(link("a"), name="first"), "urdf")
    counts = (
        plant.num_model_instances(),
        plant.num_bodies(),
        plant.num_frames(),
        plant.num_joints(),
    )
    broken = robot(
        link("a"),
        link("b"),
        joint("j", "revolute", "a", "b"),
        joint("k", "warp", "world", "a"),
        name="second",
    )
    with pytest.raises(RuntimeError, match="unrecognized type"):
        parser.AddModelsFromString(broken, "urdf")
    assert (
        plant.num_model_instances(),
        plant.num_bodies(),
        plant.num_frames(),
        plant.num_joints(),
    ) == counts
    assert not plant.HasModelInstanceNamed("second")
    # The same model, fixed, now loads under the same name.
    parser.AddModelsFromString(broken.replace("warp", "revolute"), "urdf")
    plant.Finalize()
    assert plant.num_positions() == 7 + 7 + 2 - 7  # first: free; second: a free, j and k
    assert plant.GetJointByName("k").type_name() == "revolute"


def test_plant_errors_are_rolled_back_too():
    plant = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match="already contains a body named 'a'"):
        load(robot(link("a"), link("a")), plant=plant)
    assert plant.num_bodies() == 1 and plant.num_model_instances() == 2
    with pytest.raises(RuntimeError, match="already contains a frame named 'j_parent'"):
        load(
            robot(
                link("a"),
                link("b"),
                link("c"),
                joint("j", "revolute", "a", "b"),
                joint("j", "revolute", "b", "c"),
            ),
            plant=plant,
        )
    assert plant.num_frames() == 1


# ---- geometry diagnostics (with a scene graph) ---------------------------------------------------
def geometry_error(extra, materials=""):
    lines = [materials] if materials else []
    return error_of(robot(*lines, link("a", extra=extra)), scene_graph=object())


def test_geometry_element_errors(tmp_path):
    sphere = '<geometry><sphere radius="1"/></geometry>'
    line = 2
    assert geometry_error("<visual/>") == (
        f"{S}:{line}: error: Link a has a visual element without geometry."
    )
    assert geometry_error("<visual><geometry><sphere/></geometry></visual>") == (
        f"{S}:{line}: error: Missing sphere attribute: radius"
    )
    assert geometry_error("<visual><geometry><mesh/></geometry></visual>") == (
        f"{S}:{line}: error: Mesh element has no filename tag"
    )
    proximity = (
        f"<collision>{sphere}<drake:proximity_properties>"
        "<drake:rigid_hydroelastic/><drake:compliant_hydroelastic/>"
        "</drake:proximity_properties></collision>"
    )
    assert "mutually-exclusive tags <drake:rigid_hydroelastic>" in geometry_error(proximity)
    friction = (
        f"<collision>{sphere}<drake:proximity_properties>"
        '<drake:mu_static value="0.2"/><drake:mu_dynamic value="0.5"/>'
        "</drake:proximity_properties></collision>"
    )
    assert "dynamic friction must be less than or equal to static friction" in (
        geometry_error(friction)
    )
    soft = (
        f"<collision>{sphere}<drake:proximity_properties><drake:soft_hydroelastic/>"
        "</drake:proximity_properties></collision>"
    )
    assert "<drake:soft_hydroelastic>, which is no longer supported" in geometry_error(soft)
    legacy = (
        f"<collision>{sphere}<drake_compliance><static_friction>1</static_friction>"
        "</drake_compliance></collision>"
    )
    assert "both static and dynamic coefficients must be defined" in geometry_error(legacy)
    diffuse = f'<visual>{sphere}<material><drake:diffuse_map filename="x.png"/></material></visual>'
    assert "<drake:diffuse_map> is not supported in URDF" in geometry_error(diffuse)


def test_mesh_scale_must_not_be_zero(tmp_path):
    (tmp_path / "m.obj").write_text("")
    path = tmp_path / "r.urdf"
    visual = '<visual><geometry><mesh filename="m.obj" scale="1 0 1"/></geometry></visual>'
    path.write_text(robot(link("a", extra=visual)))
    with pytest.raises(RuntimeError, match=r"r.urdf:2: error: Mesh \|scale\| cannot be < 1e-8"):
        Parser(MultibodyPlant(0.0), object()).AddModels(path)


def test_geometry_warnings(caplog):
    capture(caplog)
    sphere = '<geometry><sphere radius="1"/></geometry>'
    extra = (
        f'<visual name="v">{sphere}</visual><visual name="v">{sphere}</visual>'
        f'<visual>{sphere}<drake:illustration_properties enabled="false"/>'
        '<drake:perception_properties enabled="false"/></visual>'
        f'<collision group="g">{sphere}</collision>'
    )
    _, parser, _ = load(robot(link("a", extra=extra)), scene_graph=object())
    assert warnings_of(caplog) == [
        f"{S}:2: warning: visual name 'v' has already been used, renaming to 'v_1' instead",
        f"{S}:2: warning: Visual geometry in link 'a' has both illustration and perception "
        "properties disabled. This geometry will be ignored by Drake.",
        f"{S}:2: warning: A link has specified the 'group' attribute on the <collision> tag. "
        "Drake doesn't make use of that attribute and all instances will be ignored.",
    ]
    assert [g.name for g in parser._geometries] == ["v", "v_1", "Sphere"]


def test_a_directory_is_not_a_model_file(tmp_path):
    path = tmp_path / "models.urdf"
    path.mkdir()
    with pytest.raises(RuntimeError, match=f"^{path}:0: error: Failed to parse XML file: Is a dir"):
        Parser(MultibodyPlant(0.0)).AddModels(str(path))
