#pragma once
/// @file
/// Figures of tracked sweeps and root loci (MathGL; in aerolin_plot).

#include <array>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/export/label_placement.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "aerolin/study/tracked.hpp"

namespace aerolin::exporting {

/// A gain a locus figure marks: the one `aerolin locus --maximize` reports.
struct MarkedGain {
  double gain = 0;              ///< K [the locus's gain unit]
  std::complex<double> lambda;  ///< the mode's root there [1/s] (Im ≥ 0 member)
  double zeta = 0;              ///< its damping ratio
  std::string mode;             ///< e.g. "dutch roll"
};

/// Size and format of the tracked figures.
struct TrackedPlotOptions {
  int width_px = 1200;
  int height_px = 900;
  std::string format = "png";  ///< file extension: png, svg, eps or pdf (ImageFormatOf)
  std::string title;  ///< e.g. the aircraft's name
  /// PlotLocus: a rhomb at this gain's root (and its conjugate) in the locus
  /// and at (K, ζ) in the ζ figure, with two legend lines "◇ max ζ: MODE", "ζ = … at K = …".
  std::optional<MarkedGain> marked;
};

/// The files PlotSweep writes for `prefix` in `format` (an extension, e.g.
/// "svg"): PREFIX_splane.FORMAT and PREFIX_wn_zeta.FORMAT, in that order.
std::vector<std::string> SweepFigurePaths(const std::string& prefix, const std::string& format = "png");

/// The files PlotLocus writes for `prefix` in `format`: PREFIX_locus.FORMAT
/// and PREFIX_zeta.FORMAT, in that order.
std::vector<std::string> LocusFigurePaths(const std::string& prefix, const std::string& format = "png");

/// Writes PREFIX_splane.FORMAT (each mode's path in the s-plane in its
/// colour from plot_colours.hpp, arrows from the first value to the last as
/// BranchArrows, start and end values marked) and PREFIX_wn_zeta.FORMAT (ωn
/// and ζ of each mode against the parameter), FORMAT = options.format.
/// Returns the files written.
std::vector<std::string> PlotSweep(const study::TrackedStudy& study, const TrackedPlotOptions& options,
                                   const std::string& prefix);

/// Writes PREFIX_locus.FORMAT (branches coloured by mode as plot_colours.hpp,
/// arrows towards increasing K, open-loop poles ×,
/// zeros ○, a dot at every listed gain and "K=…" labels placed by
/// LayoutGainLabels) and PREFIX_zeta.FORMAT (ζ of each mode against K); both
/// mark `options.marked` if set.
std::vector<std::string> PlotLocus(const study::LocusResult& locus, const TrackedPlotOptions& options,
                                   const std::string& prefix);

/// One drawn branch of a tracked study: one slot of a mode over the points
/// (at each point the k-th mode with that origin is slot k; with
/// `lower_members`, a pair's Im < 0 member is a slot of its own, right after
/// its Im > 0 member).
struct TrackedBranch {
  std::string origin;
  std::vector<double> value;             ///< the parameter (or K) at each drawn point
  std::vector<std::complex<double>> root;  ///< λ as drawn [1/s]
  std::vector<double> wn, zeta;
};

/// Returns the branches PlotSweep and PlotLocus draw (heading excluded).
std::vector<TrackedBranch> TrackedBranches(const study::TrackedStudy& study, bool lower_members);

/// Returns the ζ the curves drawn against the parameter show for `branch`:
/// each oscillatory point's ζ, and NaN (a gap in the curve) for a real
/// root, whose ζ is ±1 by convention: every real root of a study lies on
/// one of those two lines, and the last drawn hid the others (the F-16's
/// spiral over its roll subsidence and short period). The figure's legend
/// says they are left out (RealRootsNote).
std::vector<double> DrawnZeta(const TrackedBranch& branch);
/// The legend's note when any branch has a real root the ζ curves leave out.
inline constexpr const wchar_t* kRealRootsNote = L"\u03b6 of real roots (\u00b11) not drawn";

/// An arrow on a branch: from `tail` to `head`, the head drawn at `head`.
struct BranchArrow {
  std::complex<double> tail, head;  ///< roots [1/s]
};

/// Returns the arrows drawn on `branch`: on the segments ending a third and
/// two thirds of the way along it, each pointing from the earlier point to
/// the later one (the study's order: the sweep from --from to --to, the
/// locus by increasing K); none on a segment of zero length.
std::vector<BranchArrow> BranchArrows(const TrackedBranch& branch);

/// A gain label of the root locus: "K=…" beside point `point` of branch `branch`.
struct GainLabel {
  std::size_t branch = 0;
  std::size_t point = 0;
};

/// Returns the gain labels a root locus asks for: the listed gains nearest
/// 1/4, 1/2, 3/4 and the whole of the range (the same gains on every
/// branch), at each branch's points on or above the real axis, leaving out
/// a point closer than `min_spacing_px` (in `view`) to its branch's first
/// point or to a label already kept on that branch, so a branch that hardly
/// moves gets no pile of labels.
std::vector<GainLabel> GainLabelsWanted(const std::vector<TrackedBranch>& branches, const SPlaneView& view,
                                        double min_spacing_px);

/// Half-width [px] of the band along each branch that a gain label keeps clear of.
inline constexpr double kBranchClearancePx = 2.0;

/// Returns the boxes a gain label must not cover: `marks` (poles, zeros,
/// the branches' start and end points) as markers of half-size
/// `marker_radius`, and each branch and the two axes as a chain of squares
/// of half-size kBranchClearancePx no farther apart than their size, which
/// covers every segment.
std::vector<PixelBox> LocusObstacles(const SPlaneView& view, const std::vector<TrackedBranch>& branches,
                                     const std::vector<std::complex<double>>& marks, double marker_radius);

/// Places the gain labels: label i names `labels[i]` and is `sizes[i]` =
/// {width, height} [px]; each goes beside its point, clear of the other
/// labels and of LocusObstacles, inside the view's box (PlaceLabels). A
/// label with no clear place has `clear` = false and is not drawn.
std::vector<LabelPlacement> LayoutGainLabels(const SPlaneView& view, const std::vector<TrackedBranch>& branches,
                                             const std::vector<GainLabel>& labels,
                                             const std::vector<std::array<double, 2>>& sizes,
                                             const std::vector<std::complex<double>>& marks, double marker_radius);

}  // namespace aerolin::exporting
