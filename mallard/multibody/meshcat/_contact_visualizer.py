"""ContactVisualizer and ContactVisualizerParams (pydrake.multibody.meshcat's): the point
contact forces of a ContactResults drawn in a Meshcat as Drake draws them."""

import dataclasses

import numpy as np

from mallard.common._pybind import call_form, overloads
from mallard.geometry import Cylinder, Meshcat, MeshcatCone, QueryObject, Rgba
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.plant import ContactResults
from mallard.systems.framework import LeafSystem


@dataclasses.dataclass
class ContactVisualizerParams:
    """ContactVisualizer's settings (pydrake's fields and defaults).

    ``publish_period`` (s) between publishes; ``color`` of the point contact arrows;
    ``prefix``, the Meshcat path everything is drawn under; ``delete_on_initialization_event``
    clears it when a simulation is initialized; a force below ``force_threshold`` (N) is not
    drawn; ``newtons_per_meter`` scales an arrow's length; ``radius`` (m) its shaft. The
    hydroelastic fields (``hydro_force_color``, ``hydro_moment_color``,
    ``moment_threshold``, ``newton_meters_per_meter``) are kept as pydrake's: mallard has no
    hydroelastic contact to draw with them.
    """

    publish_period: float = 1.0 / 32
    color: Rgba = dataclasses.field(default_factory=lambda: Rgba(0.0, 1.0, 0.0, 1.0))
    hydro_force_color: Rgba = dataclasses.field(default_factory=lambda: Rgba(1.0, 0.0, 0.0, 1.0))
    hydro_moment_color: Rgba = dataclasses.field(default_factory=lambda: Rgba(0.0, 0.0, 1.0, 1.0))
    prefix: str = "contact_forces"
    delete_on_initialization_event: bool = True
    force_threshold: float = 0.01
    moment_threshold: float = 0.01
    newtons_per_meter: float = 10.0
    newton_meters_per_meter: float = 3.0
    radius: float = 0.002


def point_contact_forces(contact_results):
    """(p_WC (n, 3), f_Bc_W (n, 3)): each point pair's contact point and the force on its
    body B, in World, from a ContactResults."""
    n = contact_results.num_point_pair_contacts()
    p_WC, f_W = np.empty((n, 3)), np.empty((n, 3))
    for i in range(n):
        info = contact_results.point_pair_contact_info(i)
        p_WC[i], f_W[i] = info.contact_point(), info.contact_force()
    return p_WC, f_W


def _full_names(plant, inspector):
    """GeometryId -> Drake's full name of each collision geometry (GeometryNames.GetFullName
    with "."): its model instance's name if its body's name is not unique in the plant, its
    body's name, and its geometry's name (without the model instance's "name::" scope Drake
    adds; "Id(n)" without an inspector) if its body has several."""
    from mallard.multibody.tree import BodyIndex

    names = {}
    for body in (plant.get_body(BodyIndex(i)) for i in range(plant.num_bodies())):
        ids = plant.GetCollisionGeometriesForBody(body)
        instance = plant.GetModelInstanceName(body.model_instance())
        for geometry_id in ids:
            tokens = [] if plant.NumBodiesWithName(body.name()) == 1 else [instance]
            tokens.append(body.name())
            if len(ids) > 1:
                if inspector is None:
                    tokens.append(f"Id({geometry_id.get_value()})")
                else:
                    name = inspector.GetName(geometry_id)
                    scoped = int(body.model_instance()) > 1 and name.startswith(instance + "::")
                    tokens.append(name[len(instance) + 2 :] if scoped else name)
            names[geometry_id] = ".".join(tokens)
    return names


class ContactVisualizer(LeafSystem):
    """Draws the point contacts of its "contact_results" input in ``meshcat``: per pair of
    geometries a double-sided arrow at "{prefix}/point/{A}+{B}" (A, B the geometries' full
    names, A's GeometryId the smaller), centered at the contact point, along the force on
    body B, each half |f|/newtons_per_meter long (a "cylinder" of ``radius`` scaled in z,
    cones "head" and "tail" at its ends), hidden while |f| < force_threshold. The optional
    "query_object" input gives the geometries' names (without it, "Id(n)"). Publishes
    periodically and when forced; with delete_on_initialization_event, deletes the prefix
    at initialization. Hydroelastic contact, which mallard does not compute, is not drawn.
    """

    _cpp_type = "drake::multibody::meshcat::ContactVisualizer<double>"

    def __init__(self, meshcat, params=None):
        super().__init__()
        params = ContactVisualizerParams() if params is None else params
        if not isinstance(meshcat, Meshcat):
            raise TypeError(f"ContactVisualizer: meshcat must be a Meshcat, got {meshcat!r}")
        if not params.publish_period >= 0.0:
            raise RuntimeError(
                f"ContactVisualizer: params.publish_period must be >= 0, got "
                f"{params.publish_period}"
            )
        if not params.force_threshold > 0.0:
            raise RuntimeError(
                f"ContactVisualizer: params.force_threshold must be > 0, got "
                f"{params.force_threshold}"
            )
        self._meshcat = meshcat
        self._params = dataclasses.replace(params)
        self._visible = {}  # path -> whether it is shown
        self._names = None  # GeometryId -> full name, at the first publish
        self.set_name("meshcat_contact_visualizer")
        self._contact_port = self.DeclareAbstractInputPort("contact_results", ContactResults())
        self._query_port = self.DeclareAbstractInputPort("query_object", QueryObject())
        self.DeclarePeriodicPublishEvent(params.publish_period, 0.0, self._publish)
        self.DeclareForcedPublishEvent(self._publish)
        if params.delete_on_initialization_event:
            self.DeclareInitializationPublishEvent(self._on_initialization)

    @staticmethod
    @overloads(
        "builder, plant, meshcat, params=",
        "builder, contact_results_port, query_object_port, meshcat, params=",
        "builder, contact_results_port, meshcat, params=",
    )
    def AddToBuilder(*args, **kwargs):
        """Adds a ContactVisualizer to ``builder`` and connects its inputs: to ``plant``'s
        contact results output and to the query output its geometry input is connected to;
        or to ``contact_results_port`` and ``query_object_port``; or to
        ``contact_results_port`` only (no geometry names). Returns it."""

        def pick(form, values):
            second = list(values.values())[1]
            if form == 0:
                return not hasattr(second, "get_index")
            if form == 1:
                return "query_object_port" in values and not isinstance(
                    values["query_object_port"], Meshcat
                )
            return True

        form, values = call_form(
            ContactVisualizer.AddToBuilder, args, kwargs, "ContactVisualizer.AddToBuilder", pick
        )
        builder, meshcat = values["builder"], values["meshcat"]
        visualizer = builder.AddSystem(ContactVisualizer(meshcat, values.get("params")))
        if form == 0:
            plant = values["plant"]
            builder.Connect(
                plant.get_contact_results_output_port(), visualizer.contact_results_input_port()
            )
            builder.ConnectToSame(
                plant.get_geometry_query_input_port(), visualizer.query_object_input_port()
            )
        else:
            builder.Connect(values["contact_results_port"], visualizer.contact_results_input_port())
            if form == 1:
                builder.Connect(values["query_object_port"], visualizer.query_object_input_port())
        return visualizer

    def contact_results_input_port(self):
        return self._contact_port

    def query_object_input_port(self):
        return self._query_port

    def Delete(self):
        """Deletes ``params.prefix`` (everything this visualizer drew) from the Meshcat."""
        self._meshcat.Delete(self._params.prefix)
        self._visible.clear()

    def _on_initialization(self, context):
        self.Delete()

    def _pair_names(self, context, contact_results):
        if self._names is None:
            plant = contact_results.plant()
            if plant is None:
                raise RuntimeError("ContactVisualizer: the contact results have no plant")
            query = self._query_port.Eval(context) if self._query_port.HasValue(context) else None
            self._names = _full_names(plant, None if query is None else query.inspector())
        return self._names

    def _publish(self, context):
        params = self._params
        results = self._contact_port.Eval(context)
        names = self._pair_names(context, results)
        p_WC, f_W = point_contact_forces(results)
        active = set()
        for i in range(results.num_point_pair_contacts()):
            pair = results.point_pair_contact_info(i).point_pair()
            a, b = sorted((pair.id_A, pair.id_B), key=lambda g: g.get_value())
            path = f"{params.prefix}/point/{names[a]}+{names[b]}"
            self._add_arrow(path)
            magnitude = np.linalg.norm(f_W[i])
            if not magnitude >= params.force_threshold:
                continue
            active.add(path)
            self._set_arrow(path, p_WC[i], f_W[i], magnitude / params.newtons_per_meter)
        for path, visible in self._visible.items():
            if visible != (path in active):
                self._meshcat.SetProperty(path, "visible", path in active)
                self._visible[path] = path in active

    def _add_arrow(self, path):
        """Sets a pair's arrow objects (hidden) the first time its path is seen: a cylinder
        of length 2 (scaled to both halves) and two cones of height and width 2·radius."""
        if path in self._visible:
            return
        params = self._params
        self._visible[path] = False
        self._meshcat.SetProperty(path, "visible", False)
        self._meshcat.SetObject(f"{path}/cylinder", Cylinder(params.radius, 2.0), params.color)
        head = MeshcatCone(2.0 * params.radius, 2.0 * params.radius, 2.0 * params.radius)
        self._meshcat.SetObject(f"{path}/head", head, params.color)
        self._meshcat.SetObject(f"{path}/tail", head, params.color)

    def _set_arrow(self, path, p_WC, f_W, half):
        """Places a pair's arrow at p_WC, its z along f_W, each half ``half`` long."""
        head = 2.0 * self._params.radius
        X_WA = RigidTransform(RotationMatrix.MakeFromOneVector(f_W, 2), p_WC)
        self._meshcat.SetTransform(path, X_WA)
        self._meshcat.SetTransform(f"{path}/cylinder", np.diag([1.0, 1.0, half, 1.0]))
        self._meshcat.SetTransform(f"{path}/head", RigidTransform([0.0, 0.0, -half - head]))
        self._meshcat.SetTransform(
            f"{path}/tail",
            RigidTransform(RotationMatrix.MakeXRotation(np.pi), [0.0, 0.0, half + head]),
        )
