"""``mallard simulate`` on a floating-base model: the ground under it (and --no-ground), the
discrete plant it gets, its start above the ground, its rest, and the contact forces in the
replay."""

import base64
import json

import numpy as np
import pytest

from mallard.cli._model import floating_base_bodies, load_model

# A free 2 kg ball (r = 0.1 m): a floating base with one collision sphere.
BALL_URDF = """<?xml version="1.0"?>
<robot name="ball">
  <link name="ball">
    <inertial>
      <mass value="2"/>
      <inertia ixx="0.008" ixy="0" ixz="0" iyy="0.008" iyz="0" izz="0.008"/>
    </inertial>
    <visual><geometry><sphere radius="0.1"/></geometry></visual>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
</robot>
"""
# The same ball welded to World: a fixed-base model.
WELDED_URDF = BALL_URDF.replace(
    "</robot>",
    '<link name="world"/><joint name="weld" type="fixed"><parent link="world"/>'
    '<child link="ball"/><origin xyz="0 0 0.5"/></joint></robot>',
)


@pytest.fixture
def ball(tmp_path):
    path = tmp_path / "ball.urdf"
    path.write_text(BALL_URDF)
    return path


def _scene(path):
    html = path.read_text()
    start = html.index('<script type="application/json" id="mallard-scene">')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


def _arrows(scene):
    """Per recorded time, its arrows (n, 6): point, force / newtons_per_meter."""
    contacts = scene["contacts"]
    offsets = np.frombuffer(base64.b64decode(contacts["offsets"]), dtype=np.int32)
    arrows = np.frombuffer(base64.b64decode(contacts["arrows"]), dtype=np.float32).reshape(-1, 6)
    return [arrows[a:b] for a, b in zip(offsets[:-1], offsets[1:], strict=True)]


def test_a_floating_model_lands_and_rests_on_the_ground(run, tmp_path, ball):
    """Discrete (1 ms, Drake's default approximation) with a ground: the ball, raised from
    z = 0 to start 5 cm above the ground, falls, lands and rests on it at its penetration
    (k from the penetration allowance); the replay draws its contact force, the weight m·g
    at rest, at the contact point."""
    result = run("simulate", ball, "--duration", "1", "--out", tmp_path)
    assert result.status == 0, result.err
    assert "lands on the ground" in result.err and "--time-step 0.001" in result.err
    assert "starts 0.15 m higher than its default pose, 0.05 m above the ground" in result.err
    assert "(discrete, time step 0.001 s)" in result.out
    assert "contact at T: 1 point(s), the largest force 19.6" in result.out
    data = np.load(tmp_path / "trajectory.npz")
    assert data["q"][0, 6] == pytest.approx(0.15)
    z, v = data["q"][-1, 6], data["v"][-1]
    assert 0.098 < z < 0.1 and np.abs(v).max() < 1e-3  # at rest on the ground
    scene = _scene(tmp_path / "replay.html")
    arrows = _arrows(scene)
    assert len(arrows) == len(data["t"])
    assert len(arrows[0]) == 0 and len(arrows[-1]) == 1  # in the air, then in contact
    point, half = arrows[-1][0, :3], arrows[-1][0, 3:]
    np.testing.assert_allclose(point, [0, 0, (z - 0.1) / 2], atol=1e-6)
    force = np.linalg.norm(half) * scene["contacts"]["newtons_per_meter"]
    assert force == pytest.approx(2 * 9.81, rel=1e-3)
    np.testing.assert_allclose(half[:2], 0, atol=1e-6)


def test_no_ground(run, tmp_path, ball):
    """--no-ground: the model keeps its plant (continuous by default) and falls freely from
    its default pose, with no contact in the replay."""
    result = run("simulate", ball, "--duration", "0.5", "--no-ground", "--out", tmp_path)
    assert result.status == 0, result.err
    assert "ground" not in result.err and "(continuous, runge_kutta3" in result.out
    data = np.load(tmp_path / "trajectory.npz")
    np.testing.assert_allclose(data["q"][:, 6], -9.81 * data["t"] ** 2 / 2, atol=1e-9)
    assert _scene(tmp_path / "replay.html")["contacts"] is None


def test_an_integrator_keeps_a_grounded_model_continuous(run, tmp_path, ball):
    result = run(
        "simulate", ball, "--duration", "0.3", "--integrator", "runge_kutta3", "--out", tmp_path
    )
    assert result.status == 0, result.err
    assert "(continuous, runge_kutta3" in result.out and "lands" not in result.err
    assert "contact at T: 1 point(s)" in result.out


def test_q0_starts_where_it_says(run, tmp_path, ball):
    q0 = ["1", "0", "0", "0", "0", "0", "0.3"]
    result = run("simulate", ball, "--duration", "0.01", "--q0", *q0, "--out", tmp_path)
    assert result.status == 0, result.err
    assert "higher than its default pose" not in result.err
    assert np.load(tmp_path / "trajectory.npz")["q"][0, 6] == 0.3


def test_fixed_base_models_get_no_ground(run, tmp_path):
    path = tmp_path / "welded.urdf"
    path.write_text(WELDED_URDF)
    assert floating_base_bodies(load_model(str(path)).plant) == []
    assert not load_model(str(path), ground=True).ground
    result = run("simulate", path, "--duration", "0.1", "--out", tmp_path)
    assert result.status == 0, result.err
    assert "ground" not in result.err and "(continuous, runge_kutta3" in result.out


def test_a_model_without_collision_geometry_falls_through_with_a_warning(run, tmp_path):
    path = tmp_path / "ghost.urdf"
    path.write_text(
        BALL_URDF.replace('<collision><geometry><sphere radius="0.1"/></geometry></collision>', "")
    )
    result = run("simulate", path, "--duration", "0.2", "--out", tmp_path)
    assert result.status == 0, result.err
    assert "no collision geometry" in result.err and "fall through the ground" in result.err


def test_the_ground_is_a_half_space_on_world(ball):
    from mallard.geometry import HalfSpace, Role

    model = load_model(str(ball), ground=True)
    assert model.ground
    inspector = model.scene_graph.model_inspector()
    ground = [
        g
        for g in inspector.GetAllGeometryIds(Role.kProximity)
        if inspector.GetFrameId(g) == inspector.world_frame_id()
    ]
    assert len(ground) == 1 and isinstance(inspector.GetShape(ground[0]), HalfSpace)
    friction = inspector.GetProximityProperties(ground[0]).GetProperty(
        "material", "coulomb_friction"
    )
    assert (friction.static_friction(), friction.dynamic_friction()) == (1.0, 1.0)
