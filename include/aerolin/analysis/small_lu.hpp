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

/// A PartialPivLU<Matrix> (Scalar double or std::complex<double>) whose
/// compute() skips the 1-norm and, for a complex Matrix, the hypot calls of
/// the pivot search.
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
    const auto swaps = Factor(this->m_lu, this->m_rowsTranspositions);
    this->m_det_p = swaps % 2 ? -1 : 1;
    this->m_p = this->m_rowsTranspositions;
    this->m_isInitialized = true;
  }

  using Base::adjoint;
  using Base::matrixLU;
  using Base::permutationP;
  using Base::solve;

 private:
  static constexpr bool kComplex = std::is_same_v<Scalar, std::complex<double>>;
  static_assert(kComplex || std::is_same_v<Scalar, double>, "SmallLu is for double and std::complex<double>");

  // |a| > |b| as Eigen's pivot search decides it (std::abs; for a complex
  // pair from the squared moduli, core::ModulusGreater).
  static bool Greater(Scalar a, Scalar b) {
    if constexpr (kComplex)
      return core::ModulusGreater(a, b);
    else
      return std::abs(a) > std::abs(b);
  }
  // a / p as Eigen's vectorized quotient forms it: for a complex p,
  // pdiv<Packet1cd>: a·conj(p) by pmul over the squared modulus (summed in
  // either lane's order: the same value).
  static Scalar Quotient(Scalar a, Scalar p) {
    if constexpr (kComplex) {
      const double br = p.real(), bi = -p.imag(), den = br * br + bi * bi;
      return {(a.real() * br + -(a.imag() * bi)) / den, (a.real() * bi + a.imag() * br) / den};
    } else {
      return a / p;
    }
  }
  // c − r·a as the outer product's update forms it (pmul<Packet1cd>(r, a),
  // then psub, for complex operands).
  static Scalar Update(Scalar c, Scalar r, Scalar a) {
    if constexpr (kComplex)
      return {c.real() - (r.real() * a.real() + -(r.imag() * a.imag())),
              c.imag() - (r.real() * a.imag() + r.imag() * a.real())};
    else
      return c - r * a;
  }

  // Eigen 3.4's partial_lu_impl::unblocked_lu, step by step: column k's
  // pivot is its first entry of largest |·| at or below the diagonal; where
  // it is not 0 the rows swap and the column below the diagonal is divided
  // by it; the trailing block is updated whatever the pivot (a zero column
  // subtracts signed zeros, as Eigen's). Returns the number of row swaps.
  static typename Base::TranspositionType::StorageIndex Factor(Matrix& lu,
                                                               typename Base::TranspositionType& transpositions) {
    using Index = typename Base::TranspositionType::StorageIndex;
    const Eigen::Index n = lu.rows();
    Index swaps = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::Index p = k;
      for (Eigen::Index i = k + 1; i < n; ++i)
        if (Greater(lu(i, k), lu(p, k))) p = i;
      transpositions.coeffRef(k) = static_cast<Index>(p);
      if (lu(p, k) != Scalar(0.0)) {
        if (p != k) {
          lu.row(k).swap(lu.row(p));
          ++swaps;
        }
        const Scalar pivot = lu(k, k);
        for (Eigen::Index i = k + 1; i < n; ++i) lu(i, k) = Quotient(lu(i, k), pivot);
      }
      for (Eigen::Index j = k + 1; j < n; ++j)
        for (Eigen::Index i = k + 1; i < n; ++i) lu(i, j) = Update(lu(i, j), lu(k, j), lu(i, k));
    }
    return swaps;
  }
};

}  // namespace aerolin::analysis
