#!/usr/bin/env bash
# Fails (exit 1) on any #include that breaks aerolin's one-way module rule
#   core <- model <- {data, analysis, sim} <- pilot <- study <- export <- viz <- apps
# (a module includes only modules to its left; siblings in braces never
# include each other; a module unknown to this script fails too)
# or that uses a third-party library outside the module allowed to:
# toml++ only in src/data/*.cpp, odeint only in src/sim/*.cpp,
# SFML only in src/viz, include/aerolin/viz and apps/aerolin-fly.
# The Python bindings (python/) sit beside apps: they may include any module,
# and the third-party rule covers them too.
# Tests follow the rule of the module they test: tests/<m>/ includes <m> and
# modules to its left, plus `data` to load the bundled aircraft files (a
# fixture, not a dependency of the code under test); tests/cli includes no
# module (it runs the built programs).
#
#   scripts/check-layering.sh [ROOT]     (default: this repository)
set -uo pipefail
cd "${1:-$(dirname "$0")/..}"
rank() {
  case "$1" in
    core) echo 0 ;; model) echo 1 ;; data|analysis|sim) echo 2 ;;
    pilot) echo 3 ;; study) echo 4 ;; export) echo 5 ;; viz) echo 6 ;; *) echo 9 ;;
  esac
}
status=0
for file in $( (find src -name '*.hpp' -o -name '*.cpp'; find include/aerolin -name '*.hpp') | sort); do
  case "$file" in
    include/*) module=$(echo "$file" | cut -d/ -f3) ;;
    *) module=$(echo "$file" | cut -d/ -f2) ;;
  esac
  mrank=$(rank "$module")
  while IFS= read -r line; do
    target=$(echo "$line" | sed -E 's/^#include "aerolin\/([a-z_]+)\/.*/\1/')
    [ "$target" = "$line" ] && continue
    [ "$target" = "$module" ] && continue
    trank=$(rank "$target")
    # Equal rank is a sibling (or an unknown module, rank 9): never allowed.
    if [ "$trank" -ge "$mrank" ]; then
      if [ "$trank" -eq "$mrank" ]; then why="a sibling of $module/"; else why="above $module/"; fi
      echo "$file: includes $target/ ($why; rule: core <- model <- {data, analysis, sim} <- pilot <- study <- export <- viz <- apps): $line"
      status=1
    fi
  done < <(grep -E '^#include "' "$file")
done
for file in $(find tests -name '*.hpp' -o -name '*.cpp' | sort); do
  module=$(echo "$file" | cut -d/ -f2)
  if [ "$module" = cli ]; then
    if grep -qE '^#include "aerolin/' "$file"; then
      echo "$file: tests/cli runs the built programs and includes no aerolin module"
      status=1
    fi
    continue
  fi
  mrank=$(rank "$module")
  while IFS= read -r line; do
    target=$(echo "$line" | sed -E 's/^#include "aerolin\/([a-z_]+)\/.*/\1/')
    [ "$target" = "$line" ] && continue
    [ "$target" = "$module" ] && continue
    [ "$target" = data ] && [ "$mrank" -ge 2 ] && [ "$mrank" -lt 9 ] && continue
    trank=$(rank "$target")
    if [ "$trank" -ge "$mrank" ]; then
      echo "$file: includes $target/, not below $module/ (tests of a module include it and modules to its left, or data for fixtures): $line"
      status=1
    fi
  done < <(grep -E '^#include "' "$file")
done
check_only_in() {  # pattern, allowed path regex, library name
  local hits
  hits=$(grep -rlE "$1" src include apps python 2>/dev/null | grep -vE "$2" || true)
  for h in $hits; do
    echo "$h: includes $3, allowed only in $(echo "$2" | tr -d '^$')"
    status=1
  done
}
check_only_in '#include <toml\+\+' '^src/data/[a-z_]+\.cpp$' 'toml++'
check_only_in '#include <boost/numeric/odeint' '^src/sim/[a-z_]+\.cpp$' 'Boost.Odeint'
check_only_in '#include <SFML/' '^(src/viz/|include/aerolin/viz/|apps/aerolin-fly/)' 'SFML'
[ $status -eq 0 ] && echo "layering: ok"
exit $status
