#pragma once
/// @file
/// MIL-F-8785C's discrete gust (§3.7.4): the "1 − cos" shape, on the u, v or
/// w axis, as a known function of time for the integrators.

#include <Eigen/Core>
#include <optional>
#include <string_view>
#include <vector>

#include "aerolin/sim/disturbance_profile.hpp"

namespace aerolin::sim {

/// The wind axis a discrete gust acts along (the model's x, y, z axes).
enum class GustAxis { kU, kV, kW };

/// Parses "u" / "v" / "w"; nullopt otherwise.
std::optional<GustAxis> ParseGustAxis(std::string_view text);
std::string_view ToString(GustAxis axis);

/// One discrete gust: with x = U0 (t − t0) the distance flown into it,
/// @f[
/// v(x) = 0 \ (x < 0),\quad
/// \tfrac{v_m}{2}\left(1 - \cos\tfrac{\pi x}{d_m}\right) \ (0 \le x \le d_m),\quad
/// v_m \ (x > d_m).
/// @f]
struct DiscreteGust {
  GustAxis axis = GustAxis::kW;
  double amplitude = 0.0;  ///< v_m [m/s] (signed: + along the axis)
  double length = 0.0;     ///< d_m [m], > 0: distance to reach v_m
  double start = 0.0;      ///< t0 [s], >= 0
};

/// The sum of discrete gusts as a DisturbanceProfile of 4 channels (u_g, v_g,
/// w_g, p_g; model::gust order), for a model built with
/// model::BuildGustInput. p_g stays 0.
class DiscreteGusts final : public DisturbanceProfile {
 public:
  /// @param airspeed U0 [m/s], > 0 (the gusts are frozen in the air)
  /// @throws std::invalid_argument if U0 or a gust's length is not positive
  ///         and finite, its amplitude not finite or its start negative or
  ///         not finite; the message names the gust (0-based).
  DiscreteGusts(std::vector<DiscreteGust> gusts, double airspeed);

  int size() const override { return 4; }
  void Add(double t, Eigen::Ref<Eigen::VectorXd> d) const override;
  void AddMean(double t0, double t1, Eigen::Ref<Eigen::VectorXd> d) const override;

  /// Returns one gust's velocity [m/s] at time t [s].
  double Value(const DiscreteGust& gust, double t) const;
  /// Returns ∫ from t0 to t of one gust's velocity [m]: its antiderivative,
  /// 0 before the gust starts.
  double Integral(const DiscreteGust& gust, double t) const;

  const std::vector<DiscreteGust>& gusts() const { return gusts_; }
  double airspeed() const { return airspeed_; }

 private:
  std::vector<DiscreteGust> gusts_;
  double airspeed_;
};

}  // namespace aerolin::sim
