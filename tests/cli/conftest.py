"""Fixtures of the command-line tests: running ``main`` in-process, and small models."""

import pathlib

import pytest

from mallard.cli import main
from mallard.multibody.parsing import PackageMap

ACROBOT_URDF = pathlib.Path(PackageMap().GetPath("mallard")) / "acrobot.urdf"

# A 2 kg bob whose center of mass is 0.5 m below a frictionless pivot about y, with a
# rotational inertia of 0.01 kg m² about its center of mass.
PENDULUM_URDF = """<?xml version="1.0"?>
<robot name="bob_pendulum">
  <link name="bob">
    <inertial>
      <origin xyz="0 0 -0.5"/>
      <mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
  </link>
  <joint name="theta" type="continuous">
    <parent link="world"/>
    <child link="bob"/>
    <axis xyz="0 1 0"/>
  </joint>
</robot>
"""

# A double pendulum whose elbow mimics its shoulder (a coupler constraint), limits ±3 rad.
MIMIC_URDF = """<?xml version="1.0"?>
<robot name="mimic">
  <link name="upper">
    <inertial>
      <origin xyz="0 0 -0.5"/>
      <mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial>
  </link>
  <link name="lower">
    <inertial>
      <origin xyz="0 0 -0.5"/>
      <mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial>
  </link>
  <joint name="j1" type="revolute">
    <parent link="world"/>
    <child link="upper"/>
    <axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="10"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="upper"/>
    <child link="lower"/>
    <origin xyz="0 0 -1"/>
    <axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="10"/>
    <mimic joint="j1" multiplier="1" offset="0"/>
  </joint>
</robot>
"""


class Result:
    """The exit status and the captured stdout and stderr of one run."""

    def __init__(self, status, out, err):
        self.status, self.out, self.err = status, out, err

    @property
    def err_lines(self):
        return self.err.strip().splitlines()


@pytest.fixture
def run(capsys):
    """run(*argv): main(argv) in-process, as a Result."""

    def run(*argv):
        status = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run


@pytest.fixture
def pendulum(tmp_path):
    """The path of PENDULUM_URDF, written to a file."""
    path = tmp_path / "bob_pendulum.urdf"
    path.write_text(PENDULUM_URDF)
    return path


@pytest.fixture
def undamped_acrobot(tmp_path):
    """The path of mallard's acrobot without its joint damping (a conservative system)."""
    text = ACROBOT_URDF.read_text()
    assert text.count('<dynamics damping="0.1"/>') == 2
    path = tmp_path / "undamped_acrobot.urdf"
    path.write_text(text.replace('<dynamics damping="0.1"/>', ""))
    return path
