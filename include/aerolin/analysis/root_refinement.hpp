#pragma once
/// @file
/// The roots of A(p) at the next point of a sweep or locus refined from those
/// at the point before, instead of a full eigen-decomposition: each root
/// (one of each conjugate pair) by Rayleigh-quotient inverse iteration from
/// its prediction λ + h·dλ/dp and its previous right vector, with the left
/// vector and the slope from the last iteration's LU. A strict acceptance
/// test decides whether the result may stand for the eigen-solve; where it
/// fails the caller solves A in full (AnalyzeRoots), so a refined point is
/// never less certain than a solved one.
///
/// Accepted when, with ‖A‖ the Frobenius norm and n the order:
///  - every root's residual ‖Ax − λx‖ (x of unit 2-norm) is at most
///    kRefinedResidual·‖A‖: λ is an exact eigenvalue of A + E with
///    ‖E‖ ≤ that (Schur's own backward error is a few ε‖A‖);
///  - every two roots (a pair's members included) are further apart than
///    1e3 times the sum of their first-order error bounds κᵢ‖E‖ (κ =
///    ‖w‖‖x‖/|wᴴx|, the root's condition number) plus 1e-8‖A‖: so each
///    refined root stands for one eigenvalue and no two for the same one
///    (a double root, a pair about to split or two roots about to join are
///    refused: their κ is large or their distance small);
///  - the roots sum to trace A within 1e-10‖A‖·n (none is missing);
///  - each root moved from its prediction by at most 1/8 of the distance
///    from the prediction to any other new root (half the ambiguity ratio
///    of the continuation's matching: the identity stays the obvious match).
/// The refined values agree with a Schur solve of the same A to within the
/// roots' conditioning (κᵢ times a few ε‖A‖); their last bits differ.
///
/// Where it can also prove that Continue's matching would pair each previous
/// root with its refinement (a condition on the distances and on the
/// eigenvector overlaps, root_refinement.cpp), the set carries that match
/// (RootSet::carried) and Continue takes it without matching.

#include <optional>

#include "aerolin/analysis/tracking.hpp"

namespace aerolin::analysis {

/// Largest backward error ‖Ax − λx‖/‖A‖ of a refined root (≈ 450 ε).
inline constexpr double kRefinedResidual = 1e-13;

/// Returns the roots of A (A and dA/dp at p) refined from `previous`, the
/// roots of the same family at a nearby value, in Decompose's order (|λ|
/// descending, Re ascending, Im descending; right vectors of unit 2-norm,
/// slopes dλ/dp = wᴴ(dA/dp)v/(wᴴv)), or std::nullopt where the acceptance
/// test above fails (or A has a non-finite entry, or `previous` is not a set
/// of real roots and exact conjugate pairs of A's order).
std::optional<RootSet> RefineRoots(const RootSet& previous, const SmallMatrix& A, const SmallMatrix& dA,
                                   double p);
/// As above, into `out` (a sweep's buffer of sets, reused: no RootSet is
/// constructed or moved, whose in-place complex storage, 1.5 kB, is zeroed
/// by every construction): true and `out` the refined set where accepted;
/// false and `out` unchanged where refused (or `out` is `previous`).
bool RefineRoots(const RootSet& previous, const SmallMatrix& A, const SmallMatrix& dA, double p, RootSet& out);

/// Whether RefineRoots refines two roots of a kind at once where it can (4-
/// and 5-state matrices, x86-64 with GCC: one in each lane of a vector, with
/// the same operations as one at a time and the same bits) — true, the
/// default — or each alone. A process-wide switch, for tests that compare
/// the two bit for bit.
void RefineRootsInLanes(bool on);

}  // namespace aerolin::analysis
