#include "aerolin/analysis/modes.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cctype>
#include <array>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/complex_arithmetic.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::analysis {
namespace {

// |Re λ| below this [1/s] is neutral (neither converging nor diverging).
constexpr double kNeutralTolerance = 1e-12;
// A filter root given to AnalyzeWithFilters against A's own: the caller's
// continuation ends on an eigen-solve of the same matrix (a few ulps), far
// inside the gap to any other root.
constexpr double kFilterRootTolerance = 1e-8;
// A scaled state is "dominant" evidence when at least this share of the largest.
constexpr double kDominantShare = 0.3;

// std::stable_sort's order (equal elements keep theirs) by insertion, without
// the temporary buffer std::stable_sort allocates: for the few roots or
// modes of one model.
template <class It, class Less>
void StableSortFew(It first, It last, Less less) {
  for (It i = first; i != last; ++i)
    for (It j = i; j != first && less(*j, *std::prev(j)); --j) std::iter_swap(j, std::prev(j));
}

// One real root or one conjugate pair (Im λ > 0 member) with its right and
// left eigenvectors (left: wᴴ·vector = 1; empty if not known). Stored in
// place: a sweep names thousands of points.
struct Root {
  std::complex<double> lambda;
  SmallVectorC vector;
  SmallVectorC left;
  bool oscillatory() const { return lambda.imag() != 0.0; }
};

// A model's roots, and lists of them, in place up to SmallMatrix's order (a
// larger model's on the heap): a sweep names thousands of points, each of
// which allocated six small vectors here before.
constexpr std::size_t kInPlaceRoots = kMaxSmallStates;
using RootList = boost::container::small_vector<Root, kInPlaceRoots>;
using RootRefs = boost::container::small_vector<const Root*, kInPlaceRoots>;

// |Im λ| <= kRealRootTolerance·max(|λ|, 1), |λ|'s hypot formed only where
// the parts do not decide (2(|Re| + |Im|) is above |λ|).
bool IsRealRoot(std::complex<double> lambda) {
  const double parts = std::fabs(lambda.real()) + std::fabs(lambda.imag());
  return core::WithinScaledBound(lambda.imag(), kRealRootTolerance,
                                 std::isfinite(parts) ? 2 * parts : std::numeric_limits<double>::infinity(),
                                 [&] { return std::abs(lambda); });
}

// The roots of a decomposition (values, right vectors, left vectors or an
// empty `left`), each vector cut to its first `rows` entries.
RootList RootsOf(const Eigen::Ref<const Eigen::VectorXcd>& values, const Eigen::Ref<const Eigen::MatrixXcd>& right,
                 const Eigen::Ref<const Eigen::MatrixXcd>& left, Eigen::Index rows) {
  RootList roots;
  roots.reserve(static_cast<std::size_t>(values.size()));
  // Each root built in its place in the list: a SmallVectorC zeroes its
  // capacity (8 complex) whenever one is constructed, temporaries included.
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    const std::complex<double> lambda = values(i);
    if (IsRealRoot(lambda)) {
      // Real, or a numerically split repeated real root: one real root each.
      Root& r = roots.emplace_back();
      r.lambda = {lambda.real(), 0.0};
      SmallVectorC& v = r.vector;
      v = right.col(i).head(rows).real().cast<std::complex<double>>();
      if (v.norm() == 0.0) v = right.col(i).head(rows).imag().cast<std::complex<double>>();
      if (left.size() > 0) {
        SmallVectorC& w = r.left;
        w = left.col(i).head(rows).real().cast<std::complex<double>>();
        if (w.norm() == 0.0) w = left.col(i).head(rows).imag().cast<std::complex<double>>();
        // Scaled so that wᴴv = 1 (unchanged if the product vanishes).
        const std::complex<double> p = w.dot(v);
        if (std::abs(p) > 0.0) w /= std::conj(p);
      }
    } else if (lambda.imag() > 0.0) {
      Root& r = roots.emplace_back();
      r.lambda = lambda;
      r.vector = right.col(i).head(rows);
      if (left.size() > 0) r.left = left.col(i).head(rows);
    }
  }
  return roots;
}

RootList Roots(const Eigen::MatrixXd& A, const char* what) {
  EigenDecomposition eig;
  try {
    // A defective A (a repeated root with one eigenvector) still has modes
    // to name; it only lacks left vectors.
    eig = Decompose(A, LeftVectors::kIfDiagonalizable);
  } catch (const core::NumericalError&) {
    throw core::NumericalError(std::string("eigen-decomposition of the ") + what +
                               " A matrix failed (" + std::to_string(A.rows()) + " states)");
  }
  return RootsOf(eig.values, eig.right, eig.left, A.rows());
}

// Share of |a| in |a| + |b|: how much of a motion is in the first quantity.
double Content(std::complex<double> a, std::complex<double> b) {
  const double abs_a = core::Modulus(a), sum = abs_a + core::Modulus(b);
  return sum > 0.0 ? abs_a / sum : 0.0;
}

Mode MakeMode(ModeKind kind, model::Axis axis, const Root& root, const std::vector<core::Signal>& states,
              const Eigen::VectorXd& state_scale, int preferred_reference) {
  Mode m;
  m.kind = kind;
  m.axis = axis;
  m.lambda = root.lambda;
  m.oscillatory = root.oscillatory();
  const double sigma = root.lambda.real();
  const double wd = root.lambda.imag();
  m.natural_frequency = std::abs(root.lambda);
  m.damping_ratio = m.natural_frequency > 0.0 ? -sigma / m.natural_frequency : 0.0;
  const bool neutral = std::abs(sigma) <= kNeutralTolerance;
  m.stable = sigma < 0.0 || neutral;
  if (m.oscillatory) m.damped_period = 2.0 * core::kPi / wd;
  if (!neutral) {
    if (sigma < 0.0)
      m.time_to_half = std::log(2.0) / -sigma;
    else
      m.time_to_double = std::log(2.0) / sigma;
  }
  if (!m.oscillatory && !neutral) m.time_constant = 1.0 / std::abs(sigma);
  if (m.oscillatory && m.time_to_half) m.cycles_to_half = *m.time_to_half / *m.damped_period;

  // Scaled magnitudes: u/U0, angles in rad, rates divided by ωn, so that a
  // pure rotation shows its rate and angle as equal.
  const Eigen::Index n = root.vector.size();
  Eigen::VectorXd scaled(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    double s = state_scale(i);
    if (states[i].unit == core::Unit::kRadianPerSecond && m.natural_frequency > 0.0) s /= m.natural_frequency;
    scaled(i) = std::abs(root.vector(i)) * s;
  }
  const double largest = scaled.maxCoeff();
  std::vector<Eigen::Index> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return scaled(a) > scaled(b); });
  for (Eigen::Index i : order)
    if (largest > 0.0 && scaled(i) >= kDominantShare * largest)
      m.dominant_states.push_back(states[i].name);

  // Reference: the preferred state unless it is (numerically) absent from
  // this mode, then the largest scaled component.
  int reference = preferred_reference;
  if (std::abs(root.vector(reference)) < 1e-9 * root.vector.cwiseAbs().maxCoeff())
    reference = static_cast<int>(order.front());
  m.reference_state = reference;
  m.shape = root.vector / root.vector(reference);
  // leftᴴ shape = 1 with shape = vector / vector(ref): scale by conj(vector(ref)).
  if (root.left.size() > 0) m.left = root.left * std::conj(root.vector(reference));
  return m;
}

// For Mode and RootName alike.
template <class M>
void QualifyStability(M& m) {
  if (m.kind == ModeKind::kHeading) return;
  const double sigma = m.lambda.real();
  if (std::abs(sigma) <= kNeutralTolerance)
    m.flags |= ModeFlag::kNeutral;
  else if (sigma > 0.0)
    m.flags |= m.oscillatory ? ModeFlag::kUnstable : ModeFlag::kDivergent;
}

// Marks two real roots of one mode that coincide as repeated.
template <class M>
void QualifyRepeated(std::vector<M>& modes, ModeKind kind) {
  boost::container::small_vector<M*, kInPlaceRoots> reals;
  for (M& m : modes)
    if (m.kind == kind && !m.oscillatory) reals.push_back(&m);
  if (reals.size() == 2 &&
      std::abs(reals[0]->lambda.real() - reals[1]->lambda.real()) <=
          1e-6 * std::max(1.0, std::abs(reals[0]->lambda.real()))) {
    reals[0]->flags |= ModeFlag::kRepeatedRoot;
    reals[1]->flags |= ModeFlag::kRepeatedRoot;
  }
}

template <class M>
void SortModes(std::vector<M>& modes) {
  StableSortFew(modes.begin(), modes.end(), [](const M& a, const M& b) {
    if ((a.kind == ModeKind::kHeading) != (b.kind == ModeKind::kHeading))
      return b.kind == ModeKind::kHeading;
    if (a.natural_frequency != b.natural_frequency)
      return a.natural_frequency > b.natural_frequency;
    return a.lambda.real() < b.lambda.real();
  });
}

// Splits roots into oscillatory pairs and real roots.
void Partition(const RootList& roots, RootRefs& pairs, RootRefs& reals) {
  for (const Root& r : roots) (r.oscillatory() ? pairs : reals).push_back(&r);
}

}  // namespace

namespace {

struct ModeNames {
  ModeKind kind;
  std::string_view display;
  std::string_view cli;
};
constexpr ModeNames kModeNames[] = {
    {ModeKind::kShortPeriod, "short period", "short-period"},
    {ModeKind::kPhugoid, "phugoid", "phugoid"},
    {ModeKind::kDutchRoll, "dutch roll", "dutch-roll"},
    {ModeKind::kRollSubsidence, "roll subsidence", "roll"},
    {ModeKind::kSpiral, "spiral", "spiral"},
    {ModeKind::kRollSpiral, "roll-spiral oscillation", "roll-spiral"},
    {ModeKind::kHeading, "heading", "heading"},
};

// ModeFlag's spellings, in the order Mode::qualifier() prints them.
constexpr std::pair<ModeFlag, std::string_view> kFlagNames[] = {
    {ModeFlag::kOverdamped, "overdamped"},   {ModeFlag::kAperiodic, "aperiodic"},
    {ModeFlag::kLateralPhugoid, "lateral phugoid"}, {ModeFlag::kNeutral, "neutral"},
    {ModeFlag::kUnstable, "unstable"},       {ModeFlag::kDivergent, "divergent"},
    {ModeFlag::kRepeatedRoot, "repeated root"},
};

const ModeNames& NamesOf(ModeKind kind) {
  for (const ModeNames& n : kModeNames)
    if (n.kind == kind) return n;
  assert(false && "every ModeKind is in kModeNames");
  return kModeNames[0];
}

}  // namespace

std::string ToString(ModeKind kind) { return std::string(NamesOf(kind).display); }

std::string_view CliName(ModeKind kind) { return NamesOf(kind).cli; }

std::optional<ModeKind> ParseModeKind(const std::string& text) {
  // Any case, with '-', '_' or ' ' between words: "dutch-roll", "Dutch roll",
  // "roll_subsidence" (the display name as well as the CLI one).
  auto folded = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = c == '-' || c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string want = folded(text);
  for (const ModeNames& n : kModeNames)
    if (want == folded(n.cli) || want == folded(n.display)) return n.kind;
  return std::nullopt;
}

namespace {

std::string QualifierOf(ModeFlag flags) {
  std::string out;
  for (const auto& [flag, name] : kFlagNames)
    if ((flags & flag) == flag) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// Every kind with every combination of flags, spelt once.
constexpr std::size_t kFlagCombinations = 1u << std::size(kFlagNames);
using NameTable = std::array<std::array<std::string, kFlagCombinations>, std::size(kModeNames)>;

const NameTable& FullNames() {
  static const NameTable table = [] {
    NameTable t;
    for (std::size_t k = 0; k < std::size(kModeNames); ++k)
      for (std::size_t f = 0; f < kFlagCombinations; ++f) {
        const std::string q = QualifierOf(static_cast<ModeFlag>(f));
        const std::string kind(kModeNames[k].display);
        t[k][f] = q.empty() ? kind : kind + " (" + q + ")";
      }
    return t;
  }();
  return table;
}

}  // namespace

const std::string& FullName(ModeKind kind, ModeFlag flags) {
  for (std::size_t k = 0; k < std::size(kModeNames); ++k)
    if (kModeNames[k].kind == kind) return FullNames()[k][static_cast<std::size_t>(flags)];
  assert(false && "every ModeKind is in kModeNames");
  return FullNames()[0][0];
}

const std::string& Qualifier(ModeFlag flags) {
  static const std::array<std::string, kFlagCombinations> table = [] {
    std::array<std::string, kFlagCombinations> t;
    for (std::size_t f = 0; f < kFlagCombinations; ++f) t[f] = QualifierOf(static_cast<ModeFlag>(f));
    return t;
  }();
  return table[static_cast<std::size_t>(flags)];
}

std::string Mode::qualifier() const { return Qualifier(flags); }

std::string Mode::full_name() const { return FullName(kind, flags); }

const Mode* FindMode(const std::vector<Mode>& modes, ModeKind kind) {
  for (const Mode& m : modes)
    if (m.kind == kind) return &m;
  return nullptr;
}

namespace {

using Named = boost::container::small_vector<std::pair<const Root*, ModeKind>, kInPlaceRoots>;

// Which root is which longitudinal mode: short period is the α-rich motion,
// phugoid the u/θ exchange at nearly constant α (Etkin & Reid §6.2): rank by
// α content relative to u/U0.
Named ClassifyLongitudinal(const RootList& roots, double U0) {
  using namespace model::lon;
  RootRefs pairs, reals;
  Partition(roots, pairs, reals);
  auto alpha_content = [U0](const Root* r) {
    return Content(r->vector(kAlpha), r->vector(kU) / U0);
  };
  Named named;
  if (pairs.size() == 2) {
    const bool first_is_sp = alpha_content(pairs[0]) >= alpha_content(pairs[1]);
    named = {{pairs[first_is_sp ? 0 : 1], ModeKind::kShortPeriod},
             {pairs[first_is_sp ? 1 : 0], ModeKind::kPhugoid}};
  } else if (pairs.size() == 1) {
    const double reals_content = 0.5 * (alpha_content(reals[0]) + alpha_content(reals[1]));
    const bool pair_is_sp = alpha_content(pairs[0]) >= reals_content;
    named = {{pairs[0], pair_is_sp ? ModeKind::kShortPeriod : ModeKind::kPhugoid},
             {reals[0], pair_is_sp ? ModeKind::kPhugoid : ModeKind::kShortPeriod},
             {reals[1], pair_is_sp ? ModeKind::kPhugoid : ModeKind::kShortPeriod}};
  } else {
    RootRefs by_content = reals;
    StableSortFew(by_content.begin(), by_content.end(), [&](const Root* a, const Root* b) {
      return alpha_content(a) > alpha_content(b);
    });
    for (std::size_t i = 0; i < by_content.size(); ++i)
      named.push_back({by_content[i], i < 2 ? ModeKind::kShortPeriod : ModeKind::kPhugoid});
  }
  return named;
}

// The longitudinal qualifiers of one mode (before QualifyRepeated).
template <class M>
void QualifyLongitudinal(M& m) {
  if (!m.oscillatory)
    m.flags |= m.kind == ModeKind::kShortPeriod ? ModeFlag::kOverdamped : ModeFlag::kAperiodic;
  QualifyStability(m);
}

template <class M>
void QualifyLongitudinalSet(std::vector<M>& modes) {
  QualifyRepeated(modes, ModeKind::kShortPeriod);
  QualifyRepeated(modes, ModeKind::kPhugoid);
  SortModes(modes);
}

// Which root is which lateral mode (of the (β, p, r, φ) block's roots, or
// those roots extended by ψ): Dutch roll is the sideslip-rich oscillation;
// roll and spiral are bank motions with little sideslip (Etkin & Reid §6.7).
Named ClassifyLateral(const RootList& roots) {
  using namespace model::lat;
  RootRefs pairs, reals;
  Partition(roots, pairs, reals);
  auto beta_content = [](const Root* r) { return Content(r->vector(kBeta), r->vector(kPhi)); };
  auto faster = [](const Root* a, const Root* b) { return core::CompareModuli(a->lambda, b->lambda) > 0; };
  Named named;
  auto name_roll_and_spiral = [&](std::array<const Root*, 2> two) {
    StableSortFew(two.begin(), two.end(), faster);
    named.push_back({two[0], ModeKind::kRollSubsidence});
    named.push_back({two[1], ModeKind::kSpiral});
  };
  if (pairs.size() == 2) {
    const bool first_is_dr = beta_content(pairs[0]) >= beta_content(pairs[1]);
    named = {{pairs[first_is_dr ? 0 : 1], ModeKind::kDutchRoll},
             {pairs[first_is_dr ? 1 : 0], ModeKind::kRollSpiral}};
  } else if (pairs.size() == 1) {
    const double reals_content = 0.5 * (beta_content(reals[0]) + beta_content(reals[1]));
    if (beta_content(pairs[0]) >= reals_content) {
      named.push_back({pairs[0], ModeKind::kDutchRoll});
      name_roll_and_spiral({reals[0], reals[1]});
    } else {
      named = {{pairs[0], ModeKind::kRollSpiral},
               {reals[0], ModeKind::kDutchRoll},
               {reals[1], ModeKind::kDutchRoll}};
    }
  } else {
    // No pair: the block's four real roots.
    std::array<const Root*, 4> by_content{reals.at(0), reals.at(1), reals.at(2), reals.at(3)};
    StableSortFew(by_content.begin(), by_content.end(),
                     [&](const Root* a, const Root* b) { return beta_content(a) > beta_content(b); });
    named = {{by_content[0], ModeKind::kDutchRoll}, {by_content[1], ModeKind::kDutchRoll}};
    name_roll_and_spiral({by_content[2], by_content[3]});
  }
  return named;
}

template <class M>
void QualifyLateral(M& m) {
  if (m.kind == ModeKind::kDutchRoll && !m.oscillatory) m.flags |= ModeFlag::kOverdamped;
  if (m.kind == ModeKind::kRollSpiral) m.flags |= ModeFlag::kLateralPhugoid;
  QualifyStability(m);
}

RootName NameOf(const Root& root, ModeKind kind) {
  RootName n;
  n.kind = kind;
  n.lambda = root.lambda;
  n.oscillatory = root.oscillatory();
  n.natural_frequency = core::Modulus(root.lambda);
  return n;
}

void CheckFourRoots(const Eigen::Ref<const Eigen::VectorXcd>& values,
                    const Eigen::Ref<const Eigen::MatrixXcd>& vectors, const char* what) {
  if (values.size() != 4 || vectors.cols() != 4 || vectors.rows() < 4)
    throw std::invalid_argument(std::string(what) + ": expected 4 roots with vectors of >= 4 rows, got " +
                                std::to_string(values.size()) + " and " + std::to_string(vectors.rows()) +
                                "x" + std::to_string(vectors.cols()));
}

}  // namespace

std::string RootName::full_name() const { return FullName(kind, flags); }

std::vector<RootName> NameLongitudinalRoots(const Eigen::Ref<const Eigen::VectorXcd>& values,
                                            const Eigen::Ref<const Eigen::MatrixXcd>& vectors,
                                            double U0) {
  CheckFourRoots(values, vectors, "NameLongitudinalRoots");
  const RootList roots = RootsOf(values, vectors, Eigen::MatrixXcd(), 4);
  std::vector<RootName> names;
  names.reserve(roots.size());
  for (const auto& [root, kind] : ClassifyLongitudinal(roots, U0)) {
    RootName n = NameOf(*root, kind);
    QualifyLongitudinal(n);
    names.push_back(n);
  }
  QualifyLongitudinalSet(names);
  return names;
}

std::vector<RootName> NameLateralRoots(const Eigen::Ref<const Eigen::VectorXcd>& values,
                                       const Eigen::Ref<const Eigen::MatrixXcd>& vectors) {
  CheckFourRoots(values, vectors, "NameLateralRoots");
  const RootList roots = RootsOf(values, vectors, Eigen::MatrixXcd(), 4);
  std::vector<RootName> names;
  names.reserve(roots.size());
  for (const auto& [root, kind] : ClassifyLateral(roots)) {
    RootName n = NameOf(*root, kind);
    QualifyLateral(n);
    names.push_back(n);
  }
  QualifyRepeated(names, ModeKind::kDutchRoll);
  SortModes(names);
  return names;
}

namespace {

// The longitudinal modes of `roots` (vectors over u, α, q, θ).
std::vector<Mode> LongitudinalModes(const RootList& roots, const std::vector<core::Signal>& states,
                                    double U0) {
  using namespace model::lon;
  Eigen::VectorXd scale(4);
  scale << 1.0 / U0, 1.0, 1.0, 1.0;
  std::vector<Mode> modes;
  for (const auto& [root, kind] : ClassifyLongitudinal(roots, U0)) {
    Mode m = MakeMode(kind, model::Axis::kLongitudinal, *root, states, scale, kTheta);
    QualifyLongitudinal(m);
    modes.push_back(std::move(m));
  }
  QualifyLongitudinalSet(modes);
  return modes;
}

// The lateral modes from the roots of the (β, p, r, φ) block `block_roots`
// (vectors over those four states), `psi_row` the ψ row of A over them, and
// `heading_left` the heading root's left vector (empty if unknown).
std::vector<Mode> LateralModes(const RootList& block_roots, const Eigen::RowVectorXd& psi_row,
                               const std::vector<core::Signal>& states, SmallVectorC heading_left) {
  using namespace model::lat;
  RootList roots;
  for (const Root& r : block_roots) {
    SmallVectorC v(5);
    v.head(4) = r.vector;
    // λψ = A_ψ· v  ⇒  ψ = (r / cos θ0) / λ; for λ = 0 the heading drift is secular, not modal.
    const std::complex<double> psi_rate = psi_row.cast<std::complex<double>>() * r.vector;
    v(kPsi) = std::abs(r.lambda) > kNeutralTolerance ? psi_rate / r.lambda : std::complex<double>(0.0);
    // The left vector of the full A for λ ≠ 0 is (w_block, 0): wᴴA = λwᴴ
    // forces the ψ component to 0, and wᴴv is unchanged.
    SmallVectorC w;
    if (r.left.size() > 0) {
      w = SmallVectorC::Zero(5);
      w.head(4) = r.left;
    }
    roots.push_back({r.lambda, v, w});
  }
  const Eigen::VectorXd scale = Eigen::VectorXd::Ones(5);
  std::vector<Mode> modes;
  for (const auto& [root, kind] : ClassifyLateral(roots)) {
    Mode m = MakeMode(kind, model::Axis::kLateral, *root, states, scale, kPhi);
    QualifyLateral(m);
    modes.push_back(std::move(m));
  }
  QualifyRepeated(modes, ModeKind::kDutchRoll);
  Eigen::VectorXcd heading = Eigen::VectorXcd::Zero(5);
  heading(kPsi) = 1.0;
  modes.push_back(MakeMode(ModeKind::kHeading, model::Axis::kLateral,
                           Root{{0.0, 0.0}, heading, std::move(heading_left)}, states, scale, kPsi));
  SortModes(modes);
  return modes;
}

}  // namespace

std::vector<Mode> AnalyzeLongitudinal(const model::StateSpace& lon, double U0) {
  using namespace model::lon;
  if (lon.num_states() != kNumStates)
    throw std::invalid_argument("AnalyzeLongitudinal: expected 4 states (u, alpha, q, theta), got " +
                                std::to_string(lon.num_states()));
  return LongitudinalModes(Roots(lon.A(), "longitudinal"), lon.states(), U0);
}

std::vector<Mode> AnalyzeLateral(const model::StateSpace& lat) {
  using namespace model::lat;
  if (lat.num_states() != kNumStates)
    throw std::invalid_argument("AnalyzeLateral: expected 5 states (beta, p, r, phi, psi), got " +
                                std::to_string(lat.num_states()));
  const Eigen::MatrixXd& A = lat.A();
  if (!A.col(kPsi).isZero(0.0))
    throw std::invalid_argument("AnalyzeLateral: psi must not feed back (column psi of A must be 0)");
  // ψ is a pure integrator, so A is block lower-triangular: the heading root
  // is exactly 0 and the other four are those of the (β, p, r, φ) block. This
  // keeps a neutral spiral (a second zero root) distinct from heading.
  const Eigen::MatrixXd block = A.topLeftCorner(4, 4);
  // Heading's left vector: wᴴA = 0 with w_ψ = 1 gives w_blockᴴ B = −a_ψ,
  // a_ψ = row ψ of A's first four columns (B the (β, p, r, φ) block).
  SmallVectorC heading_left;
  const Eigen::FullPivLU<Eigen::MatrixXd> block_lu(block);
  if (block_lu.isInvertible()) {
    heading_left = SmallVectorC::Zero(5);
    const Eigen::VectorXd w_block = block.transpose().fullPivLu().solve(
        Eigen::VectorXd(-A.row(kPsi).head(4).transpose()));
    heading_left.head(4) = w_block.cast<std::complex<double>>();
    heading_left(kPsi) = 1.0;
  }
  return LateralModes(Roots(block, "lateral"), A.row(kPsi).head(4), lat.states(),
                      std::move(heading_left));
}

std::vector<Mode> AnalyzeWithFilters(const model::StateSpace& sys, model::Axis axis, double U0,
                                     std::span<const std::complex<double>> filter_roots) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const int n = lon ? model::lon::kNumStates : model::lat::kNumStates;
  if (sys.num_states() < n)
    throw std::invalid_argument("AnalyzeWithFilters: expected at least " + std::to_string(n) +
                                " states, got " + std::to_string(sys.num_states()));
  const int filters = sys.num_states() - n;
  if (static_cast<int>(filter_roots.size()) != filters)
    throw std::invalid_argument("AnalyzeWithFilters: " + std::to_string(filters) + " filter states, " +
                                std::to_string(filter_roots.size()) + " filter roots");
  const std::vector<core::Signal> states(sys.states().begin(), sys.states().begin() + n);
  if (filters == 0) return lon ? AnalyzeLongitudinal(sys, U0) : AnalyzeLateral(sys);
  const Eigen::MatrixXd& A = sys.A();
  // The lateral roots are those of A without ψ (a free integrator, as
  // AnalyzeLateral); the aircraft's states come first in either case.
  if (!lon && !A.col(model::lat::kPsi).isZero(0.0))
    throw std::invalid_argument("psi is fed back: aerolin names lateral modes with psi a free integrator");
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    if (lon || i != model::lat::kPsi) keep.push_back(i);
  const auto m = static_cast<Eigen::Index>(keep.size());
  Eigen::MatrixXd block(m, m);
  for (Eigen::Index r = 0; r < m; ++r)
    for (Eigen::Index c = 0; c < m; ++c) block(r, c) = A(keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)]);
  const Eigen::Index rows = m - filters;  // the aircraft's states in `block`
  RootList roots = Roots(block, lon ? "longitudinal" : "lateral");
  for (const std::complex<double>& f : filter_roots) {
    if (f.imag() != 0.0)
      throw std::invalid_argument("a washout filter's root has joined a pair of roots: no root is the "
                                  "filter's alone, so the closed-loop roots are not named");
    std::size_t nearest = 0;
    for (std::size_t i = 1; i < roots.size(); ++i)
      if (std::abs(roots[i].lambda - f) < std::abs(roots[nearest].lambda - f)) nearest = i;
    if (roots.empty() || roots[nearest].oscillatory() ||
        std::abs(roots[nearest].lambda - f) > kFilterRootTolerance * std::max(1.0, std::abs(f)))
      throw std::invalid_argument("AnalyzeWithFilters: the filter root " + std::to_string(f.real()) +
                                  " is no real root of A");
    roots.erase(roots.begin() + static_cast<std::ptrdiff_t>(nearest));
  }
  // The aircraft's part of each vector; no left vectors (those of the
  // aircraft's states alone are not left vectors of A).
  for (Root& r : roots) {
    r.vector = SmallVectorC(r.vector.head(rows));
    r.left = SmallVectorC();
  }
  if (lon) return LongitudinalModes(roots, states, U0);
  Eigen::RowVectorXd psi_row = A.row(model::lat::kPsi).head(4);
  return LateralModes(roots, psi_row, states, SmallVectorC());
}

void RenameModes(std::vector<Mode>& modes, model::Axis axis, std::span<const std::optional<ModeKind>> kinds) {
  if (kinds.size() != modes.size())
    throw std::invalid_argument("RenameModes: " + std::to_string(kinds.size()) + " kinds for " +
                                std::to_string(modes.size()) + " modes");
  const bool lon = axis == model::Axis::kLongitudinal;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    Mode& m = modes[i];
    if (!kinds[i]) continue;
    if ((*kinds[i] == ModeKind::kHeading) != (m.kind == ModeKind::kHeading))
      throw std::invalid_argument("RenameModes: heading is the ψ integrator's root and no other's");
    m.kind = *kinds[i];
  }
  for (Mode& m : modes) {
    m.flags = ModeFlag::kNone;
    if (lon)
      QualifyLongitudinal(m);
    else
      QualifyLateral(m);
  }
  if (lon) {
    QualifyLongitudinalSet(modes);
  } else {
    QualifyRepeated(modes, ModeKind::kDutchRoll);
    SortModes(modes);
  }
}

const Mode* ModalAnalysis::Find(ModeKind kind) const {
  if (const Mode* m = FindMode(longitudinal, kind)) return m;
  return FindMode(lateral, kind);
}

std::string FilterRootName(const core::Signal& filter_state) {
  return "washout filter (" + filter_state.name + ")";
}

ModalAnalysis AnalyzeModes(const model::AircraftData& aircraft) {
  model::StateSpace lon = model::BuildLongitudinal(aircraft);
  model::StateSpace lat = model::BuildLateral(aircraft);
  std::vector<Mode> lon_modes = AnalyzeLongitudinal(lon, aircraft.condition.U0);
  std::vector<Mode> lat_modes = AnalyzeLateral(lat);
  return {std::move(lon), std::move(lat), std::move(lon_modes), std::move(lat_modes)};
}

}  // namespace aerolin::analysis
