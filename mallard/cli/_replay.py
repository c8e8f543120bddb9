"""The HTML replay of a simulation (mallard.geometry's Meshcat viewer, as pydrake's): the one
place the command-line tool touches the viewer."""

from mallard.cli._model import CliError
from mallard.cli._output import warn

_NO_INERTIA = "--show-inertia needs the Meshcat viewer to draw the inertia"


def add_viewer(builder, plant, scene_graph, show_inertia):
    """Adds a MeshcatVisualizer of ``scene_graph`` (``plant``'s) to ``builder`` and returns
    its Meshcat, or None (with one warning) when the viewer or the meshcat package is
    missing. With ``show_inertia``, each body's inertia-equivalent ellipsoid is drawn too
    (mallard.visualization.InertiaVisualizer; CliError without the viewer)."""
    try:
        from mallard.geometry import MeshcatVisualizer, StartMeshcat

        meshcat = StartMeshcat()
    except ImportError as e:
        if show_inertia:
            raise CliError(f"{_NO_INERTIA} ellipsoids (no Meshcat viewer: {e})") from e
        warn(f"the Meshcat viewer is not available ({e}): no replay.html")
        return None
    if show_inertia:
        from mallard.visualization import InertiaVisualizer

        InertiaVisualizer.AddToBuilder(builder, plant, scene_graph)
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    # Look along −y at the origin from 3 m: the plane in which planar models (the pendulums,
    # the acrobot, the cart-pole of mallard/models) move faces the viewer.
    meshcat.SetCameraPose([0.0, -3.0, 1.0], [0.0, 0.0, 0.0])
    return meshcat


def record(meshcat, simulate):
    """Runs ``simulate()`` while ``meshcat`` (or None: no recording) records; returns
    (simulate()'s result, the recording as a self-contained HTML page or None)."""
    if meshcat is None:
        return simulate(), None
    meshcat.StartRecording()
    result = simulate()
    meshcat.StopRecording()
    meshcat.PublishRecording()
    return result, meshcat.StaticHtml()
