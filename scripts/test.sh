#!/usr/bin/env bash
# Quick start 2: install what is missing, build everything (scripts/build.sh,
# every part switched on explicitly, also after scripts/run.sh), and run the
# whole test suite. Arguments go to ctest, e.g. `-L unit` (the fast set) or
# `-LE slow`; tests/CMakeLists.txt describes the labels.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
