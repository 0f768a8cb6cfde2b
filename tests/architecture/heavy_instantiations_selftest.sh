#!/usr/bin/env bash
# The heavy-instantiation check can fail: a tree with one defect of each kind
# makes it exit 1 naming each line; the same tree without them passes.
#   heavy_instantiations_selftest.sh CHECK_SCRIPT WORK_DIR
set -euo pipefail
check=$1 work=$2
rm -rf "$work"; mkdir -p "$work/src/analysis" "$work/src/core" "$work/src/study"
cd "$work"
# Allowed: the owners, a solver object's own eigenvalues, an element-wise exp.
echo 'const Eigen::EigenSolver<Eigen::MatrixXd> solver(A, true);' > src/analysis/eigen.cpp
printf '#include <unsupported/Eigen/MatrixFunctions>\nreturn M.exp();\n' > src/core/matrix_exponential.cpp
printf 'auto r = solver.eigenvalues();\nauto e = x.array().exp();\n' > src/study/fine.cpp
"$check" "$work" > clean.out || { cat clean.out; echo "FAIL: clean tree rejected"; exit 1; }
printf 'const Eigen::EigenSolver<Eigen::MatrixXd> es(A);\n' > src/study/solver.cpp
printf 'const Eigen::MatrixXd E = (M * h).exp();\n' > src/study/exp.cpp
printf 'auto r = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(R).eigenvalues();\n' > src/study/symmetric.cpp
printf 'const Eigen::VectorXcd v = m.A.eigenvalues();\n' > src/study/values.cpp
if "$check" "$work" > bad.out; then cat bad.out; echo "FAIL: defects accepted"; exit 1; fi
for hit in src/study/solver.cpp:1: src/study/exp.cpp:1: src/study/values.cpp:1: src/study/symmetric.cpp:1:; do
  grep -q "^$hit" bad.out || { cat bad.out; echo "FAIL: $hit not named"; exit 1; }
done
echo "heavy_instantiations_selftest: ok"
