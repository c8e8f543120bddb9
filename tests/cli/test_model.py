"""Model loading: package:// mesh URIs resolved through --package-path (DIR or NAME=DIR),
package.xml files above the model, and ancestor directories named as the package; the
example-robot-data Panda (a free-floating arm with a mimic joint) loads and simulates."""

import importlib.metadata
import pathlib

import numpy as np
import pytest

from mallard.cli._model import load_model

MESH_URDF = """<?xml version="1.0"?>
<robot name="boxy">
  <link name="box">
    <inertial>
      <mass value="3"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial>
    <visual>
      <geometry><mesh filename="package://{package}/meshes/box.obj"/></geometry>
    </visual>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="world"/>
    <child link="box"/>
    <axis xyz="1 0 0"/>
  </joint>
</robot>
"""
# A unit tetrahedron.
OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
PACKAGE_XML = '<?xml version="1.0"?>\n<package format="2"><name>{name}</name></package>\n'


def _package(root, name, manifest=True):
    """A package directory ``root/name`` with meshes/box.obj (and package.xml)."""
    directory = root / name
    (directory / "meshes").mkdir(parents=True)
    (directory / "meshes" / "box.obj").write_text(OBJ)
    if manifest:
        (directory / "package.xml").write_text(PACKAGE_XML.format(name=name))
    return directory


def _model(directory, package):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "boxy.urdf"
    path.write_text(MESH_URDF.format(package=package))
    return path


def test_package_xml_above_the_model_is_found(run, tmp_path):
    package = _package(tmp_path, "my_robot")
    result = run("inspect", _model(package / "urdf", "my_robot"))
    assert result.status == 0, result.err
    assert "total mass: 3 kg; nq = 1, nv = 1" in result.out


def test_directory_named_as_the_package_is_found(run, tmp_path):
    package = _package(tmp_path, "robot-data", manifest=False)
    result = run("inspect", _model(package / "robots" / "boxy", "robot-data"))
    assert result.status == 0, result.err


def test_package_path(run, tmp_path):
    package = _package(tmp_path / "share", "my_robot")
    model = _model(tmp_path / "elsewhere", "my_robot")
    result = run("inspect", model)
    assert result.status == 1
    assert "unknown package 'my_robot'" in result.err_lines[0]
    assert len(result.err_lines) == 1
    # A folder to search for package.xml files, or NAME=DIR.
    assert run("inspect", model, "--package-path", tmp_path / "share").status == 0
    assert run("inspect", model, "--package-path", f"my_robot={package}").status == 0
    # The packages of a NAME=DIR need no package.xml.
    bare = _package(tmp_path / "bare", "other", manifest=False)
    assert (
        run("inspect", _model(tmp_path / "m2", "other"), "--package-path", f"other={bare}").status
        == 0
    )


SDF = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="arm">
    <link name="link">
      <pose>0 0 -0.5 0 0 0</pose>
      <inertial><mass>1.5</mass></inertial>
    </link>
    <joint name="hinge" type="revolute">
      <parent>world</parent>
      <child>link</child>
      <axis><xyz>0 1 0</xyz></axis>
    </joint>
  </model>
</sdf>
"""


def test_sdformat_model(run, tmp_path):
    # (SDFormat gives every joint an actuator, unlimited unless <effort> says otherwise.)
    path = tmp_path / "arm.sdf"
    path.write_text(SDF)
    result = run("inspect", path)
    assert result.status == 0, result.err
    assert "total mass: 1.5 kg; nq = 1, nv = 1, nu = 1" in result.out
    assert run("simulate", path, "--duration", "0.05", "--q0", "0.3", "--out", tmp_path).status == 0


def _panda():
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    share = pathlib.Path(dist.locate_file("cmeel.prefix/share/example-robot-data"))
    return share / "robots" / "panda_description" / "urdf" / "panda.urdf"


def test_panda_inspect(run):
    result = run("inspect", _panda())
    assert result.status == 0, result.err
    assert "quaternion_floating  world -> panda_link0" in result.out
    assert "nq = 16, nv = 15" in result.out


@pytest.mark.slow
def test_panda_simulates(run, tmp_path):
    # Its default positions put panda_joint4 (limits [-3.0718, -0.0698]) at 0: a warning.
    result = run("simulate", _panda(), "--duration", "0.01", "--out", tmp_path)
    assert result.status == 0, result.err
    assert "panda_joint4_q = 0 not in [-3.0718, -0.0698]" in result.err
    q0 = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.1, 0, 0, 0, 0, 0]
    result = run(
        "simulate", _panda(), "--duration", "0.02", "--q0", *q0, "--no-ground", "--out", tmp_path
    )
    assert result.status == 0, result.err
    assert "mallard: note: the model has 1 constraint(s)" in result.err
    assert "joint limits" not in result.err
    assert "(discrete, time step 0.001 s)" in result.out
    data = np.load(tmp_path / "trajectory.npz")
    assert data["q"].shape == (3, 16)
    assert list(data["position_names"][:7]) == [
        "panda_link0_qw",
        "panda_link0_qx",
        "panda_link0_qy",
        "panda_link0_qz",
        "panda_link0_x",
        "panda_link0_y",
        "panda_link0_z",
    ]
    # Free-floating, its center of mass falls as -g t²/2 (semi-implicit Euler steps of h:
    # -g h² N (N + 1) / 2 after N steps), whatever its joints do.
    plant = load_model(str(_panda())).plant
    context = plant.CreateDefaultContext()
    z = []
    for q in data["q"][[0, -1]]:
        plant.SetPositions(context, q)
        z.append(plant.CalcCenterOfMassPositionInWorld(context)[2])
    assert z[1] - z[0] == pytest.approx(-9.81 * 1e-3**2 * 20 * 21 / 2, rel=1e-3)
