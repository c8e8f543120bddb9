"""PlanarSceneGraphVisualizer (pydrake.systems.planar_scenegraph_visualizer's): a SceneGraph's
illustration geometry projected onto a plane and drawn with matplotlib."""

import math

import numpy as np

from mallard.common.value import Value
from mallard.geometry import (
    Box,
    Capsule,
    Convex,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    Mesh,
    QueryObject,
    Rgba,
    Role,
    Sphere,
)
from mallard.math import RigidTransform
from mallard.systems.pyplot_visualizer import PyPlotVisualizer

__all__ = ["ConnectPlanarSceneGraphVisualizer", "PlanarSceneGraphVisualizer"]

#: World's x and z (the xz-plane, seen from −y), as pydrake's default view.
_T_VW_XZ = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])


def _sphere_points(radius):
    lati, longi = np.meshgrid(
        np.arange(0.0, 2.0 * math.pi, 0.5), np.arange(0.0, 2.0 * math.pi, 0.5)
    )
    lati, longi = lati.ravel(), longi.ravel()
    unit = np.vstack([np.sin(lati) * np.cos(longi), np.sin(lati) * np.sin(longi), np.cos(lati)])
    return unit * radius


def _circle_points(radius, z_values):
    angles = np.arange(0.0, 2.0 * math.pi, 0.25)
    return np.hstack(
        [
            np.array([[radius * math.cos(a), radius * math.sin(a), z] for z in z_values]).T
            for a in angles
        ]
    )


def shape_points(shape):
    """Points of ``shape`` (3×N, in its frame G) whose convex hull outlines it in any view,
    or None for a shape that is not drawn (a Sphere of radius 0)."""
    if isinstance(shape, Box):
        half = np.array([shape.width(), shape.depth(), shape.height()]) / 2.0
        signs = np.array([[-1, -1, 1, 1, -1, -1, 1, 1], [-1, 1, -1, 1, -1, 1, -1, 1],
                          [-1, -1, -1, -1, 1, 1, 1, 1]])  # fmt: skip
        return signs * half[:, None]
    if isinstance(shape, Sphere):
        return None if shape.radius() == 0 else _sphere_points(shape.radius())
    if isinstance(shape, Cylinder):
        h = shape.length() / 2.0
        return _circle_points(shape.radius(), (-h, h))
    if isinstance(shape, Capsule):
        h, r = shape.length() / 2.0, shape.radius()
        sphere = _sphere_points(r)
        return np.hstack([sphere + [[0], [0], [-h]], sphere + [[0], [0], [h]]])
    if isinstance(shape, Ellipsoid):
        return _sphere_points(1.0) * np.array([[shape.a()], [shape.b()], [shape.c()]])
    if isinstance(shape, Mesh | Convex):
        hull = shape.GetConvexHull()
        return np.array([hull.vertex(i) for i in range(hull.num_vertices())]).T
    if isinstance(shape, HalfSpace):  # (a 100 m × 100 m × 1 m slab below z = 0)
        return np.vstack((50 * np.array([-1, -1, 1, 1, -1, -1, 1, 1]),
                          50 * np.array([-1, 1, -1, 1, -1, 1, -1, 1]),
                          -np.array([-1, -1, -1, -1, 0, 0, 0, 0])))  # fmt: skip
    raise NotImplementedError(f"PlanarSceneGraphVisualizer: {type(shape).__name__} is not drawn")


def convex_hull_2d(points):
    """The convex hull of 2×N ``points``, as 2×M vertices counterclockwise (Andrew's monotone
    chain); fewer than three distinct points are returned as they are."""
    unique = sorted(set(map(tuple, np.round(points.T, 15).tolist())))
    if len(unique) < 3:
        return np.array(unique, dtype=float).T.reshape(2, -1)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(sequence):
        chain = []
        for p in sequence:
            while len(chain) >= 2 and cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(unique), half(reversed(unique))
    return np.array(lower[:-1] + upper[:-1], dtype=float).T


class PlanarSceneGraphVisualizer(PyPlotVisualizer):
    """Draws the illustration geometry of ``scene_graph`` (its "geometry_query" input takes the
    SceneGraph's query output) as filled polygons: each geometry's points, posed in World,
    projected by ``T_VW`` (a 3×4 view projection: rows x and y of the view, then the
    homogenizer; default: World's x and z) and outlined by their convex hull, in its
    ("phong", "diffuse") color (or a rainbow color per frame with ``use_random_colors``).
    ``xlim`` and ``ylim`` bound the view. A Mesh or Convex is drawn by its convex hull
    (needs the ``mesh`` extra). See PyPlotVisualizer for ``draw_period``, ``facecolor``,
    ``ax`` and ``show``. (``substitute_collocated_mesh_files``: mallard reads .obj, .stl and
    .dae meshes directly, so it has nothing to substitute.)"""

    def __init__(
        self,
        scene_graph,
        draw_period=None,
        T_VW=_T_VW_XZ,
        xlim=(-1.0, 1.0),
        ylim=(-1.0, 1.0),
        facecolor=(1, 1, 1),
        use_random_colors=False,
        substitute_collocated_mesh_files=True,
        ax=None,
        show=None,
    ):
        import matplotlib

        default_size = matplotlib.rcParams["figure.figsize"]
        figsize = (default_size[0], default_size[0] * (ylim[1] - ylim[0]) / (xlim[1] - xlim[0]))
        super().__init__(draw_period, facecolor, figsize, ax, show)
        self.set_name("planar_scenegraph_visualizer")
        self._scene_graph = scene_graph
        self._T_VW = np.asarray(T_VW, dtype=float)
        self._geometry_query_input_port = self.DeclareAbstractInputPort(
            "geometry_query", Value(QueryObject())
        )
        self.ax.axis("equal")
        self.ax.axis("off")
        self.ax.set_xlim(xlim)
        self.ax.set_ylim(ylim)
        self.fig.set_size_inches(figsize[0], figsize[1])
        self._build_patches(scene_graph.model_inspector(), use_random_colors)
        self._fills = {}
        for name, patches in self._patches_B.items():
            self._fills[name] = []
            for patch_B, color in zip(patches, self._colors[name], strict=True):
                patch_V = self._project(RigidTransform() @ patch_B)
                fill = self.ax.fill(patch_V[0], patch_V[1], zorder=0, edgecolor="k",
                                    facecolor=color, closed=True)[0]  # fmt: skip
                self._fills[name].append(fill)
                self._update_fill(fill, patch_V)

    def get_geometry_query_input_port(self):
        return self._geometry_query_input_port

    @staticmethod
    def frame_name(frame_id, inspector):
        """The name a frame's geometry is drawn under: "world", or "{source}::{frame}"."""
        if frame_id == inspector.world_frame_id():
            return "world"
        return f"{inspector.GetOwningSourceName(frame_id)}::{inspector.GetName(frame_id)}"

    def _build_patches(self, inspector, use_random_colors):
        """Per frame with illustration geometry: its geometries' points in the frame, and their
        colors."""
        self._patches_B, self._colors = {}, {}
        for frame_id in inspector.GetAllFrameIds():
            if inspector.NumGeometriesForFrameWithRole(frame_id, Role.kIllustration) == 0:
                continue
            name = self.frame_name(frame_id, inspector)
            patches, colors = [], []
            for geometry_id in inspector.GetGeometries(frame_id, Role.kIllustration):
                points = shape_points(inspector.GetShape(geometry_id))
                if points is None:
                    continue
                patches.append(inspector.GetPoseInFrame(geometry_id) @ points)
                properties = inspector.GetIllustrationProperties(geometry_id)
                rgba = properties.GetPropertyOrDefault("phong", "diffuse", Rgba(0.9, 0.9, 0.9, 1.0))
                colors.append(np.array([rgba.r(), rgba.g(), rgba.b(), rgba.a()]))
            self._patches_B[name], self._colors[name] = patches, colors
        if use_random_colors:
            import matplotlib.cm

            rainbow = matplotlib.cm.rainbow(np.linspace(0, 1, len(self._colors)))
            for color, name in zip(rainbow, list(self._colors), strict=True):
                self._colors[name] = [color] * len(self._patches_B[name])

    def _project(self, patch_W):
        """World points (3×N) to view points (2×N) by T_VW."""
        homogeneous = self._T_VW @ np.vstack((patch_W, np.ones((1, patch_W.shape[1]))))
        return homogeneous[:2] / homogeneous[2]

    @staticmethod
    def _update_fill(fill, patch_V):
        """Sets ``fill``'s outline to the convex hull of ``patch_V`` (padded to its vertex
        count by repeating the last vertex, as the polygon's path keeps its size)."""
        hull = convex_hull_2d(patch_V)
        vertices = fill.get_path().vertices
        n = vertices.shape[0]
        if hull.shape[1] > n:  # (first drawn: the path grows to the hull's size)
            fill.set_xy(hull.T)
            return
        vertices[:, :] = np.pad(hull, ((0, 0), (0, n - hull.shape[1])), mode="edge").T

    def draw(self, context):
        """Draws the geometry at the poses of ``context``'s query object."""
        query_object = self._geometry_query_input_port.Eval(context)
        inspector = query_object.inspector()
        view_dir = np.cross(self._T_VW[0, :3], self._T_VW[1, :3])
        for frame_id in inspector.GetAllFrameIds():
            name = self.frame_name(frame_id, inspector)
            if name not in self._patches_B:
                continue
            X_WB = query_object.GetPoseInWorld(frame_id)
            for patch_B, fill in zip(self._patches_B[name], self._fills[name], strict=True):
                self._update_fill(fill, self._project(X_WB @ patch_B))
                fill.zorder = X_WB.translation() @ view_dir
        self.ax.set_title(f"t = {context.get_time():.1f}")


def ConnectPlanarSceneGraphVisualizer(builder, scene_graph, output_port=None, **kwargs):
    """Adds a PlanarSceneGraphVisualizer of ``scene_graph`` to ``builder`` (``kwargs`` go to
    its constructor), its input connected to ``output_port`` (default: the SceneGraph's query
    output; give the exported port of a Diagram holding the SceneGraph); returns it."""
    visualizer = builder.AddSystem(PlanarSceneGraphVisualizer(scene_graph, **kwargs))
    if output_port is None:
        output_port = scene_graph.get_query_output_port()
    builder.Connect(output_port, visualizer.get_geometry_query_input_port())
    return visualizer
