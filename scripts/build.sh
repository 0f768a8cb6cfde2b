#!/usr/bin/env bash
# Configures and builds aerolin into ./build (binaries in ./build/bin).
#   scripts/build.sh [ARGS...]         everything: the programs, the plotter, the
#                                      flight window, the Python module, the tests,
#                                      fuzz replays and benchmarks (scripts/test.sh)
#   scripts/build.sh --main [ARGS...]  the `aerolin` program alone (scripts/run.sh)
#   scripts/build.sh --plotter [ARGS...]
#                                      the program and its figure writer, aerolin-plot
#                                      (after scripts/install-deps.sh --plotter: MathGL
#                                      and librsvg, which --main does without)
# ARGS go to cmake's configure step, e.g. -DAEROLIN_SANITIZE=ON.
#
# Both configure the same ./build with every switch given explicitly, since a
# CMake cache keeps what the previous configuration set: after --main, the
# full build turns the tests and the rest back on, and reuses the objects
# already compiled (both compile position-independent code, which the Python
# module needs, so the flags of the shared libraries' objects are the same).
set -euo pipefail
cd "$(dirname "$0")/.."
main=0
targets=(aerolin)
if [ "${1:-}" = "--main" ]; then
  main=1
  shift
elif [ "${1:-}" = "--plotter" ]; then
  main=1
  targets=(aerolin aerolin-plot)
  shift
fi
# Ninja (Debian's ninja-build, installed by scripts/install-deps.sh) starts a
# module's sources as soon as their own inputs are ready, where make waits
# for each library before the next one's sources: both cores stay busy (make
# left them idle ~23 core-seconds of the first table's build, and spent
# seconds on its own dependency scans: docs/performance.md). A ./build that
# an earlier configure made with another generator keeps it (CMake refuses
# to switch a build folder's generator).
generator=()
if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
common=("${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DAEROLIN_BUILD_APPS=ON
        -DAEROLIN_FUZZ=OFF)
if [ "$main" = 1 ]; then
  cmake -S . -B build "${common[@]}" -DAEROLIN_BUILD_TESTS=OFF -DAEROLIN_BUILD_BENCHMARKS=OFF \
    -DAEROLIN_BUILD_PYTHON=OFF -DAEROLIN_BUILD_VIEWER=OFF "$@" >/dev/null
  cmake --build build -j "$(nproc)" --target "${targets[@]}"
else
  cmake -S . -B build "${common[@]}" -DAEROLIN_BUILD_TESTS=ON -DAEROLIN_BUILD_BENCHMARKS=ON \
    -DAEROLIN_BUILD_PYTHON=ON -DAEROLIN_BUILD_VIEWER=ON "$@" >/dev/null
  cmake --build build -j "$(nproc)"
fi
