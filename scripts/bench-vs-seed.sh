#!/usr/bin/env bash
# Per-slice solver cost of aerolin (RK45 and exact) vs the seed's method
# (scipy solve_ivp RK45 per 0.1 s slice, ../shared/peers/seed_headless.py) on
# the same scenarios, in one run. Prints each mean and the ratio.
#
#   scripts/bench-vs-seed.sh [BUILD_DIR]      (default: build)
#
# aerolin's figure is `aerolin simulate --json`'s slice_cost_us.mean (wall time
# of each Slicer::Advance call, the seed's own measure); the seed's is
# seed_headless.py's slice_wall_mean_ms. Both are repeated 3× and the best
# mean is kept, because the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
aerolin="$build/bin/aerolin"
peers=${AEROLIN_PEERS_DIR:-../shared/peers}
[ -d "$peers" ] || peers=/work/shared/peers
python=/usr/bin/python3
[ -x "$aerolin" ] || { echo "bench-vs-seed: build $aerolin first" >&2; exit 2; }
[ -f "$peers/seed_headless.py" ] || { echo "bench-vs-seed: no $peers/seed_headless.py" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best() { sort -g | head -1; }

run_scenario() {
  local script=$1 duration=$2
  [ -f "$script" ] || return 0
  local name; name=$(basename "$script" .txt)
  local rk ex seed
  rk=$(for i in 1 2 3; do
         "$aerolin" simulate data/derivatives/p2v7.toml --script "$script" \
           --duration "$duration" --json |
           "$python" -c 'import json,sys; print(json.load(sys.stdin)["slice_cost_us"]["mean"])'
       done | best)
  ex=$(for i in 1 2 3; do
         "$aerolin" simulate data/derivatives/p2v7.toml --script "$script" \
           --duration "$duration" --integrator exact --json |
           "$python" -c 'import json,sys; print(json.load(sys.stdin)["slice_cost_us"]["mean"])'
       done | best)
  seed=$(for i in 1 2 3; do
           "$python" "$peers/seed_headless.py" --script "$script" --duration "$duration" \
             --out "$tmp/seed.csv" --timing-json "$tmp/seed.json" >/dev/null
           "$python" -c 'import json,sys; print(1e3*json.load(open(sys.argv[1]))["slice_wall_mean_ms"])' "$tmp/seed.json"
         done | best)
  "$python" - "$name" "$duration" "$rk" "$ex" "$seed" <<'PY'
import sys
name, dur, rk, ex, seed = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print(f"{name} ({dur} s, {round(float(dur)/0.1)} slices of 0.1 s): "
      f"seed solve_ivp RK45 {seed:.1f} us/slice | aerolin rk45 {rk:.3f} us/slice "
      f"({seed/rk:.0f}x faster) | aerolin exact {ex:.3f} us/slice ({seed/ex:.0f}x faster)")
PY
}

echo "host: $(nproc) cores, $(uname -m); best of 3 runs each"
run_scenario "$peers/scenarios/a_elevator_doublet.txt" 60
run_scenario "$peers/scenarios/b_aileron_then_rudder.txt" 60
run_scenario "$peers/scenarios/c_random_pilot_600s.txt" 600
