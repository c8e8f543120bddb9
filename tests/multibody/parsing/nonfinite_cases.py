"""Model documents with NaN or ±inf in one numeric field, for every numeric field mallard's URDF
and SDFormat parsers read (and a few that neither mallard nor Drake reads), with what mallard
does with each value and what pydrake does (tests/conformance/test_parsing_nonfinite.py checks
it).

mallard rejects a non-finite number where Drake does, and also where Drake takes it although
it poisons the dynamics or makes no sense (``Case.why`` says why); it accepts what Drake
accepts with a meaning (an SDFormat limit of inf: no limit) or with a warning and a stand-in
(SDFormat inertial values), and what neither reads.
"""

import functools
from dataclasses import dataclass

VALUES = ("nan", "inf", "-inf")

#: A tetrahedron, the mesh the mesh cases refer to (as "box.obj", next to the document).
MESH = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n"


@dataclass(frozen=True)
class Case:
    """One field: ``text`` is the document, "{v}" marks the value (on the line the error
    names). ``accepted``: the values mallard accepts; ``drake_accepts``: the values pydrake
    accepts, a superset of ``accepted`` (the others it rejects or aborts on); ``why``: why
    mallard rejects what pydrake accepts; ``other_errors``: value → part of the message of a
    rejection for another reason than the value not being finite (an order of limits, a
    sign)."""

    format: str
    field: str
    text: str
    accepted: tuple = ()
    drake_accepts: tuple = None
    why: str = ""
    other_errors: tuple = ()

    def __post_init__(self):
        if self.drake_accepts is None:
            object.__setattr__(self, "drake_accepts", self.accepted)
        assert set(self.accepted) <= set(self.drake_accepts), self.field
        assert (set(self.drake_accepts) > set(self.accepted)) == bool(self.why), self.field

    @property
    def id(self):
        return f"{self.format}:{self.field}"

    def document(self, value):
        return self.text.replace("{v}", value)

    def line(self):
        """The line of the value, which the error names."""
        return self.text[: self.text.index("{v}")].count("\n") + 1

    def other_error(self, value):
        """The message part of a rejection of ``value`` for another reason, or None."""
        return dict(self.other_errors).get(value)

    def write(self, directory, value):
        """Writes the document (and the mesh) into ``directory``; returns its path."""
        (directory / "box.obj").write_text(MESH)
        path = directory / f"model.{self.format}"
        path.write_text(self.document(value))
        return path


U = functools.partial(Case, "urdf")
S = functools.partial(Case, "sdf")

# ---- URDF ----------------------------------------------------------------------------------------
_INERTIA = '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
_INERTIAL = f'<inertial><mass value="1"/>{_INERTIA}</inertial>'
_BOX = '<geometry><box size="1 1 1"/></geometry>'


def _robot(*lines):
    return "\n".join(['<robot name="r">', *lines, "</robot>"])


def _link(name, inner=""):
    return f'<link name="{name}">{_INERTIAL}{inner}</link>'


def _joint(inner, joint_type="revolute", tag="joint", name="j", parent="a", child="b"):
    return (
        f'<{tag} name="{name}" type="{joint_type}"><parent link="{parent}"/>'
        f'<child link="{child}"/>{inner}</{tag}>'
    )


def _urdf_joint(inner, joint_type="revolute", tag="joint"):
    return _robot(_link("a"), _link("b"), _joint(inner, joint_type, tag))


def _inertial(inner):
    return _robot(f'<link name="a"><inertial>{inner}</inertial></link>')


def _inertia(name):
    default = "1" if name[1] == name[2] else "0"
    inertia = _INERTIA.replace(f'{name}="{default}"', f'{name}="{{v}}"')
    return _inertial(f'<mass value="1"/>{inertia}')


def _collision(inner):
    return _robot(_link("a", f"<collision>{inner}</collision>"))


def _shape(shape):
    return _collision(f"<geometry>{shape}</geometry>")


def _transmission(inner):
    return _robot(
        _link("a"),
        _link("b"),
        _joint('<axis xyz="0 0 1"/>'),
        '<transmission name="t"><type>transmission_interface/SimpleTransmission</type>'
        f'<joint name="j"/><actuator name="m">{inner}</actuator></transmission>',
    )


_BUSHING = ("torque_stiffness", "torque_damping", "force_stiffness", "force_damping")


def _bushing(which):
    values = "".join(
        f'<drake:bushing_{t} value="{"{v} 1 1" if t == which else "1 1 1"}"/>' for t in _BUSHING
    )
    return _robot(
        _link("a"),
        _link("b"),
        '<drake:linear_bushing_rpy><drake:bushing_frameA name="a"/>'
        f'<drake:bushing_frameC name="b"/>{values}</drake:linear_bushing_rpy>',
    )


def _spring_values(which, value):
    values = {
        "p_AP": "0 0 0",
        "p_BQ": "0 0 0",
        "free_length": "1",
        "stiffness": "1",
        "damping": "1",
    }
    values[which] = value
    return values.items()


def _spring_damper(which, value):
    tags = "".join(
        f'<drake:linear_spring_damper_{t} value="{v}"/>' for t, v in _spring_values(which, value)
    )
    return _robot(
        _link("a"),
        _link("b"),
        '<drake:linear_spring_damper><drake:linear_spring_damper_body_A name="a"/>'
        f'<drake:linear_spring_damper_body_B name="b"/>{tags}</drake:linear_spring_damper>',
    )


def _compliance(static, dynamic):
    return _collision(
        f"{_BOX}<drake_compliance><static_friction>{static}</static_friction>"
        f"<dynamic_friction>{dynamic}</dynamic_friction></drake_compliance>"
    )


def _ellipsoid(axis):
    sizes = " ".join(f'{x}="{"{v}" if x == axis else 1}"' for x in "abc")
    return _shape(f"<drake:ellipsoid {sizes}/>")


_PROXIMITY = (
    "mesh_resolution_hint",
    "hydroelastic_modulus",
    "hunt_crossley_dissipation",
    "point_contact_stiffness",
    "mu_dynamic",
    "mu_static",
    "relaxation_time",
    "hydroelastic_margin",
)
_FRICTION_WHY = "a NaN or infinite friction coefficient gives non-finite contact forces"

URDF = [
    U("inertial/origin xyz", _inertial(f'<origin xyz="{{v}} 0 0"/><mass value="1"/>{_INERTIA}')),
    U("inertial/origin rpy", _inertial(f'<origin rpy="{{v}} 0 0"/><mass value="1"/>{_INERTIA}')),
    U("inertial/mass", _inertial(f'<mass value="{{v}}"/>{_INERTIA}')),
    *[U(f"inertial/inertia {n}", _inertia(n)) for n in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")],
    U("joint/origin xyz", _urdf_joint('<origin xyz="{v} 0 0"/><axis xyz="0 0 1"/>')),
    U("joint/origin rpy", _urdf_joint('<origin rpy="0 {v} 0"/><axis xyz="0 0 1"/>')),
    U("joint/axis xyz", _urdf_joint('<axis xyz="0 {v} 1"/>')),
    *[
        U(f"joint/limit {n}", _urdf_joint(f'<axis xyz="0 0 1"/><limit {n}="{{v}}"/>'))
        for n in ("lower", "upper", "effort", "velocity", "drake:acceleration")
    ],
    *[
        U(f"joint/dynamics {n}", _urdf_joint(f'<axis xyz="0 0 1"/><dynamics {n}="{{v}}"/>'))
        for n in ("damping", "friction", "coulomb_window")
    ],
    U("planar joint/dynamics damping", _urdf_joint('<dynamics damping="0 {v} 0"/>', "planar")),
    U(
        "ball joint/dynamics damping",
        _urdf_joint('<dynamics damping="{v}"/>', "ball", "drake:joint"),
    ),
    U(
        "screw joint/drake:screw_thread_pitch",
        _urdf_joint(
            '<axis xyz="0 0 1"/><drake:screw_thread_pitch value="{v}"/>', "screw", "drake:joint"
        ),
    ),
    *[
        U(
            f"joint/mimic {n}",
            _robot(
                _link("a"),
                _link("b"),
                _link("c"),
                _joint('<axis xyz="0 0 1"/>'),
                _joint(f'<mimic joint="j" {n}="{{v}}"/>', name="k", parent="b", child="c"),
            ),
        )
        for n in ("multiplier", "offset")
    ],
    U("actuator/drake:rotor_inertia", _transmission('<drake:rotor_inertia value="{v}"/>')),
    U("actuator/drake:gear_ratio", _transmission('<drake:gear_ratio value="{v}"/>')),
    U(
        "actuator/drake:controller_gains p",
        _transmission('<drake:controller_gains p="{v}" d="1"/>'),
    ),
    U(
        "actuator/drake:controller_gains d",
        _transmission('<drake:controller_gains p="1" d="{v}"/>'),
    ),
    # Any value but 1 is a warning (Drake supports no reduction), a non-finite one too.
    U(
        "actuator/mechanicalReduction",
        _transmission("<mechanicalReduction>{v}</mechanicalReduction>"),
        VALUES,
    ),
    U("frame xyz", _robot(_link("a"), '<frame name="f" link="a" xyz="{v} 0 0"/>')),
    U("frame rpy", _robot(_link("a"), '<frame name="f" link="a" rpy="0 0 {v}"/>')),
    *[U(f"drake:linear_bushing_rpy {t}", _bushing(t)) for t in _BUSHING],
    U("drake:linear_spring_damper p_AP", _spring_damper("p_AP", "{v} 0 0")),
    U("drake:linear_spring_damper p_BQ", _spring_damper("p_BQ", "0 {v} 0")),
    *[
        U(f"drake:linear_spring_damper {t}", _spring_damper(t, "{v}"))
        for t in ("free_length", "stiffness", "damping")
    ],
    U("box size", _shape('<box size="1 {v} 1"/>')),
    U("sphere radius", _shape('<sphere radius="{v}"/>')),
    U("cylinder radius", _shape('<cylinder radius="{v}" length="1"/>')),
    U("cylinder length", _shape('<cylinder radius="1" length="{v}"/>')),
    U("capsule radius", _shape('<capsule radius="{v}" length="1"/>')),
    U("capsule length", _shape('<capsule radius="1" length="{v}"/>')),
    *[U(f"drake:ellipsoid {axis}", _ellipsoid(axis)) for axis in "abc"],
    U("mesh scale", _shape('<mesh filename="box.obj" scale="1 1 {v}"/>')),
    U("mesh scale (one value)", _shape('<mesh filename="box.obj" scale="{v}"/>')),
    U("visual/origin xyz", _robot(_link("a", f'<visual><origin xyz="{{v}} 0 0"/>{_BOX}</visual>'))),
    U("collision/origin rpy", _collision(f'<origin rpy="{{v}} 0 0"/>{_BOX}')),
    U(
        "visual/material/color rgba",
        _robot(
            _link(
                "a",
                f'<visual>{_BOX}<material name="m"><color rgba="1 {{v}} 0 1"/></material></visual>',
            )
        ),
    ),
    U(
        "material/color rgba",
        _robot('<material name="m"><color rgba="{v} 0 0 1"/></material>', _link("a")),
    ),
    U(
        "drake_compliance/static_friction",
        _compliance("{v}", "0.5"),
        (),
        ("nan", "inf"),
        _FRICTION_WHY,
    ),
    U("drake_compliance/dynamic_friction", _compliance("1", "{v}"), (), ("nan",), _FRICTION_WHY),
    *[
        U(
            f"drake:proximity_properties/drake:{tag}",
            _collision(
                f'{_BOX}<drake:proximity_properties><drake:{tag} value="{{v}}"/>'
                "</drake:proximity_properties>"
            ),
        )
        for tag in _PROXIMITY
    ],
]


# ---- SDFormat ------------------------------------------------------------------------------------
def _model(*lines):
    return "\n".join(['<sdf version="1.9">', '<model name="m">', *lines, "</model>", "</sdf>"])


def _world(*lines):
    model = '<model name="m"><link name="a"/></model>'
    return "\n".join(
        ['<sdf version="1.9">', '<world name="w">', *lines, model, "</world>", "</sdf>"]
    )


def _sdf_joint(inner, joint_type="revolute"):
    joint = f'<joint name="j" type="{joint_type}"><parent>a</parent><child>b</child>'
    return _model('<link name="a"/>', '<link name="b"/>', f"{joint}{inner}</joint>")


def _axis(inner, after=""):
    return _sdf_joint(f"<axis><xyz>0 0 1</xyz>{inner}</axis>{after}")


def _limit(tag):
    limits = {"lower": "-1", "upper": "1", "effort": "1", "velocity": "1"}
    limits[tag] = "{v}"
    return _axis("<limit>" + "".join(f"<{t}>{v}</{t}>" for t, v in limits.items()) + "</limit>")


def _link_element(role, inner):
    return _model(f'<link name="a"><{role} name="g">{inner}</{role}></link>')


def _sdf_shape(shape):
    return _link_element("collision", f"<geometry>{shape}</geometry>")


def _sdf_bushing(which):
    values = "".join(
        f"<drake:bushing_{t}>{'{v} 1 1' if t == which else '1 1 1'}</drake:bushing_{t}>"
        for t in _BUSHING
    )
    frames = (
        "<drake:bushing_frameA>a</drake:bushing_frameA>"
        "<drake:bushing_frameC>b</drake:bushing_frameC>"
    )
    return _model(
        '<link name="a"/>',
        '<link name="b"/>',
        f"<drake:linear_bushing_rpy>{frames}{values}</drake:linear_bushing_rpy>",
    )


def _sdf_spring_damper(which, value):
    tags = "".join(
        f"<drake:linear_spring_damper_{t}>{v}</drake:linear_spring_damper_{t}>"
        for t, v in _spring_values(which, value)
    )
    bodies = (
        "<drake:linear_spring_damper_body_A>a</drake:linear_spring_damper_body_A>"
        "<drake:linear_spring_damper_body_B>b</drake:linear_spring_damper_body_B>"
    )
    return _model(
        '<link name="a"/>',
        '<link name="b"/>',
        f"<drake:linear_spring_damper>{bodies}{tags}</drake:linear_spring_damper>",
    )


def _mimic(name):
    values = {"multiplier": "1", "offset": "0"}
    values[name] = "{v}"
    axis = "<axis><xyz>0 0 1</xyz></axis>"
    return _model(
        '<link name="a"/>',
        '<link name="b"/>',
        '<link name="c"/>',
        f'<joint name="j" type="revolute"><parent>a</parent><child>b</child>{axis}</joint>',
        f'<joint name="k" type="revolute"><parent>b</parent><child>c</child>{axis}'
        f'<drake:mimic joint="j" multiplier="{values["multiplier"]}" '
        f'offset="{values["offset"]}"/></joint>',
    )


_POSE = "<pose>{v} 0 0 0 0 0</pose>"
_SDF_BOX = "<geometry><box><size>1 1 1</size></box></geometry>"
_NAN_DYNAMICS = "Drake's dynamics come out NaN"
_VECTOR_WHY = "libsdformat reports an error and Drake then uses zeros"
_SHAPE_WHY = "libsdformat replaces a negative size by its default, with a warning"
_INF_ZERO_WHY = "the force is NaN where the spring is at rest (inf·0)"
_ALL, _NAN_INF, _INF, _MINUS_INF = VALUES, ("nan", "inf"), ("inf",), ("-inf",)
_ORDER = "The lower limit must be lower"

SDF = [
    S("model/pose", _model(_POSE, '<link name="a"/>')),
    S("link/pose", _model('<link name="a"><pose>0 0 0 {v} 0 0</pose></link>')),
    S(
        "link/pose quat_xyzw",
        _model('<link name="a"><pose rotation_format="quat_xyzw">0 0 0 {v} 0 0 1</pose></link>'),
    ),
    S(
        "link/pose degrees",
        _model('<link name="a"><pose degrees="true">0 0 0 0 {v} 0</pose></link>'),
    ),
    S("joint/pose", _sdf_joint(f"{_POSE}<axis><xyz>0 0 1</xyz></axis>")),
    S("frame/pose", _model('<link name="a"/>', f'<frame name="f" attached_to="a">{_POSE}</frame>')),
    S("world/frame/pose", _world(f'<frame name="f">{_POSE}</frame>')),
    S("inertial/pose", _model(f'<link name="a"><inertial>{_POSE}</inertial></link>')),
    S("visual/pose", _link_element("visual", f"{_POSE}{_SDF_BOX}")),
    S("collision/pose", _link_element("collision", f"{_POSE}{_SDF_BOX}")),
    # Drake warns and gives the body a plausible inertia (a sphere of water).
    S("inertial/mass", _model('<link name="a"><inertial><mass>{v}</mass></inertial></link>'), _ALL),
    *[
        S(
            f"inertial/inertia/{tag}",
            _model(
                f'<link name="a"><inertial><inertia><{tag}>{{v}}</{tag}></inertia>'
                "</inertial></link>"
            ),
            _ALL,
        )
        for tag in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
    ],
    S("joint/axis/xyz", _sdf_joint("<axis><xyz>{v} 0 1</xyz></axis>")),
    S(
        "joint/axis2/xyz",
        _sdf_joint("<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 {v} 1</xyz></axis2>", "universal"),
    ),
    S(
        "axis/dynamics/damping",
        _axis("<dynamics><damping>{v}</damping></dynamics>"),
        (),
        _NAN_INF,
        "the damping torque is NaN (NaN·v, or inf·0 at rest)",
    ),
    # Neither reads it (Drake supports no joint friction).
    S("axis/dynamics/friction", _axis("<dynamics><friction>{v}</friction></dynamics>"), _ALL),
    S(
        "axis/dynamics/spring_reference",
        _axis(
            "<dynamics><spring_stiffness>1</spring_stiffness>"
            "<spring_reference>{v}</spring_reference></dynamics>"
        ),
        (),
        _ALL,
        "the spring torque is not finite",
    ),
    S(
        "axis/dynamics/spring_stiffness",
        _axis("<dynamics><spring_stiffness>{v}</spring_stiffness></dynamics>"),
        (),
        _INF,
        _INF_ZERO_WHY,
    ),
    S("axis/limit/lower", _limit("lower"), _MINUS_INF, other_errors=(("inf", _ORDER),)),
    S("axis/limit/upper", _limit("upper"), _INF, other_errors=(("-inf", _ORDER),)),
    # A negative effort or velocity limit means none, as libsdformat reads it.
    S("axis/limit/effort", _limit("effort"), _INF + _MINUS_INF),
    S("axis/limit/velocity", _limit("velocity"), _INF + _MINUS_INF),
    S(
        "axis/limit/drake:acceleration",
        _axis("<limit><drake:acceleration>{v}</drake:acceleration></limit>"),
        _INF,
        other_errors=(("-inf", "Acceleration limit is negative"),),
    ),
    # Neither reads them.
    S("axis/limit/stiffness", _axis("<limit><stiffness>{v}</stiffness></limit>"), _ALL),
    S("axis/limit/dissipation", _axis("<limit><dissipation>{v}</dissipation></limit>"), _ALL),
    S(
        "joint/drake:rotor_inertia",
        _axis("", "<drake:rotor_inertia>{v}</drake:rotor_inertia>"),
        (),
        _ALL,
        _NAN_DYNAMICS,
    ),
    S(
        "joint/drake:gear_ratio",
        _axis("", "<drake:gear_ratio>{v}</drake:gear_ratio>"),
        (),
        _ALL,
        _NAN_DYNAMICS,
    ),
    S("joint/drake:controller_gains p", _axis("", '<drake:controller_gains p="{v}" d="1"/>')),
    S("joint/drake:controller_gains d", _axis("", '<drake:controller_gains p="1" d="{v}"/>')),
    *[
        S(f"joint/drake:mimic {n}", _mimic(n), (), _ALL, "the coupler constraint is not finite")
        for n in ("multiplier", "offset")
    ],
    S(
        "joint/screw_thread_pitch",
        _sdf_joint(
            "<axis><xyz>0 0 1</xyz></axis><screw_thread_pitch>{v}</screw_thread_pitch>", "screw"
        ),
        (),
        _ALL,
        _NAN_DYNAMICS,
    ),
    S(
        "joint/thread_pitch",
        _sdf_joint("<axis><xyz>0 0 1</xyz></axis><thread_pitch>{v}</thread_pitch>", "screw"),
        (),
        _ALL,
        "Drake's dynamics come out NaN (nan), or the pitch 0 (inf)",
    ),
    S(
        "drake:joint planar/drake:damping",
        _model(
            '<link name="a"/>',
            '<link name="b"/>',
            '<drake:joint name="p" type="planar"><drake:parent>a</drake:parent>'
            "<drake:child>b</drake:child><drake:damping>{v} 0 0</drake:damping></drake:joint>",
        ),
        (),
        _ALL,
        _VECTOR_WHY,
    ),
    *[S(f"drake:linear_bushing_rpy {t}", _sdf_bushing(t), (), _ALL, _VECTOR_WHY) for t in _BUSHING],
    S(
        "drake:linear_spring_damper p_AP",
        _sdf_spring_damper("p_AP", "{v} 0 0"),
        (),
        _ALL,
        _VECTOR_WHY,
    ),
    S(
        "drake:linear_spring_damper p_BQ",
        _sdf_spring_damper("p_BQ", "0 0 {v}"),
        (),
        _ALL,
        _VECTOR_WHY,
    ),
    *[
        S(f"drake:linear_spring_damper {t}", _sdf_spring_damper(t, "{v}"), (), _INF, _INF_ZERO_WHY)
        for t in ("free_length", "stiffness", "damping")
    ],
    S("box/size", _sdf_shape("<box><size>1 {v} 1</size></box>")),
    S(
        "sphere/radius",
        _sdf_shape("<sphere><radius>{v}</radius></sphere>"),
        (),
        _MINUS_INF,
        _SHAPE_WHY,
    ),
    *[
        S(
            f"{shape}/{tag}",
            _sdf_shape(
                f"<{shape}>"
                + "".join(f"<{t}>{'{v}' if t == tag else 1}</{t}>" for t in ("radius", "length"))
                + f"</{shape}>"
            ),
            (),
            _MINUS_INF,
            _SHAPE_WHY,
        )
        for shape in ("cylinder", "capsule")
        for tag in ("radius", "length")
    ],
    S("ellipsoid/radii", _sdf_shape("<ellipsoid><radii>1 1 {v}</radii></ellipsoid>")),
    S(
        "drake:ellipsoid/a",
        _sdf_shape("<drake:ellipsoid><a>{v}</a><b>1</b><c>1</c></drake:ellipsoid>"),
    ),
    S("mesh/scale", _sdf_shape("<mesh><uri>box.obj</uri><scale>{v} 1 1</scale></mesh>")),
    S("plane/normal", _sdf_shape("<plane><normal>0 {v} 1</normal></plane>")),
    S("plane/size", _sdf_shape("<plane><normal>0 0 1</normal><size>{v} 1</size></plane>")),
    S(
        "visual/material/diffuse",
        _link_element("visual", f"{_SDF_BOX}<material><diffuse>{{v}} 0 0 1</diffuse></material>"),
        (),
        ("nan",),
        "a color must be a number (libsdformat rejects inf only)",
    ),
    S("world/gravity", _world("<gravity>0 0 {v}</gravity>")),
    S("world/magnetic_field", _world("<magnetic_field>{v} 0 0</magnetic_field>")),
]

CASES = URDF + SDF
