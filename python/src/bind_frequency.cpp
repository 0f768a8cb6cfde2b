// aerolin.tf, aerolin.bode and aerolin.frequency_response (`aerolin tf`,
// `aerolin bode`).

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/study/limits.hpp"
#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/transfer_function.hpp"

namespace aerolin::python {
namespace {

using analysis::BodeCurve;
using analysis::Factor;
using analysis::TransferFunction;

py::dict FactorRecord(const Factor& f) {
  py::dict d;
  d["root"] = f.root;
  d["second_order"] = f.second_order;
  d["wn"] = f.natural_frequency;
  d["zeta"] = f.damping_ratio;
  d["inverse_time_constant"] = f.inverse_time_constant;
  d["mode"] = f.mode_name;
  return d;
}

py::list FactorList(const std::vector<Factor>& factors) {
  py::list out;
  for (const Factor& f : factors) out.append(FactorRecord(f));
  return out;
}

TransferFunction Tf(const Aircraft& aircraft, const std::string& input, const std::string& output) {
  const analysis::ModalAnalysis& modes = aircraft.modes();
  py::gil_scoped_release release;
  const analysis::Channel channel = analysis::ResolveChannel(aircraft.data(), modes, input, {output});
  return analysis::ChannelTransferFunction(channel, modes, 0);
}

// A Bode curve plus the axis's mode marks.
struct Bode {
  BodeCurve curve;
  std::vector<analysis::ModeMark> marks;
};

using Frequencies = py::array_t<double, py::array::c_style | py::array::forcecast>;

// `omega` is taken as a float64 array (a numpy array of them without a
// per-element conversion, any sequence of numbers by one copy).
py::object BodeOf(const Aircraft& aircraft, const std::string& input, const py::object& output,
                  const std::optional<Frequencies>& omega, int points) {
  const bool single = py::isinstance<py::str>(output);
  const std::vector<std::string> outputs =
      single ? std::vector<std::string>{output.cast<std::string>()}
             : output.cast<std::vector<std::string>>();
  if (omega && omega->ndim() != 1)
    throw py::type_error("bode: omega must be a sequence of frequencies [rad/s], got " +
                         std::to_string(omega->ndim()) + " dimensions");
  // The CLI's limits (`bode --points`, repeated --output), and an empty
  // omega is no request for the default frequencies.
  study::CheckBodeRequest(outputs,
                          omega ? static_cast<long long>(omega->size()) : points, omega.has_value(),
                          "output", omega ? "omega" : "points");
  std::vector<double> w;
  if (omega) w.assign(omega->data(), omega->data() + omega->size());
  const analysis::ModalAnalysis& modes = aircraft.modes();
  std::shared_ptr<const analysis::BodeChannel> channel = aircraft.bode_channel(input, outputs);
  analysis::BodeDiagram diagram;
  {
    py::gil_scoped_release release;
    diagram = analysis::ComputeBodeDiagram(std::move(channel), modes, std::move(w), points);
  }
  std::vector<Bode> curves;
  for (BodeCurve& c : diagram.curves) curves.push_back(Bode{std::move(c), diagram.modes});
  if (single) return py::cast(std::move(curves.front()));
  return py::cast(std::move(curves));
}

template <typename F>
py::array_t<double> PointArray(const Bode& b, F f) {
  py::array_t<double> out(static_cast<py::ssize_t>(b.curve.points.size()));
  double* d = out.mutable_data();
  for (std::size_t k = 0; k < b.curve.points.size(); ++k) d[k] = f(b.curve.points[k]);
  return out;
}

// G(jω) of every output and input: shape (len(omega), outputs, inputs).
py::array_t<std::complex<double>> Response(const model::StateSpace& sys, const std::vector<double>& omega) {
  const auto n = static_cast<py::ssize_t>(omega.size());
  const py::ssize_t p = sys.num_outputs(), q = sys.num_inputs();
  py::array_t<std::complex<double>> out({n, p, q});
  auto view = out.mutable_unchecked<3>();
  {
    py::gil_scoped_release release;
    const analysis::FrequencyResponse response(sys);
    for (py::ssize_t k = 0; k < n; ++k)
      for (py::ssize_t j = 0; j < q; ++j) {
        const Eigen::VectorXcd g =
            response.Evaluate({0.0, omega[static_cast<std::size_t>(k)]}, static_cast<int>(j));
        for (py::ssize_t i = 0; i < p; ++i) view(k, i, j) = g[i];
      }
  }
  return out;
}

}  // namespace

std::shared_ptr<const analysis::BodeChannel> Aircraft::bode_channel(const std::string& input,
                                                                    const std::vector<std::string>& outputs) const {
  // At most kKeptBodeChannels kept: a script asking for ever new output
  // lists must not grow the aircraft without bound (the oldest are not
  // tracked; all are dropped and made again on use).
  constexpr std::size_t kKeptBodeChannels = 64;
  if (bode_channels_.size() >= kKeptBodeChannels && !bode_channels_.count({input, outputs})) bode_channels_.clear();
  std::shared_ptr<const analysis::BodeChannel>& kept = bode_channels_[{input, outputs}];
  if (!kept) {
    const analysis::ModalAnalysis& analysis = modes();
    try {
      kept = std::make_shared<const analysis::BodeChannel>(
          analysis::ResolveChannel(data(), analysis, input, outputs), analysis);
    } catch (...) {
      bode_channels_.erase({input, outputs});  // a bad request is not kept
      throw;
    }
  }
  return kept;
}

void BindFrequency(py::module_& m) {
  py::class_<TransferFunction>(
      m, "TransferFunction",
      "G(s) = gain · Π(s − zᵢ) / Π(s − pⱼ), minimal (cancelled pole-zero pairs removed),\n"
      "each pole factor named by its mode. Call it: tf(s) evaluates G at complex s\n"
      "(a number or a numpy array).")
      .def_property_readonly("input", [](const TransferFunction& t) { return t.input; })
      .def_property_readonly("output", [](const TransferFunction& t) { return t.output; })
      .def_readonly("gain", &TransferFunction::gain, "high-frequency gain K [output/input · s^−r]")
      .def_readonly("relative_degree", &TransferFunction::relative_degree)
      .def_readonly("dc_gain", &TransferFunction::dc_gain, "G(0), or None when infinite (integrators)")
      .def_readonly("integrators", &TransferFunction::integrators)
      .def_readonly("non_minimum_phase", &TransferFunction::non_minimum_phase)
      .def_readonly("identically_zero", &TransferFunction::identically_zero)
      .def_property_readonly("zeros", [](const TransferFunction& t) { return ToNumpy(t.ZeroRoots()); },
                             "every zero (both members of each pair), complex128")
      .def_property_readonly("poles", [](const TransferFunction& t) { return ToNumpy(t.PoleRoots()); },
                             "every pole of the minimal form, complex128")
      .def_property_readonly("numerator", [](const TransferFunction& t) { return ToNumpy(t.Numerator()); },
                             "K Π(s − zᵢ), coefficients highest power first")
      .def_property_readonly("denominator", [](const TransferFunction& t) { return ToNumpy(t.Denominator()); },
                             "Π(s − pⱼ), monic, highest power first")
      .def_property_readonly("zero_factors", [](const TransferFunction& t) { return FactorList(t.zeros); },
                             "dicts {root, second_order, wn, zeta, inverse_time_constant, mode}")
      .def_property_readonly("pole_factors", [](const TransferFunction& t) { return FactorList(t.poles); },
                             "as zero_factors; `mode` names the mode of each pole")
      .def_property_readonly(
          "cancelled",
          [](const TransferFunction& t) {
            py::list out;
            for (const analysis::Cancellation& c : t.cancelled) {
              py::dict d = FactorRecord(c.pole);
              d["zero"] = c.zero;
              d["distance"] = c.distance;
              out.append(d);
            }
            return out;
          },
          "pole factors removed with the zero that cancelled them")
      .def(
          "__call__",
          [](const TransferFunction& t, const py::object& s) -> py::object {
            const auto in =
                py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>::ensure(s);
            if (!in) throw py::type_error("tf(s): s must be a complex number or array");
            if (in.ndim() == 0) return py::cast(t.Evaluate(*in.data()));
            py::array_t<std::complex<double>> out(
                std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
            const std::complex<double>* x = in.data();
            std::complex<double>* y = out.mutable_data();
            for (py::ssize_t k = 0; k < in.size(); ++k) y[k] = t.Evaluate(x[k]);
            return out;
          },
          py::arg("s"))
      .def("__repr__", [](const TransferFunction& t) {
        return "<aerolin.TransferFunction " + t.output.name + "/" + t.input.name + ">";
      });

  py::class_<Bode>(m, "Bode",
                   "One output's Bode data: numpy arrays over omega, its transfer function,\n"
                   "resonances and −3 dB bandwidth.")
      .def_property_readonly("omega", [](const Bode& b) { return PointArray(b, [](auto& p) { return p.omega; }); },
                             "ω [rad/s]")
      .def_property_readonly("value",
                             [](const Bode& b) {
                               std::vector<std::complex<double>> v;
                               for (const auto& p : b.curve.points) v.push_back(p.value);
                               return ToNumpy(v);
                             },
                             "G(jω), complex128")
      .def_property_readonly("magnitude", [](const Bode& b) { return PointArray(b, [](auto& p) { return p.magnitude; }); })
      .def_property_readonly("magnitude_db",
                             [](const Bode& b) { return PointArray(b, [](auto& p) { return p.magnitude_db; }); })
      .def_property_readonly("phase_deg", [](const Bode& b) { return PointArray(b, [](auto& p) { return p.phase_deg; }); },
                             "continuous (unwrapped) phase [deg], first point in (−360, 0]")
      .def_property_readonly("phase_principal_deg",
                             [](const Bode& b) { return PointArray(b, [](auto& p) { return p.phase_principal_deg; }); },
                             "arg G in (−180, 180] [deg]")
      .def_property_readonly("tf", [](const Bode& b) { return b.curve.tf; })
      .def_property_readonly("bandwidth", [](const Bode& b) { return b.curve.bandwidth; },
                             "−3 dB bandwidth relative to the DC gain [rad/s], or None")
      .def_property_readonly(
          "resonances",
          [](const Bode& b) {
            py::list out;
            for (const analysis::NamedResonance& r : b.curve.resonances) {
              py::dict d;
              d["mode"] = r.name;
              d["omega"] = r.resonance.omega;
              d["magnitude_db"] = r.resonance.magnitude_db;
              d["prominence_db"] = r.resonance.prominence_db;
              out.append(d);
            }
            return out;
          },
          "short-period / Dutch-roll peaks: dicts {mode, omega, magnitude_db, prominence_db}")
      .def_property_readonly(
          "modes",
          [](const Bode& b) {
            py::list out;
            for (const analysis::ModeMark& mark : b.marks) out.append(py::make_tuple(mark.name, mark.natural_frequency));
            return out;
          },
          "(mode name, ωn) of the axis's modes, ωn ascending")
      .def("__repr__", [](const Bode& b) {
        return "<aerolin.Bode " + b.curve.tf.output.name + "/" + b.curve.tf.input.name + ", " +
               std::to_string(b.curve.points.size()) + " frequencies>";
      });

  m.def("tf", &Tf, py::arg("aircraft"), py::arg("input"), py::arg("output"),
        "The transfer function from a control (e.g. 'elevator') to an output (a state\n"
        "u, alpha, q, theta, beta, p, r, phi, psi, or nz, gamma, ay), as `aerolin tf`.");
  m.def("bode", &BodeOf, py::arg("aircraft"), py::arg("input"), py::arg("output"),
        py::arg("omega") = py::none(), py::arg("points") = 400,
        "Bode data as `aerolin bode`: at `omega` [rad/s] (ascending), or `points`\n"
        "log-spaced frequencies from a decade below the axis's slowest mode to a decade\n"
        "above its fastest. `output` a name gives one Bode, a list of names a list.");
  m.def("frequency_response", &Response, py::arg("system"), py::arg("omega"),
        "G(jω) = C (jωI − A)⁻¹ B + D of a StateSpace at each ω [rad/s] (Hessenberg\n"
        "method, O(n²) per frequency). Raises aerolin.NumericalError at an eigenvalue.");
}

}  // namespace aerolin::python
