#!/usr/bin/env bash
# Installs the Debian packages aerolin needs; quiet and quick when all are present.
#   scripts/install-deps.sh            everything (scripts/test.sh): the programs, the
#                                      figures, the window, the Python module, the tests
#   scripts/install-deps.sh --main     the `aerolin` program alone (scripts/run.sh)
#   scripts/install-deps.sh --plotter  the program and its figure writer, aerolin-plot
#                                      (scripts/build.sh --plotter)
set -euo pipefail
main=(
  build-essential cmake ninja-build pkg-config
  libfmt-dev
  libeigen3-dev liblapacke-dev libboost-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
)
figures=(libmgl-dev librsvg2-dev libpng-dev fonts-dejavu-core)
rest=(
  libgtest-dev libgmock-dev libbenchmark-dev
  libsfml-dev libgl-dev libx11-dev
  poppler-utils
  xvfb xauth xdotool procps
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib
  python3-scipy python3-distributed
)
case "${1:-}" in
  --main) packages=("${main[@]}") ;;
  --plotter) packages=("${main[@]}" "${figures[@]}") ;;
  "") packages=("${main[@]}" "${figures[@]}" "${rest[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [--main | --plotter]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
