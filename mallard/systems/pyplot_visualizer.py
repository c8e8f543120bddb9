"""PyPlotVisualizer (pydrake.systems.pyplot_visualizer's): the base of systems that draw with
matplotlib (the optional ``pyplot`` extra) at each publish, and record what they drew for an
animation."""

import numpy as np

from mallard.systems.framework import LeafSystem

__all__ = ["PyPlotVisualizer"]


def _pyplot():
    try:
        import matplotlib
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError(
            'mallard\'s PyPlotVisualizer needs matplotlib: pip install "mallard[pyplot]"'
        ) from e
    return matplotlib, plt


class PyPlotVisualizer(LeafSystem):
    """A system drawing into one matplotlib figure (``self.fig``, axes ``self.ax``, or the
    given ``ax``) every ``draw_period`` seconds (default 1/32), at initialization and at a
    forced publish. Subclasses implement ``draw(context)``.

    ``show`` (default: unless matplotlib's backend is "template") shows the figure and
    redraws it at each publish; otherwise the figure is closed (still drawable, e.g. for an
    animation). ``start_recording()`` keeps each published moment, which
    ``get_recording_as_animation()`` replays as a matplotlib FuncAnimation.
    """

    def __init__(self, draw_period=None, facecolor=(1, 1, 1), figsize=None, ax=None, show=None):
        super().__init__()
        matplotlib, self._plt = _pyplot()
        self.set_name("pyplot_visualization")
        self.time_step = draw_period or 1.0 / 32
        self.DeclareForcedPublishEvent(self._on_any_publish)
        self.DeclarePeriodicPublishEvent(self.time_step, 0.0, self._on_any_publish)
        if ax is None:
            self.fig = self._plt.figure(facecolor=facecolor, figsize=figsize)
            self.ax = self._plt.axes()
            self.fig.add_axes(self.ax)
        else:
            self.ax, self.fig = ax, ax.get_figure()
        self._show = matplotlib.get_backend().lower() != "template" if show is None else show
        self.ax.axis("equal")
        self.ax.axis("off")
        if not self._show:
            self._plt.close(self.fig)
        self._is_recording = False
        self._recorded_contexts = []
        self.DeclareInitializationPublishEvent(self._on_initialize)
        self.DeclareInitializationPublishEvent(self._on_any_publish)

    def _on_initialize(self, context):
        if self._show:
            self.fig.show()

    def _on_any_publish(self, context):
        if self._show:
            self.draw(context)
            self.fig.canvas.draw()
            self._plt.pause(1e-10)
        if self._is_recording:
            self._recorded_contexts.append(self._snapshot(context))

    def _snapshot(self, context):
        """What ``draw`` needs of ``context`` to draw it again later: a copy of the Context
        with the inputs fixed to their current values."""
        snapshot = self.AllocateContext()
        snapshot.SetTimeStateAndParametersFrom(context)
        self.FixInputPortsFrom(self, context, snapshot)
        return snapshot

    def draw(self, context):
        """Draws one frame of ``context`` (a Context, or what a subclass accepts)."""
        raise NotImplementedError(f"{type(self).__name__} must implement draw(context)")

    def start_recording(self):
        self._is_recording = True

    def stop_recording(self):
        self._is_recording = False

    def reset_recording(self):
        self._recorded_contexts = []

    def _draw_recorded_frame(self, i):
        return self.draw(self._recorded_contexts[i])

    def get_recording_as_animation(self, **kwargs):
        """A matplotlib FuncAnimation of the recorded moments, one frame per draw period;
        ``kwargs`` go to FuncAnimation."""
        import matplotlib.animation as animation

        return animation.FuncAnimation(
            fig=self.fig,
            func=self._draw_recorded_frame,
            frames=len(self._recorded_contexts),
            interval=1000 * self.time_step,
            **kwargs,
        )

    def animate(self, log, resample=True, **kwargs):
        """A FuncAnimation of ``log`` (a VectorLog of the drawn system's input, or a
        Trajectory of it), drawn with ``draw(vector)``; the samples are resampled at the
        draw period (linearly) unless ``resample`` is False."""
        import matplotlib.animation as animation

        from mallard.systems.primitives import VectorLog

        if isinstance(log, VectorLog):
            t, x = log.sample_times(), log.data()
            if resample:
                t_new = np.arange(t[0], t[-1], self.time_step)
                x = np.vstack([np.interp(t_new, t, row) for row in x])
                t = t_new
        else:  # a Trajectory
            t = np.arange(log.start_time(), log.end_time(), self.time_step)
            x = np.hstack([log.value(time) for time in t])
        return animation.FuncAnimation(
            fig=self.fig,
            func=lambda i: self.draw(x[:, i]),
            frames=t.shape[0],
            interval=1000 * self.time_step,
            **kwargs,
        )
