#!/usr/bin/env python3
"""Fails when a C++ file is not formatted as .clang-format says.

    check_format.py PROJECT [CLANG_FORMAT]

Every .cpp/.h under app/, model/, widgets/ and tests/ (not tests/data/) must be
what `clang-format` makes of it, except the files listed in
tests/structure/format-legacy.txt: the ones that were not when this check was
introduced (reformatting them all at once would have collided with every
branch in flight). A file leaves that list by being formatted
(`clang-format -i FILE`, then delete its line); new files are checked from
the start. A listed file that is already clean is named, so the list shrinks.
"""
import os
import subprocess
import sys

SOURCE_DIRS = ('app', 'model', 'widgets', 'tests')
SKIP_DIRS = {os.path.join('tests', 'data')}

project = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
clang_format = sys.argv[2] if len(sys.argv) > 2 else 'clang-format'
legacy_path = os.path.join(project, 'tests', 'structure', 'format-legacy.txt')
with open(legacy_path, encoding='utf-8') as handle:
    legacy = {line.strip() for line in handle if line.strip() and not line.startswith('#')}

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
            for path in files if path in complaints and path not in legacy]
cleaned = [path for path in files if path in legacy and path not in complaints]
missing = sorted(p for p in legacy if not os.path.exists(os.path.join(project, p)))
for path in cleaned:
    print(f'note: {path} is formatted now; delete its line from tests/structure/format-legacy.txt')
for path in missing:
    print(f'note: {path} is listed in tests/structure/format-legacy.txt but no longer exists')
for problem in problems:
    print(problem)
print(f'{len(problems)} unformatted file(s) of {len(files) - len(legacy & set(files))} checked '
      f'({len(legacy & set(files))} legacy files exempt)')
sys.exit(1 if problems else 0)
