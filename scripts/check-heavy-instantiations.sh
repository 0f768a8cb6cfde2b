#!/usr/bin/env bash
# Fails (exit 1) when a source instantiates one of Eigen's heavy algorithms
# outside the one file that owns it. Each costs 7-16 s of a core at -O3 per
# file that instantiates it (docs/performance.md), and the first build of
# `aerolin` (scripts/run.sh) is the first thing a new user waits for:
#   Eigen::EigenSolver (real, general)   -> analysis::Eigenvalues / Decompose /
#                                           EigenpairsAsSolved (src/analysis/eigen.cpp)
#   Eigen::SelfAdjointEigenSolver        -> analysis::DecomposeSymmetric (the same file)
#   <unsupported/Eigen/MatrixFunctions>,
#   a matrix's .exp()                    -> core::MatrixExponential
#                                           (src/core/matrix_exponential.cpp)
#   a matrix's .eigenvalues()            -> analysis::Eigenvalues
# (A solver object's own .eigenvalues(), e.g. SelfAdjointEigenSolver's, is fine.)
#   scripts/check-heavy-instantiations.sh [ROOT]   (default: this repository)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "${1:-$here/..}" || exit 2
sources=$(find src apps python \( -name '*.cpp' -o -name '*.hpp' \) 2>/dev/null | sort)
[ -n "$sources" ] || { echo "check-heavy-instantiations: no sources under $(pwd)"; exit 2; }
status=0
report() {  # HITS (grep -n lines), what to use instead
  [ -n "$1" ] || return 0
  printf '%s\n' "$1" | sed "s|\$|\n  -> $2|"
  status=1
}
# shellcheck disable=SC2086
report "$(grep -HnE '(^|[^A-Za-z])(SelfAdjoint)?EigenSolver<' $sources | grep -v '^src/analysis/eigen.cpp:')" \
  "call analysis::Eigenvalues, Decompose, EigenpairsAsSolved or DecomposeSymmetric (aerolin/analysis/eigen.hpp)"
# shellcheck disable=SC2086
report "$(grep -HnE 'unsupported/Eigen/MatrixFunctions|[A-Za-z0-9_)]\.exp\(\)' $sources |
          grep -v '^src/core/matrix_exponential.cpp:' | grep -v 'array()\.exp()')" \
  "call core::MatrixExponential (aerolin/core/matrix_exponential.hpp)"
# A solver object's own .eigenvalues() is fine.
# shellcheck disable=SC2086
report "$(grep -HnE '[A-Za-z0-9_)]\.eigenvalues\(\)' $sources | grep -v '^src/analysis/eigen.cpp:' |
          grep -v 'Solver<' | grep -vE '(^|[^A-Za-z0-9_])(solver|eig|es|ges|saes)\.eigenvalues\(\)')" \
  "call analysis::Eigenvalues (aerolin/analysis/eigen.hpp)"
if [ $status -eq 0 ]; then
  echo "check-heavy-instantiations: each heavy Eigen algorithm in its own file"
fi
exit $status
