#pragma once
/// @file
/// LU factorization with partial pivoting of a small matrix, for the
/// inverse iterations of root refinement (root_refinement.cpp): Eigen's
/// PartialPivLU to the bit, without what those iterations do not use.
///  - No 1-norm of the matrix: PartialPivLU::compute() takes it for rcond()
///    (n² hypot calls for a complex matrix); rcond() is not offered here.
///  - The factorization is Eigen 3.4's unblocked LU (the one it runs up to
///    16 rows) written out: Eigen's generic blocks cost ~4× the arithmetic
///    on a 4×4. Its pivot is the first entry of largest |·| in the column;
///    for a complex matrix core::ModulusGreater makes those decisions from
///    the squared moduli, without hypot. The arithmetic is Eigen's SSE2
///    packets': the quotient by a complex pivot p as a·conj(p)/(Re² p +
///    Im² p), the update as c − r·a with the plain product, no fused
///    multiply-add.
/// The solves are PartialPivLU's own (solve, adjoint().solve).
/// tests/analysis/small_lu_test.cpp compares every factor, pivot and solve
/// with PartialPivLU's bit for bit; a build whose Eigen vectorizes complex
/// arithmetic otherwise (AVX or FMA: -march=native) fails it, and the
/// factorization must then follow Eigen's again.

#include <Eigen/LU>
#include <cmath>
#include <complex>
#include <type_traits>

#include "aerolin/core/complex_arithmetic.hpp"

namespace aerolin::analysis {

/// A PartialPivLU<Matrix> whose compute() skips the 1-norm (and, for a
/// complex Matrix, the hypot calls of the pivot search).
template <class Matrix>
class SmallLu : private Eigen::PartialPivLU<Matrix> {
  using Base = Eigen::PartialPivLU<Matrix>;
  using Scalar = typename Matrix::Scalar;

 public:
  static_assert(Matrix::MaxRowsAtCompileTime != Eigen::Dynamic && Matrix::MaxRowsAtCompileTime <= 16,
                "SmallLu follows Eigen's unblocked LU, which Eigen runs up to 16 rows");

  explicit SmallLu(Eigen::Index n) : Base(n) {}

  void compute(const Matrix& a) {
    this->m_lu = a;
    this->m_rowsTranspositions.resize(a.rows());
    typename Base::TranspositionType::StorageIndex swaps = 0;
    if constexpr (std::is_same_v<Scalar, std::complex<double>>)
      swaps = FactorComplex(this->m_lu, this->m_rowsTranspositions);
    else if constexpr (std::is_same_v<Scalar, double>)
      swaps = FactorReal(this->m_lu, this->m_rowsTranspositions);
    else
      Eigen::internal::partial_lu_inplace(this->m_lu, this->m_rowsTranspositions, swaps);
    this->m_det_p = swaps % 2 ? -1 : 1;
    this->m_p = this->m_rowsTranspositions;
    this->m_isInitialized = true;
  }

  using Base::adjoint;
  using Base::matrixLU;
  using Base::permutationP;
  using Base::solve;

 private:
  // Eigen 3.4's partial_lu_impl::unblocked_lu on a real matrix, step by
  // step, without its generic blocks' overhead (~4x fewer instructions on a
  // 4×4): the first entry of largest |·| at or below the diagonal is the
  // pivot; where it is not 0 the rows swap and the column below it is
  // divided by it; the trailing block is updated as c − r·a whatever the pivot.
  static typename Base::TranspositionType::StorageIndex FactorReal(
      Matrix& lu, typename Base::TranspositionType& transpositions) {
    using Index = typename Base::TranspositionType::StorageIndex;
    const Eigen::Index n = lu.rows();
    Index swaps = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::Index p = k;
      double biggest = std::abs(lu(k, k));
      for (Eigen::Index i = k + 1; i < n; ++i)
        if (std::abs(lu(i, k)) > biggest) {
          biggest = std::abs(lu(i, k));
          p = i;
        }
      transpositions.coeffRef(k) = static_cast<Index>(p);
      if (biggest != 0.0) {
        if (p != k) {
          lu.row(k).swap(lu.row(p));
          ++swaps;
        }
        const double pivot = lu(k, k);
        for (Eigen::Index i = k + 1; i < n; ++i) lu(i, k) /= pivot;
      }
      for (Eigen::Index j = k + 1; j < n; ++j) {
        const double r = lu(k, j);
        for (Eigen::Index i = k + 1; i < n; ++i) lu(i, j) = lu(i, j) - r * lu(i, k);
      }
    }
    return swaps;
  }

  // Eigen 3.4's partial_lu_impl::unblocked_lu on a complex matrix, step by
  // step: column k's pivot is its first entry of largest modulus at or
  // below the diagonal; where it is not 0 the rows swap and the column
  // below the diagonal is divided by it; the trailing block is updated
  // whatever the pivot (a zero column subtracts signed zeros, as Eigen's).
  static typename Base::TranspositionType::StorageIndex FactorComplex(
      Matrix& lu, typename Base::TranspositionType& transpositions) {
    using cd = std::complex<double>;
    using Index = typename Base::TranspositionType::StorageIndex;
    const Eigen::Index n = lu.rows();
    Index swaps = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::Index p = k;
      for (Eigen::Index i = k + 1; i < n; ++i)
        if (core::ModulusGreater(lu(i, k), lu(p, k))) p = i;
      transpositions.coeffRef(k) = static_cast<Index>(p);
      if (lu(p, k) != cd(0.0)) {
        if (p != k) {
          lu.row(k).swap(lu.row(p));
          ++swaps;
        }
        // pdiv<Packet1cd>(a, pivot): a·conj(pivot) by pmul, over the
        // squared modulus summed in each lane's order (the same value).
        const double br = lu(k, k).real(), bi = -lu(k, k).imag();
        const double den = br * br + bi * bi;
        for (Eigen::Index i = k + 1; i < n; ++i) {
          const double ar = lu(i, k).real(), ai = lu(i, k).imag();
          lu(i, k) = cd((ar * br + -(ai * bi)) / den, (ar * bi + ai * br) / den);
        }
      }
      // The outer product's columns: c − r·a with r = lu(k, j), a = lu(i, k)
      // (pmul<Packet1cd>(r, a), then psub).
      for (Eigen::Index j = k + 1; j < n; ++j) {
        const double rr = lu(k, j).real(), ri = lu(k, j).imag();
        for (Eigen::Index i = k + 1; i < n; ++i) {
          const double ar = lu(i, k).real(), ai = lu(i, k).imag();
          const cd c = lu(i, j);
          lu(i, j) = cd(c.real() - (rr * ar + -(ri * ai)), c.imag() - (rr * ai + ri * ar));
        }
      }
    }
    return swaps;
  }
};

}  // namespace aerolin::analysis
