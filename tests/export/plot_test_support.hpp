#pragma once
// Test helpers for the figure tests: synthetic flight logs and modes, PNG
// decoding (libpng), a minimal SVG well-formedness check.

#include <png.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::exporting::testing {

/// A 60 s climbing right turn sampled every 0.1 s: U = 90 m/s, turn rate
/// 0.05 rad/s, flight-path angle 3 deg, bank ramping to the coordinated value
/// in 5 s; controls elevator/aileron/rudder (rad) and throttle (1).
inline sim::FlightLog ClimbingTurn() {
  sim::FlightLog log;
  log.control_names = {"elevator", "throttle", "aileron", "rudder"};
  log.control_units = {"rad", "1", "rad", "rad"};
  constexpr double kU = 90.0, kTurnRate = 0.05, kGamma = 3.0 * core::kDegToRad;
  const double radius = kU / kTurnRate;
  const double bank = std::atan(kU * kTurnRate / core::kStandardGravity);
  for (int k = 0; k <= 600; ++k) {
    const double t = 0.1 * k;
    const double psi = kTurnRate * t;
    sim::FlightState x = sim::FlightState::Zero();
    x[sim::kU] = 2.0 * std::sin(0.1 * t);
    x[sim::kAlpha] = 0.02 * std::sin(t);
    x[sim::kQ] = 0.02 * std::cos(t);
    x[sim::kTheta] = kGamma;
    x[sim::kBeta] = 0.005 * std::sin(2.0 * t);
    x[sim::kR] = kTurnRate;
    x[sim::kPhi] = std::min(1.0, t / 5.0) * bank;
    x[sim::kPsi] = psi;
    x[sim::kNorth] = radius * std::sin(psi);
    x[sim::kEast] = radius * (1.0 - std::cos(psi));
    x[sim::kDown] = -kU * std::sin(kGamma) * t;
    log.time.push_back(t);
    log.state.push_back(x);
    Eigen::VectorXd u(4);
    u << 0.05 * std::sin(t), 0.1, 0.02, -0.01;
    log.controls.push_back(u);
  }
  return log;
}

inline analysis::Mode MakeMode(analysis::ModeKind kind, std::complex<double> lambda,
                               analysis::ModeFlag flags = analysis::ModeFlag::kNone) {
  analysis::Mode m;
  m.kind = kind;
  m.lambda = lambda;
  m.flags = flags;
  m.oscillatory = lambda.imag() != 0.0;
  m.natural_frequency = std::abs(lambda);
  m.damping_ratio = m.natural_frequency > 0 ? -lambda.real() / m.natural_frequency : 0.0;
  return m;
}

/// Modes shaped like the P2V-7's (values rounded, filled by hand).
inline std::vector<analysis::Mode> LongitudinalModes() {
  using analysis::ModeKind;
  return {MakeMode(ModeKind::kShortPeriod, {-1.32, 2.05}),
          MakeMode(ModeKind::kPhugoid, {-0.0096, 0.123})};
}
inline std::vector<analysis::Mode> LateralModes() {
  using analysis::ModeKind;
  return {MakeMode(ModeKind::kDutchRoll, {-0.204, 1.21}),
          MakeMode(ModeKind::kRollSubsidence, {-1.15, 0.0}),
          MakeMode(ModeKind::kSpiral, {0.0042, 0.0}, analysis::ModeFlag::kDivergent),
          MakeMode(ModeKind::kHeading, {0.0, 0.0})};
}

/// This process's own directory `stem`_PID under the system temp directory
/// (runs may overlap), created here and removed with everything in it when
/// this object goes.
struct ScratchDirectory {
  explicit ScratchDirectory(const std::string& stem)
      : path(std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path path;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian).
struct PngSize {
  std::uint32_t width = 0, height = 0;
};
inline PngSize ReadPngHeader(const std::string& path) {
  const std::string bytes = ReadFile(path);
  static const std::string kSignature = "\x89PNG\r\n\x1a\n";
  if (bytes.size() < 24 || bytes.compare(0, 8, kSignature) != 0 ||
      bytes.compare(12, 4, "IHDR") != 0)
    throw std::runtime_error(path + ": not a PNG");
  const auto be32 = [&](int at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

/// A decoded RGB image.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes a pixel
  int CountNear(int r, int g, int b, int tolerance) const {
    int n = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      if (std::abs(rgb[i] - r) <= tolerance && std::abs(rgb[i + 1] - g) <= tolerance &&
          std::abs(rgb[i + 2] - b) <= tolerance)
        ++n;
    return n;
  }
  /// Pixels whose green channel is at least `min_green` while red and blue
  /// are at most `max_other`: lime and its anti-aliased blends.
  int CountGreenDominant(int min_green, int max_other) const {
    int n = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      if (rgb[i + 1] >= min_green && rgb[i] <= max_other && rgb[i + 2] <= max_other) ++n;
    return n;
  }
};

inline RgbImage DecodePng(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw std::runtime_error(path + ": " + image.message);
  image.format = PNG_FORMAT_RGB;
  RgbImage out;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    throw std::runtime_error(path + ": " + image.message);
  return out;
}

/// Returns "" if `text` is well-formed enough for the tests (every element
/// closed in order, one root) or the first problem found. Not a validator:
/// no entities, DTDs or attribute syntax checks.
inline std::string XmlStructureProblem(const std::string& text) {
  std::vector<std::string> open;
  int roots = 0;
  for (std::size_t i = text.find('<'); i != std::string::npos; i = text.find('<', i + 1)) {
    if (text.compare(i, 4, "<!--") == 0) {
      i = text.find("-->", i);
      if (i == std::string::npos) return "unterminated comment";
      continue;
    }
    const std::size_t end = text.find('>', i);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    const std::string tag = text.substr(i + 1, end - i - 1);
    if (tag.empty()) return "empty tag at " + std::to_string(i);
    if (tag[0] == '?' || tag[0] == '!') { i = end; continue; }
    if (tag[0] == '/') {
      const std::string name = tag.substr(1, tag.find_first_of(" \t\r\n") - 1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
      open.pop_back();
    } else if (tag.back() != '/') {
      if (open.empty()) ++roots;
      open.push_back(tag.substr(0, tag.find_first_of(" \t\r\n")));
    } else if (open.empty()) {
      ++roots;
    }
    i = end;
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

}  // namespace aerolin::exporting::testing
