#include "aerolin/study/start_on_mode.hpp"

#include "aerolin/model/build.hpp"
#include "aerolin/sim/excitation.hpp"

namespace aerolin::study {

std::optional<ModeStart> StartOnMode(const std::vector<analysis::Mode>& longitudinal,
                                     const std::vector<analysis::Mode>& lateral,
                                     analysis::ModeKind kind, double U0,
                                     std::optional<double> amplitude) {
  using analysis::ModeKind;
  const bool lon = kind == ModeKind::kShortPeriod || kind == ModeKind::kPhugoid;
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
  start.state =
      sim::ModeInitialState(mode->shape, mode->reference_state, start.axis, start.amplitude);
  return start;
}

std::optional<ModeStart> StartOnMode(const model::AircraftData& aircraft,
                                     analysis::ModeKind kind, std::optional<double> amplitude) {
  const double U0 = aircraft.condition.U0;
  return StartOnMode(analysis::AnalyzeLongitudinal(model::BuildLongitudinal(aircraft), U0),
                     analysis::AnalyzeLateral(model::BuildLateral(aircraft)), kind, U0,
                     amplitude);
}

}  // namespace aerolin::study
