#include "aerolin/data/load_aircraft.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <toml++/toml.h>

#include "aerolin/core/files.hpp"
#include "aerolin/model/conversions.hpp"
#include "read_context.hpp"

namespace aerolin::data {
namespace read {
namespace {

using core::Diagnostic;

// Reads the sections in the order their values depend on each other;
// throws every defect at once, in file order.
LoadResult Read(ReadContext& ctx, const toml::table& root) {
  LoadResult result;
  model::AircraftData& out = result.aircraft;
  CheckKeys(ctx, root, "top level",
            {"aircraft", "condition", "aerodynamics", "mass", "geometry", "longitudinal", "lateral",
             "controls", "augmentation", "actuators", "tables"});
  ReadAircraft(ctx, root, out);
  ReadCondition(ctx, root, out);
  ReadAerodynamics(ctx, root, out);
  ReadMass(ctx, root);
  ReadGeometry(ctx, root, out);
  if (!ctx.avl.requested) {  // [aerodynamics] avl_st gives both (conflicts are reported there)
    ReadLongitudinal(ctx, root);
    ReadLateral(ctx, root);
  }

  // Whether to apply the Ixz coupling (checked where it can be located).
  const bool prime = PrimeLateral(ctx, root);
  if (!ctx.avl.requested) ReadControls(ctx, root);
  ApplyCoefficients(ctx, root);

  // The physics: normalize, α/β-form, priming (model/conversions.hpp). A
  // value whose divisor is missing was reported and read as 0, which needs
  // no divisor; si.U0 is 1 where U0 was bad (reported), as the w/v-form needs U0 > 0.
  model::AircraftAsWritten written = ctx.written;
  written.condition = out.condition;  // W0 for a β = v/V file's SideslipFactor
  written.condition.U0 = ctx.si.U0;
  written.lateral.primed = !prime;
  const model::AircraftData converted = model::Convert(written);
  out.longitudinal = converted.longitudinal;
  out.lateral = converted.lateral;
  out.controls = converted.controls;
  out.mass = converted.mass;
  ReadAugmentation(ctx, root, out);  // names controls: after them
  ReadActuators(ctx, root, out);     // likewise
  ReadTables(ctx, root, out);        // likewise, and the SI mass
  if (ctx.zadot_node != nullptr && std::abs(1.0 - out.longitudinal.Zadot / ctx.si.U0) < 1e-6)
    ctx.Error(ctx.At(*ctx.zadot_node), "Zadot makes 1 - Zadot/U0 vanish (the α equation is singular)");

  if (ctx.errors.empty()) CheckMagnitudes(ctx, root, out);
  if (ctx.errors.empty()) CheckSigns(ctx, root, out);
  // In file order: the TOML's own lines first, then each file it names (an
  // AVL .st or .mass) in its line order; line numbers of two files do not
  // interleave.
  const auto by_file_then_line = [&ctx](const Diagnostic& a, const Diagnostic& b) {
    const bool a_other = a.where.path != ctx.path, b_other = b.where.path != ctx.path;
    if (a_other != b_other) return b_other;
    if (a.where.path != b.where.path) return a.where.path < b.where.path;
    return a.where.line < b.where.line;
  };
  if (!ctx.errors.empty()) {
    std::stable_sort(ctx.errors.begin(), ctx.errors.end(), by_file_then_line);
    throw core::DataError(std::move(ctx.errors));
  }
  std::stable_sort(ctx.warnings.begin(), ctx.warnings.end(), by_file_then_line);
  result.warnings = std::move(ctx.warnings);
  result.not_flyable = std::move(ctx.not_flyable);
  result.washout_loops = std::move(ctx.washout_loops);
  model::AircraftFile& file = result.file;
  file.written = ctx.written;
  file.written.name = out.name;
  file.written.source = out.source;
  file.written.condition = out.condition;
  file.written.lateral.primed = ctx.lateral_primed.value_or(true);
  // A coefficient file (or an AVL .st one) carries its coefficients; its
  // keys' fields are theirs (model::FieldOf(AircraftFile), MatricesOfFile).
  if (ctx.from_coefficients) {
    file.coefficients = ctx.coefficients;
    file.longitudinal_coefficients = ctx.lon_coefficients;
    file.lateral_coefficients = ctx.lat_coefficients;
  }
  // An AVL file: its TOML's keys, then the .st's numbers.
  file.keys = WrittenKeys(ctx, root, file.omitted);
  file.augmented = model::IsAugmented(out);
  file.longitudinal_augmentation = out.longitudinal_augmentation;
  file.lateral_augmentation = out.lateral_augmentation;
  result.units = ctx.units;
  result.from_coefficients = ctx.from_coefficients;
  result.avl_notes = std::move(ctx.avl.notes);
  result.files = std::move(ctx.files);
  return result;
}

}  // namespace
}  // namespace read

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
  read::ReadContext ctx(path);
  return read::Read(ctx, root);
}

void RequireFlyable(const LoadResult& load) {
  if (!load.not_flyable.empty()) throw core::DataError(load.not_flyable);
}

void RefuseWashout(const LoadResult& load, const std::string& why) {
  if (load.washout_loops.empty()) return;
  std::vector<core::Diagnostic> refusals = load.washout_loops;
  for (core::Diagnostic& d : refusals) d.message += ": " + why;
  throw core::DataError(std::move(refusals));
}

LoadResult LoadAircraftFile(const std::string& path) {
  LoadResult result = LoadAircraftString(core::ReadInputFile(path), path);
  result.files.insert(result.files.begin(), path);
  return result;
}

}  // namespace aerolin::data
