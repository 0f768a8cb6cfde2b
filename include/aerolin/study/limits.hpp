#pragma once
/// @file
/// The limits every front end (the `aerolin` command line, the Python
/// module, the flight window) puts on a request before computing it, with one
/// message each: a request beyond them would take more memory or time than
/// any real study needs. The command line reports a LimitError as a usage
/// error (exit 2), Python as a ValueError (LimitError derives from
/// std::invalid_argument, which pybind11 translates so).
///
/// | limit             | value  | bounds                                         |
/// |:------------------|-------:|:-----------------------------------------------|
/// | kMaxStudyPoints   | 10^5   | sweep steps, locus gains                       |
/// | kMaxBodePoints    | 10^6   | frequencies of one Bode diagram                |
/// | kMaxBodeValues    | 10^6   | frequencies × outputs of one Bode diagram      |
/// | kMaxFlightSlices  | 10^8   | slices of one flight (`duration / dt`)          |
/// | kMaxVerticalExaggeration | 10^4 | the altitude scale of a 3D path          |

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aerolin::study {

/// Most points of a sweep or a locus. Every point's tracked modes are kept
/// until the report is written: measured 6.6 kB a point for the text report
/// and 16 kB with --json (`/usr/bin/time -v aerolin sweep
/// data/derivatives/p2v7.toml --param lateral.Nr --from -1 --to 0 --steps
/// 100000 [--json]`: 657 MB, 1.59 GB), so this bounds memory at ~1.6 GB
/// (10^6 points took 18 GB).
inline constexpr int kMaxStudyPoints = 100000;

/// Most frequencies of a Bode diagram (`bode --points`).
inline constexpr int kMaxBodePoints = 1000000;

/// Most frequencies × outputs of a Bode diagram: memory is per output
/// (`bode --output q,q,q,q,q,q` with 10^6 points peaked at 9.3 GB, about
/// 1.5 kB a value), so this bounds it at ~1.5 GB, as kMaxStudyPoints does a
/// sweep.
inline constexpr long long kMaxBodeValues = 1000000;

/// Most slices of one flight. 10^8 slices are 116 days of flight at the
/// usual 0.1 s, or 28 hours at 1 ms; at the measured ~1-3 µs a slice plus
/// ~200 bytes of CSV a row, minutes of CPU and ~20 GB of CSV. No realistic
/// run meets it; `simulate --duration 1e11` (10^12 slices, days of CPU) does.
inline constexpr long long kMaxFlightSlices = 100000000;
/// Largest vertical (altitude) exaggeration of a flight's 3D path
/// (`aerolin plot --vertical-exaggeration`, `aerolin-fly
/// --vertical-exaggeration`): beyond it the tick spacing of the altitude axis
/// underflows, and no flight needs more (a 10 m wave at 10^4 is 100 km).
inline constexpr double kMaxVerticalExaggeration = 1e4;

/// A request beyond one of the limits above (or not well formed: an empty
/// or non-finite list). `what()` names the argument as the front end spells
/// it (`--steps`, `steps`).
class LimitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace limits_detail {
inline std::string G(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}
}  // namespace limits_detail

/// Checks a sweep's number of values, 2 to kMaxStudyPoints.
/// @throws LimitError "NAME: STEPS not in range 2 to 100000 (...)".
inline void CheckSweepSteps(long long steps, std::string_view name) {
  if (steps < 2 || steps > kMaxStudyPoints)
    throw LimitError(std::string(name) + ": " + std::to_string(steps) + " not in range 2 to " +
                     std::to_string(kMaxStudyPoints) + " (the values of a sweep)");
}

/// Checks a locus's gains: 1 to kMaxStudyPoints finite numbers.
/// @throws LimitError "NAME: no gains given", "NAME: more than 100000
///         gains", "NAME: gain K (index I) is not a finite number".
inline void CheckGains(const std::vector<double>& gains, std::string_view name) {
  if (gains.empty()) throw LimitError(std::string(name) + ": no gains given");
  if (gains.size() > static_cast<std::size_t>(kMaxStudyPoints))
    throw LimitError(std::string(name) + ": more than " + std::to_string(kMaxStudyPoints) +
                     " gains (" + std::to_string(gains.size()) + " given)");
  for (std::size_t i = 0; i < gains.size(); ++i)
    if (!std::isfinite(gains[i]))
      throw LimitError(std::string(name) + ": gain " + limits_detail::G(gains[i]) + " (index " +
                       std::to_string(i) + ") is not a finite number");
}

/// Checks a Bode diagram's request: `outputs` without repeats, `frequencies`
/// (the number of log-spaced points, or of listed frequencies) from 2 to
/// kMaxBodePoints (1 to it when listed), and frequencies × outputs at most
/// kMaxBodeValues. `outputs_name` and `points_name` spell the arguments.
/// @throws LimitError naming the argument and the limit.
inline void CheckBodeRequest(const std::vector<std::string>& outputs, long long frequencies,
                             bool listed, std::string_view outputs_name,
                             std::string_view points_name) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (outputs[i] == outputs[j])
        throw LimitError(std::string(outputs_name) + ": '" + outputs[i] +
                         "' is given more than once");
  const long long lowest = listed ? 1 : 2;
  if (frequencies < lowest || frequencies > kMaxBodePoints)
    throw LimitError(std::string(points_name) + ": " + std::to_string(frequencies) +
                     (listed ? " frequencies" : "") + " not in range " + std::to_string(lowest) +
                     " to " + std::to_string(kMaxBodePoints));
  const long long values = frequencies * static_cast<long long>(outputs.size());
  if (values > kMaxBodeValues)
    throw LimitError(std::string(points_name) + ": " + std::to_string(frequencies) +
                     " frequencies x " + std::to_string(outputs.size()) + " outputs = " +
                     std::to_string(values) + " values, more than the limit of " +
                     std::to_string(kMaxBodeValues) + " (fewer points or outputs)");
}

/// Checks that a flight of `duration` [s] in slices of `dt` [s] has at most
/// kMaxFlightSlices slices (both positive; other checks are sim::NumSlices').
/// @throws LimitError "duration D s is N slices of DT s, more than the limit
///         of 1e+08 slices (...)"; the caller names the arguments.
inline void CheckFlightSlices(double duration, double dt) {
  const double slices = duration / dt;
  if (slices > static_cast<double>(kMaxFlightSlices))
    throw LimitError("duration " + limits_detail::G(duration) + " s is " +
                     limits_detail::G(slices) + " slices of " + limits_detail::G(dt) +
                     " s, more than the limit of " +
                     limits_detail::G(static_cast<double>(kMaxFlightSlices)) +
                     " slices (shorten the flight or lengthen the slices)");
}

}  // namespace aerolin::study
