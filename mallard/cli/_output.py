"""What the subcommands write: warnings, text tables and the trajectory files."""

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
