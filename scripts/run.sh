#!/usr/bin/env bash
# Quick start 1: install what is missing, build the `aerolin` program alone
# (no tests, benchmarks, Python module, plotter or window: scripts/build.sh
# --main), and show the P2V-7's modes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --main
build/bin/aerolin modes data/derivatives/p2v7.toml
