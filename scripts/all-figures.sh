#!/usr/bin/env bash
# Makes every figure a user can ask for (plot's four of an elevator doublet
# and of an aileron-then-rudder script, bode, qualities, sweep and locus with
# --plot) for every bundled aircraft, at the default size and at 800x600,
# into one folder, to be looked at (docs/figures.md, "Checked").
#
#   scripts/all-figures.sh [OUTDIR] [BUILD_DIR]     # default out/all-figures build
#
# Files: OUTDIR/<size>/<aircraft>_<kind>_<figure>.png, <size> "default" or
# "800x600". Needs aerolin and aerolin-plot built
# (cmake --build build --target aerolin aerolin-plot). Stops at the first
# command that fails, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/all-figures}
build=${2:-build}
cli="$build/bin/aerolin"
for tool in "$cli" "$build/bin/aerolin-plot"; do
  [[ -x $tool ]] || { echo "error: $tool is not built (cmake --build $build --target aerolin aerolin-plot)" >&2; exit 2; }
done

# The sweep's key and range per aircraft: the yaw damping derivative from
# its value to several times it, as written in each file's form.
sweep_args() {
  case "$1" in
    *_coefficients.toml) echo "--param lateral.Cnr --from $(value "$1" Cnr) --to $(times "$1" Cnr 6)" ;;
    *b737.toml) echo "--param condition.U0 --from 150 --to 250" ;;
    *) echo "--param lateral.Nr --from $(value "$1" Nr) --to $(times "$1" Nr 6)" ;;
  esac
}
value() { sed -n "s/^$2 *= *\([-0-9.e]*\).*/\1/p" "$1" | head -1; }
times() { awk -v v="$(value "$1" "$2")" -v k="$3" 'BEGIN { printf "%.6g", v * k }'; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() {
  if ! "$@" > "$log" 2>&1; then
    cat "$log" >&2
    echo "error: failed: $*" >&2
    exit 1
  fi
}

files=(data/derivatives/*.toml data/avl/b737.toml)
for size in default 800x600; do
  dir="$out/$size"
  mkdir -p "$dir"
  geometry=()
  [[ $size == default ]] || geometry=(--width 800 --height 600)
  for file in "${files[@]}"; do
    name=$(basename "$file" .toml)
    p="$dir/$name"
    run "$cli" plot "$file" --script examples/scripts/a_elevator_doublet.txt --duration 60 \
        --vertical-exaggeration 30 --out "${p}_elevator" "${geometry[@]}"
    run "$cli" plot "$file" --script examples/scripts/b_aileron_then_rudder.txt --duration 30 \
        --out "${p}_aileron_rudder" "${geometry[@]}"
    run "$cli" bode "$file" --input elevator --output q,theta --plot "${p}_elevator" "${geometry[@]}"
    run "$cli" bode "$file" --input aileron --output phi,p --plot "${p}_aileron" "${geometry[@]}"
    run "$cli" bode "$file" --input rudder --output beta,r --plot "${p}_rudder" "${geometry[@]}"
    run "$cli" qualities "$file" --plot "${p}_qualities" "${geometry[@]}"
    # shellcheck disable=SC2046  # the key and range are separate words
    run "$cli" sweep "$file" $(sweep_args "$file") --steps 60 --plot "${p}_sweep" "${geometry[@]}"
    yaw_gain=0:3:61
    [[ $file == *b737.toml ]] && yaw_gain=-3:0:61  # its N'dr > 0: K < 0 damps
    run "$cli" locus "$file" --loop rudder:r --washout 1.5 --gain "$yaw_gain" \
        --maximize dutch-roll --plot "${p}_yaw" "${geometry[@]}"
    run "$cli" locus "$file" --loop elevator:q --gain 0:3:31 --plot "${p}_pitch" "${geometry[@]}"
  done
done
find "$out" -name '*.png' | wc -l | xargs echo "figures written under $out:"
