"""Collision filters against pydrake: the candidate pairs of GetCollisionCandidates after
Finalize (same-body, welded, adjacent bodies and the URDF/SDFormat collision filter groups) on
every example-robot-data URDF with collision geometry, on plants built by hand, and on filter
group documents (including their errors); the persistent and transient declarations of the
CollisionFilterManager. Pairs are compared by geometry name."""

import glob
import re

import pytest

pydrake_all = pytest.importorskip("pydrake.all")

import mallard.all as ml_all  # noqa: E402
from tests.conformance.test_parsing_urdf import ERD, _label, _setup_package_map  # noqa: E402

LIBRARIES = {"pydrake": pydrake_all, "mallard": ml_all}


def _candidates(m, scene_graph):
    inspector = scene_graph.model_inspector()
    names = {g: inspector.GetName(g) for g in inspector.GetAllGeometryIds()}
    return sorted(
        tuple(sorted((names[a], names[b]))) for a, b in inspector.GetCollisionCandidates()
    )


def _parse(m, text, file_type):
    """(candidates, groups, exclusion pairs) of ``text`` in library ``m``, or its error."""
    builder = m.DiagramBuilder()
    plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = m.Parser(plant)
    _setup_package_map(parser.package_map())
    try:
        parser.AddModelsFromString(text, file_type)
        plant.Finalize()
    except Exception as e:
        return str(e)
    groups = parser.GetCollisionFilterGroups()
    named = sorted((name, sorted(members)) for name, members in groups.groups().items())
    return _candidates(m, scene_graph), named, sorted(groups.exclusion_pairs())


# ---- example-robot-data ------------------------------------------------------------------------
def _collision_only(text):
    """The URDF ``text`` with its visuals removed and its collision meshes made small spheres
    (pydrake's SceneGraph rejects .stl and .dae collision meshes; the candidate pairs do not
    depend on the shapes)."""
    text = re.sub(r"<visual\b.*?</visual>", "", text, flags=re.S)

    def sphere(match):
        return re.sub(r"<mesh\b[^>]*/>", '<sphere radius="0.01"/>', match.group(0))

    return re.sub(r"<collision\b.*?</collision>", sphere, text, flags=re.S)


def _robots():
    if not ERD:
        return []
    paths = sorted(glob.glob(f"{ERD}/robots/**/*.urdf", recursive=True))
    return [p for p in paths if "<collision" in open(p, encoding="utf-8").read()]


ROBOTS = _robots()


@pytest.mark.parametrize("path", ROBOTS, ids=[_label(p) for p in ROBOTS])
def test_robot_collision_candidates_match_pydrake(path):
    text = _collision_only(open(path, encoding="utf-8").read())
    pd, ml = (_parse(m, text, "urdf") for m in (pydrake_all, ml_all))
    if isinstance(pd, str):
        assert isinstance(ml, str)
        return
    assert ml == pd


# ---- plants built by hand ----------------------------------------------------------------------
def _hand_built(m, adjacent):
    """Bodies joined in every way the plant filters (or not), two geometries on some."""
    builder = m.DiagramBuilder()
    plant, scene_graph = m.AddMultibodyPlantSceneGraph(builder, 0.0)
    if adjacent is not None:
        plant.set_adjacent_bodies_collision_filters(adjacent)
    M = m.SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    bodies = {n: plant.AddRigidBody(n, M) for n in "ABCDEFGHRS"}
    world = plant.world_frame()

    def frame(n):
        return bodies[n].body_frame()

    z = [0.0, 0.0, 1.0]
    plant.AddJoint(m.RevoluteJoint("jA", world, frame("A"), z))
    plant.AddJoint(m.RevoluteJoint("jB", frame("A"), frame("B"), z))
    plant.AddJoint(m.WeldJoint("wC", frame("B"), frame("C"), m.RigidTransform()))
    plant.AddJoint(m.PrismaticJoint("jE", world, frame("E"), z))
    plant.AddJoint(m.QuaternionFloatingJoint("jF", frame("A"), frame("F")))
    plant.AddJoint(m.WeldJoint("wG", world, frame("G"), m.RigidTransform()))
    plant.AddJoint(m.RevoluteJoint("jH", frame("G"), frame("H"), z))
    plant.AddJoint(m.RpyFloatingJoint("jR", frame("H"), frame("R")))
    plant.AddJoint(m.BallRpyJoint("jS", frame("H"), frame("S")))
    friction = m.CoulombFriction(1.0, 1.0)
    for n, body in bodies.items():
        for k in range(2 if n in "AC" else 1):
            plant.RegisterCollisionGeometry(
                body, m.RigidTransform(), m.Sphere(0.1), f"{n}{k}", friction
            )
    for k in range(2):
        plant.RegisterCollisionGeometry(
            plant.world_body(), m.RigidTransform(), m.Sphere(0.1), f"W{k}", friction
        )
    plant.RegisterVisualGeometry(bodies["B"], m.RigidTransform(), m.Sphere(0.1), "v", [1, 0, 0, 1])
    assert plant.get_adjacent_bodies_collision_filters() == (adjacent is not False)
    plant.Finalize()
    return plant, scene_graph


@pytest.mark.parametrize("adjacent", [None, True, False])
def test_plant_filters_match_pydrake(adjacent):
    results = {}
    for name, m in LIBRARIES.items():
        plant, scene_graph = _hand_built(m, adjacent)
        inspector = scene_graph.model_inspector()
        counts = (
            inspector.NumGeometriesWithRole(m.Role.kProximity),
            inspector.NumAnchoredGeometries(),
            inspector.NumDynamicGeometries(),
        )
        results[name] = (_candidates(m, scene_graph), counts)
    assert results["mallard"] == results["pydrake"]


def test_collision_filter_manager_matches_pydrake():
    """Persistent and transient declarations, the invariants, and the errors."""
    assert _manager_log(ml_all) == _manager_log(pydrake_all)


def _manager_log(m):
    """What the candidate pairs are after each of a sequence of declarations in ``m``."""
    log = []
    sg = m.SceneGraph()
    source = sg.RegisterSource("s")
    f1 = sg.RegisterFrame(source, m.GeometryFrame("f1"))
    f2 = sg.RegisterFrame(source, m.GeometryFrame("f2"))

    def register(frame, n, proximity=True):
        instance = m.GeometryInstance(m.RigidTransform(), m.Sphere(1.0), n)
        if proximity:
            instance.set_proximity_properties(m.ProximityProperties())
        else:
            instance.set_illustration_properties(m.IllustrationProperties())
        if frame is None:
            return sg.RegisterAnchoredGeometry(source, instance)
        return sg.RegisterGeometry(source, frame, instance)

    a, b = register(f1, "a"), register(f2, "b")
    c, w = register(f2, "c", proximity=False), register(None, "w")
    inspector, manager = sg.model_inspector(), sg.collision_filter_manager()

    def state(label):
        log.append((label, _candidates(m, sg)))

    def attempt(label, call):
        try:
            call()
            log.append((label, "ok"))
        except RuntimeError as e:
            log.append((label, re.sub(r"\d+", "#", str(e))))

    D, S = m.CollisionFilterDeclaration, m.GeometrySet
    state("initial")
    manager.Apply(D().ExcludeWithin(S([a, b, c])))
    state("exclude within")
    sg.AssignRole(source, c, m.ProximityProperties())
    state("c gets proximity")
    manager.Apply(D().AllowWithin(S([a, b, c])))
    state("allow within")
    first = manager.ApplyTransient(D().ExcludeBetween(S(a), S(f2)))
    state("transient")
    log.append(("active", manager.has_transient_history(), manager.IsActive(first)))
    attempt("apply with history", lambda: manager.Apply(D().ExcludeWithin(S([a, b]))))
    second = manager.ApplyTransient(D().AllowWithin(S([a, b])))
    state("second transient")
    log.append(("remove", manager.RemoveDeclaration(first), manager.RemoveDeclaration(first)))
    state("first removed")
    log.append(("remove 2", manager.RemoveDeclaration(second), manager.has_transient_history()))
    manager.Apply(D().ExcludeBetween(S(w), S([a, b])).AllowBetween(S(w), S(a)))
    state("between")
    manager.Apply(D().AllowWithin(S([b, c])).AllowBetween(S(w), S(sg.world_frame_id())))
    state("invariants stay")
    log.append(("filtered", inspector.CollisionFiltered(a, w), inspector.CollisionFiltered(b, c)))
    attempt("bad geometry", lambda: manager.Apply(D().ExcludeWithin(S(m.GeometryId.get_new_id()))))
    attempt("bad frame", lambda: manager.Apply(D().ExcludeWithin(S(m.FrameId.get_new_id()))))
    attempt("filtered bad", lambda: inspector.CollisionFiltered(a, m.GeometryId.get_new_id()))
    d = register(f1, "d")
    state("registered later")
    context = sg.CreateDefaultContext()
    sg.collision_filter_manager(context).Apply(D().ExcludeWithin(S([a, b, c, d, w])))
    state("model after context change")
    query = sg.get_query_output_port().Eval(context)
    log.append(("context", len(query.inspector().GetCollisionCandidates())))
    return log


# ---- filter groups in model files --------------------------------------------------------------
def _urdf(body):
    links = "".join(
        f'<link name="{n}"><collision name="{n}"><geometry><sphere radius="1"/></geometry>'
        "</collision></link>"
        for n in "abc"
    )
    return f'<robot name="r" xmlns:drake="x">{links}{body}</robot>'


def _group(name, *children, attributes=""):
    name = "" if name is None else f' name="{name}"'
    tag = "drake:collision_filter_group"
    return f"<{tag}{name}{attributes}>{''.join(children)}</{tag}>"


def _member(link):
    return "<drake:member/>" if link is None else f'<drake:member link="{link}"/>'


def _ignore(group):
    if group is None:
        return "<drake:ignored_collision_filter_group/>"
    return f'<drake:ignored_collision_filter_group name="{group}"/>'


URDF_CASES = {
    "self": _group("g", _member("a"), _member("b"), _ignore("g")),
    "unknown link": _group("g", _member("zz")),
    "unknown ignored group": _group("g", _member("a"), _ignore("h")),
    "no name": _group(None, _member("a")),
    "member without link": _group("g", _member(None)),
    "ignored without name": _group("g", _ignore(None)),
    "no members": _group("g"),
    "duplicate": _group("g", _member("a"), _ignore("g")) + _group("g", _member("b")),
    "member group": _group("g", _member("a"))
    + _group("h", '<drake:member_group name="g"/>', _member("c"), _ignore("h")),
    "ignored group": _group("g", _member("a"), attributes=' ignore="true"')
    + _group("h", _member("b"), _ignore("g")),
    "scoped group name": _group("x::g", _member("a")),
    "scoped link": _group("g", _member("r::a"), _ignore("g")),
    "unknown member group": _group("g", _member("a"), '<drake:member_group name="zz"/>'),
    "two groups": _group("g", _member("a"), _ignore("h")) + _group("h", _member("b")),
}


@pytest.mark.parametrize("case", URDF_CASES)
def test_urdf_filter_groups_match_pydrake(case):
    text = _urdf(URDF_CASES[case])
    assert _parse(ml_all, text, "urdf") == _parse(pydrake_all, text, "urdf")


def _sdf(body, nested=""):
    def link(n):
        return (
            f'<link name="{n}"><collision name="{n}"><geometry><sphere><radius>1</radius>'
            "</sphere></geometry></collision></link>"
        )

    return (
        f'<sdf version="1.9"><model name="m">{link("a")}{link("b")}{link("c")}'
        f'<model name="n">{link("d")}{nested}</model>{body}</model></sdf>'
    )


def _sdf_group(name, members=(), ignored=(), member_groups=(), attributes=""):
    children = [f"<drake:member>{x}</drake:member>" for x in members]
    children += [f"<drake:member_group>{x}</drake:member_group>" for x in member_groups]
    children += [
        f"<drake:ignored_collision_filter_group>{x}</drake:ignored_collision_filter_group>"
        for x in ignored
    ]
    return _group(name, *children, attributes=attributes)


SDF_CASES = {
    "nested member": (_sdf_group("g", ["a", "n::d"], ["g"]), ""),
    "nested group": (_sdf_group("g", ["a"], ["n::h"]), _sdf_group("h", ["d"])),
    "unknown link": (_sdf_group("g", ["zz"]), ""),
    "unknown ignored group": (_sdf_group("g", ["a"], ["h"]), ""),
    "no members": (_sdf_group("g"), ""),
    "ignored group": (_sdf_group("g", ["a"], attributes=' ignore="true"'), ""),
    "member group": (
        _sdf_group("g", ["a"], ["g"], member_groups=["n::h"]),
        _sdf_group("h", ["d"]),
    ),
    "empty member": (_sdf_group("g", ["a", ""]), ""),
    "empty ignored": (_sdf_group("g", ["a"], [""]), ""),
    "scoped link": (_sdf_group("g", ["m::a"], ["g"]), ""),
    "scoped ignored group": (_sdf_group("g", ["a"], ["m::g"]), ""),
}


def _without_location(result):
    """Errors compared without their file:line (libsdformat reports some without a line)."""
    if isinstance(result, str):
        return re.sub(r"^.*?error: ", "", result)
    return result


@pytest.mark.parametrize("case", SDF_CASES)
def test_sdf_filter_groups_match_pydrake(case):
    text = _sdf(*SDF_CASES[case])
    ml, pd = (_without_location(_parse(m, text, "sdf")) for m in (ml_all, pydrake_all))
    assert ml == pd
