#!/usr/bin/env python3
"""OTLP/JSON load benchmark: Tracelane against a reference in the same run.

Generates ~100,000 spans of OTLP JSON Lines with tracelane-gen-otlp (agent
workflows with GenAI attributes, split traces, metrics lines), times
tracelane-bench-otlp loading them (parse, intern, link, summarise) and, on
the same file, the reference: Python's C-accelerated json.loads on every
line (parsing only; it builds nothing a viewer could use). Prints both and
their ratio. Run from the build directory:

    python3 ../../tests/benchmarks/bench_otlp.py [--spans N] [--keep]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import resource


def reference(path):
    """json.loads per line, best of three; peak RSS of a child doing it."""
    best = None
    for _ in range(3):
        start = time.perf_counter()
        with open(path, "rb") as lines:
            for line in lines:
                if line.strip():
                    json.loads(line)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--build", default=".", help="build directory (default: current)")
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    args = parser.parse_args()
    bench_dir = os.path.join(args.build, "tests", "benchmarks")
    generator = os.path.join(bench_dir, "tracelane-gen-otlp")
    bench = os.path.join(bench_dir, "tracelane-bench-otlp")
    for tool in (generator, bench):
        if not os.path.exists(tool):
            sys.exit(f"{tool} not found; build first (cmake --build build/dev)")

    directory = tempfile.mkdtemp(prefix="tracelane-bench-")
    path = os.path.join(directory, "bench.otlp.jsonl")
    subprocess.run([generator, path, str(args.spans)], check=True, capture_output=True)
    size_mb = os.path.getsize(path) / 1e6

    ours = json.loads(subprocess.run([bench, path, "3"], check=True, capture_output=True, text=True).stdout)
    ref_s = reference(path)
    ref_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    ref_mb_s = size_mb / ref_s

    print(f"file: {size_mb:.1f} MB, {ours['spans']:.0f} spans in {ours['workflows']} workflows "
          f"({ours['rejected']} rejected)")
    print(f"Tracelane load     : {ours['best_s']:.3f} s  {ours['mb_per_s']:.1f} MB/s  "
          f"span table {ours['span_table_bytes_per_span']:.0f} B/span, whole store "
          f"{ours['store_bytes_per_span']:.0f} B/span, peak RSS {ours['peak_rss_mb']:.0f} MB")
    print(f"json.loads per line: {ref_s:.3f} s  {ref_mb_s:.1f} MB/s  (peak RSS {ref_rss:.0f} MB)")
    print(f"ratio: Tracelane is {ours['mb_per_s'] / ref_mb_s:.2f}x the reference's throughput")
    if not args.keep:
        os.remove(path)
        os.rmdir(directory)


if __name__ == "__main__":
    main()
