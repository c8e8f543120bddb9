"""ModelVisualizer (pydrake.visualization's): shows the models of files in Meshcat, with a
slider per position of the plant, and reloads them on request."""

import logging
import pathlib
import time
import webbrowser

from mallard.geometry import Cylinder, Rgba, StartMeshcat
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.meshcat import JointSliders
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import AddMultibodyPlantSceneGraph
from mallard.multibody.tree import BodyIndex, FrameIndex
from mallard.systems.analysis import Simulator
from mallard.systems.framework import DiagramBuilder
from mallard.visualization._default_visualization import AddDefaultVisualization

_LOG = logging.getLogger("drake")
_STOP = "Stop Running"
_RELOAD = "Reload Model Files"


class ModelVisualizer:
    """Visualizes the models of files (or ``package://`` URLs) in Meshcat::

        visualizer = ModelVisualizer()
        visualizer.AddModels("robot.urdf")
        visualizer.Run()

    Run() shows the plant at its default positions with a slider per position (in a live
    Meshcat, ``Meshcat(port)``), and moves it as they move, until the "Stop Running" button
    (or Esc) is clicked; a "Reload Model Files" button parses the files again.

    ``visualize_frames`` draws a triad (x red, y green, z blue cylinders of
    ``triad_length``, ``triad_radius`` and ``triad_opacity``) at every frame of the plant;
    ``browser_new`` opens the viewer in a new browser window at Run(); ``pyplot`` also draws
    the scene with PlanarSceneGraphVisualizer (matplotlib); ``no_lights`` hides Meshcat's
    lights; ``meshcat``, a Meshcat to use (default: StartMeshcat()). ``publish_contacts``
    has nothing to show (mallard has no contact). ``show_rgbd_sensor``, an
    ``environment_map`` file and a ``compliance_type`` other than "undefined" need
    rendering and hydroelastic contact, which mallard does not have: NotImplementedError.
    """

    def __init__(
        self,
        *,
        visualize_frames=False,
        triad_length=0.3,
        triad_radius=0.005,
        triad_opacity=0.9,
        publish_contacts=True,
        show_rgbd_sensor=False,
        browser_new=False,
        pyplot=False,
        meshcat=None,
        environment_map=pathlib.Path(),
        no_lights=False,
        compliance_type="undefined",
    ):
        if show_rgbd_sensor:
            raise NotImplementedError("ModelVisualizer: mallard has no RgbdSensor (rendering)")
        if pathlib.Path(environment_map).is_file():
            raise NotImplementedError("ModelVisualizer: mallard's Meshcat has no environment map")
        if compliance_type != "undefined":
            raise NotImplementedError(
                "ModelVisualizer: compliance_type needs hydroelastic contact, which mallard "
                "does not have"
            )
        self._visualize_frames = bool(visualize_frames)
        self._triad = (float(triad_length), float(triad_radius), float(triad_opacity))
        self._publish_contacts = bool(publish_contacts)
        self._browser_new = bool(browser_new)
        self._pyplot = bool(pyplot)
        self._no_lights = bool(no_lights)
        self._meshcat = meshcat
        self._added_models = []  # the AddModels calls, to reload
        self._start()

    def _start(self, package_map=None):
        """A new builder with a continuous plant and its SceneGraph, and its parser."""
        self._builder = DiagramBuilder()
        self._plant, self._scene_graph = AddMultibodyPlantSceneGraph(self._builder, 0.0)
        self._parser = Parser(self._plant, self._scene_graph)
        if package_map is not None:
            self._parser.package_map().AddMap(package_map)
        self._diagram = self._context = self._sliders = None

    def _finalized(self):
        return self._builder is None

    def package_map(self):
        """The parser's PackageMap (before Finalize() only: ValueError after)."""
        if self._finalized():
            raise ValueError("Finalize has already been called.")
        return self._parser.package_map()

    def parser(self):
        """The Parser that AddModels() uses (before Finalize() only: ValueError after)."""
        if self._finalized():
            raise ValueError("Finalize has already been called.")
        return self._parser

    def meshcat(self):
        """The Meshcat shown in (made now if none was given)."""
        if self._meshcat is None:
            self._meshcat = StartMeshcat()
        return self._meshcat

    def AddModels(self, filename=None, *, url=None):
        """Adds the models of the file ``filename`` or of ``url`` (exactly one of them);
        returns their model instances. ValueError after Finalize()."""
        if self._finalized():
            raise ValueError("Finalize has already been called.")
        if (filename is None) == (url is None):
            raise ValueError("Must provide either filename= or url=")
        kwargs = {"file_name": str(filename)} if filename is not None else {"url": url}
        instances = self._parser.AddModels(**kwargs)
        self._added_models.append(kwargs)
        return instances

    def Finalize(self, position=None):
        """Finalizes the plant, adds the visualization and the sliders, and publishes the
        plant at ``position`` (all of its q) if given, else at its defaults. RuntimeError if
        already finalized; ValueError for a ``position`` of the wrong size."""
        if self._finalized():
            raise RuntimeError("Finalize has already been called.")
        if self._visualize_frames:
            self._add_triads()
        self._plant.Finalize()
        meshcat = self.meshcat()
        meshcat.Delete()
        meshcat.DeleteAddedControls()
        if self._no_lights:
            meshcat.SetProperty("/Lights", "visible", False)
        if self._added_models:
            meshcat.AddButton(_RELOAD)
        AddDefaultVisualization(self._builder, meshcat)
        self._sliders = self._builder.AddSystem(JointSliders(meshcat, self._plant))
        self._sliders.set_name("joint_sliders")
        if self._pyplot:
            from mallard.systems.planar_scenegraph_visualizer import (
                ConnectPlanarSceneGraphVisualizer,
            )

            ConnectPlanarSceneGraphVisualizer(self._builder, self._scene_graph)
        self._package_map = self._parser.package_map()
        self._diagram = self._builder.Build()
        self._builder = None
        self._context = self._diagram.CreateDefaultContext()
        if position is not None and len(position) > 0:
            self._set_positions(position)
        Simulator(self._diagram).Initialize()
        self._diagram.ForcedPublish(self._context)

    def _add_triads(self):
        """A triad (three thin cylinders along x, y, z) at every frame but World's."""
        length, radius, opacity = self._triad
        axes = (
            (RotationMatrix.MakeYRotation(1.5707963267948966), Rgba(1, 0, 0, opacity)),
            (RotationMatrix.MakeXRotation(-1.5707963267948966), Rgba(0, 1, 0, opacity)),
            (RotationMatrix(), Rgba(0, 0, 1, opacity)),
        )
        plant = self._plant
        for frame in [plant.get_frame(FrameIndex(i)) for i in range(1, plant.num_frames())]:
            body = frame.body()
            if body.index() == BodyIndex(0):
                continue
            X_BF = frame.GetFixedPoseInBodyFrame()
            for (R_FA, color), axis in zip(axes, "xyz", strict=True):
                p_FA = R_FA.col(2) * (length / 2)  # (a cylinder's axis is its z)
                X_BA = X_BF @ RigidTransform(R_FA, p_FA)
                name = f"{frame.name()} triad {axis}"
                plant.RegisterVisualGeometry(body, X_BA, Cylinder(radius, length), name, color)

    def _set_positions(self, position):
        nq = self._plant.num_positions()
        if len(position) != nq:
            raise ValueError(
                f"Number of passed positions ({len(position)}) does not match the number in "
                f"the model ({nq})."
            )
        self._plant.SetPositions(self._plant.GetMyMutableContextFromRoot(self._context), position)
        self._sliders.SetPositions(position)

    def _reload(self):
        """Parses the added files again (the sliders keep their values where they still
        exist); on a parse error, logs it and shows an empty scene."""
        values = {n: self._meshcat.GetSliderValue(n) for n in self._meshcat.GetSliderNames()}
        added, package_map = self._added_models, self._package_map
        self._start(package_map)
        self._parser.SetAutoRenaming(True)
        try:
            for kwargs in added:
                self._parser.AddModels(**kwargs)
            _LOG.info("Reload was successful")
        except Exception as e:  # (the user's file may be broken: say so and go on)
            _LOG.error(e)
            _LOG.warning(f"Click '{_RELOAD}' to try again")
            self._start(package_map)
        self._added_models = added
        self.Finalize()
        for name in self._meshcat.GetSliderNames():
            if name in values:
                self._meshcat.SetSliderValue(name, values[name])

    def Run(self, position=None, loop_once=False):
        """Finalizes if needed (at ``position``), then publishes the plant at the sliders'
        positions 32 times a second until "Stop Running" is clicked (or Esc pressed, or
        Ctrl+C), or once if ``loop_once``."""
        if not self._finalized():
            self.Finalize(position=position)
        elif position is not None and len(position) > 0:
            self._set_positions(position)
            self._diagram.ForcedPublish(self._context)
        if self._browser_new:
            self._browser_new = False
            webbrowser.open(url=self._meshcat.web_url(), new=True)
        if not loop_once:
            _LOG.info(f"Click '{_STOP}' or press Esc to quit")
        meshcat = self._meshcat
        meshcat.AddButton(_STOP, "Escape")
        try:
            while True:
                time.sleep(1 / 32.0)
                if _RELOAD in meshcat.GetButtonNames() and meshcat.GetButtonClicks(_RELOAD):
                    meshcat.DeleteButton(_STOP)
                    self._reload()
                    meshcat.AddButton(_STOP, "Escape")
                sliders_context = self._sliders.GetMyContextFromRoot(self._context)
                q = self._sliders.get_output_port().Eval(sliders_context)
                plant_context = self._plant.GetMyMutableContextFromRoot(self._context)
                self._plant.SetPositions(plant_context, q)
                self._diagram.ForcedPublish(self._context)
                if loop_once or meshcat.GetButtonClicks(_STOP) > 0:
                    break
        except KeyboardInterrupt:
            pass
        meshcat.DeleteButton(_STOP, strict=False)
        meshcat.DeleteButton(_RELOAD, strict=False)
