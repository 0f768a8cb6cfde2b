#pragma once
/// @file
/// Headless figure export (MathGL): the 3D trajectory with paper-plane
/// glyphs, the time histories, the s-plane, and the flying-qualities charts. Each function renders
/// off-screen, needs no display, and writes one PNG or SVG file chosen by the
/// path's extension.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/qualities_report.hpp"
#include <Eigen/Core>

#include "aerolin/sim/flight_log.hpp"

namespace aerolin::exporting {

/// File formats a figure can be written in. PDF is not one: Debian's MathGL
/// 8.0 writes PDF only through WritePRC, as a 3D (PRC) annotation on an
/// otherwise empty page that most viewers show blank; write SVG or EPS and
/// convert those instead.
enum class ImageFormat { kPng, kSvg, kEps, kPdf };

/// Returns the format named by `path`'s extension: ".png", ".svg", ".eps" or
/// ".pdf"
/// (case-insensitive).
/// @throws std::invalid_argument naming `path` for any other extension.
ImageFormat ImageFormatOf(const std::string& path);

/// What every figure shares.
struct PlotOptions {
  int width_px = 1200;   ///< image width [px], > 0
  int height_px = 900;   ///< image height [px], > 0
  std::string aircraft;  ///< aircraft name, shown in each title ("" → none)
  /// Trim pitch attitude θ0 [rad]: the glyphs are drawn at θ0 + θ.
  double theta0 = 0.0;
  /// Time between paper-plane glyphs [s]; <= 0 picks a nice interval giving
  /// about eight. A glyph is always drawn at the start and at the end.
  double glyph_interval_s = 0.0;
  /// Glyph length (nose to tail) as a fraction of the longest axis of the
  /// trajectory box [-].
  double glyph_length_fraction = 0.08;
  /// Factor K [-] applied to the altitude of the 3D trajectory's path,
  /// shadow, drop lines and glyph positions, finite and >= 1. The glyph
  /// shapes keep true proportions and the altitude ticks read true metres;
  /// the axis label and legend say "vertical scale ×K". 1 (default) draws
  /// all three axes at the same scale.
  double vertical_exaggeration = 1.0;
  /// The model that flew the flight figures' flight (trajectory, track,
  /// history), said in their titles: "nonlinear model" gives "time histories
  /// (nonlinear model)". "" says nothing (the linear model, as always). With
  /// a second flight beside it (`nonlinear` below) the titles say both.
  std::string flown_by;
};

/// The flight figures' second flight, `nonlinear` (`aerolin plot --model
/// both`): the nonlinear model's flight from the same inputs as `log` (the
/// linear one), one row per row of `log` at the same times, drawn beside it
/// in a style of its own (dashed; in the 3D and map views the colour
/// kNonlinearPathColour) and named in the legends. Null (the default) draws
/// `log` alone, exactly as before.
inline constexpr std::uint32_t kNonlinearPathColour = 0xC51B7D;  ///< magenta, 0xRRGGBB

/// Writes the 3D trajectory of `log` to `path`: the flight path in
/// (east, north, altitude) [m] with the same scale on all three axes (the
/// altitude stretched by options.vertical_exaggeration when > 1), its
/// shadow on the ground plane of the box, and the seed's paper-plane glyph
/// (orangered wings, lime body, black edges) at the aircraft's attitude at
/// regular intervals and at the final position.
/// @throws std::invalid_argument if `log` is empty, the size is not positive,
///         the vertical exaggeration is not a finite number >= 1 or the
///         extension is unknown (message names `path`).
/// @throws std::runtime_error if the file cannot be written (message names
///         `path` and carries MathGL's own message).
/// With `nonlinear` (the second flight, above), its path, shadow and glyphs
/// too; the box holds both paths.
/// @throws std::invalid_argument also if `nonlinear` has not one row per row
///         of `log`.
void PlotTrajectory3D(const sim::FlightLog& log, const PlotOptions& options,
                      const std::string& path, const sim::FlightLog* nonlinear = nullptr);

/// Where PlotTrajectory3D puts its legend: MathGL's corner (3 top right, 2
/// top left, 1 bottom right, 0 bottom left), the legend's box [px] {x0, y0,
/// x1, y1} from the image's top left, and how many pixels of the path, the
/// glyphs and their time tags it covers or comes within 3 px of: the first
/// corner covering none, else the one covering fewest (found by drawing the
/// figure without and with the legend).
struct TrajectoryLegend {
  int corner = 3;
  std::array<int, 4> box = {0, 0, 0, 0};
  int covered = 0;
};
/// @throws std::invalid_argument if `log` is empty or the size is not positive.
TrajectoryLegend PlaceTrajectoryLegend(const sim::FlightLog& log, const PlotOptions& options,
                                       const sim::FlightLog* nonlinear = nullptr);

/// Writes the 2D trajectory of `log` to `path`, what the 3D box hides: above,
/// the ground track (north against east) at equal scales, turned 90°
/// clockwise (north to the right, east increasing down) when the flight is
/// longer north–south than east–west so the long dimension runs across
/// (GroundTrackAxesOf); below, the altitude h = −down [m] against the
/// distance flown over the ground [m] on its own scale, the caption giving
/// its vertical scale relative to the map's. Ignores
/// options.vertical_exaggeration and the glyph options.
/// With `nonlinear` (the second flight, above), its ground track and
/// profile too.
/// @throws as PlotTimeHistories (bar the wind).
void PlotGroundTrack(const sim::FlightLog& log, const PlotOptions& options,
                     const std::string& path, const sim::FlightLog* nonlinear = nullptr);

/// Writes the time histories of `log` to `path`, one panel per state group
/// and one for the controls, against time [s]:
/// | Panel | Signals | Unit |
/// |:--|:--|:--|
/// | speed | u | m/s |
/// | longitudinal attitude | α, θ | deg |
/// | angular rates | q, p, r | deg/s |
/// | lateral attitude | β, φ, ψ | deg |
/// | position | altitude h = −down, east | m |
/// | controls | each control | deg ("rad" controls) or as logged |
/// North is left to the trajectory figure: it grows as U0·t and would flatten
/// the other two. Ignores options.vertical_exaggeration.
/// @throws as PlotTrajectory3D (bar the vertical-exaggeration check).
///
/// With `wind` (one entry per log row: u_g, v_g, w_g [m/s], p_g [rad/s], as
/// the CSV's wind columns), two more panels show the gusts: gust velocity
/// (u_g, v_g, w_g, m/s) and rolling gust (p_g, deg/s).
/// @throws std::invalid_argument also if `wind` is neither empty nor one
///         entry per row.
///
/// With `nonlinear` (the second flight, above), each state's nonlinear
/// curve is drawn dashed in the state's colour over its linear one, and the
/// title says so ("linear model solid, nonlinear model dashed": a legend row
/// in every panel would take the room the curves need at 800 × 600). The
/// controls are the same for both. A state is "0 throughout" only if it is
/// in both flights.
/// @throws std::invalid_argument also if `nonlinear` has not one row per
///         row of `log`.
void PlotTimeHistories(const sim::FlightLog& log, const PlotOptions& options,
                       const std::string& path,
                       const std::vector<Eigen::Vector4d>& wind = {},
                       const sim::FlightLog* nonlinear = nullptr);

/// Writes the s-plane to `path`: the eigenvalues of the longitudinal modes
/// `lon` and lateral-directional modes `lat` (both members of each conjugate
/// pair), each labelled with its mode name, in a full view and a view zoomed
/// on the slow modes near the origin.
/// @throws std::invalid_argument if both lists are empty, or as
///         PlotTimeHistories.
/// @throws std::runtime_error as PlotTrajectory3D.
void PlotSPlane(const std::vector<analysis::Mode>& lon,
                const std::vector<analysis::Mode>& lat,
                const PlotOptions& options, const std::string& path);

/// Writes the short-period chart of `grade` to `path`: ωn,sp against n/α on
/// log–log axes (the form of MIL-F-8785C Figures 1–3), shaded by the level
/// each (n/α, ωn) point would reach under the grade's CAP limits
/// (ωn = √(CAP·n/α) lines) and minimum-ωn floors, the boundaries drawn and
/// the CAP values labelled, and the aircraft's point (`modes.short_period`,
/// equivalent ωn for two real roots; `grade.n_alpha`) marked with its level.
/// The axes span n/α 1–100 g/rad and ωn 0.1–100 rad/s, widened to hold the
/// point. A statically unstable short period (ωn² ≤ 0) or n/α ≤ 0 has no
/// point.
/// @throws std::invalid_argument if the grade has no CAP row or the summary
///         no short period, or as PlotTimeHistories.
/// @throws std::runtime_error as PlotTrajectory3D.
void PlotShortPeriodChart(const analysis::ModalSummary& modes,
                          const analysis::QualitiesGrade& grade,
                          const PlotOptions& options, const std::string& path);

/// Writes the Dutch-roll chart of `grade` to `path`: ζd against ωnd, shaded
/// by the level each point would reach under the grade's minimum ζd, ζd·ωnd
/// (as graded: including the ωn²|φ/β| raise of this aircraft, and Class
/// III's "ζd = 0.7 need not be exceeded") and ωnd, with the aircraft's point
/// marked and labelled with its values and level.
/// @throws std::invalid_argument if the grade has no Dutch-roll rows or the
///         summary no Dutch roll, or as PlotTimeHistories.
/// @throws std::runtime_error as PlotTrajectory3D.
void PlotDutchRollChart(const analysis::ModalSummary& modes,
                        const analysis::QualitiesGrade& grade,
                        const PlotOptions& options, const std::string& path);

/// Writes Gibson's dropback chart of `report` to `path`: the pitch-rate
/// overshoot q_pk/q_ss against DB/q_ss [s], the satisfactory region of the
/// reference notes shaded (0 ≤ DB/q_ss, 1 ≤ q_pk/q_ss ≤ 3, left of the line
/// from (0.3, 1) to (0.055, 3); the 0.06 s reading of its end dashed; the
/// same constants as study::ClassifyDropback), the outside regions named, and
/// the bare airframe's point (and the augmented aircraft's) marked with its
/// values and region. A result without a dropback has no point.
/// @throws std::runtime_error as PlotTrajectory3D.
void PlotDropbackChart(const MilStd1797Report& report, const PlotOptions& options,
                       const std::string& path);

/// Writes the Bode diagram of `diagram` to `path`: |G| [dB] above, the
/// unwrapped phase [deg] below, against log ω [rad/s], one colour per output.
/// Each mode's ωn is a dashed vertical line named at the top of the magnitude
/// panel; the resonances of the short period / Dutch roll (peak dB) and each
/// curve's −3 dB bandwidth are marked and written in the legend.
/// @throws std::invalid_argument if `diagram` has no curve or no point, or as
///         PlotTimeHistories.
/// @throws std::runtime_error as PlotTrajectory3D.
void PlotBode(const analysis::BodeDiagram& diagram, const PlotOptions& options,
              const std::string& path);

}  // namespace aerolin::exporting
