#!/usr/bin/env bash
# The layering check can fail: on a tree with one wrong-way include of each
# kind it exits 1 and names each file; on a clean tree it exits 0.
#   layering_selftest.sh CHECK_SCRIPT WORK_DIR
set -euo pipefail
check=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
cd "$work"
mkdir -p src/sim src/analysis src/pilot include/aerolin/core tests/analysis tests/cli tests/sim
echo '#include "aerolin/core/units.hpp"' > src/sim/ok.cpp
echo '#include "aerolin/core/units.hpp"' > tests/sim/ok_test.cpp
echo '#include "aerolin/data/load_aircraft.hpp"' > tests/analysis/fixture_test.cpp
"$check" "$work" > clean.out || { cat clean.out; echo "FAIL: clean tree rejected"; exit 1; }
echo '#include "aerolin/analysis/modes.hpp"' > src/sim/sibling.cpp
echo '#include "aerolin/export/plot.hpp"' > src/pilot/upward.cpp
echo '#include "aerolin/sim/flight.hpp"' > tests/analysis/sibling_test.cpp
echo '#include "aerolin/core/units.hpp"' > tests/cli/module_test.cpp
echo '#include <toml++/toml.hpp>' > src/analysis/toml.cpp
if "$check" "$work" > bad.out; then cat bad.out; echo "FAIL: bad tree accepted"; exit 1; fi
for f in src/sim/sibling.cpp src/pilot/upward.cpp tests/analysis/sibling_test.cpp \
         tests/cli/module_test.cpp src/analysis/toml.cpp; do
  grep -q "^$f:" bad.out || { cat bad.out; echo "FAIL: $f not reported"; exit 1; }
done
! grep -qE '^(src/sim/ok.cpp|tests/sim/ok_test.cpp|tests/analysis/fixture_test.cpp):' bad.out ||
  { cat bad.out; echo "FAIL: a good file was reported"; exit 1; }
echo "layering selftest: ok"
