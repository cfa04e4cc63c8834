#!/usr/bin/env python3
"""Load + analyse benchmark: tracelane-cli against the seed's Python profiler.

Generates a mixed-class trace with tracelane-gen (default 1,000,000 requests),
extracts the seed profiler from the article, runs both on the same file in the
same run and prints wall time, peak RSS and the ratios. Also checks that both
print the same p50/p95 figures. Machines are noisy: compare ratios, not seconds.

  tests/benchmarks/bench_load.py [--build build/dev] [--requests N] [--runs K]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def find_article():
    """The seed article lives in ../shared next to the checkout (or above a worktree)."""
    for folder in [ROOT, *ROOT.parents]:
        candidate = folder.parent / "shared" / "seed" / "inference-latency-article.txt"
        if candidate.exists():
            return candidate
    return None


ARTICLE = find_article()


def extract_seed_profiler(target: Path) -> bool:
    if ARTICLE is None:
        return False
    lines = ARTICLE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#!/usr/bin/env python3"))
    end = next(i for i in range(start, len(lines)) if "raise SystemExit(main())" in lines[i])
    target.write_text("\n".join(lines[start:end + 1]) + "\n", encoding="utf-8")
    return True


def measure(command):
    """Wall seconds, peak RSS in MiB and stdout of one child process."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command[0]} failed with status {status}")
    return elapsed, usage.ru_maxrss / 1024.0, output


def figures(output):
    wanted = ("p50 TTFT", "p95 TTFT", "p95 ITL", "p95 E2E")
    found = {}
    for label in wanted:
        match = re.search(re.escape(label) + r":\s*([0-9.]+)", output)
        found[label] = match.group(1) if match else None
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=str(ROOT / "build" / "dev"))
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=1, help="best of K runs for tracelane-cli")
    args = parser.parse_args()
    build = Path(args.build)
    cli = build / "app" / "cli" / "tracelane-cli"
    gen = build / "tests" / "benchmarks" / "tracelane-gen"
    for tool in (cli, gen):
        if not tool.exists():
            sys.exit(f"missing {tool}; build first (cmake --build {build})")

    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "mixed.jsonl"
        subprocess.run([str(gen), str(trace), str(args.requests), "42"], check=True)
        size_mb = trace.stat().st_size / 1e6
        print(f"trace: {args.requests:,} requests, {size_mb:.0f} MB")

        runs = [measure([str(cli), "analyse", str(trace)]) for _ in range(args.runs)]
        ours = min(runs, key=lambda run: run[0])
        print(f"tracelane-cli analyse: {ours[0]:.2f} s, peak RSS {ours[1]:.0f} MiB, {size_mb / ours[0]:.0f} MB/s")

        seed = Path(tmp) / "seed_profiler.py"
        python = shutil.which("python3")
        if not python or not extract_seed_profiler(seed):
            print("seed profiler: skipped (python3 or the article is missing)")
            return 0
        reference = measure([python, str(seed), str(trace)])
        print(f"seed profiler (python3): {reference[0]:.2f} s, peak RSS {reference[1]:.0f} MiB")
        print(f"speed-up: {reference[0] / ours[0]:.1f}x   memory: {100.0 * ours[1] / reference[1]:.0f}% of the seed's")
        a, b = figures(ours[2]), figures(reference[2])
        agree = all(a[key] == b[key] for key in a)
        print("figures agree: " + ("yes" if agree else f"NO: {a} vs {b}"))
        return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
