#include "aerolin/study/start_on_mode.hpp"

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/sim/excitation.hpp"

#include <complex>

#include <Eigen/LU>

#include "aerolin/model/build.hpp"

namespace aerolin::study {

Eigen::VectorXcd ClosedLoopShape(const analysis::Mode& mode, const model::StateSpace& closed) {
  const Eigen::Index n = mode.shape.size(), f = closed.num_states() - n;
  if (f <= 0) return mode.shape;
  const Eigen::MatrixXcd A = closed.A().cast<std::complex<double>>();
  Eigen::VectorXcd v(n + f);
  v.head(n) = mode.shape;
  v.tail(f) = (mode.lambda * Eigen::MatrixXcd::Identity(f, f) - A.bottomRightCorner(f, f))
                  .partialPivLu()
                  .solve(A.bottomLeftCorner(f, n) * mode.shape);
  return v;
}

FilteredAxis FilteredAxisOf(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                            model::Axis axis) {
  if (model::FilterStates(aircraft, axis) == 0) return {};
  return {&modes.model_of(axis), sim::FilterSlot(aircraft, axis)};
}

model::Axis AxisOf(analysis::ModeKind kind) {
  return kind == analysis::ModeKind::kShortPeriod || kind == analysis::ModeKind::kPhugoid
             ? model::Axis::kLongitudinal
             : model::Axis::kLateral;
}

std::optional<ModeStart> StartOnMode(const std::vector<analysis::Mode>& longitudinal,
                                     const std::vector<analysis::Mode>& lateral,
                                     analysis::ModeKind kind, double U0,
                                     std::optional<double> amplitude,
                                     const FilteredAxis& filtered) {
  using analysis::ModeKind;
  const bool lon = AxisOf(kind) == model::Axis::kLongitudinal;
  const std::vector<analysis::Mode>& modes = lon ? longitudinal : lateral;
  const analysis::Mode* mode = analysis::FindMode(modes, kind);
  if (mode == nullptr && (kind == ModeKind::kRollSubsidence || kind == ModeKind::kSpiral))
    mode = analysis::FindMode(modes, ModeKind::kRollSpiral);
  if (mode == nullptr) return std::nullopt;
  ModeStart start;
  start.mode = mode->kind;
  start.axis = lon ? model::Axis::kLongitudinal : model::Axis::kLateral;
  start.amplitude = amplitude ? *amplitude
                              : sim::DefaultExcitationAmplitude(start.axis,
                                                                mode->reference_state, U0);
  const sim::InitialState initial = sim::ModeInitialState(
      filtered.closed != nullptr ? ClosedLoopShape(*mode, *filtered.closed) : mode->shape,
      mode->reference_state, start.axis, start.amplitude, filtered.first_slot);
  start.state = initial.x;
  start.auxiliary = initial.auxiliary;
  return start;
}

std::optional<ModeStart> StartOnMode(const model::AircraftData& aircraft,
                                     analysis::ModeKind kind, std::optional<double> amplitude) {
  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(aircraft);
  return StartOnMode(modes.longitudinal, modes.lateral, kind, aircraft.condition.U0, amplitude,
                     FilteredAxisOf(aircraft, modes, AxisOf(kind)));
}

}  // namespace aerolin::study
