"""AddDefaultVisualization (pydrake.visualization's): a builder's plant shown in Meshcat."""

from mallard.geometry import (
    MeshcatVisualizer,
    MeshcatVisualizerParams,
    Role,
    SceneGraph,
    StartMeshcat,
)


def AddDefaultVisualization(builder, meshcat=None):
    """Shows the SceneGraph named "scene_graph" of ``builder`` (AddMultibodyPlantSceneGraph
    adds it; its plant finalized) in ``meshcat`` (default: a new StartMeshcat()), with
    Drake's default visualization: the illustration geometry under "illustration", the
    proximity geometry under "proximity" (hidden until shown in the viewer), published every
    1/64 s. (Drake also shows inertias and contact forces; mallard has no contact, and its
    InertiaVisualizer is separate.) RuntimeError without the SceneGraph."""
    if not builder.HasSubsystemNamed("scene_graph"):
        raise RuntimeError(
            "AddDefaultVisualization(): the builder has no SceneGraph named 'scene_graph'; "
            "call AddMultibodyPlant() or AddMultibodyPlantSceneGraph() first"
        )
    scene_graph = builder.GetSubsystemByName("scene_graph")
    if not isinstance(scene_graph, SceneGraph):
        raise RuntimeError("AddDefaultVisualization(): 'scene_graph' is not a SceneGraph")
    if builder.HasSubsystemNamed("plant"):
        plant = builder.GetSubsystemByName("plant")
        if not plant.is_finalized():
            raise RuntimeError(
                "AddDefaultVisualization(): the plant must be finalized (call Finalize())"
            )
    if meshcat is None:
        meshcat = StartMeshcat()
    for role, prefix, visible in (
        (Role.kIllustration, "illustration", True),
        (Role.kProximity, "proximity", False),
    ):
        params = MeshcatVisualizerParams(role=role, prefix=prefix, visible_by_default=visible)
        visualizer = MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat, params)
        visualizer.set_name(f"meshcat_visualizer({prefix})")
