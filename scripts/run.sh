#!/usr/bin/env bash
# Quick start 1: install what the `aerolin` program needs (scripts/install-deps.sh --main
# --main: no MathGL, SFML, Python or test packages), build it alone (no tests,
# benchmarks, Python module, plotter or window: scripts/build.sh --main), and
# show the P2V-7's modes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --main
scripts/build.sh --main
build/bin/aerolin modes data/derivatives/p2v7.toml
