"""URDF materials, visuals and collisions (Drake's detail_urdf_geometry.cc), parsed into
GeometryRecords. Used only when geometry is parsed (see ``_geometry``), except top-level
materials, which Drake always checks."""

import numpy as np

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, Sphere
from mallard.math import RigidTransform
from mallard.multibody.parsing._attributes import (
    origin_to_transform,
    parse_scalar,
    parse_three_vector,
    parse_vector,
)
from mallard.multibody.parsing._geometry import GeometryRecord, MeshRecord, shape_type_name
from mallard.multibody.parsing._numbers import nonfinite_problem
from mallard.multibody.parsing._proximity import (
    PROXIMITY_DOUBLES,
    checked_friction,
    proximity_groups,
)
from mallard.multibody.tree._rotational_inertia import fmt

#: How many "_1", "_2"... suffixes are tried to make a geometry name unique within a body.
NAME_SUFFIX_LIMIT = 10000


def warn_unsupported_element(diagnostics, node, tag):
    """Drake's warning for a documented URDF child element ``tag`` that Drake ignores."""
    child = node.find(tag)
    if child is not None:
        diagnostics.warning(
            child,
            f"The tag '{tag}' found as a child of '{node.tag}' is currently unsupported and will "
            "be ignored.",
        )


def warn_unsupported_attribute(diagnostics, node, attribute):
    """Drake's warning for a documented URDF attribute that Drake ignores."""
    if node.get(attribute) is not None:
        diagnostics.warning(
            node,
            f"The attribute '{attribute}' found in a '{node.tag}' tag is currently unsupported "
            "and will be ignored.",
        )


# ---- materials ---------------------------------------------------------------------------------
def _describe_material(material):
    rgba, diffuse_map = material
    rgba_text = "None" if rgba is None else " ".join(fmt(x) for x in rgba)
    return f"RGBA: {rgba_text}, Diffuse map: {diffuse_map if diffuse_map is not None else 'None'}"


def _add_material(diagnostics, node, name, material, error_if_name_clash, materials):
    """Records ``material`` (rgba, diffuse map) as ``name``; an error if it conflicts with a
    material of that name (always, when ``error_if_name_clash``)."""
    cached = materials.get(name)
    if cached is None:
        rgba, diffuse_map = material
        materials[name] = (np.zeros(4) if rgba is None else rgba, diffuse_map)
        return materials[name]
    error = error_if_name_clash
    if not error:
        error = cached[1] != material[1] and not (cached[1] is not None and material[1] is None)
    if not error:
        if cached[0] is not None and material[0] is not None:
            error = np.linalg.norm(cached[0] - material[0]) > 1e-10
        else:
            error = cached[0] is None and material[0] is not None
    if error:
        diagnostics.error(
            node,
            f"Material '{name}' was previously defined.\n"
            f"  - existing definition: {_describe_material(cached)}\n"
            f"  - new definition:      {_describe_material(material)}",
        )
    return materials[name]


def parse_material(workspace, node, name_required, materials):
    """The (rgba, diffuse map) of a ``<material>``, recorded in ``materials`` if named."""
    diagnostics = workspace.diagnostics
    name = node.get("name", "")
    if name == "" and name_required:
        diagnostics.error(node, "Material tag is missing a required name")
    if node.find("drake:diffuse_map") is not None:
        diagnostics.error(
            node,
            "<drake:diffuse_map> is not supported in URDF. See https://drake.mit.edu/doxygen_cxx/"
            "group__multibody__parsing.html#tag_drake_diffuse_map for more details.",
        )
    texture_path = None
    texture = node.find("texture")
    if texture is not None and texture.get("filename"):
        texture_path = workspace.resolve_uri(texture.get("filename"), texture)
    rgba = None
    color = node.find("color")
    if color is not None:
        rgba = parse_vector(color, "rgba", 4)
        if rgba is None:
            diagnostics.error(color, "Failed to parse 'rgba' attribute of <color>}")
    if rgba is None and texture_path is None and name and name not in materials:
        diagnostics.error(
            node,
            f"Material '{name}' not previously defined, but has no color or texture information.",
        )
    material = (rgba, texture_path)
    if name:
        material = _add_material(diagnostics, node, name, material, name_required, materials)
    return material


# ---- shapes ------------------------------------------------------------------------------------
def _make_shape(diagnostics, node, make):
    """``make()`` with the shape's own errors located at ``node``."""
    try:
        return make()
    except RuntimeError as e:
        diagnostics.error(node, str(e))


def _required_scalars(diagnostics, node, names, shape):
    values = []
    for name in names:
        value = parse_scalar(node, name, diagnostics)
        if value is None:
            quoted = f"'{name}'" if shape == "ellipsoid" else name
            diagnostics.error(node, f"Missing {shape} attribute: {quoted}")
        values.append(value)
    return values


def parse_shape(workspace, geometry_node):
    """The shape of a ``<geometry>``: box, sphere, cylinder, capsule (or drake:capsule),
    mesh (a MeshRecord) or drake:ellipsoid."""
    diagnostics = workspace.diagnostics
    node = geometry_node.find("box")
    if node is not None:
        size = parse_vector(node, "size", 3)
        if size is None:
            diagnostics.error(node, "Missing box attribute: size")
        return _make_shape(diagnostics, node, lambda: Box(*size))
    node = geometry_node.find("sphere")
    if node is not None:
        (radius,) = _required_scalars(diagnostics, node, ("radius",), "sphere")
        return _make_shape(diagnostics, node, lambda: Sphere(radius))
    node = geometry_node.find("cylinder")
    if node is not None:
        radius, length = _required_scalars(diagnostics, node, ("radius", "length"), "cylinder")
        return _make_shape(diagnostics, node, lambda: Cylinder(radius, length))
    node = geometry_node.find("capsule")
    if node is None:
        node = geometry_node.find("drake:capsule")
    if node is not None:
        radius, length = _required_scalars(diagnostics, node, ("radius", "length"), "capsule")
        return _make_shape(diagnostics, node, lambda: Capsule(radius, length))
    node = geometry_node.find("mesh")
    if node is not None:
        return _parse_mesh(workspace, node)
    node = geometry_node.find("drake:ellipsoid")
    if node is not None:
        a, b, c = _required_scalars(diagnostics, node, ("a", "b", "c"), "ellipsoid")
        return _make_shape(diagnostics, node, lambda: Ellipsoid(a, b, c))
    diagnostics.error(
        geometry_node, "Warning: geometry element does not have a recognizable shape type"
    )


def _parse_mesh(workspace, node):
    filename = node.get("filename")
    if filename is None:
        workspace.diagnostics.error(node, "Mesh element has no filename tag")
    path = workspace.resolve_uri(filename, node)
    scale = parse_three_vector(node, "scale")
    scale = np.ones(3) if scale is None else scale
    if np.any(np.abs(scale) < 1e-8):
        workspace.diagnostics.error(
            node, f"Mesh |scale| cannot be < 1e-8, given [{', '.join(map(fmt, scale))}]."
        )
    return MeshRecord(path, scale, convex=node.find("drake:declare_convex") is not None)


def _geometry_name(diagnostics, role, node, shape, names):
    """The element's name (or the shape's type name), made unique among ``names``."""
    explicit = node.get("name")
    result = explicit if explicit is not None else shape_type_name(shape)
    if result in names:
        for i in range(1, NAME_SUFFIX_LIMIT + 1):
            if i >= NAME_SUFFIX_LIMIT:
                diagnostics.error(node, f"Too many geometries with identical name '{result}'")
            guess = f"{result}_{i}"
            if guess not in names:
                if explicit is not None:
                    diagnostics.warning(
                        node,
                        f"{role} name '{result}' has already been used, renaming to '{guess}' "
                        "instead",
                    )
                result = guess
                break
    names.add(result)
    return result


# ---- visual and collision ----------------------------------------------------------------------
def _enabled(diagnostics, node, tag):
    child = node.find(tag)
    value = child.get("enabled") if child is not None else None
    if value is None or value == "true":
        return True
    if value == "false":
        return False
    diagnostics.error(
        child,
        f"Invalid value '{value}' for {tag} enabled attribute. Expected 'true' or 'false'.",
    )


def parse_visual(workspace, body, link_name, node, materials, names):
    """The GeometryRecord of a ``<visual>``, or None if both its roles are disabled."""
    diagnostics = workspace.diagnostics
    geometry = node.find("geometry")
    if geometry is None:
        diagnostics.error(node, f"Link {link_name} has a visual element without geometry.")
    origin = node.find("origin")
    X_BG = origin_to_transform(origin) if origin is not None else RigidTransform()
    shape = parse_shape(workspace, geometry)
    illustration = _enabled(diagnostics, node, "drake:illustration_properties")
    perception = _enabled(diagnostics, node, "drake:perception_properties")
    if not illustration and not perception:
        diagnostics.warning(
            node,
            f"Visual geometry in link '{link_name}' has both illustration and perception "
            "properties disabled. This geometry will be ignored by Drake.",
        )
        return None
    phong = {}
    material_node = node.find("material")
    if material_node is not None:
        rgba, diffuse_map = parse_material(workspace, material_node, False, materials)
        if rgba is not None:
            phong["diffuse"] = rgba
        if diffuse_map is not None:
            phong["diffuse_map"] = diffuse_map
    accepting = [n.get("name") for n in node.findall("drake:accepting_renderer")]
    for accepting_node, name in zip(
        node.findall("drake:accepting_renderer"), accepting, strict=True
    ):
        if name is None:
            diagnostics.error(
                accepting_node, "<drake:accepting_renderer> tag given without any name"
            )
    name = _geometry_name(diagnostics, "visual", node, shape, names)
    properties = {"phong": phong} if phong else {}
    properties["roles"] = {"illustration": illustration, "perception": perception}
    if accepting:
        properties["renderer"] = {"accepting": set(accepting)}
    return GeometryRecord(body, "visual", name, X_BG, shape, properties)


def _proximity_properties(diagnostics, element):
    """Drake's proximity property groups from ``<drake:proximity_properties>``."""
    values = {}
    for tag in PROXIMITY_DOUBLES:
        child = element.find(tag)
        if child is None:
            continue
        value = parse_scalar(child, "value", diagnostics)
        if value is None:
            diagnostics.error(child, f"Unable to read the 'value' attribute for the <{tag}> tag")
        values[tag[len("drake:") :]] = value
    rigid = element.find("drake:rigid_hydroelastic")
    compliant = element.find("drake:compliant_hydroelastic")
    if element.find("drake:soft_hydroelastic") is not None:
        diagnostics.error(
            element.find("drake:soft_hydroelastic"),
            "Collision geometry uses the tag <drake:soft_hydroelastic>, which is no longer "
            "supported. Please change it to <drake:compliant_hydroelastic>.",
        )
    if rigid is not None and compliant is not None:
        diagnostics.error(
            element,
            "Collision geometry has defined mutually-exclusive tags <drake:rigid_hydroelastic> "
            f"and <drake:compliant_hydroelastic> on lines {rigid.line} and {compliant.line}, "
            "respectively. Only one can be provided.",
        )
    return proximity_groups(diagnostics, element, values, rigid is not None, compliant is not None)


def _legacy_friction(diagnostics, link_name, node):
    """Friction from the legacy ``<drake_compliance>`` tag, or Drake's default (1, 1)."""
    compliance = node.find("drake_compliance")
    if compliance is None:
        return (1.0, 1.0)
    for tag in ("youngs_modulus", "dissipation"):
        if compliance.find(tag) is not None:
            diagnostics.warning(
                compliance,
                f"A link has specified the <{tag}> tag under the <drake_compliance> tag. Drake "
                "no longer makes use of that tag and all instances will be ignored.",
            )
    values = {}
    for tag in ("static_friction", "dynamic_friction"):
        child = compliance.find(tag)
        if child is not None:
            try:
                values[tag] = float(child.text)
            except (TypeError, ValueError):
                diagnostics.error(child, f"Unable to parse {tag} for link {link_name}")
            problem = nonfinite_problem([values[tag]])
            if problem is not None:
                # Drake takes a NaN or inf friction here; the contact forces would be NaN.
                diagnostics.error(
                    child,
                    f"Unable to parse {tag} for link {link_name}: {problem}, got '{child.text}'",
                )
    if len(values) == 1:
        diagnostics.error(
            compliance,
            f"Link '{link_name}': When specifying coefficient of friction, both static and "
            "dynamic coefficients must be defined",
        )
    if values:
        return checked_friction(
            diagnostics, compliance, values["static_friction"], values["dynamic_friction"]
        )
    return (1.0, 1.0)


def parse_collision(workspace, body, link_name, node, names):
    """The GeometryRecord of a ``<collision>``."""
    diagnostics = workspace.diagnostics
    warn_unsupported_element(diagnostics, node, "verbose")
    geometry = node.find("geometry")
    if geometry is None:
        diagnostics.error(node, f"Link '{link_name}' has a collision element without geometry")
    origin = node.find("origin")
    X_BG = origin_to_transform(origin) if origin is not None else RigidTransform()
    if node.get("group") is not None:
        diagnostics.warning(
            node,
            "A link has specified the 'group' attribute on the <collision> tag. Drake doesn't "
            "make use of that attribute and all instances will be ignored.",
        )
    shape = parse_shape(workspace, geometry)
    properties = {}
    proximity = node.find("drake:proximity_properties")
    if proximity is not None:
        properties = _proximity_properties(diagnostics, proximity)
    material = properties.setdefault("material", {})
    if "coulomb_friction" not in material:
        material["coulomb_friction"] = _legacy_friction(diagnostics, link_name, node)
    elif node.find("drake_compliance") is not None:
        diagnostics.warning(
            node,
            "A link has specified collision properties using both <drake:proximity_properties> "
            "and <drake_compliance> tags. The <drake_compliance> tag is ignored in this case "
            "and is generally dispreferred. Consider removing all instances of "
            "<drake_compliance> in favor of <drake:proximity_properties>.",
        )
    name = _geometry_name(diagnostics, "collision", node, shape, names)
    return GeometryRecord(body, "collision", name, X_BG, shape, properties)
