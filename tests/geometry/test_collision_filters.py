"""SceneGraph's collision filters and roles, and the plant's: GeometrySet, declarations,
the manager's errors, the invariants, the plant's filters at Finalize, registration errors
(nothing registered) and the inspector's queries."""

import copy

import pytest

from mallard.all import (
    AddMultibodyPlantSceneGraph,
    ApplyMultibodyPlantConfig,
    Box,
    CollisionFilterDeclaration,
    CoulombFriction,
    DiagramBuilder,
    FrameId,
    GeometryFrame,
    GeometryId,
    GeometryInstance,
    GeometrySet,
    IllustrationProperties,
    Mesh,
    MultibodyPlant,
    MultibodyPlantConfig,
    ProximityProperties,
    RevoluteJoint,
    RigidTransform,
    Role,
    RoleAssign,
    SceneGraph,
    SpatialInertia,
    Sphere,
    WeldJoint,
)


def _scene():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frames = [sg.RegisterFrame(source, GeometryFrame(f"f{i}")) for i in range(2)]
    ids = []
    for i, frame in enumerate([frames[0], frames[0], frames[1], None]):
        instance = GeometryInstance(RigidTransform(), Sphere(1.0), f"g{i}")
        instance.set_proximity_properties(ProximityProperties())
        register = sg.RegisterAnchoredGeometry if frame is None else sg.RegisterGeometry
        ids.append(
            register(source, instance) if frame is None else register(source, frame, instance)
        )
    return sg, source, frames, ids


def test_geometry_set_constructors():
    sg, _, frames, (a, b, c, w) = _scene()
    inspector = sg.model_inspector()
    assert inspector.GetGeometryIds(GeometrySet()) == set()
    assert inspector.GetGeometryIds(GeometrySet(a)) == {a}
    assert inspector.GetGeometryIds(GeometrySet(frames[0])) == {a, b}
    assert inspector.GetGeometryIds(GeometrySet([c, w])) == {c, w}
    assert inspector.GetGeometryIds(GeometrySet(frames)) == {a, b, c}
    assert inspector.GetGeometryIds(GeometrySet([w], [frames[1]])) == {c, w}
    s = GeometrySet()
    s.Add(a)
    s.Add([c])
    s.Add(frames[0])
    assert inspector.GetGeometryIds(s, Role.kProximity) == {a, b, c}
    assert inspector.GetGeometryIds(s, Role.kIllustration) == set()
    with pytest.raises(TypeError):
        GeometrySet("a")
    with pytest.raises(TypeError):
        GeometrySet([a, frames[0]])


def test_a_declaration_keeps_its_sets_as_they_were():
    """A statement holds a copy of its GeometrySets (the same ids): sets changed after it
    change nothing it applies."""
    sg, _, frames, (a, b, c, w) = _scene()
    inspector = sg.model_inspector()
    within, other = GeometrySet(a), GeometrySet(frames[1])
    declaration = CollisionFilterDeclaration().ExcludeWithin(within).ExcludeBetween(other, within)
    within.Add(w)
    other.Add(b)
    copied = copy.deepcopy(within)
    copied.Add(frames[0])
    assert inspector.GetGeometryIds(within) == {a, w}
    assert inspector.GetGeometryIds(copied) == {a, b, w}
    sg.collision_filter_manager().Apply(declaration)
    assert inspector.GetCollisionCandidates() == {(a, w), (b, c), (b, w), (c, w)}


def test_invariants_and_declarations():
    sg, _, frames, (a, b, c, w) = _scene()
    inspector = sg.model_inspector()
    # same frame (a, b) is filtered; one anchored geometry is not filtered with the others
    assert inspector.GetCollisionCandidates() == {(a, c), (a, w), (b, c), (b, w), (c, w)}
    manager = sg.collision_filter_manager()
    declaration = CollisionFilterDeclaration()
    assert declaration.ExcludeWithin(GeometrySet([a, c, w])) is declaration
    manager.Apply(declaration)
    assert inspector.GetCollisionCandidates() == {(b, c), (b, w)}
    manager.Apply(CollisionFilterDeclaration().AllowBetween(GeometrySet(frames[0]), GeometrySet(c)))
    assert inspector.GetCollisionCandidates() == {(a, c), (b, c), (b, w)}
    assert inspector.CollisionFiltered(a, b) and inspector.CollisionFiltered(a, a)
    with pytest.raises(RuntimeError, match="geometry id that doesn't belong to the SceneGraph"):
        manager.Apply(
            CollisionFilterDeclaration().ExcludeWithin(GeometrySet(GeometryId.get_new_id()))
        )
    with pytest.raises(RuntimeError, match=r"Referenced frame \d+ has not been registered"):
        manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(FrameId.get_new_id())))
    with pytest.raises(TypeError):
        manager.Apply(GeometrySet())
    with pytest.raises(TypeError):
        CollisionFilterDeclaration().ExcludeBetween(GeometrySet(), [a])


def test_roles():
    sg, source, frames, (a, b, c, w) = _scene()
    inspector = sg.model_inspector()
    with pytest.raises(
        RuntimeError, match="assign the 'proximity' role to geometry id \\d+ for the"
    ):
        sg.AssignRole(source, a, ProximityProperties())
    with pytest.raises(RuntimeError, match="for the 'illustration' role; it has not had the role"):
        sg.AssignRole(source, a, IllustrationProperties(), RoleAssign.kReplace)
    replaced = ProximityProperties()
    replaced.AddProperty("x", "y", 1.0)
    sg.AssignRole(source, a, replaced, RoleAssign.kReplace)
    assert inspector.GetProximityProperties(a).GetProperty("x", "y") == 1.0
    sg.collision_filter_manager().Apply(
        CollisionFilterDeclaration().ExcludeWithin(GeometrySet([a, c]))
    )
    assert sg.RemoveRole(source, a, Role.kProximity) == 1
    assert sg.RemoveRole(source, a, Role.kProximity) == 0
    assert inspector.GetProximityProperties(a) is None
    with pytest.raises(RuntimeError, match="does not have a proximity role"):
        inspector.CollisionFiltered(a, c)
    sg.AssignRole(source, a, ProximityProperties())
    assert not inspector.CollisionFiltered(a, c)  # its old filters went with its role
    with pytest.raises(TypeError):
        sg.AssignRole(source, a, {"phong": {}})
    other = sg.RegisterSource("other")
    with pytest.raises(RuntimeError, match="does not belong to the given source id"):
        sg.AssignRole(other, a, IllustrationProperties())
    assert inspector.GetGeometryIdByName(frames[0], Role.kProximity, "g1") == b
    with pytest.raises(
        RuntimeError, match=r"The names associated with this frame/role are \{g0, g1\}"
    ):
        inspector.GetGeometryIdByName(frames[0], Role.kProximity, "zz")
    assert inspector.NumAnchoredGeometries() == 1 and inspector.NumDynamicGeometries() == 3
    assert inspector.NumGeometriesForFrameWithRole(frames[0], Role.kProximity) == 2
    assert inspector.FramesForSource(source) == set(frames) and inspector.BelongsToSource(a, source)
    clone = inspector.CloneGeometryInstance(b)
    assert clone.name() == "g1" and clone.id() != b and clone.proximity_properties() is not None
    assert inspector.GetConvexHull(b) is None


def _plant(adjacent=True):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    if not adjacent:
        ApplyMultibodyPlantConfig(
            MultibodyPlantConfig(time_step=0.0, adjacent_bodies_collision_filters=False), plant
        )
    M = SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    A, B, C = (plant.AddRigidBody(n, M) for n in "ABC")
    plant.AddJoint(RevoluteJoint("j1", plant.world_frame(), A.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("j2", A.body_frame(), B.body_frame(), [0, 0, 1]))
    plant.AddJoint(WeldJoint("w", B.body_frame(), C.body_frame(), RigidTransform()))
    friction = CoulombFriction(1.0, 1.0)
    ids = {}
    for body in (A, B, C, plant.world_body()):
        ids[body.name()] = plant.RegisterCollisionGeometry(
            body, RigidTransform(), Sphere(0.1), "c", friction
        )
    return plant, scene_graph, ids


def test_plant_filters():
    for adjacent in (True, False):
        plant, scene_graph, ids = _plant(adjacent)
        assert plant.get_adjacent_bodies_collision_filters() == adjacent
        plant.Finalize()
        inspector = scene_graph.model_inspector()
        assert inspector.CollisionFiltered(ids["B"], ids["C"])  # welded
        assert inspector.CollisionFiltered(ids["A"], ids["B"]) == adjacent
        assert not inspector.CollisionFiltered(ids["A"], ids["world"])  # parent is World
        assert not inspector.CollisionFiltered(ids["A"], ids["C"])
        with pytest.raises(RuntimeError, match="Post-finalize calls to 'set_adjacent_bodies"):
            plant.set_adjacent_bodies_collision_filters(True)
        body = plant.GetBodyByName("B")
        assert plant.GetBodyFromFrameId(inspector.GetFrameId(ids["B"])) is body
        assert inspector.GetGeometryIds(plant.CollectRegisteredGeometries([body])) == {ids["B"]}
    with pytest.raises(RuntimeError, match="was not registered with a SceneGraph"):
        MultibodyPlant(0.0).CollectRegisteredGeometries([])


def test_collision_registration():
    plant, scene_graph, ids = _plant()
    inspector = scene_graph.model_inspector()
    A = plant.GetBodyByName("A")
    properties = ProximityProperties()
    properties.AddProperty("material", "point_contact_stiffness", 1e4)
    g = plant.RegisterCollisionGeometry(A, RigidTransform(), Box(1, 1, 1), "box", properties)
    properties.AddProperty("material", "later", 1.0)  # registration copies the properties
    registered = inspector.GetProximityProperties(g)
    assert registered.GetProperty("material", "point_contact_stiffness") == 1e4
    assert not registered.HasProperty("material", "later")
    count = inspector.num_geometries()
    for bad, error in [
        (("box", CoulombFriction()), RuntimeError),  # the name is taken for the role
        (("x", {"material": {}}), TypeError),
        (("x", IllustrationProperties()), TypeError),
    ]:
        with pytest.raises(error):
            plant.RegisterCollisionGeometry(A, RigidTransform(), Sphere(1.0), *bad)
    for shape, message in [
        (Mesh("/no/such/file.obj"), "cannot read the file '/no/such/file.obj'"),
        (Mesh("/no/such/file.stl"), "cannot read the file '/no/such/file.stl'"),
    ]:
        with pytest.raises(RuntimeError, match=message):
            plant.RegisterCollisionGeometry(A, RigidTransform(), shape, "m", CoulombFriction())
    assert inspector.num_geometries() == count  # nothing registered
    plant.RegisterVisualGeometry(A, RigidTransform(), Mesh("/no/such/file.stl"), "m", [1, 1, 1, 1])


def test_parser_failures_register_nothing(tmp_path):
    """A model whose filter groups or collision meshes are bad adds nothing: no bodies, no
    geometry, no frames, the filters unchanged; the error names the group or the file."""
    from mallard.all import Parser

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString(
        '<robot name="ok"><link name="a"><collision><geometry><sphere radius="1"/></geometry>'
        "</collision></link></robot>",
        "urdf",
    )
    inspector = scene_graph.model_inspector()
    before = (plant.num_bodies(), inspector.num_geometries(), inspector.num_frames())
    candidates = inspector.GetCollisionCandidates()
    link = '<link name="{0}"><collision><geometry>{1}</geometry></collision></link>'
    sphere = '<sphere radius="1"/>'
    missing = tmp_path / "missing.obj"
    cases = [
        (
            link.format("a", sphere)
            + link.format("b", sphere)
            + '<drake:collision_filter_group name="g"><drake:member link="a"/>'
            '<drake:ignored_collision_filter_group name="h"/></drake:collision_filter_group>',
            "collision filter group with name 'bad::h' not found",
        ),
        (
            link.format("a", sphere) + link.format("b", f'<mesh filename="file://{missing}"/>'),
            f"resolved to '{missing}' which does not exist",
        ),
    ]
    for body, message in cases:
        text = f'<robot name="bad" xmlns:drake="http://drake.mit.edu">{body}</robot>'
        with pytest.raises(RuntimeError, match=message):
            Parser(plant).AddModelsFromString(text, "urdf")
        assert (plant.num_bodies(), inspector.num_geometries(), inspector.num_frames()) == before
        assert inspector.GetCollisionCandidates() == candidates
    plant.Finalize()
