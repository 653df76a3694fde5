#!/usr/bin/env python3
"""Render the Kinetic curve CSVs in this folder to PNG with matplotlib (Agg backend).

The same figures as the SVGs `kinetic export` writes and as curves.ipynb draws, for readers
without Jupyter:

    python3 notebooks-data/plot.py                       # reads notebooks-data/, writes notebooks-data/png/
    python3 notebooks-data/plot.py --data DIR --output OUT

Input files that are missing are skipped with a note (run `make demo` to produce them all).
Only the standard library and matplotlib are needed. Exits with status 1 when no figure could
be drawn, 2 on bad arguments.
"""

import argparse
import csv
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

# The colours of the SVG plots (Okabe-Ito, colour-blind safe).
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D31"]
PRESETS = ["linear", "ease", "ease-in", "ease-out", "ease-in-out"]
X_PROGRESS = "linear progress x (fraction of the duration)"


def read_csv(path):
    """Reads a CSV with a header line into {column: [float, ...]}, columns in file order."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = [name.strip() for name in rows[0]]
    columns = {name: [] for name in header}
    for number, row in enumerate(rows[1:], start=2):
        if not row or all(not field.strip() for field in row):
            continue
        if len(row) != len(header):
            raise ValueError(f"{path}:{number}: {len(row)} fields, expected {len(header)}")
        for name, field in zip(header, row):
            columns[name].append(float(field))
    return columns


def new_axes(title, xlabel, ylabel):
    figure, axes = plt.subplots(figsize=(7.2, 4.4), dpi=100)
    axes.set_prop_cycle(color=COLOURS)
    axes.set_title(title, fontweight="bold")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, color="#e3e3e3")
    return figure, axes


def finish(figure, axes, target=None):
    if target is not None:
        axes.axhline(target, color="#777777", linewidth=1, linestyle=(0, (5, 4)))
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0, frameon=True)
    figure.tight_layout()
    return figure


def load(data, name):
    path = os.path.join(data, name)
    return read_csv(path) if os.path.exists(path) else None


def presets_figure(data, column="value"):
    """Every preset curve's value (or slope) against linear progress."""
    tables = [(name, load(data, f"bezier-{name}.csv")) for name in PRESETS]
    tables = [(name, table) for name, table in tables if table is not None]
    if not tables:
        return None
    title = "Cubic-bezier presets" + (": slope" if column == "slope" else "")
    ylabel = "slope d value / d x" if column == "slope" else "eased progress (fraction of the change)"
    figure, axes = new_axes(title, X_PROGRESS, ylabel)
    for name, table in tables:
        axes.plot(table["x"], table[column], label=name, linewidth=2)
    return finish(figure, axes)


def preset_figure(data, name):
    """One preset: value and slope."""
    table = load(data, f"bezier-{name}.csv")
    if table is None:
        return None
    figure, axes = new_axes(name, X_PROGRESS, "value (fraction of the change) and slope")
    axes.plot(table["x"], table["value"], label="value", linewidth=2)
    axes.plot(table["x"], table["slope"], label="slope", linewidth=2)
    return finish(figure, axes, target=1)


def spring_family_figure(data, file, title, legend):
    """A wide spring-family CSV: time plus one position column per member."""
    table = load(data, file)
    if table is None:
        return None
    figure, axes = new_axes(title, "time (s)", "position (fraction of the move)")
    for column, values in table.items():
        if column != "time":
            axes.plot(table["time"], values, label=legend(column), linewidth=2)
    return finish(figure, axes, target=1)


def demo_springs_figure(data):
    """The demo's spring-zeta-<ζ>.csv files (time, value, velocity), one line each."""
    paths = sorted(glob.glob(os.path.join(data, "spring-zeta-*.csv")),
                   key=lambda p: float(os.path.basename(p)[len("spring-zeta-"):-len(".csv")]))
    if not paths:
        return None
    figure, axes = new_axes("Demo springs (response 0.5 s), until settled", "time (s)", "position (fraction of the move)")
    for path in paths:
        table = read_csv(path)
        zeta = os.path.basename(path)[len("spring-zeta-"):-len(".csv")]
        axes.plot(table["time"], table["value"], label=f"ζ = {zeta}", linewidth=2)
    return finish(figure, axes, target=1)


def keyframes_figure(data, geometry):
    """The baked keyframe example: unit-range columns, or the position and frame columns (points)."""
    table = load(data, "keyframes-example.csv")
    if table is None:
        return None
    if geometry:
        names = [c for c in table if c.startswith("position.") or c.startswith("frame.")]
        figure, axes = new_axes("Keyframed example: position and frame", "time (s)", "coordinate (points)")
    else:
        names = [c for c in table if c == "opacity" or c.startswith("tint.")]
        figure, axes = new_axes("Keyframed example: opacity and tint", "time (s)", "value (unitless, 0 … 1)")
    for name in names:
        axes.plot(table["time"], table[name], label=name, linewidth=2)
    return finish(figure, axes)


def figures(data):
    """(PNG file name, figure-making function) for every figure, in order."""
    result = [
        ("bezier-presets.png", lambda: presets_figure(data)),
        ("bezier-presets-slope.png", lambda: presets_figure(data, "slope")),
    ]
    result += [(f"bezier-{name}.png", lambda name=name: preset_figure(data, name)) for name in PRESETS]
    result += [
        ("spring-damping-ratio.png", lambda: spring_family_figure(
            data, "spring-damping-ratio.csv", "Springs by damping ratio ζ (response 0.5 s)",
            lambda column: column.replace("zeta=", "ζ = "))),
        ("spring-bounce.png", lambda: spring_family_figure(
            data, "spring-bounce.csv", "Springs by bounce (duration 0.5 s)",
            lambda column: column.replace("bounce=", "bounce = "))),
        ("spring-zeta.png", lambda: demo_springs_figure(data)),
        ("keyframes-example.png", lambda: keyframes_figure(data, geometry=False)),
        ("keyframes-example-geometry.png", lambda: keyframes_figure(data, geometry=True)),
    ]
    return result


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Render the Kinetic curve CSVs to PNG.")
    parser.add_argument("--data", default=here, help="folder with the CSV files (default: this script's folder)")
    parser.add_argument("--output", help="folder for the PNG files (default: DATA/png)")
    args = parser.parse_args(argv)
    output = args.output or os.path.join(args.data, "png")
    os.makedirs(output, exist_ok=True)
    written = 0
    for name, make in figures(args.data):
        figure = make()
        if figure is None:
            print(f"plot.py: skipped {name}: its CSV is not in {args.data} (run `make demo`)")
            continue
        path = os.path.join(output, name)
        temporary = os.path.join(output, f".{name}.tmp.png")
        figure.savefig(temporary, dpi=100)
        os.replace(temporary, path)  # atomic: a reader never sees half a PNG
        plt.close(figure)
        print(path)
        written += 1
    if written == 0:
        print(f"plot.py: no CSV files found in {args.data}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
