#include "cli_options.hpp"

#include <cmath>
#include <limits>

namespace aerolin::cli {

namespace {
CLI::Validator FiniteAtLeast(double lowest, bool strict, const std::string& description) {
  return CLI::Validator(
      [=](std::string& input) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) ||
            (strict ? !(value > lowest) : !(value >= lowest)))
          return "expected a finite number " + description + ", got '" + input + "'";
        return {};
      },
      description);
}
}  // namespace

CLI::Validator PositiveFinite() { return FiniteAtLeast(0.0, true, "> 0"); }

CLI::Validator NonNegativeFinite() { return FiniteAtLeast(0.0, false, ">= 0"); }

CLI::Validator Finite() {
  return FiniteAtLeast(-std::numeric_limits<double>::infinity(), false, "of any sign");
}

CLI::Validator NonEmpty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& input) -> std::string {
        if (input.empty()) return "expected " + what + ", got ''";
        return {};
      },
      "");
}

namespace {

// --format of every figure command.
void AddFormatOption(CLI::App& cmd, std::vector<std::string>& formats) {
  cmd.add_option("--format", formats, "comma-separated figure formats: png, svg, eps, pdf")
      ->delimiter(',')
      ->transform(CLI::IsMember({"png", "svg", "eps", "pdf"}, CLI::ignore_case))
      ->default_str("png");
}

// The image size, spelled `width_flag`/`height_flag`: 200 to 8192 px.
void AddSizeOptions(CLI::App& cmd, int& width, int& height, const std::string& width_flag,
                    const std::string& height_flag) {
  cmd.add_option(width_flag, width, "image width [px], 200 to 8192")
      ->default_val(1200)
      ->check(CLI::Range(200, 8192));
  cmd.add_option(height_flag, height, "image height [px], 200 to 8192")
      ->default_val(900)
      ->check(CLI::Range(200, 8192));
}

}  // namespace

void AddFigureOptions(CLI::App& cmd, std::vector<std::string>& formats, int& width, int& height) {
  AddFormatOption(cmd, formats);
  AddFigureSizeOptions(cmd, width, height);
}

void AddPlotFigureOptions(CLI::App& cmd, std::vector<std::string>& formats, int& width, int& height) {
  AddFormatOption(cmd, formats);
  AddSizeOptions(cmd, width, height, "--plot-width", "--plot-height");
  const std::string name = cmd.get_name();
  cmd.add_option_function<std::string>(
         "--width",
         [name](const std::string&) {
           throw CLI::ValidationError("--width", name + ": the image size is --plot-width W --plot-height H here (" +
                                                     name + "'s --height is the turbulence's height above ground)");
         })
      ->group("");  // hidden: only there to say which flags to use
}

void AddFigureSizeOptions(CLI::App& cmd, int& width, int& height) {
  AddSizeOptions(cmd, width, height, "--width", "--height");
}

void AddUnitsOption(CLI::App& cmd, std::string& units, const std::string& description) {
  cmd.add_option("--units", units, description)
      ->transform(CLI::IsMember({"si", "imperial"}, CLI::ignore_case))
      ->default_val("si");
}

CLI::Validator OutputPathValidator() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        if (input.empty()) return "expected an output path, got ''";
        return {};
      },
      "PATH");
}

void AddAircraftFileArgument(CLI::App& cmd, std::string& path) {
  cmd.add_option("FILE", path,
                 "aircraft data file (TOML), e.g. data/derivatives/p2v7.toml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd.add_flag("--strict", StrictWarnings(),
               "treat the data file's warnings (implausible signs and sizes, a table that\n"
               "looks typed per degree) as errors: print them and exit 1");
}

}  // namespace aerolin::cli
