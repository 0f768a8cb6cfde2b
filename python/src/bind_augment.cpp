// aerolin.lqr, aerolin.place (matrices in, matrices out) and aerolin.augment
// (`aerolin augment --json`): full-state feedback design.

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/analysis/augmentation.hpp"
#include "aerolin/export/augment_report.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/mil_std_1797.hpp"
#include "aerolin/study/saturation.hpp"

namespace aerolin::python {
namespace {

using Eigen::MatrixXd;

py::tuple Lqr(const MatrixXd& A, const MatrixXd& B, const MatrixXd& Q, const MatrixXd& R,
              const std::optional<MatrixXd>& N) {
  analysis::LqrResult r;
  {
    py::gil_scoped_release release;
    r = analysis::Lqr(A, B, Q, R, N ? *N : MatrixXd());
  }
  return py::make_tuple(r.K, r.X, Eigen::VectorXcd(r.closed_loop));
}

MatrixXd Place(const MatrixXd& A, const MatrixXd& B, const std::vector<std::complex<double>>& poles) {
  py::gil_scoped_release release;
  return analysis::Place(A, B, poles).K;
}

// A value of `maximum` or `disturbance` as typed: a number (SI) or a string
// with a unit.
std::string MaximumText(const py::handle& value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  return py::str(py::float_(value.cast<double>())).cast<std::string>();
}

py::object Augment(const py::object& aircraft_or_path, const std::optional<std::string>& axis,
                   const std::optional<std::string>& place,
                   const std::optional<std::vector<double>>& Q,
                   const std::optional<std::vector<double>>& R, const std::optional<py::dict>& maximum,
                   const std::optional<std::vector<std::string>>& inputs, bool heading,
                   const std::optional<std::vector<std::string>>& loops, const py::object& disturbance,
                   const std::vector<std::string>& actuators) {
  py::object loaded = aircraft_or_path;
  if (py::isinstance<py::str>(aircraft_or_path))
    loaded = py::module_::import("aerolin._aerolin").attr("load")(aircraft_or_path);
  const Aircraft& aircraft = loaded.cast<const Aircraft&>();
  study::AugmentSpec spec;
  if (loops) {
    // As `aerolin augment --loop`: the same parser, the loops' axis unless given.
    if (place) throw std::invalid_argument("loops are a design of their own: give them without place");
    spec.method = study::DesignMethod::kLoops;
    for (const std::string& text : *loops) spec.loops.push_back(study::ParseLoop(text));
    if (spec.loops.empty()) throw std::invalid_argument("loops: give at least one loop");
    if (axis) spec.axis = ParseAxis(*axis);
  } else {
    if (!axis) throw std::invalid_argument("axis: 'longitudinal' or 'lateral' (or loops=[...])");
    spec.axis = ParseAxis(*axis);
    spec.method = place ? study::DesignMethod::kPlace : study::DesignMethod::kLqr;
  }
  spec.include_integrators = heading;
  if (inputs) spec.inputs = *inputs;
  if (Q) spec.q_diagonal = *Q;
  if (R) spec.r_diagonal = *R;
  if (maximum)
    for (const auto& [key, value] : *maximum) {
      const std::string name = key.cast<std::string>();
      spec.maxima.emplace_back(name,
                               study::ParseMaximum(aircraft.data(), spec.axis, name, MaximumText(value)));
    }
  if (place) spec.poles = study::ParsePoles(*place);
  // The disturbance as `--disturbance` types it: a string, or {state: value}
  // (an SI number or a string with a unit, as `maximum`).
  std::optional<std::string> disturbance_text;
  std::vector<std::pair<std::string, std::string>> disturbance_items;
  if (py::isinstance<py::str>(disturbance)) {
    disturbance_text = disturbance.cast<std::string>();
  } else if (py::isinstance<py::dict>(disturbance)) {
    for (const auto& [key, value] : disturbance.cast<py::dict>())
      disturbance_items.emplace_back(key.cast<std::string>(), MaximumText(value));
    if (disturbance_items.empty()) throw std::invalid_argument("disturbance: give {state: value, ...}");
  } else if (!disturbance.is_none()) {
    throw std::invalid_argument("disturbance: {state: value, ...} or 'beta=5deg,r=2deg/s'");
  }
  const bool check = disturbance_text || !disturbance_items.empty();
  if (!actuators.empty() && !check)
    throw std::invalid_argument("actuators give the position stops that disturbance checks the commands against: "
                                "give them with disturbance");
  std::string json;
  std::vector<std::string> warnings;
  {
    py::gil_scoped_release release;
    const model::AircraftData& data = aircraft.data();
    const model::CommandPath stops = study::ResolveCommandPath(data, aircraft.path, actuators, std::nullopt);
    const exporting::AugmentReportHeader header{aircraft.path, data.name};
    // As `aerolin augment --loop` without --axis: one design per axis the
    // loops act on; two axes give the document aerolin.augment/2.
    const std::vector<study::AugmentResult> results =
        loops && !axis ? study::AugmentAxes(data, study::LoopDesignsByAxis(data, spec))
                       : std::vector<study::AugmentResult>{study::Augment(data, spec)};
    std::vector<study::SaturationCheck> checks;
    if (check) {
      const std::vector<study::DisturbanceComponent> components =
          disturbance_text ? study::ParseDisturbance(*disturbance_text, results)
                           : study::ParseDisturbance(disturbance_items, results);
      checks = study::CheckSaturations(results, components, stops);
      for (std::size_t k = 0; k < results.size(); ++k)
        for (const std::string& line : exporting::SaturationWarnings(results[k], checks[k])) warnings.push_back(line);
    }
    json = results.size() == 1
               ? exporting::AugmentJson(header, results.front(), check ? &checks.front() : nullptr)
               : exporting::AugmentAxesJson(header, results, check ? &checks : nullptr);
  }
  // As the CLI's "warning: ..." lines on stderr.
  for (const std::string& line : warnings)
    py::module_::import("warnings").attr("warn")(line, py::module_::import("builtins").attr("UserWarning"), 2);
  // The document of `aerolin augment --json`, as Python objects: one truth.
  return py::module_::import("json").attr("loads")(json);
}

}  // namespace

void BindAugment(py::module_& m) {
  m.def("lqr", &Lqr, py::arg("A"), py::arg("B"), py::arg("Q"), py::arg("R"), py::arg("N") = py::none(),
        "Linear-quadratic regulator: returns (K, X, E) with u = -K x minimizing\n"
        "integral of x'Qx + u'Ru + 2x'Nu, X the stabilizing solution of the continuous\n"
        "algebraic Riccati equation (ordered Schur form of the balanced Hamiltonian,\n"
        "LAPACK) and E the closed-loop eigenvalues eig(A - BK), as python-control's lqr.\n"
        "ValueError names the cause: Q not symmetric PSD, R not PD, a mode that cannot\n"
        "be moved, an unweighted mode on the imaginary axis; NumericalError if the\n"
        "relative residual exceeds 1e-8.");
  m.def("place", &Place, py::arg("A"), py::arg("B"), py::arg("poles"),
        "Pole placement: returns K with eig(A - BK) = poles. One input: the unique gain;\n"
        "several: Kautsky-Nichols-Van Dooren method 0 (as scipy.signal.place_poles'\n"
        "KNV0), the closed-loop eigenvectors made as orthogonal as possible. Complex\n"
        "poles in conjugate pairs; a pole at most rank(B) times.");
  m.def("augment", &Augment, py::arg("aircraft"), py::arg("axis") = py::none(),
        py::arg("place") = py::none(), py::arg("Q") = py::none(), py::arg("R") = py::none(),
        py::arg("maximum") = py::none(), py::arg("inputs") = py::none(), py::arg("heading") = false,
        py::arg("loops") = py::none(), py::arg("disturbance") = py::none(),
        py::arg("actuators") = std::vector<std::string>{},
        "Full-state augmentation of one axis (`aerolin augment --json`, schema\n"
        "aerolin.augment/1) as a dict.\n"
        "\n"
        "aircraft  an Aircraft, or the path of a data file\n"
        "axis      'longitudinal' or 'lateral'\n"
        "place     pole placement, poles as --place takes them ('short-period:wn=4,zeta=0.7',\n"
        "          '-2+3j,-2-3j,...'); without it, LQR\n"
        "Q, R      explicit diagonal weights (SI, design-state and input order); without\n"
        "          them, Bryson's rule with `maximum`: {name: value} (SI number, or a\n"
        "          string with a unit, '2deg', '5deg/s') replacing the default maxima\n"
        "inputs    the inputs to design with (default elevator; aileron, rudder)\n"
        "heading   lateral: design on psi too (heading hold)\n"
        "loops     output feedback at given gains instead, as --loop takes them:\n"
        "          ['aileron:p=0.3', 'rudder:r=1.7,washout=1.5'] (delta = K*y, K's sign as\n"
        "          aerolin locus); with `axis`, loops of that axis; without, loops of both\n"
        "          axes give one design per axis (schema aerolin.augment/2, as the CLI)\n"
        "disturbance  {state: value} (SI number, or a string with a unit: {'beta': '5deg',\n"
        "          'r': '2deg/s'}) or the text of --disturbance: each input's command at it,\n"
        "          sum_j |K_ij| |x_j| (the worst signs), against its position stop, as the\n"
        "          document's `saturation`; a UserWarning per input that saturates\n"
        "actuators ['rudder=0.05:25', ...] as --actuator (TAU_S[:LIMIT_DEG[:RATE_DEG_S]]),\n"
        "          replacing the file's [actuators] entries: the stops disturbance checks");
}

}  // namespace aerolin::python
