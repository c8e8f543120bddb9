"""The proximity properties of a parsed ``<collision>``: the values of its
``<drake:proximity_properties>`` as Drake's parsers turn them into property groups, and
SDFormat's ``<surface><friction><ode>`` friction. The groups are nested dicts (see
``_geometry.GeometryRecord``), made into a ProximityProperties at registration."""

from mallard.multibody.tree._rotational_inertia import fmt

#: The numeric children of ``<drake:proximity_properties>`` (Drake reads each as a double).
PROXIMITY_DOUBLES = (
    "drake:mesh_resolution_hint",
    "drake:hydroelastic_modulus",
    "drake:hunt_crossley_dissipation",
    "drake:point_contact_stiffness",
    "drake:mu_dynamic",
    "drake:mu_static",
    "drake:relaxation_time",
    "drake:hydroelastic_margin",
)
#: Its flag children.
PROXIMITY_FLAGS = ("drake:rigid_hydroelastic", "drake:compliant_hydroelastic")


def proximity_groups(diagnostics, element, values, rigid, compliant):
    """The property groups of a ``<drake:proximity_properties>`` ``element``, given its
    numbers ``values`` (tag without "drake:" -> float) and whether it is declared rigid or
    compliant; Drake's checks, located at ``element``."""
    hydro, material = {}, {}
    if rigid:
        hydro["compliance_type"] = "rigid"
    elif compliant:
        hydro["compliance_type"] = "compliant"
    if "mesh_resolution_hint" in values:
        hydro["resolution_hint"] = values["mesh_resolution_hint"]
    if "hydroelastic_modulus" in values:
        if rigid:
            diagnostics.warning(
                element,
                "Rigid geometries defined with the tag drake:rigid_hydroelastic should not "
                "contain the tag drake:hydroelastic_modulus. The specified value "
                f"({fmt(values['hydroelastic_modulus'])}) will be ignored.",
            )
        else:
            hydro["hydroelastic_modulus"] = values["hydroelastic_modulus"]
    dissipation = values.get("hunt_crossley_dissipation")
    if dissipation is not None:
        if dissipation < 0:
            diagnostics.error(
                element, f"The dissipation can't be negative; given {fmt(dissipation)}"
            )
        material["hunt_crossley_dissipation"] = dissipation
    stiffness = values.get("point_contact_stiffness")
    if stiffness is not None:
        if not stiffness > 0:
            diagnostics.error(
                element,
                f"The point_contact_stiffness must be strictly positive; given {fmt(stiffness)}",
            )
        material["point_contact_stiffness"] = stiffness
    mu_static, mu_dynamic = values.get("mu_static"), values.get("mu_dynamic")
    if mu_static is not None or mu_dynamic is not None:
        mu_static = mu_dynamic if mu_static is None else mu_static
        mu_dynamic = mu_static if mu_dynamic is None else mu_dynamic
        material["coulomb_friction"] = checked_friction(diagnostics, element, mu_static, mu_dynamic)
    for key, group, name in (
        ("relaxation_time", material, "relaxation time"),
        ("hydroelastic_margin", hydro, "hydroelastic margin"),
    ):
        if key in values:
            if values[key] < 0:
                diagnostics.error(
                    element, f"The {name} can't be negative; given {fmt(values[key])}"
                )
            group["margin" if key == "hydroelastic_margin" else key] = values[key]
    properties = {}
    if hydro:
        properties["hydroelastic"] = hydro
    if material:
        properties["material"] = material
    return properties


def checked_friction(diagnostics, node, static, dynamic):
    """(static, dynamic) Coulomb friction, checked as CoulombFriction checks it, with its
    error located at ``node``."""
    from mallard.multibody.plant import CoulombFriction

    try:
        CoulombFriction(static, dynamic)
    except RuntimeError as e:
        diagnostics.error(node, str(e))
    return (static, dynamic)


# ---- SDFormat ------------------------------------------------------------------------------------
def sdf_proximity_properties(doc, collision):
    """The property groups of an SDFormat ``<collision>``: its
    ``<drake:proximity_properties>``, with the friction of ``<surface><friction><ode>``
    (mu static, mu2 dynamic, each 1 by default) when those give none."""
    diagnostics = doc.ws.diagnostics
    properties = {}
    element = collision.find("drake:proximity_properties")
    if element is not None:
        for child in element.children:
            if child.tag not in PROXIMITY_DOUBLES + PROXIMITY_FLAGS:
                diagnostics.error(
                    child,
                    f"Unsupported SDFormat element in drake:proximity_properties: {child.tag}",
                )
        rigid = element.find("drake:rigid_hydroelastic") is not None
        compliant = element.find("drake:compliant_hydroelastic") is not None
        if rigid and compliant:
            diagnostics.error(
                collision,
                "A <collision> geometry has defined mutually-exclusive tags "
                "<drake:rigid_hydroelastic> and <drake:compliant_hydroelastic>. Only one can be "
                "provided.",
            )
        values = {}
        for tag in PROXIMITY_DOUBLES:
            child = element.find(tag)
            if child is not None:
                values[tag[len("drake:") :]] = doc.numbers(child, 1)[0]
        properties = proximity_groups(diagnostics, element, values, rigid, compliant)
    ode = find_path(collision, ("surface", "friction", "ode"))
    material = properties.get("material", {})
    if ode is not None and "coulomb_friction" in material:
        if ode.find("mu") is not None or ode.find("mu2") is not None:
            diagnostics.warning(
                collision,
                f"In <collision name='{collision.get('name')}'>: When drake contact parameters "
                "are fully specified in the <drake:proximity_properties> tag, the "
                "<surface><friction><ode><mu*> tags are ignored.",
            )
    elif ode is not None:
        mu, mu2 = (doc.number(ode, tag, 1.0) for tag in ("mu", "mu2"))
        for tag, value in (("mu", mu), ("mu2", mu2)):
            if value < 0:
                diagnostics.error(
                    ode.find(tag),
                    f"The value [{fmt(value)}] is less than the minimum allowed value of [0] "
                    f"for key [{tag}]",
                )
        material["coulomb_friction"] = checked_friction(diagnostics, ode, mu, mu2)
        properties["material"] = material
    return properties


def find_path(node, tags):
    """The descendant of ``node`` along the child ``tags``, or None."""
    for tag in tags:
        node = node.find(tag) if node is not None else None
    return node
