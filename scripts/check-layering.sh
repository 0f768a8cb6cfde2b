#!/usr/bin/env bash
# Fails (exit 1) on anything that breaks aerolin's one-way module rule, as the
# layer table cmake/aerolin_layers.txt writes it (the one place it is written;
# CMake reads it too):
#   core <- model <- {data, analysis, sim} <- pilot <- study <- export <- viz <- apps
#
# - #include "aerolin/M/..." or <aerolin/M/...> in src/ and include/aerolin/:
#   a module includes only modules of a lower layer; siblings (same layer)
#   never include each other; a module not in the table fails too.
# - Tests follow the rule of the module they test: tests/<m>/ includes <m> and
#   modules below it, plus `data` to load the bundled aircraft files (a
#   fixture, not a dependency of the code under test); tests/cli includes no
#   module (it runs the built programs).
# - No #include climbs out of its folder with ../ (src, include, apps, python,
#   tests): a module is named, so the rule above can see it.
# - A third-party library of the table (toml++, odeint, nlohmann-json, MathGL,
#   SFML) is included only where the table allows (never in a public header
#   unless it says so). The Python bindings (python/) sit beside apps: they may
#   include any module, and this rule covers them too.
# - target_link_libraries in src/*/, apps/*/ and python/CMakeLists.txt: every
#   target is in the table; a module target links only modules of a lower
#   layer, and only ones its files include (no stale edge); a library of the
#   table only from the targets it names, and only where its files include it;
#   every module a folder's files include is reachable through its links.
#
#   scripts/check-layering.sh [ROOT]     (default: this repository)
# The table is this repository's (AEROLIN_LAYERS=FILE overrides it), so the
# selftest can check a small tree of its own.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
table=${AEROLIN_LAYERS:-$here/../cmake/aerolin_layers.txt}
[ -r "$table" ] || { echo "check-layering: no layer table at $table"; exit 2; }
cd "${1:-$here/..}" || exit 2

declare -A layer_of module_of_target lib_include lib_link lib_paths lib_targets
modules=() libraries=()
while read -r kind f1 f2 f3 f4 f5 rest; do
  case "$kind" in
    module)
      layer_of[$f2]=$f1 modules+=("$f2")
      for t in $f3 $f4 $f5 $rest; do module_of_target[$t]=$f2; done ;;
    library)
      libraries+=("$f1")
      lib_include[$f1]=$f2 lib_link[$f1]=$f3 lib_paths[$f1]=$f4 lib_targets[$f1]=" $f5 $rest " ;;
  esac
done < "$table"

rank() { echo "${layer_of[$1]:-9}"; }
# The rule as the table writes it: "core <- model <- {data, analysis, sim} <- ...".
rule=$(for m in "${modules[@]}"; do echo "${layer_of[$m]} $m"; done | sort -n -s -k1,1 |
  awk '$1 != last { if (NR > 1) flush(); last = $1; n = 0 } { names[n++] = $2 }
       function flush(  s, i) { s = names[0]; for (i = 1; i < n; i++) s = s ", " names[i]
                                 out = out (out == "" ? "" : " <- ") (n > 1 ? "{" s "}" : s) }
       END { flush(); print out }')
status=0
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*'
# The modules a file includes, one a line.
modules_included() { grep -hoE "${include_re}[<\"]aerolin/[a-z_]+/" "$@" 2>/dev/null | sed -E 's/.*aerolin\/([a-z_]+)\//\1/'; }

for file in $( (find src -name '*.hpp' -o -name '*.cpp'; find include/aerolin -name '*.hpp') 2>/dev/null | sort); do
  case "$file" in
    include/*) module=$(echo "$file" | cut -d/ -f3) ;;
    *) module=$(echo "$file" | cut -d/ -f2) ;;
  esac
  mrank=$(rank "$module")
  while IFS= read -r line; do
    target=$(echo "$line" | sed -E "s/${include_re}[<\"]aerolin\/([a-z_]+)\/.*/\1/")
    [ "$target" = "$module" ] && continue
    trank=$(rank "$target")
    # Equal rank is a sibling (or an unknown module, rank 9): never allowed.
    if [ "$trank" -ge "$mrank" ]; then
      if [ "$trank" -eq "$mrank" ]; then why="a sibling of $module/"; else why="above $module/"; fi
      echo "$file: includes $target/ ($why; rule: $rule): $line"
      status=1
    fi
  done < <(grep -E "${include_re}[<\"]aerolin/[a-z_]+/" "$file")
done
for file in $(find tests -name '*.hpp' -o -name '*.cpp' 2>/dev/null | sort); do
  module=$(echo "$file" | cut -d/ -f2)
  if [ "$module" = cli ]; then
    if grep -qE "${include_re}[<\"]aerolin/" "$file"; then
      echo "$file: tests/cli runs the built programs and includes no aerolin module"
      status=1
    fi
    continue
  fi
  mrank=$(rank "$module")
  while IFS= read -r line; do
    target=$(echo "$line" | sed -E "s/${include_re}[<\"]aerolin\/([a-z_]+)\/.*/\1/")
    [ "$target" = "$module" ] && continue
    [ "$target" = data ] && [ "$mrank" -ge 2 ] && [ "$mrank" -lt 9 ] && continue
    trank=$(rank "$target")
    if [ "$trank" -ge "$mrank" ]; then
      echo "$file: includes $target/, not below $module/ (tests of a module include it and modules to its left, or data for fixtures): $line"
      status=1
    fi
  done < <(grep -E "${include_re}[<\"]aerolin/[a-z_]+/" "$file")
done

# ../ hides which module a file includes.
while IFS=: read -r file _ line; do
  echo "$file: includes with ../ (name the module: #include \"aerolin/<module>/...\"): $line"
  status=1
done < <(grep -rnE "${include_re}[<\"]([^>\"]*/)?\.\./" src include apps python tests 2>/dev/null | sort)

for lib in "${libraries[@]}"; do
  paths=${lib_paths[$lib]}
  for h in $(grep -rlE "${include_re}${lib_include[$lib]}" src include apps python 2>/dev/null | grep -vE "$paths" | sort); do
    echo "$h: includes $lib, allowed only in $(echo "$paths" | tr -d '^$')"
    status=1
  done
done

# Link edges. A folder with a CMakeLists.txt is a unit: its module and files.
unit_module() {
  case "$1" in src/*) echo "${1#src/}" ;; apps/*) echo apps ;; *) echo python ;; esac
}
unit_files() {  # the sources and headers of unit folder $1
  local dirs=$1
  [[ $1 == src/* ]] && dirs="$1 include/aerolin/${1#src/}"
  for d in $dirs; do [ -d "$d" ] && find "$d" -name '*.hpp' -o -name '*.cpp'; done | sort
}
# The target_link_libraries calls of a CMakeLists.txt, one a line, comments out.
link_calls() { sed -E 's/#.*$//' "$1" | tr '\n' ' ' | grep -oE 'target_link_libraries\([^)]*\)' | tr -s ' '; }

declare -A edges unit_targets unit_included
dirs=$(for cm in src/*/CMakeLists.txt apps/*/CMakeLists.txt python/CMakeLists.txt; do
         [ -f "$cm" ] && dirname "$cm"; done)
for dir in $dirs; do
  cm=$dir/CMakeLists.txt
  files=$(unit_files "$dir")
  included=" $( [ -n "$files" ] && modules_included $files | sort -u | tr '\n' ' ')"
  unit_included[$dir]=$included
  while read -r call; do
    read -r -a words <<<"$(echo "$call" | sed -E 's/^target_link_libraries\( *//; s/ *\)$//')"
    tgt=${words[0]}
    unit_targets[$dir]+=" $tgt"
    if [ -z "${module_of_target[$tgt]:-}" ]; then
      echo "$cm: target $tgt is not in the layer table (cmake/aerolin_layers.txt)"
      status=1
      continue
    fi
    tmod=${module_of_target[$tgt]}
    for item in "${words[@]:1}"; do
      case "$item" in PUBLIC|PRIVATE|INTERFACE) continue ;; esac
      name=$item
      [[ $name == aerolin::* && $name != aerolin::aerolin ]] && name=aerolin_${name#aerolin::}
      if [ "$name" = aerolin::aerolin ]; then  # the umbrella: every exported module
        edges[$tgt]+=" $name"
        continue
      fi
      if [ -n "${module_of_target[$name]:-}" ]; then
        edges[$tgt]+=" $name"
        nmod=${module_of_target[$name]}
        [ "$nmod" = "$tmod" ] && continue
        if [ "$(rank "$nmod")" -ge "$(rank "$tmod")" ]; then
          echo "$cm: $tgt links $item ($nmod/ is not below $tmod/; rule: $rule)"
          status=1
        elif [[ $included != *" $nmod "* ]]; then
          echo "$cm: $tgt links $item, but no file of $dir includes $nmod/ (a stale edge)"
          status=1
        fi
        continue
      fi
      for lib in "${libraries[@]}"; do
        [ "${lib_link[$lib]}" = - ] && continue
        echo "$item" | grep -qE "${lib_link[$lib]}" || continue
        if [[ ${lib_targets[$lib]} != *" $tgt "* ]]; then
          echo "$cm: $tgt links $item ($lib), allowed only for$(echo "${lib_targets[$lib]}" | sed -E 's/ +$//')"
          status=1
        elif [ -z "$files" ] || ! grep -qE "${include_re}${lib_include[$lib]}" $files; then
          echo "$cm: $tgt links $item ($lib), but no file of $dir includes it (a stale edge)"
          status=1
        fi
      done
    done
  done < <(link_calls "$cm")
done

# Every module a unit includes is reachable through its targets' links.
reach() {  # the modules reachable from targets $@, one a line
  local -A seen=()
  local queue=("$@") t n
  while [ ${#queue[@]} -gt 0 ]; do
    t=${queue[0]}; queue=("${queue[@]:1}")
    [ -n "${seen[$t]:-}" ] && continue
    seen[$t]=1
    if [ "$t" = aerolin::aerolin ]; then
      for n in "${!module_of_target[@]}"; do [ "$(rank "${module_of_target[$n]}")" -lt "$(rank viz)" ] && queue+=("$n"); done
      continue
    fi
    echo "${module_of_target[$t]:-}"
    for n in ${edges[$t]:-}; do queue+=("$n"); done
  done
}
for dir in $dirs; do
  [ -n "${unit_targets[$dir]:-}" ] || continue
  reachable=" $(reach ${unit_targets[$dir]} | sort -u | tr '\n' ' ')"
  umod=$(unit_module "$dir")
  for m in ${unit_included[$dir]}; do
    # A wrong-way include is reported above; a lower module must be linked.
    [ -n "${layer_of[$m]:-}" ] && [ "$(rank "$m")" -lt "$(rank "$umod")" ] || continue
    if [[ $reachable != *" $m "* ]]; then
      echo "$dir/CMakeLists.txt: files of $dir include $m/, but no target there links it, even through other modules"
      status=1
    fi
  done
done

[ $status -eq 0 ] && echo "layering: ok"
exit $status
