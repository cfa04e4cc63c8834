#!/usr/bin/env python3
"""Runs the configured .clang-tidy over every translation unit of app/, model/ and
widgets/ (the dev build's compile database) and fails on any finding.

    .ci/tidy.py [BUILD_DIR]        (default build/dev; run after the build)

Where the time goes (clang-tidy 14, measured with --enable-check-profile): every
translation unit parses Qt (QtWidgets and qcustomplot: 5-10 s of CPU) and the AST
matchers of bugprone-*/performance-* walk all of it, headers included (clang-tidy 14
cannot skip system headers); the static analyzer adds as much again for a file with
long functions. About 15 s of CPU a file, some 40 minutes on 2 cores for all of them.

What makes it fit in CI: a result cache like ccache's. A translation unit's findings
are kept under a key made of the clang-tidy version, .clang-tidy, its compile command
(with the source and build directories replaced, so another clone hits) and the
contents of every file it includes (the dependencies ninja recorded when it built the
object). Only translation units whose key changed are run again, in parallel on every
core. The cache lives in TRACELANE_TIDY_CACHE (default ~/.cache/tracelane-tidy);
TRACELANE_TIDY_CACHE=off runs everything; TRACELANE_TIDY_FILES=REGEX picks fewer files;
TRACELANE_TIDY_JOBS=N sets the parallel runs (default: one per core).

The findings (file:line: warning: ... [check]) go to BUILD_DIR/clang-tidy.txt and
to the output, counted by check; the exit status is 1 when there is any.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELECT = re.compile(os.environ.get("TRACELANE_TIDY_FILES") or r"/(app|model|widgets)/[^_]*\.cpp$")
FINDING = re.compile(r"^(?P<file>[^ :][^:]*):(?P<line>\d+):(?P<column>\d+): (?:warning|error): .*\[(?P<check>[^\]]+)\]$")


def ninja_deps(build):
    """Object file -> the files it was built from (ninja's recorded deps)."""
    out = subprocess.run(["ninja", "-C", str(build), "-t", "deps"], capture_output=True, text=True, check=True).stdout
    deps = {}
    current = None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            current = line.split(":", 1)[0]
            deps[current] = []
        elif current is not None:
            deps[current].append(line.strip())
    return deps


def object_of(command):
    words = shlex.split(command)
    return words[words.index("-o") + 1] if "-o" in words else None


class Hasher:
    def __init__(self):
        self.known = {}

    def file(self, path):
        digest = self.known.get(path)
        if digest is None:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                digest = "missing"
            self.known[path] = digest
        return digest


def run_tidy(build, source, timeout):
    started = time.monotonic()
    process = subprocess.run(
        ["clang-tidy", "-p", str(build), "--quiet", "--extra-arg=-Wno-unknown-warning-option", source],
        capture_output=True, text=True, timeout=timeout)
    text = re.sub(r"\x1b\[[0-9;]*m", "", process.stdout + process.stderr)
    return process.returncode, text, time.monotonic() - started


def main():
    build = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "dev").resolve()
    database = json.loads((build / "compile_commands.json").read_text())
    units = [entry for entry in database
             if SELECT.search(entry["file"]) and not Path(entry["file"]).resolve().is_relative_to(build)]
    units.sort(key=lambda entry: entry["file"])
    if not units:
        print("clang-tidy: no translation units in", build / "compile_commands.json", file=sys.stderr)
        return 2

    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True, check=True).stdout
    config = (ROOT / ".clang-tidy").read_bytes()
    cache_setting = os.environ.get("TRACELANE_TIDY_CACHE", str(Path.home() / ".cache" / "tracelane-tidy"))
    cache = None if cache_setting == "off" else Path(cache_setting)
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    deps = ninja_deps(build) if cache else {}
    hasher = Hasher()

    def key_of(entry):
        objects = object_of(entry["command"])
        files = deps.get(objects) if objects else None
        if not files:
            return None   # never built: no dependency list, no cache
        digest = hashlib.sha256()
        digest.update(version.encode())
        digest.update(config)
        command = entry["command"].replace(str(build), "@BUILD@").replace(str(ROOT), "@SOURCE@")
        digest.update(command.encode())
        for name in files:
            path = name if os.path.isabs(name) else os.path.normpath(os.path.join(entry["directory"], name))
            shown = path.replace(str(build), "@BUILD@").replace(str(ROOT), "@SOURCE@")
            digest.update(shown.encode() + b"\0" + hasher.file(path).encode() + b"\n")
        return digest.hexdigest()

    started = time.monotonic()
    outputs = {}
    pending = []
    for entry in units:
        key = key_of(entry) if cache else None
        hit = cache / key if key else None
        if hit and hit.exists():
            outputs[entry["file"]] = hit.read_text().replace("@SOURCE@", str(ROOT))
        else:
            pending.append((entry, hit))
    cached = len(units) - len(pending)

    failed = []
    slowest = []
    jobs = int(os.environ.get("TRACELANE_TIDY_JOBS", os.cpu_count() or 2))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_tidy, build, entry["file"], 1200): (entry, hit) for entry, hit in pending}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            entry, hit = futures[future]
            try:
                status, text, seconds = future.result()
            except subprocess.TimeoutExpired:
                failed.append(entry["file"])
                outputs[entry["file"]] = f"{entry['file']}: clang-tidy did not finish in 20 minutes\n"
                continue
            findings = "".join(line + "\n" for line in text.splitlines() if FINDING.match(line))
            # A run that stopped without a finding to show (a crash, a file it
            # could not parse) is a failure too, and never cached.
            if status != 0 and not findings:
                failed.append(entry["file"])
                findings = f"{entry['file']}: clang-tidy exited with {status}:\n{text}"
            elif hit:
                hit.write_text(findings.replace(str(ROOT), "@SOURCE@"))
            outputs[entry["file"]] = findings
            slowest.append((seconds, entry["file"]))
            if done % 25 == 0:
                print(f"clang-tidy: {done}/{len(pending)} run ({time.monotonic() - started:.0f} s)", flush=True)

    # One finding in a header is reported once however many files include it.
    seen = set()
    lines = []
    for file in sorted(outputs):
        for line in outputs[file].splitlines():
            if line not in seen:
                seen.add(line)
                lines.append(line)
    report = build / "clang-tidy.txt"
    report.write_text("".join(line + "\n" for line in lines))
    counts = {}
    for line in lines:
        match = FINDING.match(line)
        if match:
            counts[match["check"]] = counts.get(match["check"], 0) + 1
    wall = time.monotonic() - started
    print(f"clang-tidy: {len(units)} translation units ({cached} unchanged since a cached run, {len(pending)} run "
          f"on {jobs} jobs) in {wall:.0f} s; {sum(counts.values())} finding(s), {len(failed)} failure(s)")
    for seconds, file in sorted(slowest, reverse=True)[:5]:
        print(f"  {seconds:6.1f} s  {os.path.relpath(file, ROOT)}")
    for check, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"  {count:5d}  {check}")
    if counts or failed:
        print("\n".join(lines[:200]))
        print(f"clang-tidy: findings in {report}; fix them or, for a check that is noise here, disable it in "
              ".clang-tidy with its reason", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
