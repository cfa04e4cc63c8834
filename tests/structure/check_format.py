#!/usr/bin/env python3
"""Fails when a C++ file is not formatted as .clang-format says.

    check_format.py PROJECT [CLANG_FORMAT]

Every .cpp/.h under app/, model/, widgets/ and tests/ (not tests/data/) must be
what `clang-format` makes of it; each one that is not is named with the command
that formats it.
"""
import os
import subprocess
import sys

SOURCE_DIRS = ('app', 'model', 'widgets', 'tests')
SKIP_DIRS = {os.path.join('tests', 'data')}

project = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
clang_format = sys.argv[2] if len(sys.argv) > 2 else 'clang-format'

files = []
for top in SOURCE_DIRS:
    for directory, subdirs, names in os.walk(os.path.join(project, top)):
        relative = os.path.relpath(directory, project)
        # npm's packages (tests/live, tests/clickhouse) are not ours.
        subdirs[:] = sorted(d for d in subdirs
                            if os.path.join(relative, d) not in SKIP_DIRS and d != 'node_modules')
        files.extend(os.path.join(relative, name) for name in sorted(names) if name.endswith(('.cpp', '.h')))


def unformatted(paths):
    """{path: first complaint} for the paths clang-format would change."""
    found = {}
    for start in range(0, len(paths), 100):   # one process per hundred files
        run = subprocess.run([clang_format, '--dry-run', *paths[start:start + 100]], cwd=project,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in run.stderr.splitlines():
            path = line.split(':', 1)[0]
            if path in paths and path not in found:
                found[path] = line
        if run.returncode != 0 and not found:
            sys.exit(f'{clang_format} failed: {run.stderr.strip()}')
    return found


complaints = unformatted(files)
problems = [f'{path}: not formatted ({complaints[path]}); run: clang-format -i {path}'
            for path in files if path in complaints]
for problem in problems:
    print(problem)
print(f'{len(problems)} unformatted file(s) of {len(files)} checked')
sys.exit(1 if problems else 0)
