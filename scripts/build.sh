#!/usr/bin/env bash
# Configures and builds aerolin into ./build (binaries in ./build/bin).
# Extra arguments go to cmake's configure step, e.g. -DAEROLIN_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"
