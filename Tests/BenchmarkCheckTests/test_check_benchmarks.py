#!/usr/bin/env python3
"""Tests of .ci/check-benchmarks.py, the CI benchmark gate (run by `make test-bench-check`).

The fixture Tests/Fixtures/benchmark-report.txt is a real package-benchmark text report trimmed
to the benchmarks that Benchmarks/thresholds.csv names; the regressed reports are made from it
by scaling one benchmark's wall-clock row, so each test changes exactly one figure.
"""
import csv
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECKER = os.path.join(ROOT, ".ci", "check-benchmarks.py")
THRESHOLDS = os.path.join(ROOT, "Benchmarks", "thresholds.csv")
with open(os.path.join(ROOT, "Tests", "Fixtures", "benchmark-report.txt"), encoding="utf-8") as f:
    REPORT = f.read()

SCALAR_OURS = "Bezier scalar ease (ours) [1000 evals]"
TWO_CORES = "Batch 1M shared progress 2 cores (native) [1000000 lanes]"


def scaled(report, name, factor):
    """The report with every wall-clock percentile of benchmark `name` multiplied by factor."""
    lines = report.splitlines()
    start = lines.index(name)
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("│ Time (wall clock)"):
            cells = lines[i].split("│")
            for k in range(2, 9):  # p0 … p100; the Samples column stays
                cells[k] = f" {float(cells[k]) * factor:>9.6g} "
            lines[i] = "│".join(cells)
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no wall-clock row under {name}")


def without(report, name):
    """The report with benchmark `name` renamed away (as if it had not run)."""
    assert name in report
    return report.replace(name + "\n", "Something else [1 x]\n")


class CheckBenchmarksTests(unittest.TestCase):
    def tearDown(self):
        if getattr(self, "tmp", None):
            shutil.rmtree(self.tmp, ignore_errors=True)

    def run_checker(self, report_text, *extra):
        if getattr(self, "tmp", None):
            shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp = tempfile.mkdtemp(prefix="bench-check-")
        report = os.path.join(self.tmp, "report.txt")
        with open(report, "w", encoding="utf-8") as f:
            f.write(report_text)
        self.out = os.path.join(self.tmp, "out")
        p = subprocess.run([sys.executable, CHECKER, report, "--thresholds", THRESHOLDS, "--out-dir", self.out, *extra],
                           capture_output=True, text=True)
        return p

    def ratios(self):
        with open(os.path.join(self.out, "benchmarks-ratios.csv"), encoding="utf-8") as f:
            return {r["id"]: r for r in csv.DictReader(f)}

    def test_recorded_run_passes_and_writes_csv_and_plot(self):
        p = self.run_checker(REPORT)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        ratios = self.ratios()
        # Every threshold has a row; the recorded run passes every gated one.
        with open(THRESHOLDS, encoding="utf-8") as f:
            ids = [r["id"] for r in csv.DictReader(l for l in f if l.strip() and not l.startswith("#"))]
        self.assertEqual(sorted(ratios), sorted(ids))
        self.assertTrue(all(r["verdict"] in ("PASS", "REPORT") for r in ratios.values()))
        # A ratio computed by hand from the fixture's p0 (both counts are 1000 evals).
        self.assertAlmostEqual(float(ratios["bezier-scalar-ease"]["value"]), 16290 / 22538, places=6)
        self.assertEqual(ratios["bezier-scalar-ease"]["meets_bar"], "yes")
        self.assertEqual(ratios["bezier-batch-1024"]["meets_bar"], "yes")
        self.assertEqual(ratios["bezier-batch-steep"]["meets_bar"], "yes")
        self.assertEqual(ratios["bezier-scalar-overshoot"]["meets_bar"], "no")
        # A speed-up is 1 core ÷ 2 cores and must stay above its limit.
        self.assertAlmostEqual(float(ratios["speedup-1M-2-cores-shared-progress"]["value"]),
                               816655 / 430026, places=3)
        with open(os.path.join(self.out, "benchmarks.csv"), encoding="utf-8") as f:
            rows = {r["name"]: r for r in csv.DictReader(f)}
        ours = rows[SCALAR_OURS]
        self.assertEqual(ours["ops_per_iteration"], "1000")
        self.assertAlmostEqual(float(ours["ns_per_op_p0"]), 16.29, places=6)
        # Numbers the report prints as 2.13e+07 parse too.
        self.assertEqual(float(rows["Batch 1M shared progress 1 core (native) [1000000 lanes]"]["p0_ns"]), 816655)
        engine = rows["Engine create, start and complete [10000 animators]"]
        self.assertEqual((float(engine["p0_ns"]), float(engine["p90_ns"]), engine["samples"]), (3.89e7, 5.03e7, "20"))
        with open(os.path.join(self.out, "benchmarks-ratios.svg"), encoding="utf-8") as f:
            svg = f.read()
        self.assertTrue(svg.startswith("<svg") and "bezier-scalar-ease" in svg)
        self.assertEqual([n for n in os.listdir(self.out) if n.endswith(".tmp")], [])  # written by rename

    def test_regressed_ratio_fails_naming_the_benchmark(self):
        p = self.run_checker(scaled(REPORT, SCALAR_OURS, 2.0))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("FAIL: bezier-scalar-ease:", p.stderr)
        self.assertIn(f"'{SCALAR_OURS}'", p.stderr)
        self.assertEqual(self.ratios()["bezier-scalar-ease"]["verdict"], "FAIL")
        self.assertEqual(self.ratios()["bezier-scalar-ease-in-out"]["verdict"], "PASS")

    def test_small_slow_down_within_margin_passes(self):
        # 1.2× slower: misses the bar further but stays inside the generous CI limit.
        p = self.run_checker(scaled(REPORT, SCALAR_OURS, 1.2))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_failed_ratios_name_their_benchmarks_and_a_retry_replaces_them(self):
        baseline = "Bezier scalar ease (baseline) [1000 evals]"
        failed = os.path.join(tempfile.mkdtemp(prefix="bench-failed-"), "failed.txt")
        self.addCleanup(shutil.rmtree, os.path.dirname(failed), True)
        p = self.run_checker(scaled(REPORT, SCALAR_OURS, 2.0), "--failed-out", failed)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        with open(failed, encoding="utf-8") as f:
            self.assertEqual(f.read().splitlines(), [SCALAR_OURS, baseline])
        # The retry report holds only the two re-run benchmarks, at their recorded figures.
        retry = os.path.join(os.path.dirname(failed), "retry.txt")
        lines = REPORT.splitlines()
        kept = []
        for name in (SCALAR_OURS, baseline):
            i = lines.index(name)
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            kept += lines[i:j] + [""]
        with open(retry, "w", encoding="utf-8") as f:
            f.write("\n".join(kept) + "\n")
        p = self.run_checker(scaled(REPORT, SCALAR_OURS, 2.0), "--retry-report", retry, "--failed-out", failed)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertAlmostEqual(float(self.ratios()["bezier-scalar-ease"]["value"]), 16290 / 22538, places=6)
        self.assertIn("re-measured in a second run: 2 benchmarks", p.stdout)
        with open(failed, encoding="utf-8") as f:
            self.assertEqual(f.read(), "")
        # A regression that the retry measures again still fails.
        with open(retry, "w", encoding="utf-8") as f:
            f.write(scaled("\n".join(kept) + "\n", SCALAR_OURS, 2.0))
        p = self.run_checker(REPORT, "--retry-report", retry)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("FAIL: bezier-scalar-ease:", p.stderr)

    def test_lost_speed_up_fails(self):
        p = self.run_checker(scaled(REPORT, TWO_CORES, 1.9))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("FAIL: speedup-1M-2-cores-shared-progress:", p.stderr)

    def test_best_of_denominator_uses_the_faster_backend(self):
        # Making BLAS slower changes nothing: native is the faster backend for shared progress.
        p = self.run_checker(scaled(REPORT, "Batch 100k shared progress (blas) [100000 lanes]", 5))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = self.run_checker(scaled(REPORT, "Batch 100k shared progress (automatic) [100000 lanes]", 1.7))
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAIL: auto-vs-best-shared-progress:", p.stderr)

    def test_absolute_figures_are_never_gated(self):
        p = self.run_checker(scaled(REPORT, "Store keyframes 100k eased 8 keys (native) [100000 tracks]", 1000))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(self.ratios()["abs-store-keyframes-ns-per-track"]["meets_bar"], "no")
        self.assertEqual(self.ratios()["abs-store-keyframes-ns-per-track"]["verdict"], "REPORT")

    def test_missing_benchmark_fails_unless_only_present(self):
        name = "Engine tick 10k animators x 10 lanes (direct core) [100000 lanes]"
        p = self.run_checker(without(REPORT, name))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn(f"MISSING: engine-tick-vs-direct: missing benchmark: '{name}'", p.stderr)
        p = self.run_checker(without(REPORT, name), "--only-present")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(self.ratios()["engine-tick-vs-direct"]["verdict"], "SKIPPED")

    def test_metric_rows_are_read_per_op(self):
        spec = importlib.util.spec_from_file_location("check_benchmarks", CHECKER)
        checker = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(checker)
        row = lambda label, v: f"│ {label:<26} │" + f" {v:>9} │" * 7 + "        5 │"
        report = "\n".join(["Many [10 curves]", "╒═══╕", row("Metric", "p0"), row("Malloc (total) (K) *", 2),
                             row("Time (wall clock) (ns) *", 100), row("live bytes", "2.5e+03"), "╘═══╛", ""])
        results = checker.parse_report(report)
        self.assertEqual(checker.per_op(results, "Many [10 curves]", "p0"), 10)
        self.assertEqual(checker.per_op(results, "Many [10 curves] @ Malloc (total)", "p0"), 200)
        self.assertEqual(checker.per_op(results, "Many [10 curves] @ live bytes", "p50"), 250)
        self.assertFalse(checker.present(results, "Many [10 curves] @ Malloc (bytes total)"))
        # The recorded run: 1 malloc per curve (its constants), and more bytes in use than requested.
        p = self.run_checker(REPORT)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        ratios = self.ratios()
        self.assertEqual(float(ratios["abs-scale-mallocs-per-curve"]["value"]), 1)
        self.assertEqual(ratios["abs-scale-bytes-per-curve"]["verdict"], "REPORT")
        self.assertGreater(float(ratios["abs-scale-bytes-per-curve"]["value"]),
                           float(ratios["abs-scale-requested-bytes-per-curve"]["value"]))

    def test_unreadable_report_is_an_error(self):
        p = self.run_checker("error: build failed\n")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no benchmark results found", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "benchmarks.csv")))


if __name__ == "__main__":
    unittest.main()
