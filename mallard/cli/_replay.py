"""The replay.html of a simulation: the logged states replayed through the diagram's
SceneGraph into mallard.geometry's replay page (its own WebGL viewer: no extra needed)."""

import warnings

from mallard.cli._output import warn
from mallard.geometry._replay import Replay
from mallard.multibody.tree import ModelInstanceIndex


def model_title(plant):
    """The names of ``plant``'s model instances (World's and the default one aside)."""
    names = [
        plant.GetModelInstanceName(ModelInstanceIndex(i))
        for i in range(2, plant.num_model_instances())
    ]
    return ", ".join(names) or "model"


def replay_html(diagram, plant, scene_graph, times, states, subtitle):
    """The replay page of ``plant``'s geometry (its SceneGraph's illustration geometry, so
    also an InertiaVisualizer's) at the states (rows of [q; v]) logged at ``times``. A
    geometry it cannot draw (e.g. a mesh file it cannot read) is left out with a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replay = Replay(scene_graph.model_inspector())
    for warning in caught:
        warn(str(warning.message))
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    scene_graph_context = scene_graph.GetMyContextFromRoot(context)
    query_port = scene_graph.get_query_output_port()
    nq = plant.num_positions()
    last = None
    for t, x in zip(times, states, strict=True):
        if last is not None and not t > last:
            continue  # a sample logged twice at the same time
        plant.SetPositions(plant_context, x[:nq])
        replay.AddPoses(t, query_port.Eval(scene_graph_context))
        last = t
    return replay.Html(model_title(plant), subtitle)
