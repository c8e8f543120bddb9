"""The replay.html of a simulation: the logged states replayed through the diagram's
SceneGraph into mallard.geometry's replay page (its own WebGL viewer: no extra needed), with
the contact forces a ContactLog recorded during the run."""

import warnings

from mallard.cli._output import warn
from mallard.geometry._replay import Replay
from mallard.multibody.meshcat._contact_visualizer import point_contact_forces
from mallard.multibody.plant import ContactResults
from mallard.multibody.tree import ModelInstanceIndex
from mallard.systems.framework import LeafSystem


class ContactLog(LeafSystem):
    """Records, every ``period`` s (at the times a LogVectorOutput of that period logs), the
    point contact forces of its "contact_results" input: ``forces[t]`` = (p_WC (n, 3),
    f_Bc_W (n, 3)). A discrete plant's contact results are its steps' (sampled at the last
    step, or the cached step from t): recording them solves nothing more."""

    def __init__(self, period):
        super().__init__()
        self.forces = {}
        self._input = self.DeclareAbstractInputPort("contact_results", ContactResults())
        self.DeclarePeriodicPublishEvent(period, 0.0, self._record)

    def _record(self, context):
        self.forces[context.get_time()] = point_contact_forces(self._input.Eval(context))

    @staticmethod
    def AddToBuilder(builder, plant, period):
        log = builder.AddSystem(ContactLog(period))
        builder.Connect(plant.get_contact_results_output_port(), log.get_input_port(0))
        return log


def model_title(plant):
    """The names of ``plant``'s model instances (World's and the default one aside)."""
    names = [
        plant.GetModelInstanceName(ModelInstanceIndex(i))
        for i in range(2, plant.num_model_instances())
    ]
    return ", ".join(names) or "model"


def replay_html(diagram, plant, scene_graph, times, states, subtitle, contact_forces=None):
    """The replay page of ``plant``'s geometry (its SceneGraph's illustration geometry, so
    also an InertiaVisualizer's) at the states (rows of [q; v]) logged at ``times``, with the
    ``contact_forces`` (a ContactLog's ``forces``) at those times. A geometry it cannot draw
    (e.g. a mesh file it cannot read) is left out with a warning."""
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
        if contact_forces and t in contact_forces:
            replay.AddContactForces(t, *contact_forces[t])
        last = t
    return replay.Html(model_title(plant), subtitle)
