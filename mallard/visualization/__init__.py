"""Visualization helpers (after pydrake.visualization): AddDefaultVisualization, ModelVisualizer,
and InertiaVisualizer (each body's inertia-equivalent solid ellipsoid)."""

from mallard._public import publish
from mallard.visualization._default_visualization import AddDefaultVisualization
from mallard.visualization._inertia_visualizer import InertiaVisualizer
from mallard.visualization._model_visualizer import ModelVisualizer

__all__ = ["AddDefaultVisualization", "InertiaVisualizer", "ModelVisualizer"]

publish(globals())
