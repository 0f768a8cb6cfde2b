#pragma once
/// @file
/// Gusts on top of any input source: Dryden turbulence (held per slice) and
/// discrete gusts (a profile the integrators evaluate inside the slice).

#include <optional>

#include "aerolin/sim/discrete_gust.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/turbulence.hpp"

namespace aerolin::sim {

/// An InputSource decorator: the wrapped source gives the controls and any
/// disturbance of its own; the turbulence sample of slice k is added to the
/// disturbance (the 4 gust channels of model::BuildGustInput: u_g, v_g, w_g,
/// p_g) and the discrete gusts are offered as profile().
///
/// The turbulence advances one sample per InputForSlice call, whatever k:
/// Reset() (which Simulate calls first) restarts it from the seed, so a
/// replay with the same seed, Δt and inputs is identical to the bit.
class GustInput final : public InputSource {
 public:
  /// @param controls the wrapped source; it must outlive this object.
  /// @param turbulence the Dryden generator (its Δt must be the slices'), or
  ///        none.
  /// @param gusts discrete gusts, or none.
  GustInput(InputSource& controls, std::optional<DrydenTurbulence> turbulence,
            std::optional<DiscreteGusts> gusts = std::nullopt);

  /// @throws std::invalid_argument if `disturbance` does not have the 4 gust
  ///         channels, or `dt` is not the turbulence's Δt (tolerance 1e-12·Δt),
  ///         or as the wrapped source. Allocates nothing (unless the wrapped
  ///         source does).
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override;
  void Reset() override;
  const DisturbanceProfile* profile() const override;

  const std::optional<DrydenTurbulence>& turbulence() const { return turbulence_; }
  const std::optional<DiscreteGusts>& gusts() const { return gusts_; }

 private:
  InputSource* controls_;
  std::optional<DrydenTurbulence> turbulence_;
  std::optional<DiscreteGusts> gusts_;
};

}  // namespace aerolin::sim
