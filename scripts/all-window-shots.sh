#!/usr/bin/env bash
# Screenshots of aerolin-fly on every bundled aircraft at its default size
# and at 800x600, with each mode excited at the default amplitude and with
# moderate turbulence, to be looked at (docs/window.md, "Checked").
#
#   DISPLAY=:77 scripts/all-window-shots.sh [OUTDIR] [BUILD_DIR]   # default out/all-window build
#
# Files: OUTDIR/<size>/<aircraft>_<mode>.png. Each flight is short and fast
# (the slow modes at --time-scale 8), about 3 minutes in all.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/all-window}
build=${2:-build}
fly="$build/bin/aerolin-fly"
[[ -x $fly ]] || { echo "error: $fly is not built (cmake --build $build --target aerolin-fly)" >&2; exit 2; }
[[ -n ${DISPLAY:-} ]] || { echo "error: DISPLAY is not set (start Xvfb, e.g. Xvfb :77 &, then DISPLAY=:77)" >&2; exit 2; }

shot() {  # file size name args...
  local file=$1 size=$2 name=$3
  shift 3
  local geometry=()
  [[ $size == default ]] || geometry=(--width 800 --height 600)
  if ! "$fly" "$file" --no-log "${geometry[@]}" "$@" --screenshot "$out/$size/$name.png" > /dev/null 2>&1; then
    echo "error: failed: $fly $file ${geometry[*]} $*" >&2
    exit 1
  fi
}

for size in default 800x600; do
  mkdir -p "$out/$size"
  for file in data/derivatives/*.toml data/avl/b737.toml; do
    name=$(basename "$file" .toml)
    # The fast modes in their first seconds (the trail keeps the last 10 s).
    shot "$file" $size "${name}_short-period" --excite short-period --duration 2.5
    shot "$file" $size "${name}_dutch-roll" --excite dutch-roll --duration 3
    shot "$file" $size "${name}_roll" --excite roll --duration 2.5
    # The slow ones over most of a period, eight times faster than real time.
    shot "$file" $size "${name}_phugoid" --excite phugoid --duration 60 --time-scale 8
    shot "$file" $size "${name}_spiral" --excite spiral --duration 40 --time-scale 8
    shot "$file" $size "${name}_turbulence" --turbulence moderate --duration 8
  done
done
find "$out" -name '*.png' | wc -l | xargs echo "screenshots written under $out:"
