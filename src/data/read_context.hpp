#pragma once
// Reading one aircraft TOML file, internal to module data: the read context
// every section reader shares (passed by reference), the TOML primitives and
// diagnostics of the reader core (read_context.cpp), and the entry points of
// each part:
//   read_sections.cpp      [aircraft] [condition] [mass] [geometry], every form's
//   read_dimensional.cpp   [longitudinal] [lateral] [controls] as derivatives
//   read_coefficients.cpp  the same sections with form = "coefficients"
//   read_avl.cpp           [aerodynamics] avl_st and [mass] avl_mass
//   read_tables.cpp        [tables], the nonlinear coefficient tables
//   read_checks.cpp        the Ixz coupling's preconditions, magnitudes, signs
//   read_provenance.cpp    every key as written, with its factor to SI
//   load_aircraft.cpp      the order of the parts, LoadResult
// toml++ is included by src/data/*.cpp only (scripts/check-layering.sh): a
// source includes <toml++/toml.h> before this header.
#ifndef TOMLPLUSPLUS_H
#error "include <toml++/toml.h> before read_context.hpp"
#endif

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/data/avl_st.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/as_written.hpp"
#include "aerolin/model/atmosphere.hpp"
#include "aerolin/model/coefficients.hpp"
#include "aerolin/model/parameters.hpp"

namespace aerolin::data::read {

// The SI values of [condition], [mass] and [geometry] that the coefficient
// form, the standard atmosphere and body-axis inertias need beside the
// model's fields (model::AircraftAsWritten).
struct SiValues {
  double U0 = 1.0;  // for the w/v-form conversion; 1 where U0 is bad (reported)
  std::optional<double> rho, alpha0, S, c, b, W;
  double W0 = 0.0, g = core::kStandardGravity, theta0 = 0.0;
  std::optional<double> altitude, mach;            // [condition]
  bool condition_gives_g = false;                  // else g is standard gravity
  bool inertias_rotated = false;  // [mass] axes = "body": Ix, Iz, Ixz as written are not the fields
  std::optional<model::MassProperties> body_mass;  // before that rotation (by alpha0)
  std::optional<double> speed_of_sound;            // a(altitude) [m/s] when U0 = mach · a
};

// What [aerodynamics] avl_st brings.
struct AvlSource {
  bool requested = false;               // avl_st given (sections it replaces are not required)
  std::optional<AvlStability> st;       // the .st file, once read and converted
  const toml::node* st_node = nullptr;  // the avl_st key
  std::vector<std::string> notes;       // ToCoefficients' assumptions, for LoadResult
};

// Everything the readers of one file share; each defect is collected instead
// of stopping at the first.
struct ReadContext {
  explicit ReadContext(std::string file) : path(std::move(file)) {}

  void Error(const core::SourceLocation& where, std::string message) {
    errors.push_back({where, std::move(message)});
  }
  void Warn(const core::SourceLocation& where, std::string message) {
    warnings.push_back({where, std::move(message)});
  }
  core::SourceLocation At(const toml::node& node) const;

  std::string path;
  std::vector<std::string> files;  // the files it names, as read (LoadResult::files)
  std::vector<core::Diagnostic> errors;
  std::vector<core::Diagnostic> warnings;
  std::vector<core::Diagnostic> not_flyable;  // LoadResult::not_flyable
  std::vector<core::Diagnostic> washout_loops;  // LoadResult::washout_loops
  std::vector<std::string> suggested;  // "table.key" offered as "did you mean"
  core::UnitSystem units = core::UnitSystem::kSI;
  bool units_known = false;
  SiValues si;
  // What the file says, SI, for model::Convert: [mass] (nullopt when absent),
  // the derivative sections with their forms, the controls' raw values.
  model::AircraftAsWritten written;
  core::SourceLocation mass_at{};
  core::SourceLocation ixz_at{};
  const toml::node* zadot_node = nullptr;  // Zadot or Zwdot, for the singularity check
  std::optional<bool> lateral_primed;
  std::map<std::string, double> per_degree;  // section → factor, read once

  bool lon_coefficients = false;  // [longitudinal] form = "coefficients" (or avl_st)
  bool lat_coefficients = false;  // [lateral] form = "coefficients" (or avl_st)
  model::CoefficientsAsWritten coefficients;
  std::optional<model::AircraftAsWritten> from_coefficients;
  AvlSource avl;
};

// Reader core (read_context.cpp):

// Shortest readable form of a number for messages (4 significant digits).
std::string Format(double v);
core::SourceLocation LocationOf(const toml::node& node, const std::string& path);
// The allowed key a misspelt `key` most likely means ("did you mean").
std::optional<std::string> Suggest(std::string_view key, const std::vector<std::string_view>& allowed);

constexpr core::Dimension kDensity{-3, 1, 0};
constexpr core::Dimension kArea{2, 0, 0};

// Derivatives with respect to α or β: per degree under per_degree = true
// (rate derivatives, α̇ ones included, and w/v-form ones are unchanged).
bool IsPerAngleKey(std::string_view key);

const toml::table* RequireTable(ReadContext& ctx, const toml::table& root, std::string_view name);
// The table `name` of `root`, or nullptr if it is absent or not a table (then
// reported: "'name' must be `what`").
const toml::table* OptionalTable(ReadContext& ctx, const toml::table& root, std::string_view name,
                                 std::string_view what = "a table");
// Reports each key of `table` not in `allowed` (with a hint, a "did you
// mean", or `hint`).
void CheckKeys(ReadContext& ctx, const toml::table& table, std::string_view table_name,
               const std::vector<std::string_view>& allowed, std::string_view hint = {});
void Missing(ReadContext& ctx, const toml::table& table, std::string_view table_name, std::string_view key,
             std::string_view hint);
std::optional<double> Number(ReadContext& ctx, const toml::table& table, std::string_view key,
                             std::string_view table_name);
std::optional<std::string> String(ReadContext& ctx, const toml::table& table, std::string_view key,
                                  std::string_view table_name, bool required);
std::optional<bool> Bool(ReadContext& ctx, const toml::table& table, std::string_view key,
                         std::string_view table_name);
// The factor to per radian of `key` in `section` (180/π under per_degree = true
// for an angle derivative; 1 otherwise); reads per_degree once per section.
double PerDegreeFactor(ReadContext& ctx, const toml::table& t, const std::string& section,
                       std::string_view key);

// [aircraft] [condition] [mass] [geometry] (read_sections.cpp):

void ReadAircraft(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
void ReadCondition(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
void ReadMass(ReadContext& ctx, const toml::table& root);
void ReadGeometry(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
// The 1976 standard atmosphere at `altitude` [m], or nullopt after an error
// at `at` saying to give `instead` (U0 or rho).
std::optional<model::AtmosphereState> StandardAtmosphereAt(ReadContext& ctx, const toml::node& at,
                                                           double altitude, const char* instead);
// Rotates body-axis inertias into the derivatives' axes (keeping them in si.body_mass).
void SetBodyInertias(ReadContext& ctx, const model::MassProperties& body);

// Derivatives (read_dimensional.cpp):

void ReadLongitudinal(ReadContext& ctx, const toml::table& root);
void ReadLateral(ReadContext& ctx, const toml::table& root);
void ReadControls(ReadContext& ctx, const toml::table& root);
// [augmentation.longitudinal] / [augmentation.lateral] (read_augmentation.cpp),
// after the controls (its inputs name them).
void ReadAugmentation(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
// [actuators] (read_actuators.cpp), after the controls (its keys name them).
void ReadActuators(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
// A [controls.NAME] table's unit ("rad" or "1") and limits min, max (in
// that unit), into `c` (whose name is set); shared with the AVL controls.
void ReadControlUnit(ReadContext& ctx, const toml::table& t, const std::string& table_name,
                     model::Control& c);
void ReadLimits(ReadContext& ctx, const toml::table& t, const std::string& table_name, model::Control& c);
// A control's derivative keys (X Z M Y L N): the "controls" rows of the
// parameter table that have a divisor.
std::vector<const model::Parameter*> ControlDerivatives();
// Whether control derivative `key` (X Z M Y L N) enters the longitudinal
// equations (else the lateral ones).
bool IsLongitudinalControlKey(std::string_view key);

// Coefficient form (read_coefficients.cpp):

bool IsCoefficientForm(const toml::table& section);
void ReadLongitudinalCoefficients(ReadContext& ctx, const toml::table& t);
void ReadLateralCoefficients(ReadContext& ctx, const toml::table& t);
// The keys a [controls.NAME] table takes, given the sections' forms.
std::vector<std::string_view> ControlKeys(const ReadContext& ctx);
// Reads a control's coefficient keys into coefficients.controls (one entry
// per control, aligned with written.controls); true if it gave any.
bool ReadControlCoefficients(ReadContext& ctx, const toml::table& t, const std::string& table_name,
                             const std::string& name, double factor);
// Converts the coefficient sections (model::ToDimensional) into written.
void ApplyCoefficients(ReadContext& ctx, const toml::table& root);
// Why `key`, unknown in [table_name], is not what the user thinks (a
// coefficient in a dimensional section, a case slip); nullopt if nothing to say.
std::optional<std::string> KeyHint(const ReadContext& ctx, std::string_view key, std::string_view table_name);
// Whether `key` of a [controls.NAME] table is a coefficient (CX CZ CL CD Cm CY Cl Cn).
bool IsControlCoefficientKey(std::string_view key);

// [tables] (read_tables.cpp), after the conversion: the nonlinear coefficient
// tables (model/aero_tables.hpp), which name controls and need the SI mass,
// inertias, geometry and density.
void ReadTables(ReadContext& ctx, const toml::table& root, model::AircraftData& out);

// AVL files (read_avl.cpp):

void ReadAerodynamics(ReadContext& ctx, const toml::table& root, model::AircraftData& out);
// [mass] avl_mass: the totals of AVL's mass file, body axes, rotated into
// stability axes by α0; true if the key was given.
bool ReadAvlMass(ReadContext& ctx, const toml::table& t);

// Checks (read_checks.cpp):

// Whether to apply the Ixz coupling to the lateral (and control) moments;
// its preconditions are checked here, where they can be located.
bool PrimeLateral(ReadContext& ctx, const toml::table& root);
void CheckMagnitudes(ReadContext& ctx, const toml::table& root, const model::AircraftData& out);
void CheckSigns(ReadContext& ctx, const toml::table& root, const model::AircraftData& out);

// Provenance (read_provenance.cpp):

// Every numeric key the file gives, as written, with its factor to the SI
// field of the written form (model/as_written.hpp); an AVL file's .st numbers
// that reach A after them, as keys "avl.NAME" (AVL's names) and
// "avl.CONTROL.{CL,CD,CY,Cl,Cm,Cn}". `omitted`: the numbers left out, with
// why (model::AircraftFile::omitted).
std::vector<model::WrittenKey> WrittenKeys(const ReadContext& ctx, const toml::table& root,
                                           std::vector<model::OmittedKey>& omitted);

}  // namespace aerolin::data::read
