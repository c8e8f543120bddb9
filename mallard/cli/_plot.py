"""The plot.svg of ``mallard simulate``, drawn as SVG by hand (no plotting package): one
panel per kind of coordinate, with its unit (base position [m], joint angles [rad], joint
angular velocities [rad/s], ...), then the energies; a kind with more than SMALL_MULTIPLES
coordinates gets a small panel per coordinate instead of one panel with a long legend.
"""

import html
import math

import numpy as np

#: Above this many coordinates, a kind is drawn as small multiples.
SMALL_MULTIPLES = 6
_WIDTH = 960
_PANEL_HEIGHT = 190
_SMALL_HEIGHT = 120
_SMALL_COLUMNS = 3
_LEFT, _RIGHT = 78, 190  # margins of a panel (the legend is in the right one)
_TOP = 62
_GAP = 56
_MAX_POINTS = 2000  # per line: longer series are thinned
_COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)

# The panel of each coordinate of a joint type: (positions, velocities), by coordinate.
_BASE_POSITION, _BASE_QUATERNION = "base position [m]", "base orientation (quaternion)"
_BASE_ANGLES, _BASE_LINEAR = "base orientation [rad]", "base linear velocity [m/s]"
_BASE_ANGULAR = "base angular velocity [rad/s]"
_ANGLES, _ANGULAR = "joint angles [rad]", "joint angular velocities [rad/s]"
_TRANSLATIONS, _LINEAR = "joint translations [m]", "joint linear velocities [m/s]"
_JOINT_PANELS = {
    "revolute": ([_ANGLES], [_ANGULAR]),
    "screw": ([_ANGLES], [_ANGULAR]),
    "universal": ([_ANGLES] * 2, [_ANGULAR] * 2),
    "ball_rpy": ([_ANGLES] * 3, [_ANGULAR] * 3),
    "prismatic": ([_TRANSLATIONS], [_LINEAR]),
    "planar": ([_BASE_POSITION] * 2 + [_BASE_ANGLES], [_BASE_LINEAR] * 2 + [_BASE_ANGULAR]),
    "rpy_floating": (
        [_BASE_ANGLES] * 3 + [_BASE_POSITION] * 3,
        [_BASE_ANGULAR] * 3 + [_BASE_LINEAR] * 3,
    ),
    "quaternion_floating": (
        [_BASE_QUATERNION] * 4 + [_BASE_POSITION] * 3,
        [_BASE_ANGULAR] * 3 + [_BASE_LINEAR] * 3,
    ),
}
_ORDER = (
    _BASE_POSITION,
    _BASE_QUATERNION,
    _BASE_ANGLES,
    _ANGLES,
    _TRANSLATIONS,
    _BASE_LINEAR,
    _BASE_ANGULAR,
    _ANGULAR,
    _LINEAR,
)


def coordinate_panels(plant):
    """(the panel of each position, the panel of each velocity) of ``plant``: their kind
    and unit, e.g. "joint angles [rad]"."""
    positions = [None] * plant.num_positions()
    velocities = [None] * plant.num_velocities()
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        q_panels, v_panels = _JOINT_PANELS.get(
            joint.type_name(),
            (["coordinates"] * joint.num_positions(), ["velocities"] * joint.num_velocities()),
        )
        q0, v0 = joint.position_start(), joint.velocity_start()
        positions[q0 : q0 + joint.num_positions()] = q_panels
        velocities[v0 : v0 + joint.num_velocities()] = v_panels
    return positions, velocities


def _nice_ticks(lo, hi, count=5):
    """About ``count`` round tick values covering [lo, hi]: (ticks, lo, hi) widened to them."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo, hi = -1.0, 1.0
    if hi - lo < 1e-12 * max(1.0, abs(lo), abs(hi)):
        pad = max(abs(lo) * 0.1, 1e-3)
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    ticks = [k * step for k in range(first, last + 1)]
    return ticks, ticks[0], ticks[-1]


def _label(x):
    return f"{x:.6g}" if x != 0 else "0"


class _Svg:
    def __init__(self):
        self.parts = []

    def add(self, text):
        self.parts.append(text)

    def text(self, x, y, content, css="", anchor="start", size=12, rotate=None, weight=None):
        extra = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
        extra += f' font-weight="{weight}"' if weight else ""
        cls = f' class="{css}"' if css else ""
        self.add(
            f'<text{cls} x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
            f"{extra}>{html.escape(str(content))}</text>"
        )


def _panel(svg, box, t, series, group, ylabel, title=None, legend=True):
    """Draws ``series`` [(name, values, color, dashed)] over ``t`` in the box (x, y, w, h),
    a panel of ``group``, with ``ylabel`` (or none) and a legend or a ``title``."""
    x0, y0, w, h = box
    values = np.concatenate([v[np.isfinite(v)] for _, v, _, _ in series])
    lo, hi = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    yticks, ylo, yhi = _nice_ticks(lo, hi)
    xlo = float(t[0])
    xhi = float(t[-1]) if t[-1] > t[0] else xlo + 1.0
    xticks, _, _ = _nice_ticks(xlo, xhi, 8)

    def X(v):
        return x0 + (v - xlo) / (xhi - xlo) * w

    def Y(v):
        return y0 + h - (v - ylo) / (yhi - ylo) * h

    svg.add(f'<g class="panel" data-label="{html.escape(group)}">')
    svg.add(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="white" stroke="#999"/>')
    for v in yticks:
        svg.add(f'<line x1="{x0}" x2="{x0 + w}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="#e4e4e4"/>')
        svg.text(x0 - 6, Y(v) + 4, _label(v), anchor="end", size=11)
    for v in xticks:
        if xlo - 1e-9 <= v <= xhi + 1e-9:
            svg.add(
                f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{y0}" y2="{y0 + h}" stroke="#eee"/>'
            )
            svg.text(X(v), y0 + h + 15, _label(v), anchor="middle", size=11)
    svg.text(x0 + w / 2, y0 + h + 32, "time [s]", css="xlabel", anchor="middle")
    if ylabel:
        svg.text(x0 - 50, y0 + h / 2, ylabel, css="ylabel", anchor="middle", rotate=-90)
    if title:
        svg.text(x0, y0 - 6, title, css="series-title", size=12, weight="bold")
    stride = max(1, math.ceil(len(t) / _MAX_POINTS))
    for name, v, color, dashed in series:
        points = " ".join(
            f"{X(a):.1f},{Y(b):.1f}"
            for a, b in zip(t[::stride], v[::stride], strict=True)
            if math.isfinite(b)
        )
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        svg.add(
            f'<polyline class="series" data-name="{html.escape(name)}" points="{points}" '
            f'fill="none" stroke="{color}" stroke-width="1.5"{dash}/>'
        )
    if legend:
        svg.add('<g class="legend">')
        for i, (name, _, color, dashed) in enumerate(series):
            ly = y0 + 12 + 18 * i
            dash = ' stroke-dasharray="6 4"' if dashed else ""
            svg.add(
                f'<line x1="{x0 + w + 14}" x2="{x0 + w + 38}" y1="{ly}" y2="{ly}" '
                f'stroke="{color}" stroke-width="2"{dash}/>'
            )
            svg.text(x0 + w + 44, ly + 4, name, css="legend-entry", size=12)
        svg.add("</g>")
    svg.add("</g>")


def plot_svg(trajectory, position_panels, velocity_panels, title):
    """The SVG (str) of ``trajectory`` (t, q, v, their names and the energies, as
    mallard simulate saves them), each coordinate in the panel given for it, titled
    ``title``."""
    t = np.asarray(trajectory["t"], dtype=float)
    groups = {}
    for names, values, panels in (
        (trajectory["position_names"], trajectory["q"], position_panels),
        (trajectory["velocity_names"], trajectory["v"], velocity_panels),
    ):
        for i, (name, panel) in enumerate(zip(names, panels, strict=True)):
            groups.setdefault(panel, []).append((str(name), np.asarray(values)[:, i]))
    order = [p for p in _ORDER if p in groups] + [p for p in groups if p not in _ORDER]
    svg = _Svg()
    y = _TOP
    width = _WIDTH - _LEFT - _RIGHT
    layout = []  # (kind, y, height, label, members)
    for label in order:
        members = groups[label]
        if len(members) > SMALL_MULTIPLES:
            rows = math.ceil(len(members) / _SMALL_COLUMNS)
            layout.append(("small", y, rows * (_SMALL_HEIGHT + _GAP), label, members))
            y += rows * (_SMALL_HEIGHT + _GAP)
        else:
            layout.append(("panel", y, _PANEL_HEIGHT + _GAP, label, members))
            y += _PANEL_HEIGHT + _GAP
    height = y + _PANEL_HEIGHT + _GAP
    svg.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="sans-serif">'
    )
    svg.add(f'<rect width="{_WIDTH}" height="{height}" fill="white"/>')
    svg.text(_WIDTH / 2, 30, title, css="title", anchor="middle", size=16, weight="bold")
    for kind, top, _, label, members in layout:
        if kind == "panel":
            series = [(n, v, _COLORS[i % len(_COLORS)], False) for i, (n, v) in enumerate(members)]
            _panel(svg, (_LEFT, top, width, _PANEL_HEIGHT), t, series, label, label)
            continue
        column_width = (_WIDTH - 20) / _SMALL_COLUMNS
        unit = label[label.index("[") :] if "[" in label else ""
        for i, (name, values) in enumerate(members):
            row, column = divmod(i, _SMALL_COLUMNS)
            box = (
                _LEFT + column * column_width,
                top + row * (_SMALL_HEIGHT + _GAP),
                column_width - _LEFT - 10,
                _SMALL_HEIGHT,
            )
            series = [(name, values, _COLORS[0], False)]
            ylabel = label if column == 0 else ""
            title = f"{name} {unit}".strip()
            _panel(svg, box, t, series, label, ylabel, title=title, legend=False)
    kinetic = np.asarray(trajectory["kinetic_energy"])
    potential = np.asarray(trajectory["potential_energy"])
    dissipated = np.asarray(trajectory["damping_dissipated"])
    series = [
        ("kinetic", kinetic, _COLORS[0], False),
        ("potential", potential, _COLORS[3], False),
        ("total", kinetic + potential, "#000000", False),
    ]
    if dissipated[-1] > 0:
        series.append(("total + damping losses", kinetic + potential + dissipated, "#888", True))
    _panel(svg, (_LEFT, y, width, _PANEL_HEIGHT), t, series, "energy [J]", "energy [J]")
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"
