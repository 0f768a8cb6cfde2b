#include "aerolin/study/closed_loop.hpp"

#include <algorithm>
#include <complex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/model/build.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// The modes of the closed loop `closed` (aircraft states, then any washout
// filters', named `filter_names`), followed by continuation from the open
// loop `open` (s = 0: every gain 0, each filter at its pole −1/τ, driven by
// y and feeding nothing back) along A(s) = open + s (closed − open) to s = 1,
// as `aerolin locus` follows a loop's roots: each closed-loop root descends
// from an open-loop mode (the root nearest a filter's pole need not be its
// own: the P2V-7 yaw damper's washout root passes the roll subsidence). The
// tracked modes at s = 1, heading left out; a filter that has joined a pair
// is part of a "... (coupled)" mode, so no mode has its name as origin.
std::vector<TrackedMode> ContinuedModes(const Eigen::MatrixXd& open, const Eigen::MatrixXd& closed,
                                        model::Axis axis, const std::vector<analysis::Mode>& open_modes,
                                        const std::vector<std::string>& filter_names) {
  const bool lateral = axis == model::Axis::kLateral;
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < open.rows(); ++i)
    if (!(lateral && i == model::lat::kPsi)) keep.push_back(i);  // ψ: a free integrator
  const auto k = static_cast<Eigen::Index>(keep.size());
  analysis::SmallMatrix A0(k, k), M(k, k);
  for (Eigen::Index r = 0; r < k; ++r)
    for (Eigen::Index c = 0; c < k; ++c) {
      const auto i = keep[static_cast<std::size_t>(r)], j = keep[static_cast<std::size_t>(c)];
      A0(r, c) = open(i, j);
      M(r, c) = closed(i, j) - open(i, j);
    }
  const analysis::MatrixFamily family = [&A0, &M](double s, analysis::SmallMatrix& A, analysis::SmallMatrix& dA) {
    A = A0 + s * M;
    dA = M;
  };
  std::vector<analysis::Mode> named;
  for (const analysis::Mode& m : open_modes)
    if (m.kind != analysis::ModeKind::kHeading) named.push_back(m);
  // Each filter's name on its open-loop root, its pole −1/τ (the diagonal
  // of its row: the open loop is block triangular).
  std::vector<tracking::ExtraRoot> filters;
  for (std::size_t i = 0; i < filter_names.size(); ++i) {
    const auto row = open.rows() - static_cast<Eigen::Index>(filter_names.size() - i);
    filters.push_back({filter_names[i], cd(open(row, row), 0.0)});
  }
  tracking::ChunkedTrack track(named, filters, axis, {});
  // As a locus: at least 50 steps over the range; the continuation halves a
  // step where a match is ambiguous.
  constexpr int kSteps = 100;
  std::vector<analysis::RootSet> sets;
  for (int i = 0; i <= kSteps; ++i) sets.push_back(analysis::AnalyzeRoots(family, static_cast<double>(i) / kSteps));
  std::vector<std::vector<TrackedMode>> modes = track.Next(family, std::span<analysis::RootSet>(sets), {}, 1);
  return std::move(modes.back());
}

bool IsFilterOrigin(const TrackedMode& m, const std::vector<std::string>& filter_names) {
  return std::find(filter_names.begin(), filter_names.end(), m.origin) != filter_names.end();
}

// Gives each of the closed loop's `modes` (named from their shapes alone)
// the kind the continuation `tracked` gives the root nearest it: the kind of
// the open-loop mode it descends from, as `aerolin locus` names it. When a
// tracked mode has no kind (two modes coupled into one pair other than roll
// and spiral, which make the roll-spiral oscillation) the modes keep their
// shapes' names, all of them: a classical name for that pair would have to
// come from its shape, and beside the continuation's names it could repeat
// one (a Dutch-roll pair and an overdamped Dutch roll).
void TakeContinuedKinds(std::vector<analysis::Mode>& modes, const std::vector<TrackedMode>& tracked,
                        model::Axis axis) {
  if (std::any_of(tracked.begin(), tracked.end(), [](const TrackedMode& t) { return !t.kind.has_value(); })) return;
  // A tracked pair can stand for two real roots that the naming's looser
  // real-root tolerance calls real.
  std::vector<int> capacity;
  for (const TrackedMode& t : tracked) capacity.push_back(t.oscillatory ? 2 : 1);
  std::vector<std::optional<analysis::ModeKind>> kinds(modes.size());
  for (std::size_t i = 0; i < modes.size(); ++i) {
    const analysis::Mode& m = modes[i];
    if (m.kind == analysis::ModeKind::kHeading) continue;
    const int need = m.oscillatory ? 2 : 1;
    std::optional<std::size_t> best;
    for (std::size_t j = 0; j < tracked.size(); ++j)
      if (capacity[j] >= need &&
          (!best || std::abs(tracked[j].lambda - m.lambda) < std::abs(tracked[*best].lambda - m.lambda)))
        best = j;
    if (!best) continue;
    capacity[*best] -= need;
    kinds[i] = tracked[*best].kind;
  }
  analysis::RenameModes(modes, axis, kinds);
}

std::vector<analysis::Mode> AnalyzeAxisModes(const model::StateSpace& sys, model::Axis axis, double U0) {
  return axis == model::Axis::kLongitudinal ? analysis::AnalyzeLongitudinal(sys, U0)
                                            : analysis::AnalyzeLateral(sys);
}

std::optional<model::AxisAugmentation>& AugmentationOf(model::AircraftData& aircraft, model::Axis axis) {
  return axis == model::Axis::kLongitudinal ? aircraft.longitudinal_augmentation : aircraft.lateral_augmentation;
}

}  // namespace

ClosedAxis NameClosedAxis(model::StateSpace closed, const Eigen::MatrixXd& open, model::Axis axis, double U0,
                          const std::vector<analysis::Mode>& open_modes) {
  ClosedAxis out{std::move(closed), std::nullopt, {}, ""};
  const int n = static_cast<int>(model::StateSignals(axis).size());
  const int N = out.model.num_states();
  if (axis == model::Axis::kLateral && !out.model.A().col(model::lat::kPsi).isZero(0.0)) {
    out.not_named = "psi is fed back (heading hold): aerolin names lateral modes with psi a free "
                    "integrator, so the closed-loop roots are listed unnamed and not graded";
    return out;
  }
  std::vector<std::string> filter_names;
  for (int k = n; k < N; ++k) filter_names.push_back(analysis::FilterRootName(out.model.states()[static_cast<std::size_t>(k)]));
  // A closed loop equal to its open loop (an axis without augmentation) is named as the bare axis.
  const bool follow = !(open.rows() == N && open.cols() == N && open == out.model.A());
  std::vector<TrackedMode> tracked;
  if (follow) tracked = ContinuedModes(open, out.model.A(), axis, open_modes, filter_names);
  std::vector<cd> filter_roots;
  if (N > n) {
    // In the filter states' order (the tracked modes are sorted by ωn).
    for (const std::string& name : filter_names)
      for (const TrackedMode& m : tracked)
        if (m.origin == name && !m.oscillatory) filter_roots.push_back(m.lambda);
    if (filter_roots.size() != filter_names.size()) {
      out.not_named = "the closed-loop roots are listed unnamed and not graded: a washout filter's root "
                      "has joined a pair of roots (no root is the filter's alone, as aerolin locus says)";
      return out;
    }
    for (std::size_t k = 0; k < filter_roots.size(); ++k)
      out.filters.push_back({axis, out.model.states()[static_cast<std::size_t>(n) + k], filter_roots[k]});
  }
  try {
    out.modes = analysis::AnalyzeWithFilters(out.model, axis, U0, filter_roots);
  } catch (const std::invalid_argument& e) {
    out.not_named = std::string("the closed-loop roots are listed unnamed and not graded: ") + e.what();
    return out;
  }
  if (follow) {
    std::erase_if(tracked, [&](const TrackedMode& m) { return IsFilterOrigin(m, filter_names); });
    TakeContinuedKinds(*out.modes, tracked, axis);
  }
  return out;
}

ClosedAxis CloseAxis(const model::AircraftData& aircraft, model::Axis axis,
                     const std::vector<analysis::Mode>* open_modes) {
  model::StateSpace closed = model::BuildAugmented(aircraft, axis);
  const double U0 = aircraft.condition.U0;
  // The open loop: every gain 0 (each washout filter driven by its output,
  // feeding nothing back), closed by the same builder.
  model::AircraftData open_aircraft = aircraft;
  std::optional<model::AxisAugmentation>& open_aug = AugmentationOf(open_aircraft, axis);
  Eigen::MatrixXd open;
  if (open_aug) {
    open_aug->gain.setZero();
    for (model::OutputFeedback& loop : open_aug->output_loops) loop.gain = 0.0;
    open = model::BuildAugmented(open_aircraft, axis).A();
    open_aug.reset();
  } else {
    open = closed.A();
  }
  // The continuation's start, needed only when it runs (an augmented axis).
  std::vector<analysis::Mode> bare_modes;
  if (open_modes == nullptr) {
    if (open != closed.A())
      bare_modes = AnalyzeAxisModes(axis == model::Axis::kLongitudinal ? model::BuildLongitudinal(open_aircraft)
                                                                       : model::BuildLateral(open_aircraft),
                                    axis, U0);
    open_modes = &bare_modes;
  }
  return NameClosedAxis(std::move(closed), open, axis, U0, *open_modes);
}

analysis::ModalAnalysis AnalyzeClosedLoop(const model::AircraftData& aircraft) {
  if (!model::IsAugmented(aircraft)) return analysis::AnalyzeModes(aircraft);
  std::vector<ClosedAxis> axes;
  for (model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
    axes.push_back(CloseAxis(aircraft, axis));
    if (!axes.back().modes)
      throw std::invalid_argument("the " + std::string(model::AxisName(axis)) + " axis of " + aircraft.name +
                                  " with its augmentation: " + axes.back().not_named);
  }
  analysis::ModalAnalysis out{std::move(axes[0].model), std::move(axes[1].model), std::move(*axes[0].modes),
                              std::move(*axes[1].modes)};
  for (ClosedAxis& a : axes) out.filters.insert(out.filters.end(), a.filters.begin(), a.filters.end());
  return out;
}

}  // namespace aerolin::study
