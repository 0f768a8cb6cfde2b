#include "aerolin/export/frequency_report.hpp"

#include <cmath>
#include <functional>
#include <iterator>
#include <span>
#include <sstream>
#include <vector>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "aerolin/model/conventions.hpp"
#include "display_units.hpp"
#include "json_numbers.hpp"
#include "json_writer.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Factor;
using analysis::TransferFunction;

// Four significant digits, exponent form for tiny values (as modes_text).
std::string Sig(double v) {
  if (v != 0.0 && std::abs(v) < 1e-3) return fmt::format("{:.3e}", v);
  return fmt::format("{:.4g}", v);
}

// A signal as shown: a speed in `speed_units`, anything else in SI.
DisplayUnit Shown(const core::Signal& s, core::UnitSystem speed_units) {
  return DisplayUnitOf(s.unit, s.unit == core::Unit::kMetrePerSecond ? speed_units
                                                                      : core::UnitSystem::kSI);
}

double SpeedScale(const core::Signal& output, core::UnitSystem speed_units) {
  return Shown(output, speed_units).per_si;
}

std::string FactorText(const Factor& f) {
  if (f.second_order)
    return "(s² + 2(" + Sig(f.damping_ratio) + ")(" + Sig(f.natural_frequency) + ")s + " +
           Sig(f.natural_frequency) + "²)";
  if (f.root == 0.0) return "s";
  const double a = f.inverse_time_constant;
  return "(s " + std::string(a < 0.0 ? "- " : "+ ") + Sig(std::abs(a)) + ")";
}

std::string Product(const std::vector<Factor>& factors) {
  std::string out;
  for (const Factor& f : factors) out += FactorText(f);
  return out;
}

std::string RootText(std::complex<double> r) {
  std::string s = Sig(r.real());
  if (r.imag() != 0.0) s += " ± " + Sig(std::abs(r.imag())) + "i";
  return s;
}

std::string FactorDescription(const Factor& f) {
  if (f.second_order)
    return fmt::format("s = {:<22} ωn = {} rad/s, ζ = {}", RootText(f.root),
                       Sig(f.natural_frequency), Sig(f.damping_ratio));
  if (f.root == 0.0) return fmt::format("s = {:<22} (s alone)", "0");
  const double a = f.inverse_time_constant;
  return fmt::format("s = {:<22} 1/T = {} 1/s (T = {} s)", RootText(f.root), Sig(a), Sig(1.0 / a));
}

// Pads to `width` code points (², ζ count as one column).
std::string Pad(const std::string& s, std::size_t width) {
  std::size_t points = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++points;
  return points >= width ? s + " " : s + std::string(width - points, ' ');
}

nlohmann::json Complex(std::complex<double> z) { return {{"re", z.real()}, {"im", z.imag()}}; }

nlohmann::json FactorJson(const Factor& f) {
  nlohmann::json j = {{"order", f.second_order ? 2 : 1}, {"root", Complex(f.root)},
                      {"natural_frequency", f.natural_frequency}};
  if (f.second_order)
    j["damping_ratio"] = f.damping_ratio;
  else
    j["inverse_time_constant"] = f.inverse_time_constant;
  j["mode"] = f.mode_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.mode_name);
  return j;
}

nlohmann::json TransferFunctionObject(const TransferFunction& tf, core::UnitSystem speed_units) {
  const double k = SpeedScale(tf.output, speed_units);
  nlohmann::json zeros = nlohmann::json::array(), poles = nlohmann::json::array();
  for (const std::complex<double>& z : tf.ZeroRoots()) zeros.push_back(Complex(z));
  for (const Factor& p : tf.poles) {
    const nlohmann::json mode = p.mode_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.mode_name);
    poles.push_back({{"re", p.root.real()}, {"im", p.root.imag()}, {"mode", mode}});
    if (p.second_order) poles.push_back({{"re", p.root.real()}, {"im", -p.root.imag()}, {"mode", mode}});
  }
  nlohmann::json zf = nlohmann::json::array(), pf = nlohmann::json::array();
  for (const Factor& f : tf.zeros) zf.push_back(FactorJson(f));
  for (const Factor& f : tf.poles) pf.push_back(FactorJson(f));
  nlohmann::json cancelled = nlohmann::json::array();
  for (const analysis::Cancellation& c : tf.cancelled)
    cancelled.push_back({{"mode", c.pole.mode_name.empty() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(c.pole.mode_name)},
                         {"pole", Complex(c.pole.root)},
                         {"zero", Complex(c.zero)},
                         {"distance", c.distance}});
  std::vector<double> numerator = tf.Numerator();
  for (double& v : numerator) v *= k;
  return {{"input", tf.input.name},
          {"output", tf.output.name},
          {"unit", GainUnit(tf.output, tf.input, speed_units)},
          {"gain", tf.gain * k},
          {"gain_unit", GainUnit(tf.output, tf.input, speed_units) +
                            (tf.relative_degree != 0 ? fmt::format(" s^-{}", tf.relative_degree) : "")},
          {"relative_degree", tf.relative_degree},
          {"dc_gain", tf.dc_gain ? nlohmann::json(*tf.dc_gain * k) : nlohmann::json(nullptr)},
          {"integrators", tf.integrators},
          {"non_minimum_phase", tf.non_minimum_phase},
          {"identically_zero", tf.identically_zero},
          {"zeros", zeros},
          {"poles", poles},
          {"zero_factors", zf},
          {"pole_factors", pf},
          {"cancelled", cancelled},
          {"numerator", numerator},
          {"denominator", tf.Denominator()}};
}

nlohmann::json Header(const model::AircraftData& aircraft, std::string_view file,
                      std::string_view schema) {
  return {{"schema", std::string(schema)},
          {"file", std::string(file)},
          {"aircraft", {{"name", aircraft.name}, {"source", aircraft.source}}}};
}

std::string Csv(double v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return fmt::format("{}", v);
}

}  // namespace

std::string GainUnit(const core::Signal& output, const core::Signal& input,
                     core::UnitSystem speed_units) {
  const std::string out = Shown(output, speed_units).name;
  if (input.unit == core::Unit::kOne) return out;
  const std::string in(core::ToString(input.unit));
  return (out.find('/') != std::string::npos ? "(" + out + ")" : out) + "/" + in;
}

std::string FactoredForm(const TransferFunction& tf, core::UnitSystem speed_units) {
  if (tf.identically_zero) return "0";
  std::string s = Sig(tf.gain * SpeedScale(tf.output, speed_units));
  // Appended piece by piece: GCC 12 warns -Wrestrict (a false positive) on
  // " / [" + std::string inlined here.
  if (!tf.zeros.empty()) s.append(" ").append(Product(tf.zeros));
  if (!tf.poles.empty()) s.append(" / [").append(Product(tf.poles)).append("]");
  return s;
}

void WriteTransferFunctionHeading(std::ostream& out, const model::AircraftData& aircraft,
                                  std::string_view file, model::Axis axis,
                                  core::UnitSystem speed_units) {
  out << aircraft.name << "  (" << file << ")\n"
      << (axis == model::Axis::kLongitudinal ? "longitudinal" : "lateral-directional") << ", x = ("
      << model::JoinSymbols(model::StateSignals(axis))
      << "); G(s) = K Π(s - zᵢ) / Π(s - pⱼ), SI"
      << (speed_units == core::UnitSystem::kSI
              ? ""
              : " with speeds in " + DisplayUnitOf(core::Unit::kMetrePerSecond, speed_units).name)
      << ", angles in rad\n\n";
}

void WriteTransferFunctionText(std::ostream& out, const TransferFunction& tf,
                               core::UnitSystem speed_units) {
  const std::string unit = GainUnit(tf.output, tf.input, speed_units);
  out << tf.output.name << "/" << tf.input.name << "  [" << unit << "]\n";
  out << "  G(s) = " << FactoredForm(tf, speed_units) << '\n';
  if (tf.identically_zero) {
    out << "  the control does not reach this output\n";
    return;
  }
  const double k = SpeedScale(tf.output, speed_units);
  out << "  high-frequency gain K = " << Sig(tf.gain * k) << " " << unit
      << (tf.relative_degree != 0 ? fmt::format("·s^-{}", tf.relative_degree) : std::string())
      << " (relative degree " << tf.relative_degree << ")\n";
  out << "  zeros:" << (tf.zeros.empty() ? " none" : "") << '\n';
  for (const Factor& f : tf.zeros)
    out << "    " << Pad(FactorText(f), 38) << FactorDescription(f)
        << (f.root.real() > 0.0 ? "  right half-plane" : "") << '\n';
  out << "  poles:" << (tf.poles.empty() ? " none" : "") << '\n';
  for (const Factor& f : tf.poles)
    out << "    " << Pad(f.mode_name.empty() ? "-" : f.mode_name, 26) << Pad(FactorText(f), 38)
        << FactorDescription(f) << '\n';
  if (tf.dc_gain)
    out << "  DC gain G(0) = " << Sig(*tf.dc_gain * k) << " " << unit << '\n';
  else
    out << "  DC gain: infinite (" << tf.integrators << " pole" << (tf.integrators > 1 ? "s" : "")
        << " at s = 0: the output integrates a constant input)\n";
  out << (tf.non_minimum_phase ? "  NON-MINIMUM PHASE: a zero in the right half-plane\n"
                               : "  minimum phase (no zero in the right half-plane)\n");
  if (tf.cancelled.empty()) {
    out << "  cancelled pole-zero pairs: none\n";
  } else {
    out << "  cancelled pole-zero pairs (|z - p| <= " << analysis::kCancellationTolerance
        << " max(|p|, largest |pole|)):\n";
    for (const analysis::Cancellation& c : tf.cancelled)
      out << "    " << (c.pole.mode_name.empty() ? "pole" : c.pole.mode_name) << " s = "
          << RootText(c.pole.root) << " against zero s = " << RootText(c.zero)
          << " (|z - p| = " << fmt::format("{:.1e}", c.distance) << ")\n";
  }
}

std::string TransferFunctionJson(const model::AircraftData& aircraft, std::string_view file,
                                 const std::vector<TransferFunction>& tfs, bool all,
                                 core::UnitSystem speed_units) {
  nlohmann::json doc = Header(aircraft, file, "aerolin.tf/1");
  doc["speed_unit"] = DisplayUnitOf(core::Unit::kMetrePerSecond, speed_units).name;
  if (all) {
    doc["input"] = tfs.empty() ? "" : tfs.front().input.name;
    nlohmann::json list = nlohmann::json::array();
    for (const TransferFunction& tf : tfs) list.push_back(TransferFunctionObject(tf, speed_units));
    doc["transfer_functions"] = list;
  } else {
    doc.update(TransferFunctionObject(tfs.at(0), speed_units));
  }
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

namespace {

// The points of a diagram's curves, a chunk at a time: `curves` lists the
// curves wanted, and `f` receives their next points (one span each, the same
// frequencies) until the last. A whole diagram gives its points at once; a
// BodeSweep computes them as they are asked for.
using BodeChunks = std::function<void(std::span<const std::size_t> curves,
                                      const std::function<void(std::span<const std::span<const analysis::BodePoint>>)>& f)>;

BodeChunks ChunksOf(const analysis::BodeDiagram& diagram) {
  return [&diagram](std::span<const std::size_t> curves,
                    const std::function<void(std::span<const std::span<const analysis::BodePoint>>)>& f) {
    std::vector<std::span<const analysis::BodePoint>> all;
    for (std::size_t k : curves) all.emplace_back(diagram.curves[k].points);
    if (!all.empty() && !all.front().empty()) f(all);
  };
}

BodeChunks ChunksOf(const analysis::BodeSweep& sweep) {
  return [&sweep](std::span<const std::size_t> curves,
                  const std::function<void(std::span<const std::span<const analysis::BodePoint>>)>& f) {
    sweep.ForEachChunk(curves, f);
  };
}

// `diagram`: the curves' summaries (their points, if any, are not read).
void WriteBodeJsonOf(std::ostream& out, const model::AircraftData& aircraft, std::string_view file,
                     const analysis::BodeDiagram& diagram, const BodeChunks& chunks) {
  // Members in nlohmann's sorted order, each curve's points as they are formatted.
  JsonWriter w(out);
  w.BeginObject();
  w.Key("aircraft").Dom({{"name", aircraft.name}, {"source", aircraft.source}});
  w.Key("curves").BeginArray();
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const analysis::BodeCurve& c = diagram.curves[k];
    w.BeginObject();
    w.Key("bandwidth");
    c.bandwidth ? w.Number(*c.bandwidth) : w.Null();
    w.Key("dc_gain");
    c.tf.dc_gain ? w.Number(*c.tf.dc_gain) : w.Null();
    w.Key("output").String(c.tf.output.name);
    w.Key("points").BeginArray();
    const std::size_t curve[] = {k};
    chunks(curve, [&w](std::span<const std::span<const analysis::BodePoint>> chunk) {
      for (const analysis::BodePoint& p : chunk[0]) {
        w.BeginObject();
        w.Key("magnitude").Number(p.magnitude);
        w.Key("magnitude_db").Number(p.magnitude_db);  // −inf: null, as Db
        w.Key("omega").Number(p.omega);
        w.Key("phase_deg").Number(p.phase_deg);
        w.Key("phase_principal_deg").Number(p.phase_principal_deg);
        w.EndObject();
      }
    });
    w.EndArray();
    nlohmann::json resonances = nlohmann::json::array();
    for (const analysis::NamedResonance& r : c.resonances)
      resonances.push_back({{"mode", r.name},
                            {"omega", r.resonance.omega},
                            {"magnitude_db", r.resonance.magnitude_db},
                            {"prominence_db", r.resonance.prominence_db}});
    w.Key("resonances").Dom(std::move(resonances));
    w.Key("unit").String(GainUnit(c.tf.output, c.tf.input, core::UnitSystem::kSI));
    w.EndObject();
  }
  w.EndArray();
  w.Key("file").String(file);
  w.Key("input").String(diagram.input.name);
  nlohmann::json modes = nlohmann::json::array();
  for (const analysis::ModeMark& m : diagram.modes)
    modes.push_back({{"name", m.name}, {"natural_frequency", m.natural_frequency}});
  w.Key("modes").Dom(std::move(modes));
  w.Key("schema").String("aerolin.bode/1");
  w.EndObject();
  w.Flush();
}

void WriteBodeCsvOf(std::ostream& out, const analysis::BodeDiagram& diagram, const BodeChunks& chunks) {
  out << "omega";
  for (const analysis::BodeCurve& c : diagram.curves) {
    const std::string& n = c.tf.output.name;
    out << ',' << n << "_magnitude," << n << "_magnitude_db," << n << "_phase_deg," << n
        << "_phase_principal_deg";
  }
  out << '\n';
  if (diagram.curves.empty()) return;
  std::vector<std::size_t> curves(diagram.curves.size());
  for (std::size_t k = 0; k < curves.size(); ++k) curves[k] = k;
  chunks(curves, [&out](std::span<const std::span<const analysis::BodePoint>> chunk) {
    for (std::size_t i = 0; i < chunk.front().size(); ++i) {
      out << Csv(chunk.front()[i].omega);
      for (std::span<const analysis::BodePoint> c : chunk) {
        const analysis::BodePoint& p = c[i];
        out << ',' << Csv(p.magnitude) << ',' << Csv(p.magnitude_db) << ',' << Csv(p.phase_deg)
            << ',' << Csv(p.phase_principal_deg);
      }
      out << '\n';
    }
  });
}

void WriteBodeTextOf(std::ostream& out, const analysis::BodeDiagram& diagram, const BodeChunks& chunks) {
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const analysis::BodeCurve& c = diagram.curves[k];
    const std::string unit = GainUnit(c.tf.output, c.tf.input, core::UnitSystem::kSI);
    out << c.tf.output.name << "/" << c.tf.input.name << "  [" << unit << "]\n";
    out << "  G(s) = " << FactoredForm(c.tf, core::UnitSystem::kSI) << '\n';
    out << "  DC gain: " << (c.tf.dc_gain ? Sig(*c.tf.dc_gain) : std::string("infinite"))
        << ", -3 dB bandwidth: " << (c.bandwidth ? Sig(*c.bandwidth) + " rad/s" : std::string("-"))
        << '\n';
    for (const analysis::NamedResonance& r : c.resonances)
      out << "  resonance (" << r.name << "): " << Sig(r.resonance.magnitude_db) << " dB at "
          << Sig(r.resonance.omega) << " rad/s, " << Sig(r.resonance.prominence_db)
          << " dB above the trend\n";
    out << fmt::format("  {:>12} {:>12} {:>10} {:>10}\n", "ω [rad/s]", "|G|", "|G| [dB]",
                       "phase [°]");
    const std::size_t curve[] = {k};
    chunks(curve, [&out](std::span<const std::span<const analysis::BodePoint>> chunk) {
      fmt::memory_buffer buffer;
      for (const analysis::BodePoint& p : chunk[0])
        fmt::format_to(std::back_inserter(buffer), "  {:>12.5g} {:>12.5g} {:>10.3f} {:>10.2f}\n", p.omega,
                       p.magnitude, p.magnitude_db, p.phase_deg);
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    });
  }
}

}  // namespace

void WriteBodeJson(std::ostream& out, const model::AircraftData& aircraft, std::string_view file,
                   const analysis::BodeDiagram& diagram) {
  WriteBodeJsonOf(out, aircraft, file, diagram, ChunksOf(diagram));
}

void WriteBodeJson(std::ostream& out, const model::AircraftData& aircraft, std::string_view file,
                   const analysis::BodeSweep& sweep) {
  WriteBodeJsonOf(out, aircraft, file, sweep.summary(), ChunksOf(sweep));
}

std::string BodeJson(const model::AircraftData& aircraft, std::string_view file,
                     const analysis::BodeDiagram& diagram) {
  std::ostringstream out;
  WriteBodeJson(out, aircraft, file, diagram);
  return std::move(out).str();
}

void WriteBodeCsv(std::ostream& out, const analysis::BodeDiagram& diagram) {
  WriteBodeCsvOf(out, diagram, ChunksOf(diagram));
}

void WriteBodeCsv(std::ostream& out, const analysis::BodeSweep& sweep) {
  WriteBodeCsvOf(out, sweep.summary(), ChunksOf(sweep));
}

void WriteBodeText(std::ostream& out, const analysis::BodeDiagram& diagram) {
  WriteBodeTextOf(out, diagram, ChunksOf(diagram));
}

void WriteBodeText(std::ostream& out, const analysis::BodeSweep& sweep) {
  WriteBodeTextOf(out, sweep.summary(), ChunksOf(sweep));
}

}  // namespace aerolin::exporting
