#!/usr/bin/env python3
"""Fails when a layer of model/ includes a header from a layer it must not see.

store <- io, store <- analysis, {analysis, io} <- report/scenarios,
report <- review, {store, io} <- live, {store, analysis} <- clickhouse, {io, clickhouse} <- remote; model/ never
includes QtWidgets/QtGui. The link already fails for most back-references (one
static library per layer); this catches header-only ones and says which line.
It also fails when the top level grows a folder or file outside the fixed layout
(code that needs QtGui but not QtWidgets lives under app/, e.g. app/render/).
"""
import os
import re
import sys

ALLOWED = {
    'store': {'store'},
    'io': {'store', 'io'},
    'analysis': {'store', 'analysis'},
    'report': {'store', 'io', 'analysis', 'report'},
    'scenarios': {'store', 'io', 'scenarios'},
    'review': {'store', 'io', 'analysis', 'report', 'review'},
    'live': {'store', 'io', 'live'},
    # Traces in ClickHouse (QtNetwork): fills analysis/'s result types from the
    # server's aggregates; nothing below it includes it.
    'clickhouse': {'store', 'analysis', 'clickhouse'},
    # A trace opened from a server into the desktop store (otel_traces read as
    # spans through io/'s builder, over clickhouse/'s client).
    'remote': {'store', 'io', 'analysis', 'clickhouse', 'remote'},
}
LAYERS = set(ALLOWED)
FORBIDDEN_QT = re.compile(r'#include\s*<(QtWidgets|QtGui|QWidget|QPainter|QImage|QColor)')
INCLUDE = re.compile(r'#include\s*"([^"/]+)/')

TOP_LEVEL = {'CMakeLists.txt', 'CMakePresets.json', 'README.md', 'LICENSE', 'app', 'widgets',
             'model', 'resources', 'tests', 'packaging'}

project = sys.argv[1] if len(sys.argv) > 1 else '.'
root = os.path.join(project, 'model')
problems = []
for entry in sorted(os.listdir(project)):
    # Dot-files (.ci/, tool configs) and build output (build/, build-*/) are not layout.
    if entry.startswith('.') or entry in ('build', 'compile_commands.json') or entry.startswith('build-'):
        continue
    if entry not in TOP_LEVEL:
        problems.append(f'{os.path.join(project, entry)}: not part of the fixed top-level layout '
                        f'({", ".join(sorted(TOP_LEVEL))})')
for layer in sorted(LAYERS):
    for dirpath, _, files in os.walk(os.path.join(root, layer)):
        for name in sorted(files):
            if not name.endswith(('.h', '.cpp')):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding='utf-8') as source:
                for number, line in enumerate(source, 1):
                    if FORBIDDEN_QT.search(line):
                        problems.append(f'{path}:{number}: model/ must not use Qt GUI: {line.strip()}')
                    match = INCLUDE.search(line)
                    if match and match.group(1) in LAYERS and match.group(1) not in ALLOWED[layer]:
                        problems.append(f'{path}:{number}: {layer}/ must not include {match.group(1)}/: '
                                        f'{line.strip()}')
for problem in problems:
    print(problem)
print(f'{len(problems)} layering problem(s)')
sys.exit(1 if problems else 0)
