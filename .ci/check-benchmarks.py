#!/usr/bin/env python3
"""Benchmark gate for CI: parse a package-benchmark text report, write CSV, compare ratios.

Usage:
    check-benchmarks.py REPORT.txt [--thresholds Benchmarks/thresholds.csv]
                        [--out-dir notebooks-data] [--no-plot] [--only-present]
                        [--failed-out FILE] [--retry-report RETRY.txt]

REPORT.txt is the text output of `swift package benchmark --no-progress` (package-benchmark
1.38.1): a benchmark's name on its own line, then a box table whose row
"Time (wall clock) (<unit>)" holds p0 p25 p50 p75 p90 p99 p100 Samples. Every benchmark name
ends with "[<N> <unit>]", the operations one iteration does (ns per op = wall clock / N).
A threshold's numerator may also be "NAME @ METRIC": the table's row METRIC (its label without
the trailing " *" and scale such as " (K)", e.g. "Malloc (total)" or a custom metric) instead
of the wall clock, likewise divided by N (mallocs or bytes per op; report-only rows).

Writes (each atomically: a temporary file in the same folder, then rename):
    <out-dir>/benchmarks.csv          one row per benchmark
    <out-dir>/benchmarks-ratios.csv   one row per threshold: value, bar, CI limit, verdict
    <out-dir>/benchmarks-ratios.svg   a bar chart of value / CI limit per threshold
Prints the ratios beside their bars, and exits 1 when a ratio is beyond its CI limit or a
benchmark the thresholds name is missing from the report (2 on unreadable input). With
--only-present (for a run with --filter) thresholds whose benchmarks did not run are skipped.

A retry (used by `make bench-ci`, see .ci/rerun-benchmarks.py): --failed-out writes the names
of the benchmarks behind every FAIL ratio, one per line (an empty file when none failed);
--retry-report reads a second report in which those benchmarks ran again, together, and uses
its figures in place of the first report's for every benchmark it holds. A ratio still comes
from one run, so a slow stretch of the shared machine during one benchmark fails one run but
not the retry, and a real regression fails both.
Standard library only.
"""
import argparse
import csv
import io
import os
import re
import sys
import tempfile

UNIT_NS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
WALL_ROW = re.compile(r"^│\s*Time \(wall clock\) \((ns|μs|us|ms|s)\)")
OPS = re.compile(r"\[(\d+) [^\]]*\]\s*$")
PERCENTILES = ["p0", "p25", "p50", "p75", "p90", "p99", "p100"]
# Any other row of a table: "│ <label>[ *] │ p0 … p100 │ Samples │"; the label may end in a
# scale, "(K)", "(M)" or "(G)", by which the printed figures are multiplied.
METRIC_ROW = re.compile(r"^│\s*(.+?)(?:\s+\((K|M|G)\))?(?:\s+\*)?\s*│")
METRIC_SCALE = {None: 1.0, "K": 1e3, "M": 1e6, "G": 1e9}
METRIC_SEP = " @ "


class InputError(Exception):
    pass


def parse_report(text):
    """Returns {name: {"p0": ns, …, "p100": ns, "samples": int, "ops": int}} in report order."""
    results = {}
    lines = text.splitlines()
    name = None
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if line.startswith("╒"):
            # The name is the nearest non-empty line above the table.
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            name = lines[j].strip() if j >= 0 else None
            continue
        m = WALL_ROW.match(line)
        if m and name:
            cells = [c.strip() for c in line.strip("│").split("│")][1:]
            if len(cells) < 8:
                raise InputError(f"wall-clock row of '{name}' has {len(cells)} columns, expected 8")
            try:
                values = [float(c) * UNIT_NS[m.group(1)] for c in cells[:7]]
                samples = int(cells[7])
            except ValueError:
                raise InputError(f"wall-clock row of '{name}' is not numeric: {line!r}")
            ops = OPS.search(name)
            row = dict(zip(PERCENTILES, values))
            row["samples"] = samples
            row["ops"] = int(ops.group(1)) if ops else 1
            row["metrics"] = results.get(name, {}).get("metrics", {})
            results[name] = row
            continue
        m = METRIC_ROW.match(line)
        if m and name and m.group(1) != "Metric":
            cells = [c.strip() for c in line.strip("│").split("│")][1:]
            try:
                values = [float(c) * METRIC_SCALE[m.group(2)] for c in cells[:7]]
            except ValueError:
                continue  # not a figures row
            if len(cells) >= 8:
                results.setdefault(name, {"metrics": {}}).setdefault("metrics", {})[m.group(1)] = \
                    dict(zip(PERCENTILES, values))
    # A table without a wall-clock row is no result.
    return {n: r for n, r in results.items() if "p0" in r}


def read_thresholds(path):
    """Rows of the thresholds CSV (lines starting with # are comments)."""
    with open(path, encoding="utf-8") as f:
        body = [l for l in f if l.strip() and not l.lstrip().startswith("#")]
    rows = list(csv.DictReader(body))
    need = {"id", "numerator", "denominator", "statistic", "direction", "bar", "limit"}
    if not rows or not need.issubset(rows[0].keys()):
        raise InputError(f"{path}: header must name the columns {sorted(need)}")
    for r in rows:
        if r["statistic"] not in ("p0", "p50"):
            raise InputError(f"{path}: threshold '{r['id']}': statistic '{r['statistic']}' is not p0 or p50")
        if r["direction"] not in ("<=", ">="):
            raise InputError(f"{path}: threshold '{r['id']}': direction '{r['direction']}' is not <= or >=")
    return rows


def per_op(results, name, stat):
    """ns per op, or for "NAME @ METRIC" that metric per op."""
    bench, _, metric = name.partition(METRIC_SEP)
    r = results[bench]
    return (r["metrics"][metric][stat] if metric else r[stat]) / r["ops"]


def present(results, name):
    bench, _, metric = name.partition(METRIC_SEP)
    return bench in results and (not metric or metric in results[bench]["metrics"])


def evaluate(results, thresholds, only_present=False):
    """One verdict per threshold: PASS, FAIL, MISSING, REPORT (no CI limit: report only), or
    SKIPPED (a benchmark is absent and only_present is set, for a filtered run)."""
    out = []
    for t in thresholds:
        stat = t["statistic"]
        names = [t["numerator"]] + ([d.strip() for d in t["denominator"].split("|")] if t["denominator"] else [])
        missing = [n for n in names if not present(results, n)]
        bar = float(t["bar"]) if t["bar"] else None
        limit = float(t["limit"]) if t["limit"] else None
        row = {"id": t["id"], "statistic": stat, "direction": t["direction"], "bar": bar, "limit": limit,
               "value": None, "meets_bar": "", "numerator": t["numerator"], "denominator": t["denominator"]}
        if missing and only_present:
            row["verdict"] = "SKIPPED"
            row["message"] = ""
            out.append(row)
            continue
        if missing:
            row["verdict"] = "MISSING"
            row["message"] = "missing benchmark: " + "; ".join(f"'{n}'" for n in missing)
            out.append(row)
            continue
        num = per_op(results, t["numerator"], stat)
        if t["denominator"]:
            # Several denominators separated by "|": the best (fastest) of them.
            value = num / min(per_op(results, n, stat) for n in names[1:])
        else:
            value = num  # an absolute figure, ns per op (never gated: machines differ)
        row["value"] = value

        def ok(v, lim):
            return v <= lim if t["direction"] == "<=" else v >= lim
        if bar is not None:
            row["meets_bar"] = "yes" if ok(value, bar) else "no"
        if limit is None:
            row["verdict"] = "REPORT"
            row["message"] = ""
        elif ok(value, limit):
            row["verdict"] = "PASS"
            row["message"] = ""
        else:
            row["verdict"] = "FAIL"
            row["message"] = (f"regression: '{t['numerator']}' {stat} ratio {value:.3f} is beyond the CI limit "
                              f"{t['direction']} {limit:g} (bar {t['bar']})")
        out.append(row)
    return out


def write_atomic(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file ordinary permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def fmt(v):
    return "" if v is None else f"{v:.10g}"


def results_csv(results):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "samples", "p0_ns", "p25_ns", "p50_ns", "p75_ns", "p90_ns",
                "ops_per_iteration", "ns_per_op_p0", "ns_per_op_p50"])
    for name, r in results.items():
        w.writerow([name, r["samples"]] + [fmt(r[p]) for p in ("p0", "p25", "p50", "p75", "p90")]
                   + [r["ops"], fmt(r["p0"] / r["ops"]), fmt(r["p50"] / r["ops"])])
    return buf.getvalue()


def ratios_csv(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "statistic", "value", "direction", "bar", "limit", "meets_bar", "verdict"])
    for r in rows:
        w.writerow([r["id"], r["statistic"], fmt(r["value"]), r["direction"], fmt(r["bar"]), fmt(r["limit"]),
                    r["meets_bar"], r["verdict"]])
    return buf.getvalue()


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def ratios_svg(rows):
    """Horizontal bars of value ÷ bar (1 = exactly on the issue's bar), gated rows only
    coloured by verdict; a dashed tick marks the CI limit ÷ bar."""
    shown = [r for r in rows if r["value"] is not None and r["bar"]]
    label_w, plot_w, row_h, top = 230, 420, 18, 48
    height = top + row_h * len(shown) + 40

    def norm(r, v):
        # Plot as "how far from the bar": value/bar for <=, bar/value for >= (1 = on the bar, > 1 worse).
        return v / r["bar"] if r["direction"] == "<=" else r["bar"] / v
    scale_max = max([2.0] + [min(norm(r, r["value"]), 4.0) for r in shown]
                    + [min(norm(r, r["limit"]), 4.0) for r in shown if r["limit"]])
    x = lambda f: label_w + plot_w * f / scale_max
    colours = {"PASS": "#4c9a2a", "FAIL": "#c0392b", "REPORT": "#8a8a8a"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + plot_w + 190}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="18" font-size="13">Benchmark ratios ÷ issue bar (1 = on the bar; right of 1 misses it).</text>',
           f'<text x="10" y="34">Dashed tick: CI limit. Green: meets the bar; amber: misses it; red: beyond the CI limit; '
           f'grey: absolute, report only.</text>']
    for i, r in enumerate(shown):
        y = top + i * row_h
        f = min(norm(r, r["value"]), scale_max)
        colour = colours.get(r["verdict"], "#8a8a8a")
        if r["verdict"] == "PASS" and r["meets_bar"] == "no":
            colour = "#e0a030"
        out.append(f'<text x="{label_w - 6}" y="{y + 12}" text-anchor="end">{esc(r["id"])}</text>')
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{x(f) - label_w:.1f}" height="{row_h - 6}" fill="{colour}"/>')
        out.append(f'<text x="{label_w + plot_w + 10}" y="{y + 12}">{r["value"]:.3g} (bar {esc(r["direction"])} {r["bar"]:g})</text>')
        if r["limit"]:
            lx = x(min(norm(r, r["limit"]), scale_max))
            out.append(f'<line x1="{lx:.1f}" y1="{y + 1}" x2="{lx:.1f}" y2="{y + row_h - 1}" stroke="black" '
                       f'stroke-dasharray="2,2"/>')
    one = x(1.0)
    out.append(f'<line x1="{one:.1f}" y1="{top - 4}" x2="{one:.1f}" y2="{height - 30}" stroke="black"/>')
    out.append(f'<text x="{one:.1f}" y="{height - 16}" text-anchor="middle">1 = bar</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report")
    ap.add_argument("--thresholds", default=os.path.join(here, "..", "Benchmarks", "thresholds.csv"))
    ap.add_argument("--out-dir", default="notebooks-data")
    ap.add_argument("--no-plot", action="store_true", help="do not write the SVG bar chart")
    ap.add_argument("--only-present", action="store_true",
                    help="skip thresholds whose benchmarks are not in the report (a --filter run)")
    ap.add_argument("--failed-out", help="write the names of the benchmarks of failed ratios here")
    ap.add_argument("--retry-report", help="a second report whose benchmarks replace the first's")
    args = ap.parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as f:
            results = parse_report(f.read())
        if not results:
            raise InputError(f"{args.report}: no benchmark results found (is it package-benchmark text output?)")
        retried = {}
        if args.retry_report:
            with open(args.retry_report, encoding="utf-8") as f:
                retried = parse_report(f.read())
            if not retried:
                raise InputError(f"{args.retry_report}: no benchmark results found")
            results.update(retried)
        thresholds = read_thresholds(args.thresholds)
    except (OSError, InputError) as e:
        print(f"check-benchmarks: error: {e}", file=sys.stderr)
        return 2
    rows = evaluate(results, thresholds, args.only_present)
    write_atomic(os.path.join(args.out_dir, "benchmarks.csv"), results_csv(results))
    write_atomic(os.path.join(args.out_dir, "benchmarks-ratios.csv"), ratios_csv(rows))
    if not args.no_plot:
        write_atomic(os.path.join(args.out_dir, "benchmarks-ratios.svg"), ratios_svg(rows))

    width = max(len(r["id"]) for r in rows)
    print(f"\n{'ratio':<{width}}  stat  {'value':>8}  {'bar':>9}  {'CI limit':>10}  verdict")
    for r in rows:
        value = "—" if r["value"] is None else f"{r['value']:.3f}"
        bar = "" if r["bar"] is None else f"{r['direction']} {r['bar']:g}"
        limit = "report" if r["limit"] is None else f"{r['direction']} {r['limit']:g}"
        note = r["verdict"] + (" (misses the bar)" if r["meets_bar"] == "no" and r["verdict"] in ("PASS", "REPORT") else "")
        print(f"{r['id']:<{width}}  {r['statistic']:<4}  {value:>8}  {bar:>9}  {limit:>10}  {note}")
    bad = [r for r in rows if r["verdict"] in ("FAIL", "MISSING")]
    print(f"\n{len(results)} benchmarks, {len(rows)} ratios: "
          f"{sum(r['verdict'] == 'PASS' for r in rows)} pass, {len(bad)} fail; "
          f"{sum(r['meets_bar'] == 'no' for r in rows)} miss the issue's bar (reported, not gated)")
    if retried:
        print(f"(re-measured in a second run: {len(retried)} benchmarks; their figures replace the first run's)")
    for r in bad:
        print(f"check-benchmarks: {r['verdict']}: {r['id']}: {r['message']}", file=sys.stderr)
    if args.failed_out:
        names = []
        for r in rows:
            if r["verdict"] == "FAIL":
                for n in [r["numerator"]] + [d.strip() for d in r["denominator"].split("|") if d.strip()]:
                    n = n.partition(METRIC_SEP)[0]
                    if n not in names:
                        names.append(n)
        write_atomic(args.failed_out, "".join(n + "\n" for n in names))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
