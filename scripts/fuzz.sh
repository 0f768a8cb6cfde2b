#!/usr/bin/env bash
# Builds the fuzz harnesses (fuzz/) with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer, and runs each for SECONDS (default 600).
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     (harnesses: aircraft_loader pilot_script avl_st
#                                               coefficients avl_mass flight_record disturbance)
# Needs Debian's clang and libclang-rt-14-dev (libFuzzer). Each run grows
# build-fuzz/corpus/<harness> (seeded from fuzz/corpus/<harness>); a crash
# input is written to build-fuzz/crash-<harness>-*: copy it into
# fuzz/crashes/<harness>/ with the fix, so the normal build replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(aircraft_loader pilot_script avl_st coefficients avl_mass flight_record disturbance)
jobs=${FUZZ_BUILD_JOBS:-2}
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DAEROLIN_FUZZ=ON -DAEROLIN_PRECOMPILE_HEADERS=OFF \
  -DAEROLIN_BUILD_TESTS=OFF -DAEROLIN_BUILD_BENCHMARKS=OFF -DAEROLIN_BUILD_APPS=OFF \
  -DAEROLIN_BUILD_VIEWER=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target "${harnesses[@]/%/_fuzz}"
status=0
for h in "${harnesses[@]}"; do
  mkdir -p "build-fuzz/corpus/$h"
  echo "== $h: ${seconds} s" >&2
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: memory.
  "build-fuzz/bin/${h}_fuzz" "build-fuzz/corpus/$h" "fuzz/corpus/$h" "fuzz/crashes/$h" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="build-fuzz/crash-$h-" -print_final_stats=1 \
    2>&1 | tee "build-fuzz/$h.log" | grep -E "^#[0-9]+ +(INITED|DONE)|^(stat::|==|SUMMARY)" || true
  grep -q "^Done [0-9]* runs" "build-fuzz/$h.log" || { echo "$h: FAILED (see build-fuzz/$h.log)" >&2; status=1; }
done
exit $status
