"""GeometryVersion against pydrake: the same sequence of SceneGraph changes (registration,
role assignment and replacement, role removal, taking a CollisionFilterManager of the model or
of a Context, a plant's registrations, parsing and Finalize) changes the same roles' versions;
IsSameAs's errors and copies as pydrake's."""

import copy
import pickle

import numpy as np
import pytest

pydrake_all = pytest.importorskip("pydrake.all")

import mallard.all as ml_all  # noqa: E402
from tests.conformance.test_collision_filters import ROBOTS, _collision_only  # noqa: E402
from tests.conformance.test_parsing_urdf import _label, _setup_package_map  # noqa: E402

LIBRARIES = {"pydrake": pydrake_all, "mallard": ml_all}


class _Log:
    """Records which roles' versions each step changed, as read from ``read()``."""

    def __init__(self, m, read):
        self.m, self.read, self.steps = m, read, []
        self.last = m.GeometryVersion(read())

    def step(self, what):
        now = self.m.GeometryVersion(self.read())
        roles = (self.m.Role.kProximity, self.m.Role.kIllustration, self.m.Role.kPerception)
        self.steps.append((what, [r.name for r in roles if not self.last.IsSameAs(now, r)]))
        self.last = now


def _scene_graph_steps(m):
    sg = m.SceneGraph()
    log = _Log(m, lambda: sg.model_inspector().geometry_version())
    s = sg.RegisterSource("s")
    log.step("RegisterSource")
    f = sg.RegisterFrame(s, m.GeometryFrame("f"))
    log.step("RegisterFrame")
    g = sg.RegisterGeometry(s, f, m.GeometryInstance(m.RigidTransform(), m.Sphere(1), "g"))
    log.step("RegisterGeometry without roles")
    for properties in (m.ProximityProperties, m.IllustrationProperties, m.PerceptionProperties):
        sg.AssignRole(s, g, properties())
        log.step(f"AssignRole {properties.__name__}")
        replaced = properties()
        replaced.AddProperty("group", "name", 1.0)
        try:
            sg.AssignRole(s, g, replaced, m.RoleAssign.kReplace)
        except RuntimeError as e:  # (perception's: Drake refuses to replace them)
            log.steps.append(("kReplace refused", str(e)))
        log.step(f"AssignRole {properties.__name__} kReplace")
    instance = m.GeometryInstance(m.RigidTransform([1, 0, 0]), m.Box(1, 1, 1), "h")
    instance.set_proximity_properties(m.ProximityProperties())
    instance.set_illustration_properties(m.IllustrationProperties())
    instance.set_perception_properties(m.PerceptionProperties())
    h = sg.RegisterGeometry(s, f, instance)
    log.step("RegisterGeometry with every role")
    sg.RegisterAnchoredGeometry(s, m.GeometryInstance(m.RigidTransform(), m.Sphere(1), "a"))
    log.step("RegisterAnchoredGeometry without roles")
    manager = sg.collision_filter_manager()
    log.step("collision_filter_manager()")
    manager.Apply(m.CollisionFilterDeclaration().ExcludeWithin(m.GeometrySet([g, h])))
    log.step("Apply")
    for role in (m.Role.kIllustration, m.Role.kPerception, m.Role.kPerception):
        sg.RemoveRole(s, h, role)
        log.step(f"RemoveRole {role.name}")
    sg.RemoveRole(s, h, m.Role.kProximity)
    log.step("RemoveRole kProximity")

    context = sg.CreateDefaultContext()
    model = m.GeometryVersion(sg.model_inspector().geometry_version())
    context_log = _Log(
        m, lambda: sg.get_query_output_port().Eval(context).inspector().geometry_version()
    )
    same = [model.IsSameAs(context_log.last, r) for r in (m.Role.kProximity, m.Role.kIllustration)]
    context_manager = sg.collision_filter_manager(context)
    context_log.step("collision_filter_manager(context)")
    filter_id = context_manager.ApplyTransient(
        m.CollisionFilterDeclaration().AllowWithin(m.GeometrySet([g]))
    )
    context_log.step("ApplyTransient")
    context_manager.RemoveDeclaration(filter_id)
    context_log.step("RemoveDeclaration")
    log.step("(the model's, after the Context's changes)")
    return log.steps, same, context_log.steps


def test_scene_graph_changes_bump_the_versions_pydrake_bumps():
    ml, pd = (_scene_graph_steps(m) for m in (ml_all, pydrake_all))
    assert ml == pd


def _plant_steps(m):
    builder = m.DiagramBuilder()
    plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    log = _Log(m, lambda: scene_graph.model_inspector().geometry_version())
    inertia = m.SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    a = plant.AddRigidBody("a", inertia)
    b = plant.AddRigidBody("b", inertia)
    log.step("AddRigidBody")
    plant.RegisterCollisionGeometry(
        a, m.RigidTransform(), m.Sphere(0.1), "a_collision", m.CoulombFriction(1.0, 1.0)
    )
    log.step("RegisterCollisionGeometry")
    plant.RegisterCollisionGeometry(
        b, m.RigidTransform(), m.Box(0.1, 0.2, 0.3), "b_collision", m.ProximityProperties()
    )
    log.step("RegisterCollisionGeometry with ProximityProperties")
    plant.RegisterVisualGeometry(a, m.RigidTransform(), m.Sphere(0.1), "a_visual", [1, 0, 0, 1])
    log.step("RegisterVisualGeometry")
    plant.AddJoint(m.RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    log.step("AddJoint")
    plant.Finalize()
    log.step("Finalize")
    return log.steps


def test_plant_registration_and_finalize_bump_the_versions_pydrake_bumps():
    assert _plant_steps(ml_all) == _plant_steps(pydrake_all)


def _new_contexts(m, roles):
    """Whether new Contexts' versions are the model's (per role, of proximity and
    illustration), and whether two new Contexts' are the same, for a geometry with
    ``roles``."""
    sg = m.SceneGraph()
    s = sg.RegisterSource("s")
    f = sg.RegisterFrame(s, m.GeometryFrame("f"))
    g = sg.RegisterGeometry(s, f, m.GeometryInstance(m.RigidTransform(), m.Sphere(1), "g"))
    for properties in roles:
        sg.AssignRole(s, g, getattr(m, properties)())
    model = m.GeometryVersion(sg.model_inspector().geometry_version())
    a, b = (
        m.GeometryVersion(sg.get_query_output_port().Eval(c).inspector().geometry_version())
        for c in (sg.CreateDefaultContext(), sg.CreateDefaultContext())
    )
    pairs = ((model, a), (a, b))
    return [x.IsSameAs(y, r) for x, y in pairs for r in (m.Role.kProximity, m.Role.kIllustration)]


@pytest.mark.parametrize("roles", [(), ("IllustrationProperties",), ("ProximityProperties",)])
def test_new_contexts_versions_as_pydrakes(roles):
    assert _new_contexts(ml_all, roles) == _new_contexts(pydrake_all, roles)


def _robot_steps(m, text):
    builder = m.DiagramBuilder()
    plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    log = _Log(m, lambda: scene_graph.model_inspector().geometry_version())
    parser = m.Parser(plant)
    _setup_package_map(parser.package_map())
    try:
        parser.AddModelsFromString(text, "urdf")
        log.step("AddModelsFromString")
        plant.Finalize()
        log.step("Finalize")
    except Exception:
        return "error"
    return log.steps


@pytest.mark.parametrize("path", ROBOTS[:3], ids=[_label(p) for p in ROBOTS[:3]])
def test_parsed_robots_bump_the_versions_pydrake_bumps(path):
    text = _collision_only(open(path, encoding="utf-8").read())
    assert _robot_steps(ml_all, text) == _robot_steps(pydrake_all, text)


@pytest.mark.parametrize("name", LIBRARIES)
def test_versions_compare_copy_and_refuse_as_pydrakes(name):
    m = LIBRARIES[name]
    a, b = m.GeometryVersion(), m.GeometryVersion()
    roles = (m.Role.kProximity, m.Role.kIllustration, m.Role.kPerception)
    assert all(a.IsSameAs(a, r) and not a.IsSameAs(b, r) for r in roles)
    for c in (m.GeometryVersion(a), copy.copy(a), copy.deepcopy(a)):
        assert all(c.IsSameAs(a, r) for r in roles)
    assert a.IsSameAs(other=b, role=m.Role.kIllustration) is False
    with pytest.raises(RuntimeError, match="Trying to compare the version of unassigned roles"):
        a.IsSameAs(a, m.Role.kUnassigned)
    with pytest.raises(TypeError):
        a.IsSameAs(np.zeros(3), m.Role.kProximity)
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(a)
