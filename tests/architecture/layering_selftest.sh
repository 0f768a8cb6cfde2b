#!/usr/bin/env bash
# The layering check can fail: on a tree with one defect of each kind it exits
# 1 and names each file; on a clean tree it exits 0. The tree is checked
# against this repository's layer table (cmake/aerolin_layers.txt).
#   layering_selftest.sh CHECK_SCRIPT WORK_DIR
set -euo pipefail
check=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
cd "$work"
mkdir -p src/sim src/analysis src/pilot src/export src/viz include/aerolin/core include/aerolin/export \
         tests/analysis tests/cli tests/sim apps/aerolin
echo '#include "aerolin/core/units.hpp"' > src/sim/ok.cpp
echo '#include <aerolin/core/units.hpp>' > src/sim/ok_angle.cpp
echo 'target_link_libraries(aerolin_sim PUBLIC aerolin_core PRIVATE fmt::fmt)' > src/sim/CMakeLists.txt
echo '#include <nlohmann/json.hpp>' > src/export/ok_json.cpp
printf 'add_library(aerolin_export STATIC ok_json.cpp)\ntarget_link_libraries(aerolin_export\n  PRIVATE nlohmann_json::nlohmann_json)  # a comment\n' \
  > src/export/CMakeLists.txt
echo '#include "aerolin/core/units.hpp"' > tests/sim/ok_test.cpp
echo '#include "aerolin/data/load_aircraft.hpp"' > tests/analysis/fixture_test.cpp
good='src/sim/ok.cpp src/sim/ok_angle.cpp src/sim/CMakeLists.txt src/export/ok_json.cpp
      src/export/CMakeLists.txt tests/sim/ok_test.cpp tests/analysis/fixture_test.cpp'
"$check" "$work" > clean.out || { cat clean.out; echo "FAIL: clean tree rejected"; exit 1; }

# One defect a file.
echo '#include "aerolin/analysis/modes.hpp"' > src/sim/sibling.cpp
echo '#include "aerolin/export/plot.hpp"' > src/pilot/upward.cpp
echo '#include <aerolin/viz/camera.hpp>' > src/pilot/angle.cpp             # angle brackets
echo '#include "../analysis/modes.hpp"' > src/sim/relative.cpp             # ../
echo '#include "aerolin/sim/flight.hpp"' > tests/analysis/sibling_test.cpp
echo '#include <aerolin/sim/flight.hpp>' > tests/analysis/angle_test.cpp   # angle brackets
echo '#include "aerolin/core/units.hpp"' > tests/cli/module_test.cpp
echo '#include <toml++/toml.hpp>' > src/analysis/toml.cpp
echo '#include <nlohmann/json.hpp>' > src/analysis/json.cpp                 # json outside export
echo '#include <nlohmann/json.hpp>' > include/aerolin/export/public_json.hpp  # json in a public header
echo '#include <mgl2/mgl.h>' > src/viz/figure.cpp                          # MathGL outside export
# Link edges: a sibling, a stale one, a library for a target not allowed it,
# and a folder whose includes its links do not reach.
echo 'target_link_libraries(aerolin_analysis PUBLIC aerolin_sim)' > src/analysis/CMakeLists.txt
echo 'target_link_libraries(aerolin_pilot PUBLIC aerolin_analysis aerolin_export)' > src/pilot/CMakeLists.txt
echo 'target_link_libraries(aerolin_cli PUBLIC CLI11::CLI11 nlohmann_json::nlohmann_json)' > apps/aerolin/CMakeLists.txt
echo '#include "aerolin/sim/flight.hpp"' > src/viz/session.cpp
echo 'target_link_libraries(aerolin_viz PUBLIC aerolin_export)' > src/viz/CMakeLists.txt
if "$check" "$work" > bad.out; then cat bad.out; echo "FAIL: bad tree accepted"; exit 1; fi
expect() {  # file, text its report holds
  grep -F "$1:" bad.out | grep -qF "$2" || { cat bad.out; echo "FAIL: $1 not reported ($2)"; exit 1; }
}
expect src/sim/sibling.cpp 'a sibling of sim/'
expect src/pilot/upward.cpp 'above pilot/'
expect src/pilot/angle.cpp 'includes viz/'
expect src/sim/relative.cpp '../'
expect tests/analysis/sibling_test.cpp 'not below analysis/'
expect tests/analysis/angle_test.cpp 'not below analysis/'
expect tests/cli/module_test.cpp 'includes no aerolin module'
expect src/analysis/toml.cpp 'toml++'
expect src/analysis/json.cpp 'nlohmann-json'
expect include/aerolin/export/public_json.hpp 'nlohmann-json'
expect src/viz/figure.cpp 'MathGL'
expect src/analysis/CMakeLists.txt 'links aerolin_sim (sim/ is not below analysis/'
expect src/pilot/CMakeLists.txt 'links aerolin_analysis, but no file of src/pilot includes analysis/ (a stale edge)'
expect apps/aerolin/CMakeLists.txt 'links nlohmann_json::nlohmann_json (nlohmann-json), allowed only for aerolin_export'
expect src/viz/CMakeLists.txt 'include sim/, but no target there links it'
for f in $good; do
  ! grep -q "^$f:" bad.out || { cat bad.out; echo "FAIL: a good file was reported: $f"; exit 1; }
done
echo "layering selftest: ok"
