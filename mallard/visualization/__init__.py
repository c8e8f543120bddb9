"""Visualization helpers (after pydrake.visualization): InertiaVisualizer draws each body's
inertia-equivalent solid ellipsoid."""

from mallard.visualization._inertia_visualizer import InertiaVisualizer

__all__ = ["InertiaVisualizer"]
