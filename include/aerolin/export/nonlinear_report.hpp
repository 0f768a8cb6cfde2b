#pragma once
/// @file
/// The reports of `aerolin trim` and `aerolin linearize` (study/trim.hpp,
/// study/linearize.hpp): text, JSON (schemas aerolin.trim/1 and
/// aerolin.linearize/1), and the data file `linearize --write` writes.

#include <ostream>
#include <string>
#include <string_view>

#include "aerolin/sim/nonlinear_shadow.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/linearize.hpp"
#include "aerolin/study/trim.hpp"

namespace aerolin::exporting {

/// What a report says it is about.
struct NonlinearReportHeader {
  std::string_view file;      ///< the data file as given (informational)
  std::string_view aircraft;  ///< the aircraft's name
  study::TrimRequest request;  ///< SI
};

/// Writes the trim as text: the request, each variable (angles also in deg),
/// the largest residual and the notes.
void WriteTrimText(std::ostream& out, const NonlinearReportHeader& header,
                   const study::TrimResult& result);

/// Returns the aerolin.trim/1 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft {name}, request {speed, altitude,
/// gamma, turn_rate or null, bank or null, sideslip} (SI), variables
/// [{name, value, unit}] (TrimResult::variables: SI and radians), residuals
/// [{equation, value, unit}] (u_dot, v_dot, w_dot in m/s^2; p_dot, q_dot,
/// r_dot in rad/s^2), iterations, notes [text].
std::string TrimJson(const NonlinearReportHeader& header, const study::TrimResult& result);

/// Writes the linearization as text: the trim (WriteTrimText), the
/// derivatives at it (SI, normalized, primed), and their accuracy.
void WriteLinearizeText(std::ostream& out, const NonlinearReportHeader& header,
                        const study::LinearizeResult& result);

/// Returns the aerolin.linearize/1 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft {name}, request, trim {variables,
/// residuals, notes} (as aerolin.trim/1), condition {U0, W0, theta0, g,
/// altitude or null} (SI), derivatives {longitudinal {Xu, ...}, lateral
/// {Yb, ..., primed L, N}, controls [{name, unit, X, Z, M, Y, L, N}]} (SI,
/// normalized), states [names], inputs [names], A (9 rows), B (9 rows),
/// accuracy {derivative_error, model_mismatch, cross_coupling}.
std::string LinearizeJson(const NonlinearReportHeader& header,
                          const study::LinearizeResult& result);

/// Returns the data file of `result.aircraft` (data/derivatives/README.md's
/// format): SI, normalized α/β-form, primed, with a header comment naming
/// `command`, the trim and the derivatives' accuracy; ends with a newline.
std::string LinearizedToml(const NonlinearReportHeader& header,
                           const study::LinearizeResult& result, std::string_view command);

/// Streams the linear and the nonlinear flight of `simulate --model both` as
/// one CSV: FlightCsvHeader's columns for the linear flight (t, the 12 states,
/// the controls), then `nl_u, ..., nl_down` (the nonlinear flight in the same
/// perturbation form, sim::PerturbationOf) and `d_u, ..., d_down` (nonlinear −
/// linear). The linear rows go to linear_side(), the nonlinear ones to
/// nonlinear_side() right after (sim::NonlinearShadow's order); a row is
/// written when both are in. After the nonlinear flight departed
/// (sim::NonlinearShadow::departed) a linear row comes alone: it is written
/// with the nl_ and d_ columns empty, when the next linear row arrives or at
/// Finish(). Numbers in shortest round-trip form; t as SliceGridTime(t, dt).
class ComparisonCsvRecorder {
 public:
  /// `out` must outlive this.
  ComparisonCsvRecorder(std::ostream& out, double dt);
  sim::FlightRecorder& linear_side() { return linear_; }
  sim::FlightRecorder& nonlinear_side() { return nonlinear_; }
  /// Writes the last linear row if no nonlinear row came for it (call once
  /// the flight ends).
  void Finish();

 private:
  void WriteRow(const sim::FlightState* nonlinear);  // nullptr: departed
  struct Linear final : sim::FlightRecorder {
    ComparisonCsvRecorder* owner;
    void Begin(const std::vector<std::string>& control_names) override;
    void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;
  };
  struct Nonlinear final : sim::FlightRecorder {
    ComparisonCsvRecorder* owner;
    void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;
  };
  std::ostream& out_;
  double dt_;
  Linear linear_;
  Nonlinear nonlinear_;
  double t_ = 0.0;
  sim::FlightState x_ = sim::FlightState::Zero();
  Eigen::VectorXd controls_;
  bool pending_ = false;  // a linear row not yet written
};

/// Writes where the nonlinear flight parted from the linear one: "Nonlinear
/// beside linear: phi differs by more than 10 % of its linear peak after 4.2 s,
/// ..." or that no state did.
void WritePartings(std::ostream& out, const std::vector<sim::Parting>& partings);

}  // namespace aerolin::exporting
