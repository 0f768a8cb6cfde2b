// Sweep: one key of the file varied over a grid, both axes' modes tracked.
#include "aerolin/study/tracked.hpp"

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>
#include <unsupported/Eigen/AutoDiff>
#include <fmt/format.h>

#include "aerolin/core/parallel.hpp"
#include "aerolin/model/state_space.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using analysis::SmallMatrix;
using tracking::AddNotes;
using tracking::AxisPlan;
using tracking::ChangesOf;
using tracking::HeadingMode;
using tracking::NameAxisPoint;
using tracking::PlanAxis;
using tracking::PointwiseNames;
using tracking::Signature;
using tracking::Spelled;

model::StateSpace Longitudinal4(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(4, 0), model::LongitudinalStateSignals(), {});
}
model::StateSpace Lateral5(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(5, 0), model::LateralStateSignals(), {});
}

}  // namespace

const model::WrittenKey& ResolveSweepKey(const model::AircraftFile& file, const std::string& param) {
  if (const model::WrittenKey* key = file.Find(param)) return *key;
  if (param.find('.') == std::string::npos) {
    // A bare key: the keys whose last part it is ("Ma" -> longitudinal.Ma).
    std::vector<const model::WrittenKey*> matches;
    for (const model::WrittenKey& k : file.keys) {
      const std::size_t dot = k.path.rfind('.');
      if (dot != std::string::npos && k.path.compare(dot + 1, std::string::npos, param) == 0)
        matches.push_back(&k);
    }
    if (matches.size() == 1) return *matches.front();
    if (matches.size() > 1) {
      std::string which;
      for (const model::WrittenKey* k : matches) which += (which.empty() ? "" : ", ") + k->path;
      throw std::invalid_argument("parameter '" + param + "' is a key of several sections of this file (" +
                                  which + "): give section.key");
    }
  }
  std::string hint;
  const std::string section = param.substr(0, param.find('.'));
  for (const model::WrittenKey& k : file.keys)
    if (k.path.rfind(section + ".", 0) == 0) hint += (hint.empty() ? "" : " ") + k.path;
  throw std::invalid_argument("parameter '" + param + "' is not a key of this file" +
                              (hint.empty() ? std::string(" (give section.key as written, e.g. longitudinal.Mq)")
                                            : " (its " + section + " keys: " + hint + ")"));
}

TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options) {
  const model::WrittenKey* key = &ResolveSweepKey(file, options.param);
  if (options.steps < 2) throw std::invalid_argument("a sweep needs at least 2 steps");
  if (!std::isfinite(options.from) || !std::isfinite(options.to))
    throw std::invalid_argument("sweep bounds must be finite");
  const double* field = model::FieldOf(file, key->path);
  const double to_si = key->to_si;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  auto matrices = [&file, field, to_si, key](double v) {
    auto m = model::MatricesOfFile<AD>(file, [&](const double& f) -> AD {
      if (&f == field) return AD(v * to_si, Eigen::Matrix<double, 1, 1>(to_si));
      return AD(f);
    });
    // A value that zeroes a divisor of the model (1 − Zα̇/U0 of the α row,
    // a mass, an inertia, U0) has no A: say which value, not "non-finite".
    auto finite = [](const auto& M) {
      for (int r = 0; r < M.rows(); ++r)
        for (int c = 0; c < M.cols(); ++c)
          if (!std::isfinite(M(r, c).value())) return false;
      return true;
    };
    if (!finite(m.longitudinal) || !finite(m.lateral))
      throw std::invalid_argument(fmt::format(
          "at {} = {:g} the system matrix A is not finite: that value zeroes a divisor of the "
          "model (1 - Zadot/U0 of the alpha equation, a mass, an inertia or U0); sweep a range "
          "that avoids it",
          key->path, v));
    return m;
  };
  // The top-left n×n of an AD matrix: values into A, derivatives into dA.
  auto split = [](const auto& M, SmallMatrix& A, SmallMatrix& dA, int n) {
    A.resize(n, n);
    dA.resize(n, n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        A(r, c) = M(r, c).value();
        dA(r, c) = M(r, c).derivatives().size() ? M(r, c).derivatives()(0) : 0.0;
      }
  };
  {
    SmallMatrix A, dlon, dlat;
    const auto m = matrices(key->value);
    split(m.longitudinal, A, dlon, 4);
    split(m.lateral, A, dlat, 5);
    if (dlon.isZero(0.0) && dlat.isZero(0.0))
      throw std::invalid_argument(
          "parameter '" + key->path + "' does not enter this file's system matrices A" +
          (key->path.rfind("controls.", 0) == 0 &&
                   (key->path.ends_with(".min") || key->path.ends_with(".max"))
               ? std::string(" (a control's limits bound its deflection in simulations; the modes do "
                             "not depend on them)")
           : key->path.rfind("controls.", 0) == 0
               ? std::string(" (control derivatives act through B: close a loop with aerolin locus)")
               : key->path.rfind("mass.", 0) == 0
                     ? std::string(" ([mass] enters only raw or unprimed derivatives)")
                     : std::string(" (it is informational)")));
  }
  analysis::MatrixFamily lon = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    split(matrices(v).longitudinal, A, dA, 4);
  };
  // The lateral roots are tracked on the (β, p, r, φ) block: ψ is an integrator
  // whose root is 0 for every value (AnalyzeLateral does the same).
  analysis::MatrixFamily lat = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    split(matrices(v).lateral, A, dA, 4);
  };
  std::vector<double> grid(static_cast<std::size_t>(options.steps));
  for (int k = 0; k < options.steps; ++k)
    grid[static_cast<std::size_t>(k)] =
        k + 1 == options.steps ? options.to
                               : options.from + (options.to - options.from) * k / (options.steps - 1);
  const bool is_u0 = field == &file.written.condition.U0 || (file.coefficients && field == &file.coefficients->U0);
  const double U0 = file.written.condition.U0;
  // Each point once: one build of both axes' A and ∂A/∂p, one eigen-solve per
  // axis, whose roots serve the continuation (values, vectors, slopes) and
  // the pointwise `aerolin modes` names (NameLongitudinalRoots and
  // NameLateralRoots are AnalyzeLongitudinal's and AnalyzeLateral's naming of
  // the same decomposition).
  const std::size_t n = grid.size();
  std::vector<analysis::RootSet> lon_sets(n), lat_sets(n);
  std::vector<PointwiseNames> lon_names(n), lat_names(n);
  core::ParallelFor(n, options.threads, [&](std::size_t k) {
    const double v = grid[k];
    const auto m = matrices(v);
    SmallMatrix A, dA;
    split(m.longitudinal, A, dA, 4);
    lon_sets[k] = analysis::AnalyzeRoots(A, dA, v);
    lon_names[k] = Spelled(analysis::NameLongitudinalRoots(lon_sets[k].values, lon_sets[k].vectors,
                                                           is_u0 ? v * to_si : U0));
    split(m.lateral, A, dA, 4);
    lat_sets[k] = analysis::AnalyzeRoots(A, dA, v);
    lat_names[k] = Spelled(analysis::NameLateralRoots(lat_sets[k].values, lat_sets[k].vectors));
  });
  // The named modes of the first point, as `aerolin modes` gives them.
  auto file_at = [&](double v) {
    return model::MatricesOfFile<double>(file, [&](const double& f) { return &f == field ? v * to_si : f; });
  };
  const auto first = file_at(grid[0]);
  TrackedStudy study;
  study.param = key->path;
  study.points.resize(grid.size());
  const AxisPlan lon_plan =
      PlanAxis(lon, lon_sets, analysis::AnalyzeLongitudinal(Longitudinal4(first.longitudinal), is_u0 ? grid[0] * to_si : U0),
               {}, model::Axis::kLongitudinal, options.threads);
  const AxisPlan lat_plan = PlanAxis(lat, lat_sets, analysis::AnalyzeLateral(Lateral5(first.lateral)), {},
                                     model::Axis::kLateral, options.threads);
  // Both axes named at each point in one parallel pass: the point's modes
  // are the longitudinal ones, then the lateral ones and heading.
  const std::vector<TrackedMode> heading{HeadingMode()};
  std::vector<Signature> lon_signatures(n), lat_signatures(n);
  std::vector<std::size_t> lon_end(n);
  core::ParallelFor(n, options.threads, [&](std::size_t k) {
    TrackedPoint& point = study.points[k];
    point.value = grid[k];
    point.modes.reserve(lon_plan.groups.size() + lat_plan.groups.size() + heading.size() + 2);
    NameAxisPoint(lon_plan, k, lon_names, {}, point.modes, lon_signatures[k]);
    lon_end[k] = point.modes.size();
    NameAxisPoint(lat_plan, k, lat_names, heading, point.modes, lat_signatures[k]);
  });
  auto lon_modes = [&](std::size_t k) {
    return std::span<const TrackedMode>(study.points[k].modes).first(lon_end[k]);
  };
  auto lat_modes = [&](std::size_t k) {
    return std::span<const TrackedMode>(study.points[k].modes).subspan(lon_end[k]);
  };
  study.changes = ChangesOf(lon_plan, lon, lon_signatures, lon_modes, options.threads);
  for (StructureChange& c : ChangesOf(lat_plan, lat, lat_signatures, lat_modes, options.threads))
    study.changes.push_back(std::move(c));
  study.refinements = lon_plan.c.refinements + lat_plan.c.refinements;
  AddNotes(study);
  return study;
}

}  // namespace aerolin::study
