"""MeshcatParams (pydrake.geometry's): how a Meshcat serves its viewer."""

import dataclasses


@dataclasses.dataclass
class _PropertyTuple:
    """One property set when the Meshcat starts: ``SetProperty(path, property, value)``."""

    path: str = ""
    property: str = ""
    value: list = dataclasses.field(default_factory=list)

    def __repr__(self):
        return (
            f"PropertyTuple(path={self.path!r}, property={self.property!r}, value={self.value!r})"
        )


_PropertyTuple.__name__ = _PropertyTuple.__qualname__ = "PropertyTuple"


@dataclasses.dataclass(repr=False)
class MeshcatParams:
    """The settings of ``Meshcat(params)`` (pydrake's fields and defaults).

    ``host`` the server listens on ("*": every interface), ``port`` (None: the first free
    port from 7000; 0: any free port), ``web_url_pattern`` (web_url(), from ``{host}`` and
    ``{port}``), ``initial_properties`` (PropertyTuples set at start), ``show_stats_plot``
    and ``realtime_rate_period`` (Drake's viewer's realtime-rate plot, which mallard's
    viewer does not have).
    """

    PropertyTuple = _PropertyTuple

    host: str = "*"
    port: int | None = None
    web_url_pattern: str = "http://{host}:{port}"
    initial_properties: list = dataclasses.field(default_factory=list)
    show_stats_plot: bool = True
    realtime_rate_period: float = 0.25

    def __repr__(self):
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"MeshcatParams({fields})"
