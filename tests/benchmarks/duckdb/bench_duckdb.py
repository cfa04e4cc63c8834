#!/usr/bin/env python3
"""tracelane-cli against DuckDB, from the file to the answer, at 1M requests.

Generates a seed-format trace with tracelane-gen (or takes --trace FILE), then runs
`tracelane-cli analyse | slice --by region | exceed` and DuckDB (npm
@duckdb/node-api, pinned in this folder; `npm ci` here first) answering the same
question from the same file, alternately, best of K each. Checks that the figures
agree, prints wall time, peak RSS, the ratios and the load average. Optionally
(--seed) also times the seed's Python profiler once for `analyse`, and
(--recompute) the in-memory recompute: p50-p99 TTFT by region again with the
trace already in memory (bench_classes on the loaded store, one thread, the
sorted metric kept as the GUI keeps it; DuckDB on a table loaded from the
file, median of 9 each).

  cd tests/benchmarks/duckdb && npm ci
  tests/benchmarks/duckdb/bench_duckdb.py [--build build/dev] [--requests N]
      [--runs K] [--threads T] [--trace FILE] [--seed] [--recompute]

The machine is shared and noisy: compare ratios within one run, not seconds.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))
from bench_load import extract_seed_profiler, figures as seed_figures  # noqa: E402

QUESTIONS = {
    "analyse": ["analyse"],
    "slice": ["slice", "--by", "region"],
    "exceed": ["exceed"],
}
TOLERANCE = 1e-9   # relative; both sides compute from exact stamp differences


def measure(command, cwd=None):
    """Wall seconds, peak RSS in MiB, stdout and CPU seconds (user + system) of one child process."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, cwd=cwd)
        output = process.stdout.read().decode("utf-8", "replace")
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - began
        stderr.seek(0)
        errors = stderr.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed with status {status}:\n{errors}")
    return elapsed, usage.ru_maxrss / 1024.0, output, usage.ru_utime + usage.ru_stime


def close(a, b):
    if a is None or b is None:
        return False
    return math.isclose(float(a), float(b), rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def compare(question, ours, duck):
    """The differences between tracelane-cli's JSON and DuckDB's figures (empty: agree)."""
    problems = []

    def check(label, a, b):
        if not close(a, b):
            problems.append(f"{label}: tracelane {a} vs DuckDB {b}")

    if question == "analyse":
        check("n", ours["ttft"]["n"], duck["n"])
        check("p50 TTFT", ours["ttft"]["p50"], duck["p50_ttft"])
        check("p95 TTFT", ours["p95_ttft_ms"], duck["p95_ttft"])
        check("p50 E2E", ours["e2e"]["p50"], duck["p50_e2e"])
        check("p95 E2E", ours["p95_e2e_ms"], duck["p95_e2e"])
    elif question == "slice":
        cells = {cell["label"]: cell for cell in ours["cells"]}
        if set(cells) != set(duck["regions"]):
            problems.append(f"regions: {sorted(cells)} vs {sorted(duck['regions'])}")
        for region, theirs in duck["regions"].items():
            cell = cells.get(region)
            if cell is None:
                continue
            check(f"{region} n", cell["n"], theirs["n"])
            for p in ("p50", "p90", "p95", "p99"):
                check(f"{region} {p}", cell[p]["value"], theirs[p])
    else:
        check("threshold", ours["threshold"], duck["threshold"])
        check("set size", ours["set_size"], duck["set"]["n"])
        check("rest size", ours["rest_size"], duck["rest"]["n"])
        for phase in ours["attribution"]["phases"]:
            name = phase["phase"]
            check(f"set mean {name}", phase["set_mean_ms"], duck["set"]["phase_means"][name])
            check(f"rest mean {name}", phase["rest_mean_ms"], duck["rest"]["phase_means"][name])
        ranked = {entry["feature"]: entry for entry in ours["attribute_ranking"]}
        for feature, theirs in duck["set"]["shares"].items():
            shares = {s["value"]: s for s in ranked.get(feature, {}).get("shares", [])}
            if not shares:
                problems.append(f"{feature}: no shares from tracelane")
                continue
            for value, share in theirs.items():
                check(f"set share {feature}={value}", shares.get(value, {}).get("set_share"), share)
            for value, share in duck["rest"]["shares"][feature].items():
                check(f"rest share {feature}={value}", shares.get(value, {}).get("rest_share"), share)
    return problems


def load_average():
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=str(ROOT / "build" / "dev"),
                        help="build folder with tracelane-cli and tracelane-gen (default build/dev: "
                             "RelWithDebInfo, -O2, assertions off, no sanitizers)")
    parser.add_argument("--cli", help="this tracelane-cli instead of the build folder's (an older build to compare)")
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="best of K runs of each")
    parser.add_argument("--threads", type=int, default=2, help="threads for both (default 2)")
    parser.add_argument("--trace", help="use this seed JSONL file instead of generating one")
    parser.add_argument("--questions", default="analyse,slice,exceed")
    parser.add_argument("--seed", action="store_true", help="also time the seed's Python profiler (analyse)")
    parser.add_argument("--recompute", action="store_true",
                        help="also compare the in-memory recompute (bench_classes against a DuckDB table)")
    args = parser.parse_args()

    build = Path(args.build).resolve()
    cli = Path(args.cli).resolve() if args.cli else build / "app" / "cli" / "tracelane-cli"
    gen = build / "tests" / "benchmarks" / "tracelane-gen"
    node = shutil.which("node")
    if not cli.exists():
        sys.exit(f"missing {cli}; build first (cmake --preset dev && cmake --build --preset dev "
                 "--target tracelane-cli tracelane-gen)")
    if not node or not (HERE / "node_modules" / "@duckdb" / "node-api").exists():
        sys.exit(f"DuckDB is not installed: cd {HERE} && npm ci")
    questions = [q for q in args.questions.split(",") if q]

    with tempfile.TemporaryDirectory() as tmp:
        if args.trace:
            trace = Path(args.trace).resolve()
        else:
            if not gen.exists():
                sys.exit(f"missing {gen}")
            trace = Path(tmp) / "mixed.jsonl"
            subprocess.run([str(gen), str(trace), str(args.requests), "42"], check=True)
        size_mb = trace.stat().st_size / 1e6
        print(f"trace: {trace.name}, {size_mb:.0f} MB; tracelane-cli {cli}; "
              f"{args.threads} threads each; best of {args.runs}, alternating")
        print(f"load average before: {load_average()}")
        ours_cmd = {q: [str(cli), *QUESTIONS[q], str(trace), "--json", "--threads", str(args.threads)]
                    for q in questions}
        duck_cmd = {q: [node, str(HERE / "duckdb_figures.mjs"), str(trace), q, str(args.threads)] for q in questions}

        failed = False
        rows = []
        for question in questions:
            ours_runs, duck_runs = [], []
            for run in range(args.runs):
                order = [("ours", ours_cmd), ("duck", duck_cmd)]
                if run % 2:
                    order.reverse()
                for who, commands in order:
                    result = measure(commands[question], cwd=HERE)
                    (ours_runs if who == "ours" else duck_runs).append(result)
            ours = min(ours_runs, key=lambda r: r[0])
            duck = min(duck_runs, key=lambda r: r[0])
            problems = compare(question, json.loads(ours[2]), json.loads(duck[2]))
            failed = failed or bool(problems)
            rows.append((question, ours, duck, problems))
            agree = "figures agree" if not problems else "FIGURES DIFFER: " + "; ".join(problems[:5])
            print(f"{question:8s} tracelane-cli {ours[0]:6.2f} s ({ours[3]:5.2f} s CPU) {ours[1]:5.0f} MiB | DuckDB "
                  f"{duck[0]:6.2f} s ({duck[3]:5.2f} s CPU) {duck[1]:5.0f} MiB | DuckDB/ours: time "
                  f"{duck[0] / ours[0]:.2f}, CPU {duck[3] / ours[3]:.2f}; memory ours/DuckDB {ours[1] / duck[1]:.2f} | "
                  f"{agree}  (load {load_average()})", flush=True)

        if args.seed and "analyse" in questions:
            seed = Path(tmp) / "seed_profiler.py"
            python = shutil.which("python3")
            if python and extract_seed_profiler(seed):
                reference = measure([python, str(seed), str(trace)])
                plain = measure([str(cli), "analyse", str(trace), "--threads", str(args.threads)])
                a, b = seed_figures(plain[2]), seed_figures(reference[2])
                agree = "same p50/p95" if a == b else f"FIGURES DIFFER: {a} vs {b}"
                failed = failed or a != b
                print(f"seed     tracelane-cli {plain[0]:6.2f} s {plain[1]:5.0f} MiB | seed profiler "
                      f"{reference[0]:6.2f} s {reference[1]:5.0f} MiB | seed/ours {reference[0] / plain[0]:.1f}x | "
                      f"{agree}  (load {load_average()})")
            else:
                print("seed profiler: skipped (python3 or the article is missing)")
        if args.recompute:
            classes = build / "tests" / "benchmarks" / "bench_classes"
            label = "percentiles by region, no CDF"
            report = measure([str(classes), str(trace), "9"])[2]
            line = next((l for l in report.splitlines() if l.startswith(label)), None)
            duck = json.loads(measure([node, str(HERE / "duckdb_figures.mjs"), str(trace), "recompute",
                                       str(args.threads), "9"], cwd=HERE)[2])
            if line is None:
                print(f"recompute: bench_classes printed no '{label}' line")
                failed = True
            else:
                ours_ms = float(line.split()[-2])
                print(f"recompute (in memory) tracelane {ours_ms:.1f} ms (1 thread) | DuckDB {duck['ms']:.1f} ms "
                      f"({args.threads} threads) | DuckDB/ours {duck['ms'] / ours_ms:.1f}x  (load {load_average()})")
        print(f"load average after: {load_average()}")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
