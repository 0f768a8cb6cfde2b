#include "aerolin/study/closed_loop.hpp"

#include <algorithm>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/model/build.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// The washout filters' roots in the closed loop `closed` (aircraft states,
// then the filters', named `filter_names`), followed by continuation from the
// open loop `open` (s = 0: each filter at its pole −1/τ, driven by y and
// feeding nothing back) along A(s) = open + s (closed − open) to s = 1, as
// `aerolin locus` follows a loop's roots: the root nearest a filter's pole
// need not be its own (the P2V-7 yaw damper's washout root passes the roll
// subsidence). A filter that has joined a pair gives its complex root.
std::vector<cd> ContinuedFilterRoots(const Eigen::MatrixXd& open, const Eigen::MatrixXd& closed,
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
  tracking::ChunkedTrack track(named, filters, axis,
                               lateral ? std::vector<TrackedMode>{tracking::HeadingMode()} : std::vector<TrackedMode>{});
  // As a locus: at least 50 steps over the range; the continuation halves a
  // step where a match is ambiguous.
  constexpr int kSteps = 100;
  std::vector<analysis::RootSet> sets;
  for (int i = 0; i <= kSteps; ++i) sets.push_back(analysis::AnalyzeRoots(family, static_cast<double>(i) / kSteps));
  const std::vector<std::vector<TrackedMode>> modes = track.Next(family, std::move(sets), {}, 1);
  std::vector<cd> roots;
  for (const TrackedMode& m : modes.back())
    if (std::find(filter_names.begin(), filter_names.end(), m.origin) != filter_names.end())
      roots.push_back(m.lambda);
  return roots;
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
  std::vector<cd> filter_roots;
  if (N > n) {
    std::vector<std::string> filter_names;
    for (int k = n; k < N; ++k) filter_names.push_back(analysis::FilterRootName(out.model.states()[static_cast<std::size_t>(k)]));
    filter_roots = ContinuedFilterRoots(open, out.model.A(), axis, open_modes, filter_names);
    const bool paired = filter_roots.size() != filter_names.size() ||
                        std::any_of(filter_roots.begin(), filter_roots.end(), [](cd l) { return l.imag() != 0.0; });
    if (paired) {
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
  }
  return out;
}

ClosedAxis CloseAxis(const model::AircraftData& aircraft, model::Axis axis,
                     const std::vector<analysis::Mode>* open_modes) {
  model::StateSpace closed = model::BuildAugmented(aircraft, axis);
  const double U0 = aircraft.condition.U0;
  const int n = static_cast<int>(model::StateSignals(axis).size());
  if (closed.num_states() == n) return NameClosedAxis(std::move(closed), Eigen::MatrixXd(), axis, U0, {});
  // The open loop with the filters: every gain 0 (each filter driven by its
  // output, feeding nothing back), closed by the same builder.
  model::AircraftData open_aircraft = aircraft;
  model::AxisAugmentation& open_aug = *AugmentationOf(open_aircraft, axis);
  open_aug.gain.setZero();
  for (model::OutputFeedback& loop : open_aug.output_loops) loop.gain = 0.0;
  const model::StateSpace open = model::BuildAugmented(open_aircraft, axis);
  std::vector<analysis::Mode> bare_modes;
  if (open_modes == nullptr) {
    AugmentationOf(open_aircraft, axis).reset();
    bare_modes = AnalyzeAxisModes(axis == model::Axis::kLongitudinal ? model::BuildLongitudinal(open_aircraft)
                                                                     : model::BuildLateral(open_aircraft),
                                  axis, U0);
    open_modes = &bare_modes;
  }
  return NameClosedAxis(std::move(closed), open.A(), axis, U0, *open_modes);
}

analysis::ModalAnalysis AnalyzeClosedLoop(const model::AircraftData& aircraft) {
  if (model::FilterStates(aircraft, model::Axis::kLongitudinal) == 0 &&
      model::FilterStates(aircraft, model::Axis::kLateral) == 0)
    return analysis::AnalyzeModes(aircraft);
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
