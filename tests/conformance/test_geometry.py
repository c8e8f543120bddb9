"""Shapes, properties and parsed proximity properties against pydrake: CalcVolume and
CalcSpatialInertia of the primitives and of .obj meshes (example-robot-data's), their convex
hulls, HalfSpace.MakePose, the property-set API and its errors, AddContactMaterial and the
hydroelastic helpers, and the proximity properties the URDF and SDFormat parsers register."""

import glob
import os

import numpy as np
import pytest

pd = pytest.importorskip("pydrake.all")

import mallard.all as ml  # noqa: E402
from tests.conformance.test_parsing_urdf import ERD  # noqa: E402

PRIMITIVES = [
    ("Box", (0.3, 1.2, 2.5)),
    ("Sphere", (0.7,)),
    ("Cylinder", (0.2, 1.5)),
    ("Capsule", (0.3, 0.9)),
    ("Ellipsoid", (0.4, 1.1, 0.6)),
]


@pytest.mark.parametrize("kind, measures", PRIMITIVES)
def test_primitive_volume_and_inertia(kind, measures):
    ours, theirs = getattr(ml, kind)(*measures), getattr(pd, kind)(*measures)
    assert ml.CalcVolume(ours) == pytest.approx(pd.CalcVolume(theirs), rel=1e-15)
    np.testing.assert_allclose(
        ml.CalcSpatialInertia(ours, 750.0).CopyToFullMatrix6(),
        pd.CalcSpatialInertia(theirs, 750.0).CopyToFullMatrix6(),
        rtol=1e-14,
        atol=1e-14,
    )
    assert ml.CalcVolume(ml.HalfSpace()) == pd.CalcVolume(pd.HalfSpace())


def test_make_pose():
    rng = np.random.default_rng(19)
    normals = [[0, 0, 1], [0, 0, -1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [1, 1, 1]]
    for n in normals + list(rng.normal(size=(30, 3))):
        p = rng.normal(size=3)
        np.testing.assert_allclose(
            ml.HalfSpace.MakePose(n, p).GetAsMatrix34(),
            pd.HalfSpace.MakePose(n, p).GetAsMatrix34(),
            rtol=0,
            atol=1e-15,
        )
    with pytest.raises(RuntimeError, match="norm >= 1e-10"):
        ml.HalfSpace.MakePose([0, 0, 1e-11], [0, 0, 0])


def _obj_meshes():
    if not ERD:
        return []
    return sorted(glob.glob(f"{ERD}/robots/**/*.obj", recursive=True))[::8]


OBJ_MESHES = _obj_meshes()


@pytest.mark.parametrize("path", OBJ_MESHES, ids=[os.path.basename(p) for p in OBJ_MESHES])
def test_obj_mesh_volume_inertia_and_hull(path):
    pytest.importorskip("scipy")
    scale = [1.0, 2.0, -0.5]
    for kind in ("Mesh", "Convex"):
        ours, theirs = getattr(ml, kind)(path, scale), getattr(pd, kind)(path, scale)
        assert ml.CalcVolume(ours) == pytest.approx(pd.CalcVolume(theirs), rel=1e-10)
        try:
            M_pd = pd.CalcSpatialInertia(theirs, 1000.0)
        except ValueError as e:  # a mesh wound inward
            assert "The calculated volume of a triangle surface mesh" in str(e)
            with pytest.raises(ValueError, match="The calculated volume of a triangle surface"):
                ml.CalcSpatialInertia(ours, 1000.0)
            continue
        M = ml.CalcSpatialInertia(ours, 1000.0)
        scale_of = np.abs(M_pd.CopyToFullMatrix6()).max()
        np.testing.assert_allclose(
            M.CopyToFullMatrix6(), M_pd.CopyToFullMatrix6(), rtol=0, atol=1e-10 * scale_of
        )
    hull, hull_pd = ml.Convex(path, scale).GetConvexHull(), pd.Convex(path, scale).GetConvexHull()
    assert (hull.num_vertices(), hull.num_faces()) == (hull_pd.num_vertices(), hull_pd.num_faces())
    assert hull.total_area() == pytest.approx(hull_pd.total_area(), rel=1e-10)
    ours = sorted(map(tuple, np.round([hull.vertex(i) for i in range(hull.num_vertices())], 12)))
    theirs = [hull_pd.vertex(i) for i in range(hull_pd.num_vertices())]
    assert ours == sorted(map(tuple, np.round(theirs, 12)))


def _property_log(m):
    """Each step of a property-set session: the values and the errors' messages."""
    log = []

    def attempt(label, call):
        try:
            log.append((label, call()))
        except RuntimeError as e:
            log.append((label, "error", str(e)))

    p = m.ProximityProperties()
    log.append(("new", p.num_groups(), p.default_group_name(), sorted(p.GetGroupNames())))
    p.AddProperty("a", "b", 1.0)
    p.AddProperty("a", "c", "text")
    attempt("add again", lambda: p.AddProperty("a", "b", 2.0))
    attempt("update type", lambda: p.UpdateProperty("a", "b", "x"))
    attempt("update int", lambda: p.UpdateProperty("a", "b", 2))
    attempt("update", lambda: p.UpdateProperty("a", "b", 3.0))
    attempt("get", lambda: p.GetProperty("a", "b"))
    attempt("get missing", lambda: p.GetProperty("a", "zz"))
    attempt("get no group", lambda: p.GetProperty("zz", "zz"))
    attempt("default", lambda: p.GetPropertyOrDefault("zz", "zz", 5.0))
    attempt("in group", lambda: sorted(p.GetPropertiesInGroup("a")))
    attempt("in no group", lambda: p.GetPropertiesInGroup("zz"))
    attempt("remove", lambda: (p.RemoveProperty("a", "c"), p.RemoveProperty("a", "c")))
    attempt("groups", lambda: (sorted(p.GetGroupNames()), p.HasGroup("a"), p.HasProperty("a", "b")))
    attempt("str", lambda: str(p))
    friction = m.CoulombFriction(0.9, 0.4)
    q = m.ProximityProperties()
    m.AddContactMaterial(dissipation=1.5, point_stiffness=2e4, friction=friction, properties=q)
    attempt("material", lambda: sorted(q.GetPropertiesInGroup("material")))
    attempt("material again", lambda: m.AddContactMaterial(dissipation=1.0, properties=q))
    attempt(
        "negative dissipation",
        lambda: m.AddContactMaterial(dissipation=-2.0, properties=m.ProximityProperties()),
    )
    attempt(
        "zero stiffness",
        lambda: m.AddContactMaterial(point_stiffness=0.0, properties=m.ProximityProperties()),
    )
    for name, call in [
        ("rigid", lambda r: m.AddRigidHydroelasticProperties(0.1, r)),
        ("rigid, no hint", lambda r: m.AddRigidHydroelasticProperties(properties=r)),
        ("compliant", lambda r: m.AddCompliantHydroelasticProperties(0.2, 3e6, r)),
        ("half space", lambda r: m.AddCompliantHydroelasticPropertiesForHalfSpace(0.3, 4e6, r)),
        ("zero modulus", lambda r: m.AddCompliantHydroelasticProperties(0.2, 0.0, r)),
    ]:
        r = m.ProximityProperties()
        attempt(name, lambda r=r, call=call: call(r))
        if log[-1][-1] is None:  # (mallard adds nothing when it fails; pydrake may add some)
            values = r.GetPropertiesInGroup("hydroelastic")
            hydro = [
                (k, r.GetProperty("hydroelastic", k)) for k in values if k != "compliance_type"
            ]
            log.append((name, sorted(hydro)))
    mu = m.CalcContactFrictionFromSurfaceProperties(friction, m.CoulombFriction(0.3, 0.1))
    log.append(("combined", mu.static_friction(), mu.dynamic_friction()))
    for args in [(-1.0, 0.0), (1.0, -1.0), (-1.0, -1.0), (1.0, 2.0)]:
        attempt(f"friction {args}", lambda args=args: m.CoulombFriction(*args) and None)
    return log


def test_properties_api_matches_pydrake():
    assert _property_log(ml) == _property_log(pd)


URDF = """<?xml version="1.0"?>
<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="base">
    <collision name="c0">
      <geometry><box size="1 1 1"/></geometry>
      <drake:proximity_properties>
        <drake:mu_static value="0.8"/>
        <drake:mu_dynamic value="0.5"/>
        <drake:hunt_crossley_dissipation value="2.5"/>
        <drake:point_contact_stiffness value="1e5"/>
        <drake:hydroelastic_modulus value="1e7"/>
        <drake:compliant_hydroelastic/>
        <drake:mesh_resolution_hint value="0.05"/>
        <drake:relaxation_time value="0.1"/>
        <drake:hydroelastic_margin value="0.001"/>
      </drake:proximity_properties>
    </collision>
    <collision name="c1">
      <geometry><sphere radius="0.1"/></geometry>
      <drake:proximity_properties>
        <drake:rigid_hydroelastic/><drake:mesh_resolution_hint value="0.02"/>
        <drake:mu_dynamic value="0.5"/>
      </drake:proximity_properties>
    </collision>
    <collision name="c2"><geometry><sphere radius="0.1"/></geometry></collision>
    <collision name="c3">
      <geometry><sphere radius="0.1"/></geometry>
      <drake_compliance><static_friction>0.7</static_friction>
        <dynamic_friction>0.6</dynamic_friction></drake_compliance>
    </collision>
  </link>
</robot>
"""

SDF = """<?xml version="1.0"?>
<sdf version="1.9" xmlns:drake="http://drake.mit.edu"><model name="m"><link name="a">
  <collision name="c0"><geometry><box><size>1 1 1</size></box></geometry>
    <drake:proximity_properties>
      <drake:mu_static>0.8</drake:mu_static>
      <drake:mu_dynamic>0.5</drake:mu_dynamic>
      <drake:hunt_crossley_dissipation>2.5</drake:hunt_crossley_dissipation>
      <drake:point_contact_stiffness>1e5</drake:point_contact_stiffness>
      <drake:hydroelastic_modulus>1e7</drake:hydroelastic_modulus>
      <drake:compliant_hydroelastic/>
      <drake:mesh_resolution_hint>0.05</drake:mesh_resolution_hint>
      <drake:relaxation_time>0.1</drake:relaxation_time>
      <drake:hydroelastic_margin>0.001</drake:hydroelastic_margin>
    </drake:proximity_properties>
  </collision>
  <collision name="c1"><geometry><sphere><radius>0.1</radius></sphere></geometry>
    <drake:proximity_properties><drake:rigid_hydroelastic/>
      <drake:mesh_resolution_hint>0.02</drake:mesh_resolution_hint>
      <drake:mu_static>0.4</drake:mu_static></drake:proximity_properties>
  </collision>
  <collision name="c2"><geometry><sphere><radius>0.1</radius></sphere></geometry>
    <surface><friction><ode><mu>0.7</mu><mu2>0.3</mu2></ode></friction></surface>
  </collision>
  <collision name="c3"><geometry><sphere><radius>0.1</radius></sphere></geometry>
    <surface><friction><ode><mu2>0.7</mu2></ode></friction></surface>
  </collision>
  <collision name="c4"><geometry><plane><normal>0 0 1</normal><size>1 1</size></plane></geometry>
    <drake:proximity_properties><drake:rigid_hydroelastic/></drake:proximity_properties>
  </collision>
  <collision name="c5"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
</link></model></sdf>
"""


def _parsed_properties(m, text, file_type):
    builder = m.DiagramBuilder()
    plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    m.Parser(plant).AddModelsFromString(text, file_type)
    inspector = scene_graph.model_inspector()
    result = []
    for g in inspector.GetAllGeometryIds(m.Role.kProximity):
        p = inspector.GetProximityProperties(g)
        values = []
        for group in sorted(p.GetGroupNames()):
            for name in sorted(p.GetPropertiesInGroup(group)):
                if name == "compliance_type":  # pydrake cannot read its value
                    values.append((group, name))
                    continue
                value = p.GetProperty(group, name)
                if isinstance(value, m.CoulombFriction):
                    value = (value.static_friction(), value.dynamic_friction())
                values.append((group, name, value))
        result.append((inspector.GetName(g), values))
    return result


@pytest.mark.parametrize("text, file_type", [(URDF, "urdf"), (SDF, "sdf")])
def test_parsed_proximity_properties_match_pydrake(text, file_type):
    assert _parsed_properties(ml, text, file_type) == _parsed_properties(pd, text, file_type)
