"""What the subcommands write: warnings, text tables, the trajectory files and the plot."""

import os
import sys

import numpy as np


def warn(message):
    """Prints ``mallard: warning: message`` on stderr."""
    print(f"mallard: warning: {message}", file=sys.stderr)


def format_number(x):
    """``x`` with 6 significant digits; "-" for NaN, "inf"/"-inf" for infinities."""
    if np.isnan(x):
        return "-"
    return f"{x:.6g}"


def format_table(headers, rows, indent="  "):
    """``rows`` (lists of str) under ``headers`` in left-aligned columns, as one str."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]
    lines = [
        indent + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [headers, *rows]
    ]
    return "\n".join(lines)


def write_trajectory(out_dir, trajectory):
    """Writes ``trajectory`` (a dict of t (N,), q (N, nq), v (N, nv), position_names,
    velocity_names and the energies (N,)) to out_dir/trajectory.npz, and t, q and v to
    out_dir/trajectory.csv with the header ``t,<position names>,<velocity names>``; returns
    both paths."""
    npz = os.path.join(out_dir, "trajectory.npz")
    csv = os.path.join(out_dir, "trajectory.csv")
    np.savez(npz, **trajectory)
    header = ",".join(["t", *trajectory["position_names"], *trajectory["velocity_names"]])
    table = np.column_stack([trajectory["t"], trajectory["q"], trajectory["v"]])
    np.savetxt(csv, table, delimiter=",", header=header, comments="", fmt="%.12g")
    return npz, csv


def write_plot(path, trajectory):
    """Plots the joint positions and the kinetic, potential and total energy (and the total
    plus the damping losses, which is constant) of ``trajectory`` over time into the PNG
    ``path``; returns False (with a warning) when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        warn("matplotlib is not installed: no plot.png (pip install 'mallard[plot]')")
        return False
    t = trajectory["t"]
    figure, (top, bottom) = pyplot.subplots(2, 1, sharex=True, figsize=(9, 7))
    for i, name in enumerate(trajectory["position_names"]):
        top.plot(t, trajectory["q"][:, i], label=name)
    top.set_ylabel("joint positions q")
    if len(trajectory["position_names"]) <= 12:
        top.legend(loc="upper right", fontsize="small")
    kinetic, potential = trajectory["kinetic_energy"], trajectory["potential_energy"]
    bottom.plot(t, kinetic, label="kinetic")
    bottom.plot(t, potential, label="potential")
    bottom.plot(t, kinetic + potential, label="total", color="black")
    dissipated = trajectory["damping_dissipated"]
    if dissipated[-1] > 0:
        bottom.plot(
            t, kinetic + potential + dissipated, "--", label="total + damping losses", color="gray"
        )
    bottom.set_ylabel("energy [J]")
    bottom.set_xlabel("time [s]")
    bottom.legend(loc="upper right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return True
