#include "aerolin/data/load_aircraft.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <sstream>
#include <string_view>
#include <tuple>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/core/files.hpp"
#include "aerolin/data/avl_coefficients.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "aerolin/data/avl_st.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/airplane_class.hpp"
#include "aerolin/model/atmosphere.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/coefficients.hpp"
#include "aerolin/model/conversions.hpp"
#include "aerolin/model/inertia_axes.hpp"
#include "aerolin/model/parameters.hpp"
#include "aerolin/model/typed_values.hpp"

namespace aerolin::data {
namespace {

using core::Dimension;
using core::Diagnostic;
using core::SourceLocation;
using core::UnitSystem;

using model::Divisor;
using model::Parameter;

// Keys of a section's derivatives, in the parameter table's order (the order
// of "did you mean" candidates).
std::vector<std::string_view> KeysOf(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const Parameter& p : model::Parameters())
    if (p.section == section) keys.push_back(p.key);
  return keys;
}

// The member of `c` that derivative key X, Z, M, Y, L or N sets.
double& ControlDerivative(model::Control& c, std::string_view key) {
  if (key == "X") return c.X;
  if (key == "Z") return c.Z;
  if (key == "M") return c.M;
  if (key == "Y") return c.Y;
  if (key == "L") return c.L;
  return c.N;
}

// A control's derivative keys (X Z M Y L N): the "controls" rows that have a divisor.
std::vector<const Parameter*> ControlDerivatives() {
  std::vector<const Parameter*> rows;
  for (const Parameter& p : model::Parameters())
    if (p.section == "controls" && p.divisor != Divisor::kNone) rows.push_back(&p);
  return rows;
}

// Required keys of each form; optional ones default to 0 because the
// textbooks neglect them (Xq, Zα̇); documented in data/derivatives/README.md.
constexpr std::string_view kAlphaFormKeys[] = {"Xa", "Za", "Ma", "Madot"};
constexpr std::string_view kWFormKeys[] = {"Xw", "Zw", "Mw", "Mwdot"};
constexpr std::string_view kLongitudinalCommonKeys[] = {"Xu", "Zu", "Mu", "Zq", "Mq"};
constexpr std::string_view kBetaFormKeys[] = {"Yb", "Lb", "Nb"};
constexpr std::string_view kVFormKeys[] = {"Yv", "Lv", "Nv"};
constexpr std::string_view kLateralCommonKeys[] = {"Yp", "Yr", "Lp", "Lr", "Np", "Nr"};

// Shortest readable form of a number for messages (4 significant digits).
std::string Format(double v) { return fmt::format("{:.4g}", v); }

SourceLocation LocationOf(const toml::node& node, const std::string& path) {
  const toml::source_region& src = node.source();
  const int line = static_cast<int>(src.begin.line);
  return {path, line > 0 ? line : 1};
}

// Levenshtein distance, case-insensitive, for "did you mean".
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Spelling variants users write for the same derivative: "M_alpha",
// "Malfa", "Nbeta", "M_alpha_dot" all reduce to the key's canonical form.
std::string Canonical(std::string_view key) {
  static constexpr std::pair<std::string_view, std::string_view> kSpellings[] = {
      {"alpha", "a"}, {"alfa", "a"}, {"beta", "b"}, {"Dot", "dot"}};
  std::string out;
  for (std::size_t i = 0; i < key.size();) {
    if (key[i] == '_') {
      ++i;
      continue;
    }
    bool replaced = false;
    for (const auto& [from, to] : kSpellings)
      if (key.substr(i, from.size()) == from) {
        out += to;
        i += from.size();
        replaced = true;
        break;
      }
    if (!replaced) out += key[i++];
  }
  return out;
}

std::optional<std::string> Suggest(std::string_view key,
                                   const std::vector<std::string_view>& allowed) {
  const std::string canonical = Canonical(key);
  for (std::string_view candidate : allowed)
    if (canonical == candidate) return std::string(candidate);
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // suggest only close matches (≤ 2 edits)
  for (std::string_view candidate : allowed) {
    const std::size_t d = EditDistance(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

// A derivative section's two spellings of the same derivatives (α- or
// w-form, β- or v-form): the required keys of each, each one's optional key,
// and the keys both need.
struct FormChoice {
  std::string_view section;  // "longitudinal", "lateral"
  std::span<const std::string_view> first;
  std::string_view first_optional;  // "" if none
  std::span<const std::string_view> second;
  std::string_view second_optional;
  std::span<const std::string_view> common;
  std::string_view both_given;  // message when keys of both forms appear
};

constexpr FormChoice kLongitudinalForms{
    "longitudinal", kAlphaFormKeys, "Zadot", kWFormKeys, "Zwdot", kLongitudinalCommonKeys,
    "both α-form (Xa Za Ma Madot) and w-form (Xw Zw Mw Mwdot) derivatives given; use one "
    "form per file"};
constexpr FormChoice kLateralForms{
    "lateral", kBetaFormKeys, "", kVFormKeys, "", kLateralCommonKeys,
    "both β-form (Yb Lb Nb) and v-form (Yv Lv Nv) derivatives given; use one form per file"};

// Reads one file; collects every defect instead of stopping at the first.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  LoadResult Read(const toml::table& root);

 private:
  void Error(const SourceLocation& where, std::string message) {
    errors_.push_back({where, std::move(message)});
  }
  void Warn(const SourceLocation& where, std::string message) {
    warnings_.push_back({where, std::move(message)});
  }
  SourceLocation At(const toml::node& node) const { return LocationOf(node, path_); }

  const toml::table* RequireTable(const toml::table& root, std::string_view name);
  void CheckKeys(const toml::table& table, std::string_view table_name,
                 const std::vector<std::string_view>& allowed, std::string_view hint = {});
  std::optional<double> Number(const toml::table& table, std::string_view key,
                               std::string_view table_name);
  std::optional<std::string> String(const toml::table& table, std::string_view key,
                                    std::string_view table_name, bool required);
  std::optional<bool> Bool(const toml::table& table, std::string_view key,
                           std::string_view table_name);
  void Missing(const toml::table& table, std::string_view table_name,
               std::string_view key, std::string_view hint);

  void ReadAircraft(const toml::table& root, model::AircraftData& out);
  void ReadCondition(const toml::table& root, model::AircraftData& out);
  void ReadMass(const toml::table& root);
  void ReadGeometry(const toml::table& root, model::AircraftData& out);
  void ReadLongitudinal(const toml::table& root);
  void CheckMagnitudes(const toml::table& root, const model::AircraftData& out);
  void ReadLateral(const toml::table& root);
  // [lateral] beta = "v/U0" (default) or "v/V" (model::SideslipDefinition).
  void ReadSideslipDefinition(const toml::table& lateral, bool v_form);
  void ReadControls(const toml::table& root);
  // A [controls.NAME] table's unit ("rad" or "1") and limits min, max (in
  // that unit), into `c` (whose name is set); shared by ReadControls and the
  // AVL controls.
  void ReadControlUnit(const toml::table& t, const std::string& table_name, model::Control& c);
  void ReadLimits(const toml::table& t, const std::string& table_name, model::Control& c);
  void CheckSigns(const toml::table& root, const model::AircraftData& out);
  // Every numeric key the file gives, as written, with its factor to the SI
  // field of the written form (model/as_written.hpp).
  // `omitted`: the numbers left out, with why (model::AircraftFile::omitted).
  std::vector<model::WrittenKey> WrittenKeys(const toml::table& root,
                                             std::vector<model::OmittedKey>& omitted) const;
  // An AVL file's .st numbers that reach A, as keys "avl.NAME" (AVL's
  // names) and "avl.CONTROL.{CL,CD,CY,Cl,Cm,Cn}"; what does not, in `omitted`.
  std::vector<model::WrittenKey> AvlKeys(const toml::table& root, std::vector<model::OmittedKey>& omitted) const;

  // Converts a derivative as written to SI (in its raw dimension for the raw
  // form); the model's conversions normalize it later. Reports, once per
  // quantity, a raw derivative whose divisor [mass] lacks: nullopt then.
  std::optional<double> ToSI(double value, const Parameter& spec, bool raw,
                             const SourceLocation& where);

  // The "form" key of a derivative section: true for raw.
  std::optional<bool> ReadForm(const toml::table& table, std::string_view table_name);
  // Which spelling a section uses (α/w, β/v); see FormChoice.
  std::optional<bool> ChooseForm(const toml::table& table, const FormChoice& choice);
  // The SI value of derivative `key` as written (0 where it is absent or
  // bad, which is then reported).
  double Derivative(const toml::table& table, std::string_view section, std::string_view key,
                    bool raw);

  std::string path_;
  std::vector<Diagnostic> errors_;
  std::vector<Diagnostic> warnings_;
  std::vector<std::string> suggested_;  // "table.key" offered as "did you mean"
  UnitSystem units_ = UnitSystem::kSI;
  bool units_known_ = false;
  double U0_ = 1.0;  // SI, for w/v-form conversion
  // What the file says, SI, for model::Convert: [mass] (nullopt when absent),
  // the derivative sections with their forms, the controls' raw values.
  model::AircraftAsWritten written_;
  SourceLocation mass_at_{};
  SourceLocation ixz_at_{};
  const toml::node* zadot_node_ = nullptr;  // Zadot or Zwdot, for the singularity check
  std::optional<bool> lateral_primed_;

  // Coefficient form, standard atmosphere, body-axis inertias, per degree
  // (data/derivatives/README.md); defined together below Reader::ReadControls.
  bool IsCoefficientForm(const toml::table& section) const;
  // The factor to per radian of `key` in `section` (180/π under per_degree = true
  // for an angle derivative; 1 otherwise); reads per_degree once per section.
  double PerDegreeFactor(const toml::table& t, const std::string& section, std::string_view key);
  // Why `key`, unknown in [table_name], is not what the user thinks (a
  // coefficient in a dimensional section, a case slip); nullopt if nothing to say.
  std::optional<std::string> KeyHint(std::string_view key, std::string_view table_name) const;
  void ReadConditionExtras(const toml::table& t, model::FlightCondition& fc);
  // The 1976 standard atmosphere at `altitude` [m], or nullopt after an error
  // at `at` saying to give `instead` (U0 or rho).
  std::optional<model::AtmosphereState> StandardAtmosphereAt(const toml::node& at, double altitude,
                                                             const char* instead);
  void ReadMassExtras(const toml::table& t);
  // Rotates body-axis inertias into the derivatives' axes (keeping them in body_mass_).
  void SetBodyInertias(const model::MassProperties& body);
  void ReadGeometryExtras(const toml::table& t);
  void ReadLongitudinalCoefficients(const toml::table& t);
  void ReadLateralCoefficients(const toml::table& t);
  std::vector<std::string_view> ControlKeys() const;
  // Reads a control's coefficient keys into coefficients_.controls (one entry
  // per control, aligned with written_.controls); true if it gave any.
  bool ReadControlCoefficients(const toml::table& t, const std::string& table_name,
                               const std::string& name, double factor);
  // Converts the coefficient sections (model::ToDimensional) into written_.
  void ApplyCoefficients(const toml::table& root);

  bool lon_coefficients_ = false;  // [longitudinal] form = "coefficients"
  bool lat_coefficients_ = false;  // [lateral] form = "coefficients"
  model::CoefficientsAsWritten coefficients_;
  std::optional<model::AircraftAsWritten> from_coefficients_;
  std::optional<double> rho_, alpha0_, S_, c_, b_, W_;  // SI
  double W0_ = 0.0, g_ = core::kStandardGravity, theta0_ = 0.0;  // SI
  std::optional<double> altitude_, mach_;                // SI, [condition]
  bool condition_gives_g_ = false;                       // else g_ is standard gravity
  std::map<std::string, double> per_degree_;             // section → factor, read once
  bool inertias_rotated_ = false;  // [mass] axes = "body": Ix, Iz, Ixz as written are not the fields
  std::optional<model::MassProperties> body_mass_;  // SI, before that rotation (by alpha0_)
  std::optional<double> speed_of_sound_;  // a(altitude) [m/s] when U0 = mach · a
  // A coefficient file's keys of [condition], [mass], [geometry] and its
  // coefficient sections (fields of coefficients_), with their SI factors;
  // the numbers it gives but sensitivities and sweeps leave out, with why.
  std::optional<model::WrittenKey> CoefficientKey(const toml::table& t, std::string_view section,
                                                  const std::string& prefix, std::string_view key,
                                                  std::vector<model::OmittedKey>& omitted) const;

  // AVL files (data/derivatives/README.md, "AVL files"): [aerodynamics]
  // avl_st and [mass] avl_mass; defined together below ApplyCoefficients.
  void ReadAerodynamics(const toml::table& root, model::AircraftData& out);
  // [mass] avl_mass: the totals of AVL's mass file, body axes, rotated into
  // stability axes by α0; true if the key was given.
  bool ReadAvlMass(const toml::table& t);
  // [controls.NAME] beside avl_st: unit, limits (and CD where the .st prints
  // no drag row) of the .st's controls, by AVL's names.
  void ReadAvlControls(const toml::table& root);
  // Reports a key of [controls.NAME] beside avl_st that is not unit, min,
  // max (or CD where the .st prints no drag row for control `st`).
  void CheckAvlControlKey(std::string_view key, const toml::node& node, const AvlControl& st,
                          const std::string& table_name, const std::string& st_file);
  // Warns where the .mass file's g or rho (AVL's run-case defaults) differ
  // from the TOML's condition; `L`, `M`: SI factors of its unit names.
  void CheckAvlMassCondition(const AvlMass& avl, double L, double M);
  // `file` as written in the TOML, relative to the TOML file's directory.
  std::string Resolve(const std::string& file) const;
  // A defect of an AVL file: its own "file:line" when it has one; one it
  // cannot be opened at all, at the TOML key that names it.
  void ReportAvlError(const core::DataError& e, const toml::table& t, std::string_view table_name,
                      std::string_view key);
  bool avl_requested_ = false;         // [aerodynamics] avl_st given (sections it replaces are not required)
  std::optional<AvlStability> avl_;   // the .st file, once read and converted
  const toml::node* avl_st_node_ = nullptr;
  std::vector<std::string> avl_notes_;  // ToCoefficients' assumptions, for LoadResult
};

const toml::table* Reader::RequireTable(const toml::table& root, std::string_view name) {
  const toml::node* node = root.get(name);
  if (node == nullptr) {
    Error({path_, 1}, "missing table [" + std::string(name) + "]");
    return nullptr;
  }
  const toml::table* table = node->as_table();
  if (table == nullptr) Error(At(*node), "'" + std::string(name) + "' must be a table");
  return table;
}

void Reader::CheckKeys(const toml::table& table, std::string_view table_name,
                       const std::vector<std::string_view>& allowed, std::string_view hint) {
  for (const auto& [key, node] : table) {
    const std::string_view k = key.str();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string message = "unknown key '" + std::string(k) + "' in [" + std::string(table_name) + "]";
    if (const auto hint_for_key = KeyHint(k, table_name)) {
      message += " (" + *hint_for_key + ")";
    } else if (const auto suggestion = Suggest(k, allowed)) {
      message += " (did you mean '" + *suggestion + "'?)";
      suggested_.push_back(std::string(table_name) + "." + *suggestion);
    }
    else if (!hint.empty())
      message += " (" + std::string(hint) + ")";
    Error(At(node), message);
  }
}

void Reader::Missing(const toml::table& table, std::string_view table_name,
                     std::string_view key, std::string_view hint) {
  // A misspelt key was already reported with this key as the suggestion:
  // one defect, one line.
  const std::string qualified = std::string(table_name) + "." + std::string(key);
  if (std::find(suggested_.begin(), suggested_.end(), qualified) != suggested_.end()) return;
  std::string message = "missing '" + std::string(key) + "' in [" + std::string(table_name) + "]";
  if (!hint.empty()) message += " (" + std::string(hint) + ")";
  Error(At(table), message);
}

std::optional<double> Reader::Number(const toml::table& table, std::string_view key,
                                     std::string_view table_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return std::nullopt;
  const std::optional<double> value = node->value<double>();
  if (!value) {
    Error(At(*node), "'" + std::string(key) + "' in [" + std::string(table_name) +
                         "] must be a number");
    return std::nullopt;
  }
  if (!std::isfinite(*value)) {
    Error(At(*node), "'" + std::string(key) + "' in [" + std::string(table_name) +
                         "] must be a finite number");
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> Reader::String(const toml::table& table, std::string_view key,
                                          std::string_view table_name, bool required) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    if (required) Missing(table, table_name, key, "a quoted string");
    return std::nullopt;
  }
  const std::optional<std::string> value = node->value<std::string>();
  if (!value)
    Error(At(*node), "'" + std::string(key) + "' in [" + std::string(table_name) +
                         "] must be a quoted string");
  return value;
}

std::optional<bool> Reader::Bool(const toml::table& table, std::string_view key,
                                 std::string_view table_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return std::nullopt;
  const std::optional<bool> value = node->value<bool>();
  if (!value)
    Error(At(*node), "'" + std::string(key) + "' in [" + std::string(table_name) +
                         "] must be true or false");
  return value;
}

std::optional<bool> Reader::ReadForm(const toml::table& table, std::string_view table_name) {
  const std::optional<std::string> form = String(table, "form", table_name, false);
  if (!form) {
    if (!table.contains("form"))
      Missing(table, table_name, "form", "form = \"normalized\", \"raw\" or \"coefficients\"");
    return std::nullopt;
  }
  if (*form == "normalized") return false;
  if (*form == "raw") return true;
  Error(At(*table.get("form")), "unknown form '" + *form +
                                    "' (expected \"normalized\", \"raw\" or \"coefficients\")");
  return std::nullopt;
}

std::optional<bool> Reader::ChooseForm(const toml::table& t, const FormChoice& choice) {
  auto uses = [&t](std::span<const std::string_view> keys, std::string_view optional) {
    return (!optional.empty() && t.contains(optional)) ||
           std::any_of(keys.begin(), keys.end(), [&t](std::string_view k) { return t.contains(k); });
  };
  const bool first = uses(choice.first, choice.first_optional);
  const bool second = uses(choice.second, choice.second_optional);
  if (first && second) {
    // Reported at the first key of the second form in the file.
    const toml::node* at = nullptr;
    auto consider = [&](std::string_view k) {
      if (const toml::node* n = t.get(k); n && (!at || n->source().begin.line < at->source().begin.line))
        at = n;
    };
    for (std::string_view k : choice.second) consider(k);
    if (!choice.second_optional.empty()) consider(choice.second_optional);
    Error(At(*at), std::string(choice.both_given));
    return std::nullopt;
  }
  for (std::span<const std::string_view> keys : {choice.common, second ? choice.second : choice.first})
    for (std::string_view key : keys)
      if (!t.contains(key))
        Missing(t, choice.section, key, "required derivative; write 0.0 if the source neglects it");
  return second;
}

double Reader::Derivative(const toml::table& t, std::string_view section, std::string_view key,
                          bool raw) {
  const auto v = Number(t, key, section);
  if (!v) return 0.0;
  const auto n = ToSI(*v, *model::FindParameter(section, key), raw, At(*t.get(key)));
  return n ? *n : 0.0;
}

std::optional<double> Reader::ToSI(double value, const Parameter& spec, bool raw,
                                   const SourceLocation& where) {
  if (!units_known_) return std::nullopt;
  if (!raw || spec.divisor == Divisor::kNone) return core::ToSI(value, units_, spec.dimension);
  const Dimension divisor_dim = spec.divisor == Divisor::kMass ? core::kMass : core::kInertia;
  std::string_view name;
  switch (spec.divisor) {
    case Divisor::kMass: name = "m"; break;
    case Divisor::kIx: name = "Ix"; break;
    case Divisor::kIy: name = "Iy"; break;
    case Divisor::kIz: name = "Iz"; break;
    case Divisor::kNone: break;
  }
  if (!model::DivisorValue(spec.divisor, written_.mass)) {
    // Reported once per missing quantity, at the first derivative needing it.
    const std::string message = "raw form needs [mass] " + std::string(name) +
                                " to normalize '" + std::string(spec.key) +
                                "' (add it, or give normalized derivatives with form = \"normalized\")";
    const bool already = std::any_of(errors_.begin(), errors_.end(), [&](const Diagnostic& d) {
      return d.message.rfind("raw form needs [mass] " + std::string(name) + " ", 0) == 0;
    });
    if (!already) Error(where, message);
    return std::nullopt;
  }
  return core::ToSI(value, units_, spec.dimension * divisor_dim);
}

void Reader::ReadAircraft(const toml::table& root, model::AircraftData& out) {
  const toml::table* t = RequireTable(root, "aircraft");
  if (t == nullptr) return;
  CheckKeys(*t, "aircraft", {"name", "source", "notes", "class"});
  if (auto name = String(*t, "name", "aircraft", true)) out.name = *name;
  if (auto source = String(*t, "source", "aircraft", true)) out.source = *source;
  String(*t, "notes", "aircraft", false);
  // MIL-F-8785C airplane class, for the flying-qualities grading; the parser's
  // message lists the valid classes.
  if (auto text = String(*t, "class", "aircraft", false)) {
    try {
      out.aircraft_class = model::ParseAircraftClass(*text);
    } catch (const std::invalid_argument& e) {
      Error(At(*t->get("class")), e.what());
    }
  }
}

void Reader::ReadCondition(const toml::table& root, model::AircraftData& out) {
  const toml::table* t = RequireTable(root, "condition");
  if (t == nullptr) return;
  CheckKeys(*t, "condition",
            {"units", "U0", "theta0", "theta0_deg", "W0", "g", "altitude", "mach", "category", "rho",
             "alpha0", "alpha0_deg"});
  if (auto text = String(*t, "category", "condition", false)) {
    try {
      out.condition.category = model::ParseFlightPhaseCategory(*text);
    } catch (const std::invalid_argument& e) {
      Error(At(*t->get("category")), e.what());
    }
  }
  if (auto units = String(*t, "units", "condition", true)) {
    if (auto system = core::ParseUnitSystem(*units)) {
      units_ = *system;
      units_known_ = true;
    } else {
      Error(At(*t->get("units")), "unknown unit system '" + *units +
                                      "' (expected \"SI\" or \"imperial\")");
    }
  }
  model::FlightCondition& fc = out.condition;
  if (auto U0 = Number(*t, "U0", "condition")) {
    if (*U0 <= 0.0)
      Error(At(*t->get("U0")), "U0 must be > 0 (trim speed along the stability x axis)");
    else if (units_known_)
      fc.U0 = U0_ = core::ToSI(*U0, units_, core::kSpeed);
  } else if (!t->contains("U0") && !(t->contains("mach") && t->contains("altitude"))) {
    Missing(*t, "condition", "U0", "trim speed in the file's length unit per second");
  }
  const auto theta_rad = Number(*t, "theta0", "condition");
  const auto theta_deg = Number(*t, "theta0_deg", "condition");
  if (t->contains("theta0") && t->contains("theta0_deg")) {
    Error(At(*t->get("theta0_deg")), "both theta0 and theta0_deg given (keep one)");
  } else if (theta_rad || theta_deg) {
    const double theta0 = theta_rad ? *theta_rad : *theta_deg * core::kDegToRad;
    const toml::node& node = *t->get(theta_rad ? "theta0" : "theta0_deg");
    if (std::abs(theta0) >= core::kPi / 2) {
      std::string message = "|theta0| must be < 90 deg, the Euler-angle singularity";
      if (theta_rad && std::abs(*theta_rad) < 90.0)
        message = "theta0 = " + Format(*theta_rad) + " rad is " +
                  Format(*theta_rad * core::kRadToDeg) +
                  " deg; |theta0| must be < 90 deg (did you mean theta0_deg = " +
                  Format(*theta_rad) + "?)";
      Error(At(node), message);
    } else {
      fc.theta0 = theta0;
      if (theta_rad && std::abs(*theta_rad) > 0.35)
        Warn(At(node), "theta0 = " + Format(*theta_rad) + " rad is " +
                           Format(*theta_rad * core::kRadToDeg) +
                           " deg; if you meant degrees, write theta0_deg");
    }
  }
  if (auto W0 = Number(*t, "W0", "condition"); W0 && units_known_)
    fc.W0 = core::ToSI(*W0, units_, core::kSpeed);
  if (auto g = Number(*t, "g", "condition")) {
    if (*g <= 0.0)
      Error(At(*t->get("g")), "g must be > 0");
    else if (units_known_)
      fc.g = core::ToSI(*g, units_, core::kAcceleration);
  } else {
    fc.g = core::kStandardGravity;  // documented default: standard gravity
  }
  if (auto h = Number(*t, "altitude", "condition"); h && units_known_)
    fc.altitude = core::ToSI(*h, units_, core::kLength);
  if (auto mach = Number(*t, "mach", "condition")) fc.mach = *mach;
  ReadConditionExtras(*t, fc);
}

void Reader::ReadMass(const toml::table& root) {
  const toml::node* node = root.get("mass");
  if (node == nullptr) return;
  const toml::table* t = node->as_table();
  if (t == nullptr) {
    Error(At(*node), "'mass' must be a table");
    return;
  }
  mass_at_ = At(*t);
  CheckKeys(*t, "mass", {"m", "W", "Ix", "Iy", "Iz", "Ixz", "axes", "avl_mass"});
  if (ReadAvlMass(*t)) return;
  auto read = [&](std::string_view key, Dimension dim, bool positive) -> std::optional<double> {
    const auto v = Number(*t, key, "mass");
    if (!v || !units_known_) return std::nullopt;
    if (positive && *v <= 0.0) {
      Error(At(*t->get(key)), "'" + std::string(key) + "' must be > 0");
      return std::nullopt;
    }
    return core::ToSI(*v, units_, dim);
  };
  model::MassProperties& mass = written_.mass;
  mass.m = read("m", core::kMass, true);
  mass.Ix = read("Ix", core::kInertia, true);
  mass.Iy = read("Iy", core::kInertia, true);
  mass.Iz = read("Iz", core::kInertia, true);
  mass.Ixz = read("Ixz", core::kInertia, false);
  if (const toml::node* n = t->get("Ixz")) ixz_at_ = At(*n);
  ReadMassExtras(*t);
}

void Reader::ReadGeometry(const toml::table& root, model::AircraftData& out) {
  const toml::node* node = root.get("geometry");
  if (node == nullptr) return;
  const toml::table* t = node->as_table();
  if (t == nullptr) {
    Error(At(*node), "'geometry' must be a table");
    return;
  }
  CheckKeys(*t, "geometry", {"b", "S", "c"});
  ReadGeometryExtras(*t);
  const auto b = Number(*t, "b", "geometry");
  if (!b || !units_known_) return;
  if (*b <= 0.0) {
    Error(At(*t->get("b")), "'b' (wing span) must be > 0");
    return;
  }
  out.geometry.b = core::ToSI(*b, units_, core::kLength);
}

void Reader::ReadLongitudinal(const toml::table& root) {
  const toml::table* t = RequireTable(root, "longitudinal");
  if (t == nullptr) return;
  if (IsCoefficientForm(*t)) return ReadLongitudinalCoefficients(*t);
  std::vector<std::string_view> allowed = {"form", "per_degree"};
  for (std::string_view key : KeysOf("longitudinal")) allowed.push_back(key);
  CheckKeys(*t, "longitudinal", allowed,
            "control derivatives go in a [controls.<name>] table");
  const std::optional<bool> raw = ReadForm(*t, "longitudinal");

  const std::optional<bool> w_form = ChooseForm(*t, kLongitudinalForms);
  if (!w_form || !raw) return;
  model::LongitudinalAsWritten& d = written_.longitudinal;
  d.raw = *raw;
  d.form = *w_form ? model::AngleForm::kVelocity : model::AngleForm::kAngle;
  auto get = [&](std::string_view key) {
    return Derivative(*t, "longitudinal", key, *raw) * PerDegreeFactor(*t, "longitudinal", key);
  };
  d.Xu = get("Xu");
  d.Zu = get("Zu");
  d.Mu = get("Mu");
  d.Xq = get("Xq");
  d.Zq = get("Zq");
  d.Mq = get("Mq");
  if (*w_form) {
    d.Xw = get("Xw");
    d.Zw = get("Zw");
    d.Mw = get("Mw");
    d.Mwdot = get("Mwdot");
    d.Zwdot = get("Zwdot");
  } else {
    d.Xa = get("Xa");
    d.Za = get("Za");
    d.Ma = get("Ma");
    d.Madot = get("Madot");
    d.Zadot = get("Zadot");
  }
  zadot_node_ = t->get(*w_form ? "Zwdot" : "Zadot");
}

void Reader::ReadLateral(const toml::table& root) {
  const toml::table* t = RequireTable(root, "lateral");
  if (t == nullptr) return;
  if (IsCoefficientForm(*t)) return ReadLateralCoefficients(*t);
  std::vector<std::string_view> allowed = {"form", "primed", "per_degree", "beta"};
  for (std::string_view key : KeysOf("lateral")) allowed.push_back(key);
  CheckKeys(*t, "lateral", allowed, "control derivatives go in a [controls.<name>] table");
  const std::optional<bool> raw = ReadForm(*t, "lateral");
  const std::optional<bool> primed = Bool(*t, "primed", "lateral");
  if (raw && *raw && primed && *primed)
    Error(At(*t->get("primed")),
          "raw derivatives are never primed (remove 'primed' or set it to false)");
  if (raw && !*raw && !primed && !t->contains("primed"))
    Missing(*t, "lateral", "primed",
            "primed = true if L and N already include the Ixz coupling, false otherwise");

  const std::optional<bool> v_form = ChooseForm(*t, kLateralForms);
  if (!v_form || !raw) return;
  lateral_primed_ = *raw ? std::optional<bool>(false) : primed;
  model::LateralAsWritten& d = written_.lateral;
  ReadSideslipDefinition(*t, *v_form);
  d.raw = *raw;
  d.form = *v_form ? model::AngleForm::kVelocity : model::AngleForm::kAngle;
  auto get = [&](std::string_view key) {
    return Derivative(*t, "lateral", key, *raw) * PerDegreeFactor(*t, "lateral", key);
  };
  d.Yp = get("Yp");
  d.Yr = get("Yr");
  d.Lp = get("Lp");
  d.Lr = get("Lr");
  d.Np = get("Np");
  d.Nr = get("Nr");
  if (*v_form) {
    d.Yv = get("Yv");
    d.Lv = get("Lv");
    d.Nv = get("Nv");
  } else {
    d.Yb = get("Yb");
    d.Lb = get("Lb");
    d.Nb = get("Nb");
  }
}

void Reader::ReadSideslipDefinition(const toml::table& t, bool v_form) {
  const std::optional<std::string> beta = String(t, "beta", "lateral", false);
  if (!beta) return;
  if (*beta == "v/U0") return;
  if (*beta != "v/V") {
    Error(At(*t.get("beta")), "unknown beta '" + *beta +
                                  "' (expected \"v/U0\", aerolin's sideslip, or \"v/V\")");
    return;
  }
  if (v_form) {
    Error(At(*t.get("beta")),
          "beta = \"v/V\" applies to beta-form derivatives (Yb Lb Nb); v-form derivatives "
          "(Yv Lv Nv) do not depend on it (remove the key)");
    return;
  }
  written_.lateral.beta = model::SideslipDefinition::kVOverV;
}

void Reader::ReadControlUnit(const toml::table& t, const std::string& table_name, model::Control& c) {
  if (auto unit = String(t, "unit", table_name, false)) {
    if (*unit == "rad" || *unit == "1")
      c.unit = *unit == "rad" ? core::Unit::kRadian : core::Unit::kOne;
    else
      Error(At(*t.get("unit")), "unknown control unit '" + *unit +
                                    "' (expected \"rad\" or \"1\"; give deflection derivatives per rad)");
  }
}

void Reader::ReadLimits(const toml::table& t, const std::string& table_name, model::Control& c) {
  c.min = Number(t, "min", table_name);
  c.max = Number(t, "max", table_name);
  if (c.min && c.max && *c.min >= *c.max)
    Error(At(*t.get("min")), "control '" + c.name + "': min must be < max");
  for (const char* key : {"min", "max"})
    if (const auto v = key == std::string_view("min") ? c.min : c.max;
        v && c.unit == core::Unit::kRadian && std::abs(*v) > 1.6)
      Warn(At(*t.get(key)), "control '" + c.name + "' " + key + " = " + Format(*v) + " rad is " +
                                Format(*v * core::kRadToDeg) + " deg; limits are in rad");
}

void Reader::ReadControls(const toml::table& root) {
  const toml::node* node = root.get("controls");
  if (node == nullptr) return;  // an aircraft with no controls is valid: free response only
  const toml::table* controls = node->as_table();
  if (controls == nullptr) {
    Error(At(*node), "'controls' must be a table of [controls.<name>] tables");
    return;
  }
  // toml++ keeps keys sorted; file order is the order of the source lines.
  std::vector<std::pair<std::string, const toml::table*>> ordered;
  for (const auto& [key, value] : *controls) {
    const toml::table* t = value.as_table();
    if (t == nullptr) {
      Error(At(value), "'controls." + std::string(key.str()) +
                           "' must be a table ([controls." + std::string(key.str()) + "])");
      continue;
    }
    ordered.emplace_back(std::string(key.str()), t);
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin.line < b.second->source().begin.line;
  });
  for (const auto& [name, t] : ordered) {
    const std::string table_name = "controls." + name;
    CheckKeys(*t, table_name, ControlKeys());
    model::Control c;
    c.name = name;
    ReadControlUnit(*t, table_name, c);
    bool any = false;
    const double factor = PerDegreeFactor(*t, table_name, "X");  // every derivative of a control
    if (factor != 1.0 && c.unit != core::Unit::kRadian)
      Error(At(*t->get("per_degree")), "per_degree = true needs a deflection in degrees; control '" +
                                           name + "' has unit = \"1\" (remove per_degree)");
    for (const Parameter* spec : ControlDerivatives()) {
      const auto v = Number(*t, spec->key, table_name);
      if (!t->contains(spec->key)) continue;
      const bool longitudinal = spec->key == "X" || spec->key == "Z" || spec->key == "M";
      if (longitudinal ? lon_coefficients_ : lat_coefficients_) continue;  // reported by CheckKeys
      any = true;
      (longitudinal ? c.longitudinal : c.lateral) = true;
      if (!v) continue;
      // Controls follow the form of the section their derivative enters.
      const bool raw = longitudinal ? written_.longitudinal.raw : written_.lateral.raw;
      const auto n = ToSI(*v, *spec, raw, At(*t->get(spec->key)));
      ControlDerivative(c, spec->key) = (n ? *n : 0.0) * factor;
    }
    any = ReadControlCoefficients(*t, table_name, name, factor) || any;
    if (!any)
      Error(At(*t), "control '" + name +
                        "' has no derivative (give at least one of " + [&] {
                          std::string keys;
                          for (std::string_view k : ControlKeys())
                            if (k != "unit" && k != "min" && k != "max" && k != "per_degree")
                              keys += (keys.empty() ? "" : " ") + std::string(k);
                          return keys;
                        }() + ")");
    ReadLimits(*t, table_name, c);
    written_.controls.push_back(std::move(c));
  }
}

// ---------------------------------------------------------------------------
// Coefficient form, standard atmosphere, body-axis inertias, per-degree tables
// (data/derivatives/README.md, "Coefficient form"). The physics is the
// model's (model/coefficients.hpp, atmosphere.hpp, inertia_axes.hpp); here the
// keys are read, located and checked.

// Coefficient keys as written; case matters (Cl is the rolling moment, CL the lift).
constexpr std::string_view kForceFamilyKeys[] = {"CXu", "CXa", "CXq", "CXadot",
                                                  "CZu", "CZa", "CZq", "CZadot"};
constexpr std::string_view kLiftDragFamilyKeys[] = {"CL0", "CD0", "CLu", "CDu", "CLa",
                                                     "CDa", "CLq", "CLadot", "CDq"};
constexpr std::string_view kPitchCoefficientKeys[] = {"Cmu", "Cma", "Cmq", "Cmadot"};
// Required keys of each family; the others (CXq CXadot CZadot | CL0 CLadot CDq) default to 0
// (CL0 to C_W0 cos θ0).
constexpr std::string_view kForceFamilyRequired[] = {"CXu", "CXa", "CZu", "CZa", "CZq",
                                                      "Cmu", "Cma", "Cmq", "Cmadot"};
constexpr std::string_view kLiftDragFamilyRequired[] = {"CD0", "CLu", "CDu", "CLa", "CDa", "CLq",
                                                         "Cmu", "Cma", "Cmq", "Cmadot"};
constexpr std::string_view kLateralCoefficientKeys[] = {"CYb", "CYp", "CYr", "Clb", "Clp",
                                                         "Clr", "Cnb", "Cnp", "Cnr"};
// Derivatives with respect to α or β: per degree under per_degree = true
// (rate derivatives, α̇ ones included, and w/v-form ones are unchanged).
constexpr std::string_view kPerAngleKeys[] = {"Xa",  "Za",  "Ma",  "Yb",  "Lb",  "Nb",  "CXa",
                                              "CZa", "Cma", "CLa", "CDa", "CYb", "Clb", "Cnb"};
constexpr double kLiftCoefficientTolerance = 0.05;  // CL0 vs C_W0 cos θ0, relative

constexpr Dimension kDensity{-3, 1, 0};
constexpr Dimension kArea{2, 0, 0};

template <std::size_t N>
bool Contains(const std::string_view (&keys)[N], std::string_view key) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

// The earliest (by line) of `keys` present in `t`, or nullptr.
template <std::size_t N>
const toml::node* FirstPresent(const toml::table& t, const std::string_view (&keys)[N]) {
  const toml::node* first = nullptr;
  for (std::string_view k : keys)
    if (const toml::node* n = t.get(k); n && (!first || n->source().begin.line < first->source().begin.line))
      first = n;
  return first;
}

bool Reader::IsCoefficientForm(const toml::table& section) const {
  const toml::node* form = section.get("form");
  return form != nullptr && form->value<std::string>() == "coefficients";
}

double Reader::PerDegreeFactor(const toml::table& t, const std::string& section, std::string_view key) {
  auto it = per_degree_.find(section);
  if (it == per_degree_.end()) {
    const std::optional<bool> flag = Bool(t, "per_degree", section);
    it = per_degree_.emplace(section, flag.value_or(false) ? core::kRadToDeg : 1.0).first;
  }
  const bool control = section.rfind("controls.", 0) == 0;
  return control || Contains(kPerAngleKeys, key) ? it->second : 1.0;
}

std::optional<std::string> Reader::KeyHint(std::string_view key, std::string_view table_name) const {
  const bool control = table_name.rfind("controls.", 0) == 0;
  if (!control && table_name != "longitudinal" && table_name != "lateral") return std::nullopt;
  constexpr std::string_view kControlForce[] = {"CX", "CZ"}, kControlLiftDrag[] = {"CL", "CD"};
  constexpr std::string_view kControlLateral[] = {"CY", "Cl", "Cn"};
  // Which section's coefficient `key` is (longitudinal or lateral), if any.
  const bool lon_key = control ? Contains(kControlForce, key) || Contains(kControlLiftDrag, key) || key == "Cm"
                               : table_name == "longitudinal" &&
                                     (Contains(kForceFamilyKeys, key) || Contains(kLiftDragFamilyKeys, key) ||
                                      Contains(kPitchCoefficientKeys, key));
  const bool lat_key = control ? Contains(kControlLateral, key)
                               : table_name == "lateral" && Contains(kLateralCoefficientKeys, key);
  auto not_coefficients = [&](const char* section) {
    return "'" + std::string(key) + "' is a nondimensional coefficient: write form = \"coefficients\" in [" +
           section + "] to give coefficients, or give the dimensional derivative";
  };
  if (lon_key && !lon_coefficients_) return not_coefficients("longitudinal");
  if (lat_key && !lat_coefficients_) return not_coefficients("lateral");
  if (control && lon_key && key != "Cm") {
    const bool lift_drag = coefficients_.family == model::LongitudinalFamily::kLiftDrag;
    if (lift_drag != Contains(kControlLiftDrag, key))
      return "'" + std::string(key) + "' belongs to the " + (lift_drag ? "force" : "lift/drag") +
             " family; [longitudinal] gives the " + (lift_drag ? "lift/drag family: use CL CD Cm" : "force family: use CX CZ Cm");
  }
  // A case slip between two coefficients (Cl rolling moment vs CL lift): say so.
  if (control)
    for (std::string_view k : ControlKeys())
      if (k != key && k.size() == key.size() &&
          std::equal(k.begin(), k.end(), key.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
          }))
        return "case matters: did you mean '" + std::string(k) + "'?";
  return std::nullopt;
}

void Reader::ReadConditionExtras(const toml::table& t, model::FlightCondition& fc) {
  g_ = fc.g;
  condition_gives_g_ = t.contains("g");
  W0_ = fc.W0;
  theta0_ = fc.theta0;
  altitude_ = fc.altitude;
  mach_ = fc.mach;
  if (auto rho = Number(t, "rho", "condition")) {
    if (*rho <= 0.0)
      Error(At(*t.get("rho")), "rho (air density) must be > 0");
    else if (units_known_)
      rho_ = core::ToSI(*rho, units_, kDensity);
  }
  const auto alpha_rad = Number(t, "alpha0", "condition");
  const auto alpha_deg = Number(t, "alpha0_deg", "condition");
  if (t.contains("alpha0") && t.contains("alpha0_deg")) {
    Error(At(*t.get("alpha0_deg")), "both alpha0 and alpha0_deg given (keep one)");
  } else if (alpha_rad || alpha_deg) {
    const double alpha0 = alpha_rad ? *alpha_rad : *alpha_deg * core::kDegToRad;
    if (std::abs(alpha0) >= core::kPi / 2)
      Error(At(*t.get(alpha_rad ? "alpha0" : "alpha0_deg")),
            "|alpha0| must be < 90 deg (trim angle of attack of the body x axis)");
    else
      alpha0_ = alpha0;
  }
  // U0 = M a(h) when the file gives the Mach number and altitude instead of U0.
  if (!t.contains("U0") && fc.mach && fc.altitude) {
    if (const auto atmosphere = StandardAtmosphereAt(*t.get("altitude"), *fc.altitude, "U0")) {
      const double a = atmosphere->speed_of_sound;
      if (*fc.mach <= 0.0) {
        Error(At(*t.get("mach")), "mach must be > 0 to give U0 = mach × speed of sound");
      } else {
        fc.U0 = U0_ = *fc.mach * a;
        speed_of_sound_ = a;
      }
    }
  }
}

std::optional<model::AtmosphereState> Reader::StandardAtmosphereAt(const toml::node& at, double altitude,
                                                                   const char* instead) {
  try {
    return model::StandardAtmosphere(altitude);
  } catch (const std::out_of_range&) {
    Error(At(at), "altitude " + Format(altitude) + " m is outside the 1976 standard atmosphere (" +
                      Format(model::kStandardAtmosphereFloor) + " m to " +
                      Format(model::kStandardAtmosphereCeiling) + " m): give " + instead);
    return std::nullopt;
  }
}

void Reader::ReadMassExtras(const toml::table& t) {
  model::MassProperties& mass = written_.mass;
  if (auto W = Number(t, "W", "mass")) {
    if (*W <= 0.0) {
      Error(At(*t.get("W")), "'W' (weight) must be > 0");
    } else if (units_known_) {
      W_ = core::ToSI(*W, units_, core::kForce);
      if (!mass.m) mass.m = *W_ / g_;  // m = W/g with [condition] g
    }
  }
  const std::optional<std::string> axes = String(t, "axes", "mass", false);
  if (!axes || *axes == "stability") return;
  const toml::node& at = *t.get("axes");
  if (*axes != "body") {
    Error(At(at), "unknown axes '" + *axes + "' (expected \"stability\" or \"body\")");
    return;
  }
  if (!alpha0_) {
    Error(At(at), "axes = \"body\" needs the trim angle of attack [condition] alpha0_deg (or "
                  "alpha0) to rotate the inertias into stability axes");
    return;
  }
  if (!mass.Ix || !mass.Iz || !mass.Ixz) {
    Error(At(at), "axes = \"body\" needs Ix, Iz and Ixz to rotate them into stability axes "
                  "(write Ixz = 0.0 if the source gives none)");
    return;
  }
  if (*mass.Ixz * *mass.Ixz >= *mass.Ix * *mass.Iz) {
    Error(mass_at_, "Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite");
    return;
  }
  SetBodyInertias(mass);
}

void Reader::SetBodyInertias(const model::MassProperties& body) {
  // From body axes to the derivatives' axes: by α0 for stability axes (W0 = 0),
  // by α0 − atan(W0/U0) for axes that carry a W0 (model/inertia_axes.hpp).
  body_mass_ = body;
  written_.mass = model::RotateInertias(body, *alpha0_ - std::atan2(W0_, U0_));
  inertias_rotated_ = true;
}

void Reader::ReadGeometryExtras(const toml::table& t) {
  auto positive = [&](std::string_view key, Dimension dim, const char* what) -> std::optional<double> {
    const auto v = Number(t, key, "geometry");
    if (!v || !units_known_) return std::nullopt;
    if (*v <= 0.0) {
      Error(At(*t.get(key)), "'" + std::string(key) + "' (" + what + ") must be > 0");
      return std::nullopt;
    }
    return core::ToSI(*v, units_, dim);
  };
  S_ = positive("S", kArea, "reference area");
  c_ = positive("c", core::kLength, "mean aerodynamic chord");
  // b is read (and checked) by ReadGeometry; its SI value, if valid, for the coefficients.
  if (const toml::node* b = t.get("b"); b && units_known_)
    if (const auto v = b->value<double>(); v && std::isfinite(*v) && *v > 0.0)
      b_ = core::ToSI(*v, units_, core::kLength);
}

void Reader::ReadLongitudinalCoefficients(const toml::table& t) {
  std::vector<std::string_view> allowed = {"form", "per_degree"};
  for (auto keys : {std::span<const std::string_view>(kForceFamilyKeys),
                    std::span<const std::string_view>(kLiftDragFamilyKeys),
                    std::span<const std::string_view>(kPitchCoefficientKeys)})
    allowed.insert(allowed.end(), keys.begin(), keys.end());
  lon_coefficients_ = true;
  CheckKeys(t, "longitudinal", allowed, "control coefficients go in a [controls.<name>] table");
  const toml::node* force = FirstPresent(t, kForceFamilyKeys);
  const toml::node* lift_drag = FirstPresent(t, kLiftDragFamilyKeys);
  model::CoefficientsAsWritten& k = coefficients_;
  if (force && lift_drag) {
    const bool force_first = force->source().begin.line < lift_drag->source().begin.line;
    const toml::node* second = force_first ? lift_drag : force;
    // The first family seen decides the controls' keys (one error, not one per control key).
    k.family = force_first ? model::LongitudinalFamily::kForce : model::LongitudinalFamily::kLiftDrag;
    Error(At(*second), "both force-family (CXu CXa CXq CXadot CZu CZa CZq CZadot) and "
                       "lift/drag-family (CL0 CD0 CLu CDu CLa CDa CLq CLadot CDq) coefficients "
                       "given; use one family per file");
    return;
  }
  k.family = lift_drag ? model::LongitudinalFamily::kLiftDrag : model::LongitudinalFamily::kForce;
  const bool ld = k.family == model::LongitudinalFamily::kLiftDrag;
  for (std::string_view key : ld ? std::span<const std::string_view>(kLiftDragFamilyRequired)
                                 : std::span<const std::string_view>(kForceFamilyRequired))
    if (!t.contains(key))
      Missing(t, "longitudinal", key, "required coefficient; write 0.0 if the source neglects it");
  auto get = [&](std::string_view key) {
    return Number(t, key, "longitudinal").value_or(0.0) * PerDegreeFactor(t, "longitudinal", key);
  };
  k.CXu = get("CXu"); k.CXa = get("CXa"); k.CXq = get("CXq"); k.CXadot = get("CXadot");
  k.CZu = get("CZu"); k.CZa = get("CZa"); k.CZq = get("CZq"); k.CZadot = get("CZadot");
  if (t.contains("CL0")) k.CL0 = get("CL0");
  k.CD0 = get("CD0"); k.CLu = get("CLu"); k.CDu = get("CDu"); k.CLa = get("CLa");
  k.CDa = get("CDa"); k.CLq = get("CLq"); k.CLadot = get("CLadot"); k.CDq = get("CDq");
  k.Cmu = get("Cmu"); k.Cma = get("Cma"); k.Cmq = get("Cmq"); k.Cmadot = get("Cmadot");
  if (k.CXadot != 0.0)
    Error(At(*t.get("CXadot")), "CXadot must be 0: aerolin's model has no X_wdot term "
                                "(Etkin & Reid Table 6.1 and most sources set it to 0)");
  written_.longitudinal.raw = true;  // filled by ApplyCoefficients
  written_.longitudinal.form = model::AngleForm::kVelocity;
}

void Reader::ReadLateralCoefficients(const toml::table& t) {
  std::vector<std::string_view> allowed = {"form", "per_degree", "primed"};
  allowed.insert(allowed.end(), std::begin(kLateralCoefficientKeys), std::end(kLateralCoefficientKeys));
  lat_coefficients_ = true;
  CheckKeys(t, "lateral", allowed, "control coefficients go in a [controls.<name>] table");
  if (const toml::node* primed = t.get("primed"))
    Error(At(*primed), "coefficients are never primed (remove 'primed'; aerolin couples L and N "
                       "through [mass] Ixz)");
  for (std::string_view key : kLateralCoefficientKeys)
    if (!t.contains(key))
      Missing(t, "lateral", key, "required coefficient; write 0.0 if the source neglects it");
  auto get = [&](std::string_view key) {
    return Number(t, key, "lateral").value_or(0.0) * PerDegreeFactor(t, "lateral", key);
  };
  model::CoefficientsAsWritten& k = coefficients_;
  k.CYb = get("CYb"); k.CYp = get("CYp"); k.CYr = get("CYr");
  k.Clb = get("Clb"); k.Clp = get("Clp"); k.Clr = get("Clr");
  k.Cnb = get("Cnb"); k.Cnp = get("Cnp"); k.Cnr = get("Cnr");
  written_.lateral.raw = true;  // filled by ApplyCoefficients
  written_.lateral.form = model::AngleForm::kVelocity;
  lateral_primed_ = false;
}

std::vector<std::string_view> Reader::ControlKeys() const {
  std::vector<std::string_view> keys;
  if (!lon_coefficients_)
    keys.insert(keys.end(), {"X", "Z", "M"});
  else if (coefficients_.family == model::LongitudinalFamily::kLiftDrag)
    keys.insert(keys.end(), {"CL", "CD", "Cm"});
  else
    keys.insert(keys.end(), {"CX", "CZ", "Cm"});
  if (!lat_coefficients_)
    keys.insert(keys.end(), {"Y", "L", "N"});
  else
    keys.insert(keys.end(), {"CY", "Cl", "Cn"});
  keys.insert(keys.end(), {"unit", "min", "max", "per_degree"});
  return keys;
}

bool Reader::ReadControlCoefficients(const toml::table& t, const std::string& table_name,
                                     const std::string& name, double factor) {
  model::ControlCoefficients c;
  c.name = name;
  bool any = false;
  auto read = [&](std::optional<double>& field, std::string_view key) {
    if (!t.contains(key)) return;
    any = true;
    field = Number(t, key, table_name).value_or(0.0) * factor;
  };
  if (lon_coefficients_) {
    if (coefficients_.family == model::LongitudinalFamily::kLiftDrag) {
      read(c.CL, "CL");
      read(c.CD, "CD");
    } else {
      read(c.CX, "CX");
      read(c.CZ, "CZ");
    }
    read(c.Cm, "Cm");
  }
  if (lat_coefficients_) {
    read(c.CY, "CY");
    read(c.Cl, "Cl");
    read(c.Cn, "Cn");
  }
  coefficients_.controls.push_back(std::move(c));
  return any;
}

void Reader::ApplyCoefficients(const toml::table& root) {
  if (!lon_coefficients_ && !lat_coefficients_) return;
  if (!units_known_) return;
  const std::string needs = "form = \"coefficients\" needs ";
  auto table = [&](const char* name) -> const toml::table* {
    const toml::table* t = root[name].as_table();
    if (t == nullptr)
      Error({path_, 1}, std::string("missing table [") + name + "] (" + needs +
                            (std::string_view(name) == "geometry" ? "S, c, b" : "m or W, Ix, Iy, Iz") + ")");
    return t;
  };
  const toml::table* condition = root["condition"].as_table();
  static const toml::table kNoGeometry;  // [aerodynamics] avl_st: S, c, b from the AVL file
  const toml::table* geometry = avl_ ? &kNoGeometry : table("geometry");
  const toml::table* mass_table = table("mass");
  if (condition == nullptr || geometry == nullptr || mass_table == nullptr) return;

  model::CoefficientsAsWritten& k = coefficients_;
  if (rho_) {
    k.rho = *rho_;
  } else if (altitude_) {
    if (const auto atmosphere = StandardAtmosphereAt(*condition->get("altitude"), *altitude_, "rho"))
      k.rho = atmosphere->density;
  } else {
    Missing(*condition, "condition", "rho",
            needs + "the air density: rho, or altitude for the 1976 standard atmosphere");
  }
  if (W0_ != 0.0)
    Error(At(*condition->get("W0")), "W0 must be 0 with form = \"coefficients\" (coefficients are "
                                     "in stability axes; give body-axis inertias with [mass] "
                                     "axes = \"body\" and alpha0)");
  if (!S_ && !geometry->contains("S")) Missing(*geometry, "geometry", "S", needs + "the reference area");
  if (lon_coefficients_ && !c_ && !geometry->contains("c"))
    Missing(*geometry, "geometry", "c", needs + "the mean aerodynamic chord");
  if (lat_coefficients_ && !b_ && !geometry->contains("b"))
    Missing(*geometry, "geometry", "b", needs + "the span");
  const model::MassProperties& mass = written_.mass;
  if (mass_table->contains("avl_mass")) {
    // ReadAvlMass gave the mass and inertias, or said why not.
  } else if (!mass.m && !mass_table->contains("m") && !mass_table->contains("W"))
    Missing(*mass_table, "mass", "m", needs + "the mass m or the weight W");
  for (const auto& [key, value, wanted] :
       {std::tuple{"Iy", mass.Iy, lon_coefficients_}, std::tuple{"Ix", mass.Ix, lat_coefficients_},
        std::tuple{"Iz", mass.Iz, lat_coefficients_}})
    if (wanted && !value && !mass_table->contains(key) && !mass_table->contains("avl_mass"))
      Missing(*mass_table, "mass", key, needs + "the moments of inertia");
  if (!errors_.empty()) return;

  k.name = written_.name;
  k.U0 = U0_;
  k.theta0 = theta0_;
  k.g = g_;
  k.altitude = altitude_;
  k.mach = mach_;
  k.S = S_.value_or(0.0);
  k.c = c_.value_or(1.0);  // unused without longitudinal coefficients
  k.b = b_.value_or(1.0);  // unused without lateral coefficients
  k.speed_of_sound = speed_of_sound_;  // U0 = mach · a(altitude) when the file gives no U0
  // m = W/g when the file gives W alone: left to ToDimensional, so that m moves with W.
  k.m = W_ && !mass_table->contains("m") && !mass_table->contains("avl_mass") ? std::nullopt : mass.m;
  k.W = W_;
  k.Ix = mass.Ix.value_or(1.0);  // absent: unused (only the other section's coefficients need it)
  k.Iy = mass.Iy.value_or(1.0);
  k.Iz = mass.Iz.value_or(1.0);
  k.Ixz = mass.Ixz.value_or(0.0);
  k.axes = model::InertiaAxes::kStability;
  k.alpha0 = alpha0_;  // [condition]'s, else AVL's Alpha; used by kBody only
  if (inertias_rotated_ && body_mass_) {
    // As the file gives them (body axes); ToDimensional rotates them by α0 as
    // ReadMassExtras / ReadAvlMass did (W0 = 0 here), so that α0 and the
    // body-axis values are keys of the chain.
    k.Ix = *body_mass_->Ix;
    k.Iz = *body_mass_->Iz;
    k.Ixz = *body_mass_->Ixz;
    k.axes = model::InertiaAxes::kBody;
  }
  model::AircraftAsWritten dimensional;
  try {
    dimensional = model::ToDimensional(k);
  } catch (const std::invalid_argument& e) {
    Error(avl_ ? At(*avl_st_node_) : At(*root.get(lon_coefficients_ ? "longitudinal" : "lateral")),
          e.what());
    return;
  }
  dimensional.mass = mass;  // as the file gives it (absent stays absent)
  if (lon_coefficients_) written_.longitudinal = dimensional.longitudinal;
  if (lat_coefficients_) written_.lateral = dimensional.lateral;
  for (std::size_t i = 0; i < written_.controls.size() && i < dimensional.controls.size(); ++i) {
    model::Control& c = written_.controls[i];
    const model::Control& d = dimensional.controls[i];
    if (lon_coefficients_) {
      c.X = d.X, c.Z = d.Z, c.M = d.M;
      c.longitudinal = d.longitudinal;
    }
    if (lat_coefficients_) {
      c.Y = d.Y, c.L = d.L, c.N = d.N;
      c.lateral = d.lateral;
    }
  }
  // A printed C_L0 is used as printed; it should carry the weight.
  if (lon_coefficients_ && k.CL0) {
    const double expected = model::WeightCoefficient(k) * std::cos(k.theta0);
    if (std::abs(*k.CL0 - expected) > kLiftCoefficientTolerance * std::abs(expected) && avl_)
      Warn({avl_->path, avl_->LineOf("CLtot")},
           "CLtot = " + Format(*k.CL0) + " (AVL's trim lift) differs from C_W0 cos(theta0) = "
               "W/(0.5 rho U0^2 S) cos(theta0) = " + Format(expected) + " of the TOML's condition and mass by " +
               Format(100.0 * (*k.CL0 - expected) / expected) +
               "%: the TOML's U0, rho (or altitude), m and g should be AVL's run case; CLtot is used as written");
    else if (std::abs(*k.CL0 - expected) > kLiftCoefficientTolerance * std::abs(expected))
      Warn(At(*root["longitudinal"].as_table()->get("CL0")),
           "CL0 = " + Format(*k.CL0) + " differs from C_W0 cos(theta0) = W/(0.5 rho U0^2 S) cos(theta0) = " +
               Format(expected) + " by " + Format(100.0 * (*k.CL0 - expected) / expected) +
               "%: the trim lift should carry the weight (check W or m, rho, U0, S); CL0 is used as written");
  }
  // Only what came from coefficients: a section given dimensionally is left
  // default (raw = false), which the display skips (export/dimensional_text.hpp).
  if (!lon_coefficients_) dimensional.longitudinal = {};
  if (!lat_coefficients_) dimensional.lateral = {};
  for (model::Control& c : dimensional.controls) {
    c.longitudinal = c.longitudinal && lon_coefficients_;
    c.lateral = c.lateral && lat_coefficients_;
  }
  from_coefficients_ = dimensional;
}

// ---------------------------------------------------------------------------
// AVL files (data/derivatives/README.md, "AVL files"): [aerodynamics] avl_st
// is the coefficient form with its numbers read from AVL's ST output
// (data/avl_coefficients.hpp); [mass] avl_mass reads AVL's mass file.

// SI factors of the unit names an AVL mass file's Lunit / Munit lines carry.
std::optional<double> AvlUnitToSI(std::string_view name, bool length) {
  static constexpr std::pair<std::string_view, double> kLength[] = {
      {"m", 1.0}, {"cm", 0.01}, {"mm", 0.001}, {"ft", core::kMetresPerFoot}, {"in", 0.0254}};
  static constexpr std::pair<std::string_view, double> kMass[] = {
      {"kg", 1.0}, {"g", 0.001}, {"lb", 0.45359237}, {"lbm", 0.45359237}, {"slug", core::kKilogramsPerSlug}};
  for (const auto& [unit, factor] : length ? std::span(kLength) : std::span(kMass))
    if (unit == name) return factor;
  return std::nullopt;
}

// SI factor of the unit name an AVL mass file's Tunit line carries.
std::optional<double> AvlTimeUnitToSI(std::string_view name) {
  if (name == "s") return 1.0;
  return std::nullopt;
}

// The .mass file's g and rho against the TOML's (README "AVL files"): both
// are written to a few digits (9.81, 0.38), so 2 % separates rounding from
// another condition or a unit slip (32.2 ft/s², 0.0024 slug/ft³), as for W
// against m g.
constexpr double kAvlMassConditionTolerance = 0.02;

std::string Reader::Resolve(const std::string& file) const {
  const std::filesystem::path p(file);
  if (p.is_absolute()) return file;
  return (std::filesystem::path(path_).parent_path() / p).lexically_normal().string();
}

void Reader::ReportAvlError(const core::DataError& e, const toml::table& t, std::string_view table_name,
                            std::string_view key) {
  for (const Diagnostic& d : e.defects()) {
    if (d.where.line > 0) {
      errors_.push_back(d);  // the AVL file's own line
    } else {
      Error(At(*t.get(key)), "[" + std::string(table_name) + "] " + std::string(key) + ": " +
                                 d.where.path + ": " + d.message +
                                 " (the path is relative to this TOML file)");
    }
  }
}

void Reader::ReadAerodynamics(const toml::table& root, model::AircraftData& out) {
  const toml::node* node = root.get("aerodynamics");
  if (node == nullptr) return;
  const toml::table* t = node->as_table();
  if (t == nullptr) {
    Error(At(*node), "'aerodynamics' must be a table");
    return;
  }
  CheckKeys(*t, "aerodynamics", {"avl_st", "avl_length_unit"});
  const std::optional<std::string> file = String(*t, "avl_st", "aerodynamics", true);
  avl_requested_ = t->contains("avl_st");
  avl_st_node_ = t->get("avl_st");
  const std::optional<double> length_unit = Number(*t, "avl_length_unit", "aerodynamics");
  if (!t->contains("avl_length_unit")) {
    Missing(*t, "aerodynamics", "avl_length_unit",
            "AVL's Lunit in this file's length unit: 1.0 if the AVL geometry is in this file's "
            "unit, 0.3048 for an AVL geometry in feet read into an SI file");
  } else if (length_unit && *length_unit <= 0.0) {
    Error(At(*t->get("avl_length_unit")),
          "avl_length_unit must be > 0 (AVL's Lunit in this file's length unit, e.g. 0.3048 for "
          "an AVL geometry in feet read into an SI file)");
  }
  // The AVL file gives the derivatives, the reference geometry and the controls.
  for (const auto& [section, what] :
       {std::pair{"longitudinal", "the longitudinal derivatives"},
        std::pair{"lateral", "the lateral derivatives"},
        std::pair{"geometry", "Sref, Cref, Bref (S, c, b)"}})
    if (const toml::node* n = root.get(section))
      Error(At(*n), std::string("[") + section + "] conflicts with [aerodynamics] avl_st, which gives " +
                        what + " (remove [" + section + "], or remove avl_st)");
  if (!avl_requested_ || !file || !length_unit || *length_unit <= 0.0 || !units_known_) return;

  AvlCoefficients avl;
  try {
    AvlStability st = ReadAvlStabilityFile(Resolve(*file));
    avl = ToCoefficients(st, *length_unit);
    avl_ = std::move(st);
  } catch (const core::DataError& e) {
    ReportAvlError(e, *t, "aerodynamics", "avl_st");
    return;
  }
  // The file's coefficients; the condition (U0, ρ, g, θ0) and the mass are
  // the TOML's (ApplyCoefficients). Geometry in the TOML's length unit → SI.
  model::CoefficientsAsWritten& k = coefficients_;
  k = std::move(avl.coefficients);
  S_ = core::ToSI(k.S, units_, kArea);
  c_ = core::ToSI(k.c, units_, core::kLength);
  b_ = core::ToSI(k.b, units_, core::kLength);
  out.geometry.b = *b_;
  if (!alpha0_) alpha0_ = k.alpha0;  // AVL's Alpha, unless [condition] gives alpha0
  lon_coefficients_ = lat_coefficients_ = true;
  written_.longitudinal.raw = written_.lateral.raw = true;  // filled by ApplyCoefficients
  written_.longitudinal.form = written_.lateral.form = model::AngleForm::kVelocity;
  lateral_primed_ = false;
  for (const model::ControlCoefficients& control : k.controls) {
    model::Control c;
    c.name = control.name;
    c.unit = core::Unit::kRadian;
    written_.controls.push_back(std::move(c));
  }
  avl_notes_ = std::move(avl.notes);
  ReadAvlControls(root);
}

void Reader::ReadAvlControls(const toml::table& root) {
  const toml::node* node = root.get("controls");
  if (node == nullptr) return;
  const toml::table* controls = node->as_table();
  if (controls == nullptr) {
    Error(At(*node), "'controls' must be a table of [controls.<name>] tables");
    return;
  }
  std::vector<std::string_view> names;
  std::string listed;
  for (const AvlControl& c : avl_->controls) {
    names.push_back(c.name);
    listed += (listed.empty() ? "" : ", ") + c.name;
  }
  const std::string st_file = std::filesystem::path(avl_->path).filename().string();
  for (const auto& [key, value] : *controls) {
    const std::string name(key.str());
    const std::string table_name = "controls." + name;
    const toml::table* t = value.as_table();
    if (t == nullptr) {
      Error(At(value), "'" + table_name + "' must be a table ([" + table_name + "])");
      continue;
    }
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      std::string message = "control '" + name + "' is not in " + st_file + " (its controls: " +
                            (listed.empty() ? std::string("none") : listed) + ")";
      if (const auto suggestion = Suggest(name, names))
        message += "; did you mean '" + *suggestion + "'?";
      Error(At(*t), message + " ([controls.NAME] beside avl_st sets limits of AVL's controls, "
                              "by AVL's names)");
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(it - names.begin());
    const AvlControl& st = avl_->controls[i];
    for (const auto& [entry, entry_node] : *t)
      CheckAvlControlKey(entry.str(), entry_node, st, table_name, st_file);
    model::Control& c = written_.controls[i];
    model::ControlCoefficients& k = coefficients_.controls[i];
    ReadControlUnit(*t, table_name, c);
    if (c.unit == core::Unit::kOne) {
      // AVL's control variable as it is (a gain other than 1 deg per unit):
      // its derivatives per unit as printed, undoing ToCoefficients' × 180/π.
      for (std::optional<double>* d : {&k.CL, &k.CD, &k.Cm, &k.CY, &k.Cl, &k.Cn})
        if (*d) **d /= core::kRadToDeg;
      avl_notes_.push_back("control '" + name + "': unit = \"1\", its derivatives are per unit of "
                           "AVL's control variable as printed (not converted from per degree)");
    }
    if (!st.CD && !st.CDff)
      if (const auto cd = Number(*t, "CD", table_name))
        k.CD = *cd;  // per unit of the control (rad or "1"), as any coefficient-form control
    k.unit = c.unit;
    ReadLimits(*t, table_name, c);
    k.min = c.min;
    k.max = c.max;
  }
}

void Reader::CheckAvlControlKey(std::string_view key, const toml::node& node, const AvlControl& st,
                                const std::string& table_name, const std::string& st_file) {
  if (key == "unit" || key == "min" || key == "max") return;
  if (key == "per_degree") {
    Error(At(node), "per_degree: AVL's control derivatives are always per degree of its control "
                    "variable and are converted to per rad on load (remove per_degree)");
    return;
  }
  // AVL's own key of this derivative (Cmd4, CDffd4 ...), if the .st gives it.
  const std::string d = "d" + std::to_string(st.index);
  constexpr std::string_view kAlwaysGiven[] = {"CL", "CY", "Cl", "Cm", "Cn"};
  std::string given_as;
  if (std::find(std::begin(kAlwaysGiven), std::end(kAlwaysGiven), key) != std::end(kAlwaysGiven))
    given_as = std::string(key) + d;
  else if (key == "CD" && (st.CD || st.CDff))
    given_as = (st.CD ? "CD" : "CDff") + d;
  if (!given_as.empty()) {
    Error(At(node), "'" + std::string(key) + "' of control '" + st.name + "' is given twice: here " +
                        "and by " + st_file + ":" + std::to_string(avl_->LineOf(given_as)) + " (" +
                        given_as + "); remove it here (the .st file's value is used)");
    return;
  }
  if (key == "CD") return;  // the .st prints no drag row for this control: ReadAvlControls reads it
  std::string message = "unknown key '" + std::string(key) + "' in [" + table_name + "] (";
  // A dimensional or force-family derivative is not a misspelt limit.
  constexpr std::string_view kDerivatives[] = {"X", "Z", "M", "Y", "L", "N", "CX", "CZ"};
  const bool derivative =
      std::find(std::begin(kDerivatives), std::end(kDerivatives), key) != std::end(kDerivatives);
  if (const auto suggestion = Suggest(key, {"unit", "min", "max"}); suggestion && !derivative)
    message += "did you mean '" + *suggestion + "'?";
  else
    message += "beside avl_st a control takes min, max and unit; its derivatives come from " + st_file;
  Error(At(node), message + ")");
}

bool Reader::ReadAvlMass(const toml::table& t) {
  const std::size_t errors_before = errors_.size();
  const std::optional<std::string> file = String(t, "avl_mass", "mass", false);
  if (!t.contains("avl_mass")) return false;
  for (const char* key : {"m", "W", "Ix", "Iy", "Iz", "Ixz"})
    if (const toml::node* n = t.get(key))
      Error(At(*n), std::string("'") + key + "' conflicts with avl_mass, which gives the mass and "
                                             "inertias (remove one)");
  if (const auto axes = String(t, "axes", "mass", false); axes && *axes != "body")
    Error(At(*t.get("axes")), "avl_mass gives body-axis inertias (AVL's geometry axes turned 180 deg "
                              "about y); remove axes or write axes = \"body\"");
  if (!alpha0_ && !avl_requested_)  // with avl_st, its own error says why there is no Alpha
    Error(At(*t.get("avl_mass")),
          "avl_mass needs the trim angle of attack to rotate its body-axis inertias into stability "
          "axes: [condition] alpha0_deg (or alpha0), or [aerodynamics] avl_st (its Alpha)");
  if (!file || !alpha0_ || errors_.size() != errors_before || !units_known_) return true;
  AvlMass avl;
  try {
    avl = ReadAvlMassFile(Resolve(*file));
  } catch (const core::DataError& e) {
    ReportAvlError(e, t, "mass", "avl_mass");
    return true;
  }
  const std::optional<double> L = AvlUnitToSI(avl.length_unit_name, true);
  const std::optional<double> M = AvlUnitToSI(avl.mass_unit_name, false);
  if (!L || !M) {
    Error({avl.path, 1}, std::string("aerolin needs the ") + (!L ? "Lunit" : "Munit") +
                             " line with its unit name to convert the totals, e.g. " +
                             (!L ? "'Lunit = 0.3048 m' (m, cm, mm, ft, in)"
                                 : "'Munit = 0.4536 kg' (kg, g, lb, lbm, slug)"));
    return true;
  }
  const AvlMassBodyAxes body = ToBodyAxes(avl);
  model::MassProperties mass;
  mass.m = body.m * *M;
  mass.Ix = body.Ix * *M * *L * *L;
  mass.Iy = body.Iy * *M * *L * *L;
  mass.Iz = body.Iz * *M * *L * *L;
  mass.Ixz = body.Ixz * *M * *L * *L;
  if (*mass.Ixz * *mass.Ixz >= *mass.Ix * *mass.Iz) {
    Error({avl.path, 1}, "Ixz² ≥ Ix·Iz for the totals: the inertia tensor is not positive definite");
    return true;
  }
  SetBodyInertias(mass);
  ixz_at_ = mass_at_ = At(*t.get("avl_mass"));
  CheckAvlMassCondition(avl, *L, *M);
  return true;
}

void Reader::CheckAvlMassCondition(const AvlMass& avl, double L, double M) {
  const bool imperial = units_ == UnitSystem::kImperial;
  // A value in the TOML's units, for messages.
  auto in_toml_units = [&](double si, Dimension dim, const char* si_unit, const char* imperial_unit) {
    return Format(si / core::ToSIFactor(units_, dim)) + " " + (imperial ? imperial_unit : si_unit);
  };
  // `written` (the mass file's number in `unit`), and its value in the TOML's
  // units when the two differ.
  auto as_written = [&](double written, const std::string& unit, double si, Dimension dim,
                        const char* si_unit, const char* imperial_unit) {
    const std::string toml = in_toml_units(si, dim, si_unit, imperial_unit);
    const std::string text = Format(written) + " " + unit;
    return toml == text ? text : text + " (" + toml + ")";
  };
  auto percent = [](double a, double b) { return Format(100.0 * std::abs(a - b) / std::abs(b)); };
  const std::string tolerance = Format(100.0 * kAvlMassConditionTolerance) + " %";
  if (avl.g) {
    const std::optional<double> T = AvlTimeUnitToSI(avl.time_unit_name);
    const std::string unit = avl.length_unit_name + "/" + avl.time_unit_name + "^2";
    if (!T) {
      Warn({avl.path, avl.g_line},
           "g: g = " + Format(*avl.g) + " " + unit + " cannot be compared with the TOML's g: the " +
               "mass file's Tunit line names no time unit aerolin knows (s); add 'Tunit = 1.0 s'");
    } else if (const double g = *avl.g * L / (*T * *T);
               std::abs(g - g_) > kAvlMassConditionTolerance * g_) {
      Warn({avl.path, avl.g_line},
           "g: g = " + as_written(*avl.g, unit, g, core::kAcceleration, "m/s^2", "ft/s^2") +
               " differs from the TOML's g = " +
               in_toml_units(g_, core::kAcceleration, "m/s^2", "ft/s^2") +
               (condition_gives_g_ ? "" : " (standard gravity: [condition] gives no g)") +
               " by " + percent(g, g_) + " %, more than " + tolerance +
               ": AVL's run case takes g from the mass file, so the .st's trim may be for another g; "
               "aerolin uses the TOML's (make the two agree)");
    }
  }
  if (avl.rho) {
    // The TOML's density: [condition] rho, else the standard atmosphere at
    // its altitude (an altitude outside it is reported where rho is needed).
    std::optional<double> rho = rho_;
    std::string from = "[condition] rho";
    if (!rho && altitude_) {
      try {
        rho = model::StandardAtmosphere(*altitude_).density;
        from = "the 1976 standard atmosphere at [condition] altitude";
      } catch (const std::out_of_range&) {
      }
    }
    const std::string unit = avl.mass_unit_name + "/" + avl.length_unit_name + "^3";
    if (const double written = *avl.rho * M / (L * L * L);
        rho && std::abs(written - *rho) > kAvlMassConditionTolerance * *rho)
      Warn({avl.path, avl.rho_line},
           "rho: rho = " + as_written(*avl.rho, unit, written, kDensity, "kg/m^3", "slug/ft^3") +
               " differs from " + in_toml_units(*rho, kDensity, "kg/m^3", "slug/ft^3") + ", " + from +
               ", by " + percent(written, *rho) + " %, more than " + tolerance +
               ": AVL's run case takes its density from the mass file, so the .st's trim (CLtot) may "
               "be for another density; aerolin uses the TOML's (make the two agree)");
  }
}

void Reader::CheckMagnitudes(const toml::table& root, const model::AircraftData& out) {
  // Every value as the model holds it (SI, normalized, α/β-form, primed) is
  // at most kMaxMagnitude, so that the products forming A and B (a few
  // factors each) stay finite; checked per key, so the message has its line.
  constexpr double kMaxMagnitude = 1e100;
  auto check = [&](const toml::node& node, std::string_view section, std::string_view key,
                   const model::Control* control) {
    const model::Parameter* row = model::FindParameter(section, key);
    if (row == nullptr) return;
    const std::optional<double> v = row->get(out, control);
    if (v && !(std::abs(*v) <= kMaxMagnitude))
      Error(At(node), "'" + std::string(key) + "' in [" + std::string(section) +
                          "] is " + Format(*v) + " once converted to SI (" +
                          std::string(row->member) + "), beyond " + Format(kMaxMagnitude) +
                          " (check the value and its units)");
  };
  for (const char* section : {"condition", "mass", "geometry", "longitudinal", "lateral"})
    if (const toml::table* t = root[section].as_table())
      for (const auto& [key, node] : *t) check(node, section, key.str(), nullptr);
  if (const toml::table* controls = root["controls"].as_table())
    for (const auto& [name, node] : *controls)
      if (const toml::table* t = node.as_table())
        for (const model::Control& c : out.controls)
          if (c.name == name.str())
            for (const auto& [key, value] : *t) check(value, "controls", key.str(), &c);
  if (!errors_.empty()) return;
  // Safety net: what is left (e.g. a division by a tiny U0) is located at
  // the section the model comes from.
  auto build = [&](const char* section, auto builder) {
    try {
      builder(out);
    } catch (const std::invalid_argument&) {
      const toml::node* node = root.get(section);
      Error(node ? At(*node) : SourceLocation{path_, 1},
            std::string("the ") + section +
                " model overflows (a matrix entry is not finite): a value is far outside the "
                "physical range (check the values and their units)");
    }
  };
  build("longitudinal", [](const model::AircraftData& a) { model::BuildLongitudinal(a); });
  build("lateral", [](const model::AircraftData& a) { model::BuildLateral(a); });
}

// The key that set `quantity` (an AircraftData member path, as
// model::CheckTypedValues names it) in this file's form, and its line: the
// key's, else its section's, else line 1.
model::WrittenAt LocateQuantity(const toml::table& root, std::string_view quantity,
                                const std::string& path) {
  static constexpr std::pair<std::string_view, std::string_view> kKeys[] = {
      // dimensional α/β-form, w/v-form, then the coefficient form's key
      {"longitudinal.Za", "Za Zw CLa CZa"}, {"longitudinal.Ma", "Ma Mw Cma"},
      {"longitudinal.Mq", "Mq Cmq"},        {"longitudinal.Xu", "Xu CXu CDu"},
      {"lateral.Yb", "Yb Yv CYb"},          {"lateral.Lb", "Lb Lv Clb"},
      {"lateral.Nb", "Nb Nv Cnb"},          {"lateral.Lp", "Lp Clp"},
      {"lateral.Nr", "Nr Cnr"}};
  const std::size_t dot = quantity.find('.');
  const std::string_view section = quantity.substr(0, dot);
  std::string_view candidates = quantity.substr(dot + 1);
  for (const auto& [q, keys] : kKeys)
    if (q == quantity) candidates = keys;
  const toml::table* t = root[section].as_table();
  std::string first;
  for (std::size_t i = 0; i < candidates.size();) {
    std::size_t j = candidates.find(' ', i);
    if (j == std::string_view::npos) j = candidates.size();
    const std::string_view key = candidates.substr(i, j - i);
    if (first.empty()) first = std::string(key);
    if (t != nullptr)
      if (const toml::node* n = t->get(key)) return {std::string(key), LocationOf(*n, path)};
    i = j + 1;
  }
  if (t != nullptr) return {first, LocationOf(*t, path)};
  return {first, SourceLocation{path, 1}};
}

void Reader::CheckSigns(const toml::table& root, const model::AircraftData& out) {
  // An AVL file's derivatives are located at the .st file's line of AVL's key.
  static constexpr std::pair<std::string_view, std::string_view> kAvlKeys[] = {
      {"longitudinal.Za", "CLa"}, {"longitudinal.Ma", "Cma"}, {"longitudinal.Mq", "Cmq"},
      {"longitudinal.Xu", "CDtot"}, {"lateral.Yb", "CYb"},    {"lateral.Lb", "Clb"},
      {"lateral.Nb", "Cnb"},       {"lateral.Lp", "Clp"},     {"lateral.Nr", "Cnr"}};
  const model::Locator locate = [&](std::string_view quantity) -> model::WrittenAt {
    if (avl_)
      for (const auto& [q, key] : kAvlKeys)
        if (q == quantity) return {std::string(key), {avl_->path, avl_->LineOf(std::string(key))}};
    return LocateQuantity(root, quantity, path_);
  };
  // W beside m: m·g = W is checked by the model (a weight typed as a mass).
  model::TypedValueExtras extras;
  if (const toml::table* mass = root["mass"].as_table(); mass && mass->contains("m")) extras.W = W_;
  for (Diagnostic& d : model::CheckTypedValues(out, locate, extras)) Warn(d.where, std::move(d.message));
}

std::optional<model::WrittenKey> Reader::CoefficientKey(const toml::table& t, std::string_view section,
                                                        const std::string& prefix, std::string_view key,
                                                        std::vector<model::OmittedKey>& omitted) const {
  const std::string path = prefix + std::string(key);
  const double value = *t.get(key)->value<double>();
  auto si = [&](Dimension dim) { return model::WrittenKey{path, value, core::ToSIFactor(units_, dim)}; };
  auto one = [&](double to_si) { return model::WrittenKey{path, value, to_si}; };
  auto omit = [&](std::string reason) -> std::optional<model::WrittenKey> {
    omitted.push_back({path, std::move(reason)});
    return std::nullopt;
  };
  if (section == "condition") {
    if (key == "U0") return si(core::kSpeed);
    if (key == "g") return si(core::kAcceleration);
    if (key == "rho") return si(kDensity);
    if (key == "theta0" || key == "alpha0" || key == "mach") return one(1.0);
    if (key == "theta0_deg" || key == "alpha0_deg") return one(core::kDegToRad);
    if (key == "altitude") {
      if (!rho_ || speed_of_sound_)
        return omit(std::string("it gives ") + (!rho_ ? "rho" : "") + (!rho_ && speed_of_sound_ ? " and " : "") +
                    (speed_of_sound_ ? "the speed of sound for U0 = mach x a" : "") +
                    " through the 1976 standard atmosphere, which aerolin does not differentiate "
                    "(give rho" + (speed_of_sound_ ? " and U0" : "") + " to vary them)");
      return si(core::kLength);  // informational: rho and U0 are given
    }
    if (key == "W0")
      return omit("coefficients are in stability axes, where W0 = 0");
    return std::nullopt;
  }
  if (section == "mass") {
    if (key == "m") return si(core::kMass);
    if (key == "W") return si(core::kForce);
    return si(core::kInertia);  // Ix Iy Iz Ixz, about the file's axes
  }
  if (section == "geometry") return si(key == "S" ? kArea : core::kLength);
  if (key == "CXadot") return omit("it must be 0: aerolin's model has no X_wdot term");
  // A coefficient (per radian inside; per degree as written under per_degree = true).
  double to_si = 1.0;
  if (const auto it = per_degree_.find(prefix.substr(0, prefix.size() - 1)); it != per_degree_.end())
    if (section == "controls" || Contains(kPerAngleKeys, key)) to_si = it->second;
  return one(to_si);
}

std::vector<model::WrittenKey> Reader::WrittenKeys(const toml::table& root,
                                                   std::vector<model::OmittedKey>& omitted) const {
  std::vector<model::WrittenKey> keys;
  // `raw(key)`: whether the key is in the raw form (a control's X, Z, M follow
  // [longitudinal], its Y, L, N [lateral]). `coefficient(key)`: whether it
  // sets a field of coefficients_ (CoefficientKey) rather than of written_.
  auto add = [&](const toml::table& t, std::string_view section, const std::string& prefix,
                 auto raw, auto coefficient) {
    // toml++ keeps keys sorted; list them in file order.
    std::vector<std::pair<int, std::string_view>> present;
    for (const auto& [key, node] : t)
      if (node.is_number()) present.emplace_back(static_cast<int>(node.source().begin.line), key.str());
    std::sort(present.begin(), present.end());
    for (const auto& [line, key] : present) {
      if (coefficient(key)) {
        if (auto k = CoefficientKey(t, section, prefix, key, omitted)) keys.push_back(std::move(*k));
        continue;
      }
      const Parameter* row = model::FindParameter(section, key);
      if (row == nullptr) continue;
      // Body-axis Ix, Iz, Ixz of a dimensional file reach the model through the
      // rotation, which MatricesOf does not model: not offered.
      if (inertias_rotated_ && section == "mass" && (key == "Ix" || key == "Iz" || key == "Ixz")) {
        omitted.push_back({prefix + std::string(key),
                           "a body-axis inertia of a dimensional file reaches A through the rotation by "
                           "alpha0, which sensitivities and sweeps model for coefficient files only"});
        continue;
      }
      Dimension dim = row->dimension;
      if (row->divisor != Divisor::kNone && raw(key))
        dim = dim * (row->divisor == Divisor::kMass ? core::kMass : core::kInertia);
      double to_si = core::ToSIFactor(units_, dim);
      if (key == "theta0_deg") to_si = core::kDegToRad;
      // Dimensionless, or a limit in the control's own unit.
      if (key == "mach" || (section == "controls" && row->divisor == Divisor::kNone)) to_si = 1.0;
      // per_degree = true: the file's value is per degree (PerDegreeFactor, read on load).
      if (const auto it = per_degree_.find(prefix.substr(0, prefix.size() - 1)); it != per_degree_.end())
        if (row->divisor != Divisor::kNone && (section == "controls" || Contains(kPerAngleKeys, key)))
          to_si *= it->second;
      keys.push_back({prefix + std::string(key), *t.get(key)->template value<double>(), to_si});
    }
  };
  const bool lon_raw = written_.longitudinal.raw, lat_raw = written_.lateral.raw;
  const bool coefficients = lon_coefficients_ || lat_coefficients_;
  for (std::string_view section : {"condition", "mass", "geometry", "longitudinal", "lateral"}) {
    // A coefficient file's [condition], [mass], [geometry] enter through ToDimensional.
    const bool from_coefficients = section == "longitudinal" ? lon_coefficients_
                                   : section == "lateral"    ? lat_coefficients_
                                                             : coefficients;
    if (section == "geometry" && !coefficients) continue;  // b is informational there
    if (const toml::table* t = root[section].as_table())
      add(
          *t, section, std::string(section) + ".",
          [&](std::string_view) { return section == "longitudinal" ? lon_raw : lat_raw; },
          [&](std::string_view) { return from_coefficients; });
  }
  if (const toml::table* controls = root["controls"].as_table()) {
    std::vector<std::pair<int, std::string>> ordered;
    for (const auto& [name, value] : *controls)
      if (value.is_table())
        ordered.emplace_back(static_cast<int>(value.source().begin.line), std::string(name.str()));
    std::sort(ordered.begin(), ordered.end());
    for (const auto& [line, name] : ordered)
      add(
          *(*controls)[name].as_table(), "controls", "controls." + name + ".",
          [&](std::string_view key) { return key == "X" || key == "Z" || key == "M" ? lon_raw : lat_raw; },
          [&](std::string_view key) {
            return key == "CX" || key == "CZ" || key == "CL" || key == "CD" || key == "Cm" ||
                   key == "CY" || key == "Cl" || key == "Cn";
          });
  }
  return keys;
}

std::vector<model::WrittenKey> Reader::AvlKeys(const toml::table& root,
                                               std::vector<model::OmittedKey>& omitted) const {
  const AvlStability& st = *avl_;
  const model::CoefficientsAsWritten& k = coefficients_;
  const std::string st_file = std::filesystem::path(st.path).filename().string();
  std::vector<model::WrittenKey> keys;
  auto add = [&](const std::string& name, double value, double to_si) {
    keys.push_back({"avl." + name, value, to_si});
  };
  auto omit = [&](const std::string& name, std::string reason) {
    omitted.push_back({"avl." + name, std::move(reason)});
  };
  // Geometry: Lunit × avl_length_unit → the TOML's unit → SI (k.S, k.c, k.b are SI).
  const double length_unit = *root["aerodynamics"]["avl_length_unit"].value<double>();
  const double length = length_unit * core::ToSIFactor(units_, core::kLength);
  const double area = length_unit * length_unit * core::ToSIFactor(units_, kArea);
  omitted.push_back({"aerodynamics.avl_length_unit",
                     "it scales Sref, Cref and Bref together; vary avl.Sref, avl.Cref, avl.Bref"});
  add("Sref", st.Sref, area);
  add("Cref", st.Cref, length);
  add("Bref", st.Bref, length);
  // AVL's Alpha rotates body-axis inertias (avl_mass, or [mass] axes = "body")
  // unless [condition] gives alpha0.
  const toml::table* condition = root["condition"].as_table();
  const bool condition_alpha0 =
      condition != nullptr && (condition->contains("alpha0") || condition->contains("alpha0_deg"));
  if (k.axes == model::InertiaAxes::kBody && !condition_alpha0)
    add("Alpha", st.alpha_deg, core::kDegToRad);
  else
    omit("Alpha", condition_alpha0 ? "[condition] alpha0 rotates the inertias in its place"
                                   : "it only rotates body-axis inertias, and this file's are in stability axes");
  // Without a printed CDa, the load estimates it as 2 CDind CLa / CLtot
  // (ToCoefficients); the chain holds CDa as a number, so CLa and CLtot, which
  // move the estimate when the .st is edited, are not offered.
  if (st.CDa) {
    add("CLtot", st.CLtot, 1.0);
    add("CLa", st.CLa, 1.0);
    add("CDa", *st.CDa, 1.0);
  } else {
    const std::string estimate = st_file + " prints no CDa, so the load estimates it as 2 CDind CLa / CLtot, ";
    omit("CLtot", estimate + "which sensitivities and sweeps hold fixed (a file that prints CDa, as AVL 3.52's "
                             "do, offers CLtot and CLa)");
    omit("CLa", estimate + "which sensitivities and sweeps hold fixed (a file that prints CDa, as AVL 3.52's "
                           "do, offers CLtot and CLa)");
    omit("CDa", estimate + "not a number of the file");
  }
  add("CDtot", st.CDtot, 1.0);
  for (const auto& [name, value] : {std::pair{"Cma", st.Cma}, std::pair{"CLq", st.CLq}, std::pair{"Cmq", st.Cmq}})
    add(name, value, 1.0);
  if (st.CDq) add("CDq", *st.CDq, 1.0);
  for (const auto& [name, value] :
       {std::pair{"CYb", st.CYb}, std::pair{"CYp", st.CYp}, std::pair{"CYr", st.CYr}, std::pair{"Clb", st.Clb},
        std::pair{"Clp", st.Clp}, std::pair{"Clr", st.Clr}, std::pair{"Cnb", st.Cnb}, std::pair{"Cnp", st.Cnp},
        std::pair{"Cnr", st.Cnr}})
    add(name, value, 1.0);
  // Controls: per degree as printed (× 180/π inside), or per unit with unit = "1".
  for (std::size_t i = 0; i < st.controls.size() && i < k.controls.size(); ++i) {
    const AvlControl& c = st.controls[i];
    const double to_si = k.controls[i].unit == core::Unit::kOne ? 1.0 : core::kRadToDeg;
    for (const auto& [name, value] : {std::pair{"CL", c.CL}, std::pair{"CY", c.CY}, std::pair{"Cl", c.Cl},
                                      std::pair{"Cm", c.Cm}, std::pair{"Cn", c.Cn}})
      add(c.name + "." + name, value, to_si);
    if (c.CD || c.CDff) add(c.name + ".CD", c.CD ? *c.CD : *c.CDff, to_si);  // else [controls.NAME] CD, a TOML key
  }
  omitted.push_back({"avl (other numbers)",
                     "CDind (only through the CDa estimate), Mach, Xnp and the cross-axis derivatives (CLb, Cla, "
                     "Cmb, Cna, CLp, CLr, CYa, CYq, Clq, Cmp, Cmr, Cnq, dropped by the decoupled model) of " +
                         st_file + " do not enter A"});
  return keys;
}

LoadResult Reader::Read(const toml::table& root) {
  LoadResult result;
  model::AircraftData& out = result.aircraft;
  CheckKeys(root, "top level",
            {"aircraft", "condition", "aerodynamics", "mass", "geometry", "longitudinal", "lateral",
             "controls"});
  ReadAircraft(root, out);
  ReadCondition(root, out);
  ReadAerodynamics(root, out);
  ReadMass(root);
  ReadGeometry(root, out);
  if (!avl_requested_) {  // [aerodynamics] avl_st gives both (conflicts are reported there)
    ReadLongitudinal(root);
    ReadLateral(root);
  }

  // Whether to apply the Ixz coupling to the lateral (and control) moments;
  // its preconditions are checked here, where they can be located. Every
  // source of unprimed L, N gets it: a [lateral] table (raw, or coefficients)
  // and an AVL .st file (no [lateral] table; its Ixz and inertias come from
  // [mass] or the .mass file, located at ixz_at_ / mass_at_), as
  // model::MatricesOf does for primed = false.
  bool prime = false;
  const model::MassProperties& mass = written_.mass;
  const toml::table* lat = root["lateral"].as_table();
  if (lateral_primed_ && !*lateral_primed_) {
    const bool needs_inertia = mass.Ixz.has_value() && *mass.Ixz != 0.0;
    if (!mass.Ixz.has_value() && !written_.lateral.raw && lat != nullptr) {
      Error(At(*lat->get("primed")),
            "primed = false needs [mass] Ixz (write Ixz = 0.0 if the product of inertia is negligible)");
    } else if (needs_inertia && (!mass.Ix || !mass.Iz)) {
      Error(ixz_at_, avl_requested_
                         ? "the AVL file's L and N with Ixz != 0 need [mass] Ix and Iz to apply the "
                           "Ixz coupling (add them, or give avl_mass)"
                         : "unprimed L, N with Ixz != 0 need [mass] Ix and Iz to apply the Ixz coupling "
                           "(add them, or give primed derivatives with primed = true)");
    } else if (needs_inertia) {
      if (1.0 - (*mass.Ixz * *mass.Ixz) / (*mass.Ix * *mass.Iz) <= 0.0)
        Error(mass_at_, "Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite");
      else
        prime = true;
    }
  }
  if (!avl_requested_) ReadControls(root);
  ApplyCoefficients(root);

  // The physics: normalize, α/β-form, priming (model/conversions.hpp). A
  // value whose divisor is missing was reported and read as 0, which needs
  // no divisor; U0_ is 1 where U0 was bad (reported), as the w/v-form needs U0 > 0.
  model::AircraftAsWritten written = written_;
  written.condition = out.condition;  // W0 for a β = v/V file's SideslipFactor
  written.condition.U0 = U0_;
  written.lateral.primed = !prime;
  const model::AircraftData converted = model::Convert(written);
  out.longitudinal = converted.longitudinal;
  out.lateral = converted.lateral;
  out.controls = converted.controls;
  out.mass = converted.mass;
  if (zadot_node_ != nullptr && std::abs(1.0 - out.longitudinal.Zadot / U0_) < 1e-6)
    Error(At(*zadot_node_), "Zadot makes 1 - Zadot/U0 vanish (the α equation is singular)");

  if (errors_.empty()) CheckMagnitudes(root, out);
  if (errors_.empty()) CheckSigns(root, out);
  // In file order: the TOML's own lines first, then each file it names (an
  // AVL .st or .mass) in its line order; line numbers of two files do not
  // interleave.
  const auto by_file_then_line = [this](const Diagnostic& a, const Diagnostic& b) {
    const bool a_other = a.where.path != path_, b_other = b.where.path != path_;
    if (a_other != b_other) return b_other;
    if (a.where.path != b.where.path) return a.where.path < b.where.path;
    return a.where.line < b.where.line;
  };
  if (!errors_.empty()) {
    std::stable_sort(errors_.begin(), errors_.end(), by_file_then_line);
    throw core::DataError(std::move(errors_));
  }
  std::stable_sort(warnings_.begin(), warnings_.end(), by_file_then_line);
  result.warnings = std::move(warnings_);
  model::AircraftFile& file = result.file;
  file.written = written_;
  file.written.name = out.name;
  file.written.source = out.source;
  file.written.condition = out.condition;
  file.written.lateral.primed = lateral_primed_.value_or(true);
  // A coefficient file (or an AVL .st one) carries its coefficients; its
  // keys' fields are theirs (model::FieldOf(AircraftFile), MatricesOfFile).
  if (from_coefficients_) {
    file.coefficients = coefficients_;
    file.longitudinal_coefficients = lon_coefficients_;
    file.lateral_coefficients = lat_coefficients_;
  }
  // An AVL file: its TOML's keys, then the .st's numbers (AvlKeys).
  file.keys = WrittenKeys(root, file.omitted);
  if (avl_) {
    std::vector<model::WrittenKey> avl = AvlKeys(root, file.omitted);
    file.keys.insert(file.keys.end(), std::make_move_iterator(avl.begin()), std::make_move_iterator(avl.end()));
  }
  result.units = units_;
  result.from_coefficients = from_coefficients_;
  result.avl_notes = std::move(avl_notes_);
  return result;
}

}  // namespace

LoadResult LoadAircraftString(const std::string& text, const std::string& path) {
  // toml++ 3.3.0 has undefined behaviour on a NUL byte and on some non-ASCII
  // bytes at a line start (upstream issues #190, #295): it only ever sees
  // NUL-free, valid UTF-8.
  const std::string_view body = core::StripByteOrderMark(text);
  core::CheckInputText(body, path);
  toml::table root;
  try {
    root = toml::parse(body, path);
  } catch (const toml::parse_error& e) {
    const toml::source_region& src = e.source();
    throw core::DataError({path, static_cast<int>(src.begin.line)},
                          "TOML syntax error: " + std::string(e.description()) + " (column " +
                              std::to_string(src.begin.column) + ")");
  }
  return Reader(path).Read(root);
}

LoadResult LoadAircraftFile(const std::string& path) {
  return LoadAircraftString(core::ReadInputFile(path), path);
}

}  // namespace aerolin::data
