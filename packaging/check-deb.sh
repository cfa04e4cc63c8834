#!/usr/bin/env bash
# Builds the release .deb, installs it, checks both programs start, removes it.
# Run as root on Debian 12 after `.ci/bootstrap test` has installed the build deps.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
(cd build/release && rm -f ./*.deb && cpack -G DEB >/dev/null)
deb=$(ls build/release/tracelane_*_amd64.deb)
apt-get install -y -qq "./$deb" >/dev/null
trap 'dpkg -r tracelane >/dev/null' EXIT
desktop-file-validate /usr/share/applications/io.github.tracelane.Tracelane.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.tracelane.Tracelane.metainfo.xml >/dev/null
tracelane-cli analyse /usr/share/tracelane/examples/burst.jsonl | grep -q "p95 TTFT: 659.5 ms"
# report runs in /usr/lib/tracelane/tracelane-cli-full (app/cli/FullCli.h).
tracelane-cli report /usr/share/tracelane/examples/burst.jsonl --out /tmp/tracelane-deb-check.md >/dev/null
grep -q "burst.jsonl" /tmp/tracelane-deb-check.md
QT_QPA_PLATFORM=offscreen tracelane --screenshot /tmp/tracelane-deb-check.png \
    /usr/share/tracelane/examples/mixed-classes.jsonl 2>/dev/null
test -s /tmp/tracelane-deb-check.png
echo "ok: $deb installs, validates and starts"
