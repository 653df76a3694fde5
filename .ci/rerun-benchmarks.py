#!/usr/bin/env python3
"""Runs the named benchmarks again, together, for `make bench-ci`'s one retry.

Usage:
    rerun-benchmarks.py NAMES.txt REPORT_OUT.txt [SWIFTPM_FLAG ...]

NAMES.txt: one full benchmark name per line (check-benchmarks.py --failed-out writes it).
Runs `$SWIFT package --package-path Benchmarks [SWIFTPM_FLAG ...] --disable-sandbox benchmark
--no-progress` (the benchmark package beside this folder, from any working directory) with one
--filter per name (the name with every regular-expression metacharacter escaped, so it matches
that benchmark only), prints the output and writes it to REPORT_OUT.txt. Exits with the
benchmark run's status (2 when NAMES.txt holds no name). Standard library only.
"""
import os
import subprocess
import sys

METACHARACTERS = set("\\^$.|?*+()[]{}")
# The benchmark package (Benchmarks/Package.swift), which depends on the root package by path.
BENCHMARK_PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks")


def escaped(name):
    """`name` as a regular expression that matches it literally (spaces left as they are)."""
    return "".join("\\" + c if c in METACHARACTERS else c for c in name)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        names = [line.rstrip("\n") for line in f if line.strip()]
    if not names:
        print("rerun-benchmarks: no benchmark names to run", file=sys.stderr)
        return 2
    command = [os.environ.get("SWIFT", "swift"), "package", "--package-path", os.path.normpath(BENCHMARK_PACKAGE),
               *argv[2:], "--disable-sandbox", "benchmark", "--no-progress"]
    for name in names:
        command += ["--filter", escaped(name)]
    run = subprocess.run(command, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    with open(argv[1], "w", encoding="utf-8") as f:
        f.write(run.stdout)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
