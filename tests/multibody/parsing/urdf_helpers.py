"""Helpers for the URDF tests: a model text around some links and joints, and loading it."""

import logging

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant

INERTIAL = (
    '<inertial><mass value="1"/>'
    '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>'
)


def link(name, inertial=INERTIAL, extra=""):
    return f'<link name="{name}">{inertial}{extra}</link>'


def joint(name, joint_type, parent, child, extra="", tag="joint"):
    return (
        f'<{tag} name="{name}" type="{joint_type}"><parent link="{parent}"/>'
        f'<child link="{child}"/>{extra}</{tag}>'
    )


def robot(*elements, name="r"):
    """A URDF document, one element per line (line 1 is <robot>, element i is line i + 1)."""
    return "\n".join([f'<robot name="{name}">', *elements, "</robot>"])


def load(text, plant=None, scene_graph=None, finalize=False, strict=False):
    """(plant, parser, model instances) of ``text``."""
    plant = MultibodyPlant(0.0) if plant is None else plant
    parser = Parser(plant, scene_graph)
    if strict:
        parser.SetStrictParsing()
    instances = parser.AddModelsFromString(text, "urdf")
    if finalize:
        plant.Finalize()
    return plant, parser, instances


def warnings_of(caplog):
    """The messages logged to mallard.parsing at WARNING."""
    return [r.getMessage() for r in caplog.records if r.name == "mallard.parsing"]


def capture(caplog):
    caplog.set_level(logging.WARNING, logger="mallard.parsing")
