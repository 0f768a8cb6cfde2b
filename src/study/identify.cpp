#include "aerolin/study/identify.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <unsupported/Eigen/AutoDiff>
#include <unsupported/Eigen/FFT>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <fmt/format.h>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/matrix_exponential.hpp"
#include "aerolin/data/flight_record.hpp"

namespace aerolin::study {
namespace {

using AD = model::AutoDiffXd;

bool IsLongitudinal(model::Axis axis) { return axis == model::Axis::kLongitudinal; }

// A and B of the axis and their derivatives per unit of each seeded key as
// written.
struct AxisModel {
  Eigen::MatrixXd A, B;
  std::vector<Eigen::MatrixXd> dA, dB;
};

template <class Mat>
void Split(const Mat& m, Eigen::MatrixXd& value, std::vector<Eigen::MatrixXd>& d, Eigen::Index n) {
  value.resize(m.rows(), m.cols());
  d.assign(static_cast<std::size_t>(n), Eigen::MatrixXd::Zero(m.rows(), m.cols()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      value(r, c) = m(r, c).value();
      if (m(r, c).derivatives().size() == n)
        for (Eigen::Index j = 0; j < n; ++j) d[static_cast<std::size_t>(j)](r, c) = m(r, c).derivatives()(j);
    }
}

// The axis's A, B with the keys `keys` at `values` (as written), and their
// derivatives with respect to those keys (forward-mode AD through the file's
// whole chain: MatricesOfFile, InputMatricesOfFile).
AxisModel Evaluate(const model::AircraftFile& file, model::Axis axis,
                   const std::vector<const model::WrittenKey*>& keys, const Eigen::VectorXd& values) {
  const auto n = static_cast<Eigen::Index>(keys.size());
  std::vector<const double*> fields;
  for (const model::WrittenKey* k : keys) fields.push_back(model::FieldOf(file, k->path));
  auto value = [&](const double& field) -> AD {
    for (Eigen::Index j = 0; j < n; ++j)
      if (fields[static_cast<std::size_t>(j)] == &field) {
        const double to_si = keys[static_cast<std::size_t>(j)]->to_si;
        return AD(values(j) * to_si, Eigen::VectorXd::Unit(n, j) * to_si);
      }
    return AD(field, Eigen::VectorXd::Zero(n));
  };
  const model::AxisMatrices<AD> a = model::MatricesOfFile<AD>(file, value);
  const model::AxisInputMatrices<AD> b = model::InputMatricesOfFile<AD>(file, value);
  AxisModel out;
  if (IsLongitudinal(axis)) {
    Split(a.longitudinal, out.A, out.dA, n);
    Split(b.longitudinal, out.B, out.dB, n);
  } else {
    Split(a.lateral, out.A, out.dA, n);
    Split(b.lateral, out.B, out.dB, n);
  }
  return out;
}

std::vector<const model::Control*> AxisControls(const model::AircraftFile& file, model::Axis axis) {
  std::vector<const model::Control*> out;
  for (const model::Control& c : file.written.controls)
    if (IsLongitudinal(axis) ? c.longitudinal : c.lateral) out.push_back(&c);
  return out;
}

// The keys of `file` that enter the axis's A or B, in file order.
std::vector<std::string> AxisKeys(const model::AircraftFile& file, model::Axis axis) {
  std::vector<const model::WrittenKey*> all;
  for (const model::WrittenKey& k : file.keys)
    if (model::FieldOf(file, k.path) != nullptr) all.push_back(&k);
  Eigen::VectorXd values(static_cast<Eigen::Index>(all.size()));
  for (std::size_t i = 0; i < all.size(); ++i) values(static_cast<Eigen::Index>(i)) = all[i]->value;
  const AxisModel m = Evaluate(file, axis, all, values);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!m.dA[i].isZero(0.0) || !m.dB[i].isZero(0.0)) out.push_back(all[i]->path);
  return out;
}

std::string Join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The information matrix scaled to unit diagonal and what it says about
// identifiability: throws DataError naming what the flight cannot identify.
double CheckIdentifiable(const Eigen::MatrixXd& M, const std::vector<std::string>& names,
                         const std::string& flight) {
  const Eigen::Index n = M.rows();
  std::vector<std::string> silent;
  for (Eigen::Index j = 0; j < n; ++j)
    if (!(M(j, j) > 0.0)) silent.push_back(names[static_cast<std::size_t>(j)]);
  if (!silent.empty())
    throw core::DataError({flight, 0},
                          "the flight cannot identify " + Join(silent) +
                              ": no measured output moves with it (the control or mode it acts "
                              "through is not excited in this flight); excite it or fix the key");
  const Eigen::VectorXd d = M.diagonal().cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd scaled = d.asDiagonal() * M * d.asDiagonal();
  const analysis::SymmetricEigenpairs eig =
      analysis::DecomposeSymmetric(scaled, analysis::SymmetricVectors::kYes);
  const double smallest = eig.values(0);
  const double largest = eig.values(n - 1);
  if (!(smallest > kMinScaledInformation * largest)) {
    const Eigen::VectorXd v = eig.vectors.col(0);
    const double big = v.cwiseAbs().maxCoeff();
    std::vector<std::string> involved;
    for (Eigen::Index j = 0; j < n; ++j)
      if (std::abs(v(j)) >= 0.3 * big) involved.push_back(names[static_cast<std::size_t>(j)]);
    throw core::DataError(
        {flight, 0},
        fmt::format("the flight cannot identify {} separately: their effects on the measured outputs "
                    "are (nearly) the same combination (scaled information matrix's smallest "
                    "eigenvalue {:.3g} of {:.3g}); excite the mode they act through differently "
                    "or fix all but one of them",
                    Join(involved), smallest, largest));
  }
  return largest / smallest;
}

// The inverse of a positive definite M, through its unit-diagonal scaling.
Eigen::MatrixXd InverseOf(const Eigen::MatrixXd& M) {
  const Eigen::VectorXd d = M.diagonal().cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd scaled = d.asDiagonal() * M * d.asDiagonal();
  const Eigen::MatrixXd inv =
      scaled.ldlt().solve(Eigen::MatrixXd::Identity(M.rows(), M.cols()));
  return d.asDiagonal() * inv * d.asDiagonal();
}

// ---------------------------------------------------------------- the flight

// A flight as the passes read it: its rows in order, each the axis's states
// then its controls, in chunks; one call of `replay` is one pass.
struct FlightPasses {
  std::string path;
  double dt = 0;
  Eigen::Index rows = 0, states = 0, controls = 0;
  std::function<void(const data::FlightChunkFunction&)> replay;
};

FlightPasses PassesOf(const FlightSamples& f) {
  const Eigen::Index n = f.states.cols(), m = f.controls.cols();
  return {f.path, f.dt, f.states.rows(), n, m, [&f, n, m](const data::FlightChunkFunction& chunk) {
            data::FlightRows rows;
            for (Eigen::Index first = 0; first < f.states.rows(); first += data::kFlightChunkRows) {
              const Eigen::Index count = std::min(data::kFlightChunkRows, f.states.rows() - first);
              rows.resize(count, n + m);
              rows.leftCols(n) = f.states.middleRows(first, count);
              rows.rightCols(m) = f.controls.middleRows(first, count);
              chunk(first, rows);
            }
          }};
}

// The passes over a flight, each reporting how far it has gone as what For()
// last said the passes are for. `first` is row 0, known after the first pass
// (MeasuredOf).
class Flight {
 public:
  Flight(FlightPasses passes, const ProgressFunction& progress) : f_(std::move(passes)), progress_(progress) {}
  const std::string& path() const { return f_.path; }
  double dt() const { return f_.dt; }
  Eigen::Index rows() const { return f_.rows; }
  Eigen::Index states() const { return f_.states; }
  Eigen::Index controls() const { return f_.controls; }
  void For(IdentifyProgress::Stage stage, int iteration = 0, int max_iterations = 0) {
    now_ = {stage, 0.0, iteration, 0.0, true, max_iterations};
  }
  void Report(const IdentifyProgress& event) const {
    if (progress_) progress_(event);
  }
  // Calls row(k, z, u) for every row k in order: z the states, u the
  // controls (row vectors).
  template <class Row>
  void ForEachRow(Row&& row) {
    const Eigen::Index n = f_.states, m = f_.controls;
    f_.replay([&](Eigen::Index first, const data::FlightRows& rows) {
      for (Eigen::Index i = 0; i < rows.rows(); ++i) row(first + i, rows.row(i).head(n), rows.row(i).segment(n, m));
      now_.fraction = static_cast<double>(first + rows.rows()) / static_cast<double>(f_.rows);
      Report(now_);
    });
  }
  Eigen::RowVectorXd first;  // the states then the controls of row 0

 private:
  FlightPasses f_;
  const ProgressFunction& progress_;
  IdentifyProgress now_;
};

// What the measured states sum to (a pass; also sets the flight's first row).
struct Measured {
  Eigen::VectorXd mean;     // of each state
  Eigen::VectorXd squares;  // Σ z² of each state
};

Measured MeasuredOf(Flight& flight) {
  const Eigen::Index n = flight.states();
  Measured out{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n)};
  flight.ForEachRow([&](Eigen::Index k, const auto& z, const auto& u) {
    if (k == 0) {
      flight.first.resize(n + flight.controls());
      flight.first << z, u;
    }
    out.mean += z.transpose();
    out.squares += z.transpose().cwiseAbs2();
  });
  out.mean /= static_cast<double>(flight.rows());
  return out;
}

// ---------------------------------------------------------------- output error

struct Layout {
  int keys = 0;                 // free keys first
  std::vector<int> x0_states;   // then x0 of these states
  std::vector<int> bias_states; // then a bias of these
  int size() const { return keys + static_cast<int>(x0_states.size() + bias_states.size()); }
};

// Flies the model at `p` through the flight (one pass) and calls visit(k, z,
// ν, S) for every sample k in order: z the measured states (a row), ν = z(k)
// − (x(k) + b) the residual (outputs), S the outputs' sensitivities
// ∂(x + b)/∂p (outputs × parameters), kept up to date only with
// `sensitivities`. Nothing proportional to the flight's length is held.
// [Φ Γ] are the same with or without sensitivities (the first key's block
// exponential when there is a key), so a residual is the same bits in every
// pass.
template <class Visit>
void Walk(const model::AircraftFile& file, Flight& flight, model::Axis axis,
          const std::vector<const model::WrittenKey*>& keys, const Layout& layout, const Eigen::VectorXd& p,
          bool sensitivities, Visit&& visit) {
  const Eigen::Index n = flight.states(), np = layout.size();
  const AxisModel m = Evaluate(file, axis, keys, p.head(layout.keys));
  std::vector<HoldDerivative> hold;
  for (int j = 0; j < layout.keys && (sensitivities || j == 0); ++j)
    hold.push_back(DifferentiateHold(m.A, m.B, m.dA[static_cast<std::size_t>(j)],
                                     m.dB[static_cast<std::size_t>(j)], flight.dt()));
  if (hold.empty())
    hold.push_back(DifferentiateHold(m.A, m.B, Eigen::MatrixXd::Zero(n, n), Eigen::MatrixXd::Zero(n, m.B.cols()),
                                     flight.dt()));
  const Eigen::MatrixXd Phi = hold[0].Phi, Gamma = hold[0].Gamma;
  Eigen::VectorXd x = flight.first.head(n).transpose();  // x0 not estimated: the first sample
  Eigen::VectorXd bias = Eigen::VectorXd::Zero(n);
  for (std::size_t i = 0; i < layout.x0_states.size(); ++i)
    x(layout.x0_states[i]) = p(layout.keys + static_cast<Eigen::Index>(i));
  const Eigen::Index bias_at = layout.keys + static_cast<Eigen::Index>(layout.x0_states.size());
  for (std::size_t i = 0; i < layout.bias_states.size(); ++i)
    bias(layout.bias_states[i]) = p(bias_at + static_cast<Eigen::Index>(i));
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, np);  // ∂x/∂p
  for (std::size_t i = 0; i < layout.x0_states.size(); ++i)
    X(layout.x0_states[i], layout.keys + static_cast<Eigen::Index>(i)) = 1.0;
  Eigen::MatrixXd S(n, np), Xnext(n, np);
  Eigen::VectorXd residual(n), u(flight.controls());
  flight.ForEachRow([&](Eigen::Index k, const auto& z, const auto& uk) {
    if (k > 0) {  // from sample k − 1 to k, with the controls held over the slice (row k's)
      u = uk.transpose();
      if (sensitivities) {
        Xnext.noalias() = Phi * X;
        for (int j = 0; j < layout.keys; ++j)
          Xnext.col(j) +=
              hold[static_cast<std::size_t>(j)].dPhi * x + hold[static_cast<std::size_t>(j)].dGamma * u;
        X.swap(Xnext);
      }
      x = Phi * x + Gamma * u;
    }
    residual = z.transpose() - (x + bias);
    if (sensitivities) {
      S = X;
      for (std::size_t i = 0; i < layout.bias_states.size(); ++i)
        S(layout.bias_states[i], bias_at + static_cast<Eigen::Index>(i)) = 1.0;
    }
    visit(k, z, residual, S);
  });
}

// Rows of sensitivities gathered per output before they are summed, so that
// the sums are matrix products (fast) over a bounded block.
constexpr Eigen::Index kSumBlock = 256;

// What an output-error iteration needs from one flight of the model, summed
// as the samples go by: per output Σν², Σ SᵀS and Σ Sᵀν.
struct Sums {
  Eigen::VectorXd squares;
  std::vector<Eigen::MatrixXd> SS;
  std::vector<Eigen::VectorXd> Sv;
  bool finite = true;
};

// Sums the samples' (ν, S) into Sums, in blocks of kSumBlock rows; S is
// outputs × parameters (an output: a measured state, or an equation).
class SumsAccumulator {
 public:
  SumsAccumulator(Eigen::Index outputs, Eigen::Index parameters)
      : sums_{Eigen::VectorXd::Zero(outputs),
              std::vector<Eigen::MatrixXd>(static_cast<std::size_t>(outputs), Eigen::MatrixXd::Zero(parameters, parameters)),
              std::vector<Eigen::VectorXd>(static_cast<std::size_t>(outputs), Eigen::VectorXd::Zero(parameters)), true},
        rows_(static_cast<std::size_t>(outputs), Eigen::MatrixXd(kSumBlock, parameters)),
        nu_(kSumBlock, outputs) {}
  void Add(const Eigen::VectorXd& residual, const Eigen::MatrixXd& S) {
    for (Eigen::Index o = 0; o < nu_.cols(); ++o) rows_[static_cast<std::size_t>(o)].row(filled_) = S.row(o);
    nu_.row(filled_) = residual.transpose();
    if (++filled_ == kSumBlock) Flush();
  }
  Sums Finish() {
    Flush();
    sums_.finite = sums_.squares.allFinite();
    return std::move(sums_);
  }

 private:
  void Flush() {
    for (Eigen::Index o = 0; o < nu_.cols(); ++o) {
      const auto block = rows_[static_cast<std::size_t>(o)].topRows(filled_);
      sums_.SS[static_cast<std::size_t>(o)].noalias() += block.transpose() * block;
      sums_.Sv[static_cast<std::size_t>(o)].noalias() += block.transpose() * nu_.col(o).head(filled_);
      sums_.squares(o) += nu_.col(o).head(filled_).squaredNorm();
    }
    filled_ = 0;
  }
  Sums sums_;
  std::vector<Eigen::MatrixXd> rows_;
  Eigen::MatrixXd nu_;
  Eigen::Index filled_ = 0;
};

Sums SumsOf(const model::AircraftFile& file, Flight& flight, model::Axis axis,
            const std::vector<const model::WrittenKey*>& keys, const Layout& layout, const Eigen::VectorXd& p) {
  SumsAccumulator sums(flight.states(), layout.size());
  Walk(file, flight, axis, keys, layout, p, true,
       [&](Eigen::Index, const auto&, const Eigen::VectorXd& residual, const Eigen::MatrixXd& S) {
         sums.Add(residual, S);
       });
  return sums.Finish();
}

// The diagonal of R̂ = Σνν'/N from the sums of squares, kept off zero for a
// noise-free output (`measured`: Σ z² of each output).
Eigen::VectorXd NoiseVariances(const Eigen::VectorXd& squares, const Eigen::VectorXd& measured, Eigen::Index rows) {
  const double N = static_cast<double>(rows);
  Eigen::VectorXd r = squares / N;
  for (Eigen::Index o = 0; o < r.size(); ++o) {
    const double floor = 1e-24 * (measured(o) / N) + 1e-300;
    r(o) = std::max(r(o), floor);
  }
  return r;
}

// The residuals' correlation through their lag window (LagWindow), and the
// window: `pass(stream)` adds one pass's N residuals to `stream`. One pass
// at the window's search lags (at least kFirstLags, which covers the window
// of most flights), a second at the window's lags if it is longer.
constexpr int kFirstLags = 512;

template <class Pass>
std::pair<ResidualCorrelation, int> WindowedCorrelation(Eigen::Index N, Eigen::Index outputs, Pass&& pass) {
  const int limit = static_cast<int>(std::min<Eigen::Index>(N - 1, kMaxLagWindow));
  int lags = std::min(limit, std::max(kFirstLags, LagSearch(N)));
  while (true) {
    CorrelationStream stream(outputs, lags);
    pass(stream);
    ResidualCorrelation correlation = stream.Finish();
    const int window = LagWindow(correlation);
    if (window <= lags) return {std::move(correlation), window};
    lags = window;
  }
}

double Cost(const Eigen::VectorXd& R) { return R.array().log().sum(); }

struct Information {
  Eigen::MatrixXd M;
  Eigen::VectorXd g;
};

// M = Σ w SᵀS and g = Σ w Sᵀν over the outputs, with their weights w
// (1/R̂ for output error).
Information InformationOf(const Sums& sums, const Eigen::VectorXd& weights) {
  const Eigen::Index np = sums.SS[0].cols();
  Information info{Eigen::MatrixXd::Zero(np, np), Eigen::VectorXd::Zero(np)};
  for (std::size_t o = 0; o < sums.SS.size(); ++o) {
    const double w = weights(static_cast<Eigen::Index>(o));
    info.M.noalias() += w * sums.SS[o];
    info.g.noalias() += w * sums.Sv[o];
  }
  return info;
}

// ------------------------------------------------------------ responses

// A series thinned as it is fed, sample by sample: each bucket of `bucket`
// samples as its least and greatest value, in time order (every sample if
// bucket 1).
class Thinner {
 public:
  Thinner(Eigen::Index bucket, double dt) : bucket_(bucket), dt_(dt) {}
  void Add(Eigen::Index k, double v) {
    if (count_ == 0 || v < lo_v_) lo_ = k, lo_v_ = v;
    if (count_ == 0 || v > hi_v_) hi_ = k, hi_v_ = v;
    if (++count_ == bucket_) Flush();
  }
  ResponseSeries Finish() {
    if (count_ > 0) Flush();
    return std::move(series_);
  }

 private:
  void Flush() {
    Push(std::min(lo_, hi_), lo_ < hi_ ? lo_v_ : hi_v_);
    if (hi_ != lo_) Push(std::max(lo_, hi_), lo_ < hi_ ? hi_v_ : lo_v_);
    count_ = 0;
  }
  void Push(Eigen::Index k, double v) {
    series_.t.push_back(static_cast<double>(k) * dt_);
    series_.value.push_back(v);
  }
  Eigen::Index bucket_;
  double dt_;
  Eigen::Index count_ = 0, lo_ = 0, hi_ = 0;
  double lo_v_ = 0, hi_v_ = 0;
  ResponseSeries series_;
};

// The measured outputs, the model's at `estimate` and at the free keys'
// `start` (x0 and biases as estimated), thinned to about `points` per series
// as the model flies (two flights; nothing proportional to the flight held).
IdentifyResponses ResponsesOf(const model::AircraftFile& file, Flight& flight, model::Axis axis,
                              const std::vector<const model::WrittenKey*>& keys, const Layout& layout,
                              const Eigen::VectorXd& estimate, const Eigen::VectorXd& start, int points) {
  const Eigen::Index N = flight.rows(), n = flight.states();
  const Eigen::Index pairs = std::max(points / 2, 1);
  IdentifyResponses out;
  out.bucket = static_cast<int>(N <= points ? 1 : (N + pairs - 1) / pairs);
  out.from_first_sample = layout.x0_states.empty();
  std::vector<Thinner> measured, identified, residual, started;
  for (Eigen::Index o = 0; o < n; ++o)
    for (std::vector<Thinner>* t : {&measured, &identified, &residual, &started}) t->emplace_back(out.bucket, flight.dt());
  Eigen::VectorXd squares = Eigen::VectorXd::Zero(n);
  flight.For(IdentifyProgress::Stage::kResponses);
  Walk(file, flight, axis, keys, layout, estimate, false,
       [&](Eigen::Index k, const auto& z, const Eigen::VectorXd& nu, const Eigen::MatrixXd&) {
         for (Eigen::Index o = 0; o < n; ++o) {
           const auto i = static_cast<std::size_t>(o);
           measured[i].Add(k, z(o));
           identified[i].Add(k, z(o) - nu(o));
           residual[i].Add(k, nu(o));
           squares(o) += nu(o) * nu(o);
         }
       });
  Eigen::VectorXd at_start = estimate;
  at_start.head(layout.keys) = start;
  Walk(file, flight, axis, keys, layout, at_start, false,
       [&](Eigen::Index k, const auto& z, const Eigen::VectorXd& nu, const Eigen::MatrixXd&) {
         for (Eigen::Index o = 0; o < n; ++o) started[static_cast<std::size_t>(o)].Add(k, z(o) - nu(o));
       });
  const std::vector<core::Signal>& states = model::StateSignals(axis);
  for (Eigen::Index o = 0; o < n; ++o) {
    const auto i = static_cast<std::size_t>(o);
    out.outputs.push_back({states[i], measured[i].Finish(), identified[i].Finish(), started[i].Finish(),
                           residual[i].Finish(), std::sqrt(squares(o) / static_cast<double>(N))});
  }
  return out;
}

// ------------------------------------------------------------ equation error

// The regressors of sample i (0 ≤ i < N − 4), centred on row i + 2: the
// Savitzky–Golay derivative and the matching averages (see the header).
struct Regressor {
  Eigen::RowVectorXd z, x, u;
};

// Calls visit(i, regressor) for every regressor i in order (one pass), each
// computed from the five rows around it, kept in a ring (row k at k mod 5).
template <class Visit>
void ForEachRegressor(Flight& f, Visit&& visit) {
  const Eigen::Index n = f.states(), m = f.controls();
  const double dt = f.dt();
  data::FlightRows ring(5, n + m);
  Regressor r;
  f.ForEachRow([&](Eigen::Index k, const auto& z, const auto& uk) {
    ring.row(k % 5).head(n) = z;
    ring.row(k % 5).tail(m) = uk;
    if (k < 4) return;
    const Eigen::Index c = k - 2;  // the centre
    const auto x = [&](int o) { return ring.row((c + o) % 5).head(n); };
    const auto u = [&](int o) { return ring.row((c + o) % 5).tail(m); };
    r.z = (-2.0 * x(-2) - x(-1) + x(1) + 2.0 * x(2)) / (10.0 * dt);
    r.x = (2.0 * x(-2) + 5.0 * x(-1) + 6.0 * x(0) + 5.0 * x(1) + 2.0 * x(2)) / 20.0;
    r.u = (2.0 * u(-1) + 3.0 * u(0) + 3.0 * u(1) + 2.0 * u(2)) / 10.0;
    visit(k - 4, r);
  });
}

// The equations' model at θ: A, B and their derivatives (m), the rows used,
// and θ's equation biases from `bias_at` on.
struct Equations {
  const AxisModel& m;
  const std::vector<int>& rows;
  const Eigen::VectorXd& theta;
  Eigen::Index keys;
};

// Calls visit(i, r, J) for every regressor i in order (one pass): r the
// equations' residuals ż − A x̄ − B ū − c, J their Jacobian rows
// ∂(A x̄ + B ū + c)/∂θ (equations × parameters). Nothing proportional to the
// flight is held.
template <class Visit>
void WalkEquations(Flight& f, const Equations& eq, Visit&& visit) {
  const auto ne = static_cast<Eigen::Index>(eq.rows.size());
  Eigen::VectorXd r(ne);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(ne, eq.theta.size());
  for (Eigen::Index e = 0; e < ne; ++e) J(e, eq.keys + e) = 1.0;
  ForEachRegressor(f, [&](Eigen::Index i, const Regressor& reg) {
    for (Eigen::Index e = 0; e < ne; ++e) {
      const int row = eq.rows[static_cast<std::size_t>(e)];
      r(e) = reg.z(row) - (reg.x.dot(eq.m.A.row(row)) + reg.u.dot(eq.m.B.row(row))) - eq.theta(eq.keys + e);
      for (Eigen::Index j = 0; j < eq.keys; ++j)
        J(e, j) = reg.x.dot(eq.m.dA[static_cast<std::size_t>(j)].row(row)) +
                  reg.u.dot(eq.m.dB[static_cast<std::size_t>(j)].row(row));
    }
    visit(i, r, J);
  });
}

struct EquationErrorFit {
  Eigen::VectorXd theta;           // keys then equation biases
  std::vector<std::string> names;  // of theta's entries
  std::vector<int> equations;      // the state rows used
  Eigen::MatrixXd covariance, covariance_corrected;
  std::vector<OutputFit> fit;
  int iterations = 0;
  double condition = 0;
};

// `covariance` false: the estimate only (output error's start): no
// standard errors, fit or identifiability check after the iterations.
// Each pass over the flight is summed as it goes (per equation Σ JᵀJ, Σ Jᵀr,
// Σ r²; for the standard errors, the residuals' correlation, then the
// bracket): nothing per sample is held.
EquationErrorFit EquationError(const model::AircraftFile& file, Flight& flight, model::Axis axis,
                               const std::vector<const model::WrittenKey*>& keys, const Eigen::VectorXd& start,
                               bool covariance) {
  const Eigen::Index N = flight.rows() - 4, nk = static_cast<Eigen::Index>(keys.size());
  EquationErrorFit out;
  AxisModel m = Evaluate(file, axis, keys, start);
  for (Eigen::Index i = 0; i < m.A.rows(); ++i) {
    bool used = false;
    for (Eigen::Index j = 0; j < nk; ++j)
      used = used || !m.dA[static_cast<std::size_t>(j)].row(i).isZero(0.0) ||
             !m.dB[static_cast<std::size_t>(j)].row(i).isZero(0.0);
    if (used) out.equations.push_back(static_cast<int>(i));
  }
  const auto ne = static_cast<Eigen::Index>(out.equations.size());
  const Eigen::Index np = nk + ne;
  std::vector<std::string> names;
  for (const model::WrittenKey* k : keys) names.push_back(k->path);
  const std::vector<core::Signal>& states = model::StateSignals(axis);
  for (int e : out.equations) names.push_back("bias." + states[static_cast<std::size_t>(e)].name + "dot");
  out.names = names;

  // Σ (ż − mean ż)² of each equation (two passes: the mean, then the squares).
  flight.For(IdentifyProgress::Stage::kEquationError, 1, kMaxIterations);
  Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(flight.states());
  ForEachRegressor(flight, [&](Eigen::Index, const Regressor& reg) { mean += reg.z; });
  mean /= static_cast<double>(N);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(ne);
  ForEachRegressor(flight, [&](Eigen::Index, const Regressor& reg) {
    for (Eigen::Index e = 0; e < ne; ++e) {
      const int row = out.equations[static_cast<std::size_t>(e)];
      total(e) += (reg.z(row) - mean(row)) * (reg.z(row) - mean(row));
    }
  });

  Eigen::VectorXd theta(np);
  theta << start, Eigen::VectorXd::Zero(ne);
  Eigen::VectorXd w(ne);  // 1/variance of each equation's residual
  for (Eigen::Index e = 0; e < ne; ++e) {
    const double var = total(e) / static_cast<double>(N);
    w(e) = var > 0 ? 1.0 / var : 1.0;
  }
  auto sums_at = [&](const Eigen::VectorXd& th) {
    m = Evaluate(file, axis, keys, th.head(nk));
    SumsAccumulator acc(ne, np);
    WalkEquations(flight, {m, out.equations, th, nk},
                  [&](Eigen::Index, const Eigen::VectorXd& r, const Eigen::MatrixXd& J) { acc.Add(r, J); });
    return acc.Finish();
  };
  Sums sums = sums_at(theta);
  for (out.iterations = 1; out.iterations <= kMaxIterations; ++out.iterations) {
    flight.For(IdentifyProgress::Stage::kEquationError, out.iterations, kMaxIterations);
    const Information info = InformationOf(sums, w);
    if (out.iterations == 1) CheckIdentifiable(info.M, names, flight.path());
    const Eigen::VectorXd step = InverseOf(info.M) * info.g;
    theta += step;
    // The weights from this step's residuals (s² with N − np degrees of freedom).
    sums = sums_at(theta);
    for (Eigen::Index e = 0; e < ne; ++e)
      w(e) = static_cast<double>(N - np) / std::max(sums.squares(e), 1e-300);
    flight.Report({IdentifyProgress::Stage::kEquationError, 0.0, out.iterations, sums.squares.sum()});
    if (step.dot(info.M * step) <= kStepTolerance * kStepTolerance) break;
  }
  out.iterations = std::min(out.iterations, kMaxIterations);
  out.theta = theta;
  if (!covariance) return out;
  const Eigen::MatrixXd M = InformationOf(sums, w).M;
  out.condition = CheckIdentifiable(M, names, flight.path());
  out.covariance = InverseOf(M);
  // The residuals' correlation at the estimate, then wJ streamed sample by
  // sample into the bracket.
  flight.Report({IdentifyProgress::Stage::kBounds});
  flight.For(IdentifyProgress::Stage::kBounds);
  const Equations at_estimate{m, out.equations, theta, nk};
  const auto [correlation, window] = WindowedCorrelation(N, ne, [&](CorrelationStream& stream) {
    WalkEquations(flight, at_estimate,
                  [&](Eigen::Index, const Eigen::VectorXd& r, const Eigen::MatrixXd&) { stream.Add(r); });
  });
  ColouredBracketStream bracket(correlation, window, np);
  WalkEquations(flight, at_estimate, [&](Eigen::Index, const Eigen::VectorXd&, const Eigen::MatrixXd& J) {
    bracket.Add(w.asDiagonal() * J);
  });
  out.covariance_corrected = out.covariance * bracket.Finish() * out.covariance;
  for (Eigen::Index e = 0; e < ne; ++e) {
    const core::Signal& s = states[static_cast<std::size_t>(out.equations[static_cast<std::size_t>(e)])];
    out.fit.push_back({s.name + "dot", std::string(core::ToString(s.unit)) + "/s",
                       std::sqrt(sums.squares(e) / static_cast<double>(N)),
                       total(e) > 0 ? 1.0 - sums.squares(e) / total(e) : 0.0});
  }
  return out;
}

void Correlate(IdentifyResult& result) {
  const Eigen::Index n = result.covariance_corrected.rows();
  const Eigen::VectorXd s = result.covariance_corrected.diagonal().cwiseSqrt();
  result.correlation = s.cwiseInverse().asDiagonal() * result.covariance_corrected * s.cwiseInverse().asDiagonal();
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (std::abs(result.correlation(i, j)) > kHighCorrelation)
        result.correlated.push_back({static_cast<int>(i), static_cast<int>(j), result.correlation(i, j)});
}

void ModesOf(IdentifyResult& result, const model::AircraftFile& file, model::Axis axis,
             const std::vector<const model::WrittenKey*>& keys, const Eigen::VectorXd& theta) {
  const AxisModel m = Evaluate(file, axis, keys, theta);
  std::vector<core::Signal> inputs;
  for (const model::Control* c : AxisControls(file, axis)) inputs.push_back({c->name, c->unit, c->name});
  const model::StateSpace ss(m.A, m.B, model::StateSignals(axis), inputs);
  const std::vector<analysis::Mode> modes = IsLongitudinal(axis)
                                                ? analysis::AnalyzeLongitudinal(ss, file.written.condition.U0)
                                                : analysis::AnalyzeLateral(ss);
  const auto nk = static_cast<Eigen::Index>(keys.size());
  const Eigen::MatrixXd C = result.covariance_corrected.topLeftCorner(nk, nk);
  const Eigen::MatrixXd Ccr = result.covariance.topLeftCorner(nk, nk);
  for (const analysis::Mode& mode : modes) {
    if (mode.kind == analysis::ModeKind::kHeading || mode.left.size() == 0) continue;
    Eigen::VectorXd re(nk), im(nk), zeta(nk), wn(nk);
    for (Eigen::Index j = 0; j < nk; ++j) {
      std::complex<double> d = analysis::EigenvalueDerivative(mode.left, mode.shape, m.dA[static_cast<std::size_t>(j)]);
      if (!mode.oscillatory) d.imag(0.0);
      re(j) = d.real(), im(j) = d.imag();
      zeta(j) = mode.oscillatory ? analysis::DampingDerivative(mode.lambda, d) : 0.0;
      wn(j) = analysis::FrequencyDerivative(mode.lambda, d);
    }
    auto sd = [](const Eigen::VectorXd& g, const Eigen::MatrixXd& cov) { return std::sqrt(std::max(0.0, g.dot(cov * g))); };
    result.modes.push_back({mode, sd(re, C), sd(im, C), sd(re, Ccr), sd(im, Ccr), sd(zeta, C), sd(wn, C),
                            sd(zeta, Ccr), sd(wn, Ccr)});
  }
}

}  // namespace

std::optional<IdentifyMethod> ParseIdentifyMethod(const std::string& text) {
  if (text == "output-error") return IdentifyMethod::kOutputError;
  if (text == "equation-error") return IdentifyMethod::kEquationError;
  return std::nullopt;
}

std::string ToString(const IdentifyProgress& progress) {
  using Stage = IdentifyProgress::Stage;
  if (progress.pass && progress.stage != Stage::kReading) {
    const std::string done = fmt::format("{:.0f} % of the flight", 100.0 * progress.fraction);
    switch (progress.stage) {
      case Stage::kEquationError:
      case Stage::kOutputError:
        return fmt::format("{} error: iteration {} of at most {}, {}",
                           progress.stage == Stage::kEquationError ? "equation" : "output", progress.iteration,
                           progress.max_iterations, done);
      case Stage::kBounds:
        return "error bounds (coloured residuals), " + done;
      default:
        return "responses for the figure, " + done;
    }
  }
  switch (progress.stage) {
    case Stage::kReading:
      return fmt::format("reading {:.0f} %", 100.0 * progress.fraction);
    case Stage::kEquationError:
      return fmt::format("equation error: iteration {}, sum of squares {:.6g}", progress.iteration, progress.cost);
    case Stage::kOutputError:
      return fmt::format("output error: iteration {}, cost {:.10g}", progress.iteration, progress.cost);
    case Stage::kBounds:
      break;
    case Stage::kResponses:
      return "responses for the figure";
  }
  return "error bounds (coloured residuals)";
}

std::vector<std::string> FlightColumns(const model::AircraftFile& file, model::Axis axis) {
  std::vector<std::string> out;
  for (const core::Signal& s : model::StateSignals(axis)) out.push_back(s.name);
  for (const model::Control* c : AxisControls(file, axis)) out.push_back(c->name);
  return out;
}

HoldDerivative DifferentiateHold(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                 const Eigen::MatrixXd& dA, const Eigen::MatrixXd& dB, double dt) {
  const Eigen::Index n = A.rows(), m = B.cols(), a = n + m;
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(2 * a, 2 * a);
  big.block(0, 0, n, n) = A * dt;
  big.block(0, n, n, m) = B * dt;
  big.block(a, a, n, n) = A * dt;
  big.block(a, a + n, n, m) = B * dt;
  big.block(0, a, n, n) = dA * dt;
  big.block(0, a + n, n, m) = dB * dt;
  const Eigen::MatrixXd e = core::MatrixExponential(big);
  return {e.block(0, 0, n, n), e.block(0, n, n, m), e.block(0, a, n, n), e.block(0, a + n, n, m)};
}

ResidualCorrelation CorrelationOf(const Eigen::MatrixXd& residuals, int lags) {
  const Eigen::Index N = residuals.rows(), ny = residuals.cols();
  ResidualCorrelation out;
  out.samples = N;
  for (Eigen::Index k = 0; k <= std::min<Eigen::Index>(lags, N - 1); ++k) {
    Eigen::MatrixXd r(ny, ny);
    for (Eigen::Index o1 = 0; o1 < ny; ++o1)
      for (Eigen::Index o2 = 0; o2 < ny; ++o2)
        r(o1, o2) = residuals.col(o1).tail(N - k).dot(residuals.col(o2).head(N - k)) / static_cast<double>(N);
    out.lag.push_back(std::move(r));
  }
  return out;
}

CorrelationStream::CorrelationStream(Eigen::Index outputs, int lags, Eigen::Index block)
    : ny_(outputs), lags_(std::max(lags, 0)) {
  // Each block of samples b is correlated with itself and the lags after it
  // (a, block + lags samples): the FFT length holds a, so that lags 0…lags
  // of the circular correlation do not wrap.
  L_ = 2;  // kissfft's real transform needs an even length
  while (L_ < std::max<Eigen::Index>(block, 1) + lags_) L_ *= 2;
  block_ = L_ - lags_;
  buffer_ = Eigen::MatrixXd::Zero(block_ + lags_, ny_);
  sum_.assign(static_cast<std::size_t>(lags_ + 1), Eigen::MatrixXd::Zero(ny_, ny_));
}

void CorrelationStream::Add(const Eigen::VectorXd& residual) {
  buffer_.row(filled_) = residual.transpose();
  if (++filled_ == buffer_.rows()) Block(block_);
}

// Adds Σ_j a_o1(j + k) b_o2(j) for k = 0…lags, b the block's first `valid`
// samples and a all the buffer's (by FFT: the inverse transform of
// A·conj(B)), then moves the lags after the block to the top.
void CorrelationStream::Block(Eigen::Index valid) {
  Eigen::FFT<double> fft;
  std::vector<Eigen::VectorXcd> A(static_cast<std::size_t>(ny_)), B(static_cast<std::size_t>(ny_));
  Eigen::VectorXd x(L_);
  for (Eigen::Index o = 0; o < ny_; ++o) {
    x.setZero();
    x.head(buffer_.rows()) = buffer_.col(o);
    fft.fwd(A[static_cast<std::size_t>(o)], x);
    x.setZero();
    x.head(valid) = buffer_.col(o).head(valid);
    fft.fwd(B[static_cast<std::size_t>(o)], x);
  }
  Eigen::VectorXcd Y(L_);
  for (Eigen::Index o1 = 0; o1 < ny_; ++o1)
    for (Eigen::Index o2 = 0; o2 < ny_; ++o2) {
      Y = A[static_cast<std::size_t>(o1)].cwiseProduct(B[static_cast<std::size_t>(o2)].conjugate());
      fft.inv(x, Y);
      for (Eigen::Index k = 0; k <= lags_; ++k) sum_[static_cast<std::size_t>(k)](o1, o2) += x(k);
    }
  if (lags_ > 0) buffer_.topRows(lags_) = buffer_.middleRows(block_, lags_).eval();
  buffer_.bottomRows(block_).setZero();
  filled_ = std::max<Eigen::Index>(filled_ - block_, 0);
  start_ += block_;
}

ResidualCorrelation CorrelationStream::Finish() {
  // The samples after the last are zero.
  const Eigen::Index N = start_ + filled_;
  while (start_ < N) {
    buffer_.bottomRows(buffer_.rows() - filled_).setZero();
    Block(std::min(block_, N - start_));
  }
  ResidualCorrelation out;
  out.samples = N;
  for (Eigen::Index k = 0; k <= std::min(lags_, N - 1); ++k)
    out.lag.push_back(sum_[static_cast<std::size_t>(k)] / static_cast<double>(N));
  return out;
}

int LagSearch(Eigen::Index samples) {
  const Eigen::Index limit = std::min<Eigen::Index>(samples - 1, kMaxLagWindow);
  return static_cast<int>(std::max<Eigen::Index>((limit + kLagWindowFactor - 1) / kLagWindowFactor - 1, 0));
}

int LagWindow(const ResidualCorrelation& correlation) {
  const Eigen::Index N = correlation.samples;
  const int limit = static_cast<int>(std::min<Eigen::Index>(N - 1, kMaxLagWindow));
  const int search = LagSearch(N);
  if (correlation.lags() < search)
    throw std::invalid_argument(fmt::format("LagWindow: the correlation holds {} lags, the search needs {}",
                                            correlation.lags(), search));
  const double limit_rho = 2.0 / std::sqrt(static_cast<double>(N));
  const Eigen::MatrixXd& r0 = correlation.lag[0];
  for (int k = 1; k <= search; ++k) {
    bool inside = true;
    const Eigen::MatrixXd& rk = correlation.lag[static_cast<std::size_t>(k)];
    for (Eigen::Index o = 0; o < r0.rows() && inside; ++o)
      inside = r0(o, o) == 0.0 || std::abs(rk(o, o) / r0(o, o)) < limit_rho;
    // A lag beyond the search gives the limit anyway (kLagWindowFactor × it ≥ limit).
    if (inside) return std::min(kLagWindowFactor * k, limit);
  }
  return limit;
}

int LagWindow(const Eigen::MatrixXd& residuals) {
  return LagWindow(CorrelationOf(residuals, LagSearch(residuals.rows())));
}

ColouredBracketStream::ColouredBracketStream(const Eigen::MatrixXd& residuals, int lags, Eigen::Index parameters,
                                             Eigen::Index block)
    : ColouredBracketStream(CorrelationOf(residuals, lags), lags, parameters, block) {}

ColouredBracketStream::ColouredBracketStream(const ResidualCorrelation& correlation, int lags,
                                             Eigen::Index parameters, Eigen::Index block)
    : N_(correlation.samples),
      ny_(correlation.lag.empty() ? 0 : correlation.lag[0].rows()),
      np_(parameters) {
  lags_ = std::clamp<Eigen::Index>(lags, 0, std::max<Eigen::Index>(N_ - 1, 0));
  if (correlation.lags() < lags_)
    throw std::invalid_argument(fmt::format("ColouredBracketStream: the correlation holds {} lags, the window {}",
                                            correlation.lags(), lags_));
  // Blocks of about `block` samples, or the whole flight if shorter,
  // with 2·lags of overlap either side: the FFT length holds a block and the
  // filter's 2·lags + 1 taps without wrapping into the samples kept.
  L_ = 1;
  while (L_ < std::min<Eigen::Index>(N_, std::max<Eigen::Index>({block, 2 * lags_, 1})) + 2 * lags_ + 1) L_ *= 2;
  block_ = L_ - 2 * lags_;
  // H(f): the DFT of the windowed biased correlation w(k) R̂(k) (Bartlett
  // window w(k) = 1 − |k|/(lags + 1); none for lags = N − 1), placed at
  // n = k + lags; R̂(−k) = R̂(k)ᵀ.
  Eigen::FFT<double> fft;
  Eigen::VectorXd h(L_);
  for (Eigen::Index o1 = 0; o1 < ny_; ++o1)
    for (Eigen::Index o2 = 0; o2 < ny_; ++o2) {
      h.setZero();
      for (Eigen::Index k = -lags_; k <= lags_; ++k) {
        const double r = k >= 0 ? correlation.lag[static_cast<std::size_t>(k)](o1, o2)
                                : correlation.lag[static_cast<std::size_t>(-k)](o2, o1);
        const double w = lags_ == N_ - 1 ? 1.0 : 1.0 - static_cast<double>(std::abs(k)) / static_cast<double>(lags_ + 1);
        h(k + lags_) = w * r;
      }
      Eigen::VectorXcd spectrum(L_);
      fft.fwd(spectrum, h);
      H_.push_back(std::move(spectrum));
    }
  buffer_ = Eigen::MatrixXd::Zero(block_ + 2 * lags_, ny_ * np_);
  filled_ = lags_;  // a(−lags), ..., a(−1): zero
  sum_ = Eigen::MatrixXd::Zero(np_, np_);
}

void ColouredBracketStream::Add(const Eigen::MatrixXd& a) {
  for (Eigen::Index o = 0; o < ny_; ++o) buffer_.row(filled_).segment(o * np_, np_) = a.row(o);
  if (++filled_ == buffer_.rows()) Block(block_);
}

// Sums aᵀc over the block's samples i = start, ..., start + valid − 1, with
// c(i) = Σ_k w(k) R̂(k) a(i − k) by FFT (overlap-save: buffer row j is
// a(start − lags + j)), then moves the last 2·lags rows to the top.
void ColouredBracketStream::Block(Eigen::Index valid) {
  const Eigen::Index channels = ny_ * np_;
  Eigen::FFT<double> fft;
  std::vector<Eigen::VectorXcd> X(static_cast<std::size_t>(channels));
  Eigen::VectorXd x(L_);
  for (Eigen::Index c = 0; c < channels; ++c) {
    x.setZero();
    x.head(buffer_.rows()) = buffer_.col(c);
    fft.fwd(X[static_cast<std::size_t>(c)], x);
  }
  Eigen::VectorXcd Y(L_);
  Eigen::MatrixXd C(valid, np_);
  for (Eigen::Index o1 = 0; o1 < ny_; ++o1) {
    for (Eigen::Index p = 0; p < np_; ++p) {
      Y.setZero();
      for (Eigen::Index o2 = 0; o2 < ny_; ++o2)
        Y += H_[static_cast<std::size_t>(o1 * ny_ + o2)].cwiseProduct(X[static_cast<std::size_t>(o2 * np_ + p)]);
      fft.inv(x, Y);
      C.col(p) = x.segment(2 * lags_, valid);  // c(i) at n = i − start + 2·lags
    }
    sum_.noalias() += buffer_.block(lags_, o1 * np_, valid, np_).transpose() * C;
  }
  const Eigen::Index keep = 2 * lags_;
  if (keep > 0) buffer_.topRows(keep) = buffer_.middleRows(block_, keep).eval();
  buffer_.bottomRows(buffer_.rows() - keep).setZero();
  filled_ = std::max<Eigen::Index>(filled_ - block_, keep);
  start_ += block_;
}

Eigen::MatrixXd ColouredBracketStream::Finish() {
  // The rows after the last sample are zero (a(i ≥ N) = 0).
  while (start_ < N_) {
    buffer_.bottomRows(buffer_.rows() - filled_).setZero();
    Block(std::min(block_, N_ - start_));
  }
  return sum_;
}

Eigen::MatrixXd ColouredBracket(const std::vector<Eigen::MatrixXd>& a, const Eigen::MatrixXd& residuals,
                                int lags) {
  const Eigen::Index N = residuals.rows(), ny = residuals.cols();
  ColouredBracketStream stream(residuals, lags, a.empty() ? 0 : a[0].cols());
  Eigen::MatrixXd row(ny, a.empty() ? 0 : a[0].cols());
  for (Eigen::Index i = 0; i < N; ++i) {
    for (Eigen::Index o = 0; o < ny; ++o) row.row(o) = a[static_cast<std::size_t>(o)].row(i);
    stream.Add(row);
  }
  return stream.Finish();
}

void CheckFreeKeys(const model::AircraftFile& file, const IdentifySpec& spec) {
  const char* axis_name = IsLongitudinal(spec.axis) ? "longitudinal" : "lateral";
  if (spec.free.empty()) throw std::invalid_argument("--free names no key to estimate");
  std::vector<std::string> axis_keys;
  for (const std::string& key : spec.free) {
    const bool known = file.Find(key) != nullptr && model::FieldOf(file, key) != nullptr;
    if (axis_keys.empty()) axis_keys = AxisKeys(file, spec.axis);
    const bool enters = std::find(axis_keys.begin(), axis_keys.end(), key) != axis_keys.end();
    if (!known || !enters)
      throw std::invalid_argument("'" + key + "' " +
                                  (known ? std::string("does not enter the ") + axis_name + " model"
                                         : std::string("is not a key of the file")) +
                                  " (the keys that enter its " + axis_name + " A or B, as written: " +
                                  Join(axis_keys) + ")");
    if (std::count(spec.free.begin(), spec.free.end(), key) > 1)
      throw std::invalid_argument("'" + key + "' is named twice in --free");
  }
}

namespace {

void CheckNotAugmented(const model::AircraftFile& file) {
  if (file.augmented)
    throw std::invalid_argument(
        "the file closes a feedback ([augmentation]): identify estimates the airframe's keys; run it "
        "on the file without [augmentation] and a flight whose controls are the surfaces' deflections");
}

// Identify on a flight read pass after pass (its sizes checked).
IdentifyResult IdentifyOn(const model::AircraftFile& file, Flight& flight, const IdentifySpec& spec) {
  CheckNotAugmented(file);
  CheckFreeKeys(file, spec);
  const std::vector<core::Signal>& states = model::StateSignals(spec.axis);
  const Eigen::Index n = flight.states();
  if (flight.rows() < kMinSamples)
    throw core::DataError({flight.path(), 0}, fmt::format("{} samples, identify needs at least {}",
                                                          flight.rows(), kMinSamples));
  const bool equation_error = spec.method == IdentifyMethod::kEquationError || spec.start_from_equation_error;
  flight.For(equation_error ? IdentifyProgress::Stage::kEquationError : IdentifyProgress::Stage::kOutputError, 1,
             equation_error ? kMaxIterations : spec.max_iterations);
  const Measured measured = MeasuredOf(flight);
  std::vector<const model::WrittenKey*> keys;
  Eigen::VectorXd start(static_cast<Eigen::Index>(spec.free.size()));
  for (const std::string& k : spec.free) {
    keys.push_back(file.Find(k));
    start(static_cast<Eigen::Index>(keys.size() - 1)) = keys.back()->value;
  }
  const auto nk = static_cast<Eigen::Index>(keys.size());
  IdentifyResult result;
  result.method = spec.method;
  result.samples = static_cast<int>(flight.rows());

  std::optional<EquationErrorFit> ee;
  if (equation_error) {
    try {
      ee = EquationError(file, flight, spec.axis, keys, start, spec.method == IdentifyMethod::kEquationError);
    } catch (const core::DataError&) {
      if (spec.method == IdentifyMethod::kEquationError) throw;
    }
  }
  if (spec.method == IdentifyMethod::kEquationError) {
    for (Eigen::Index j = 0; j < ee->theta.size(); ++j) {
      Estimate e;
      e.key = ee->names[static_cast<std::size_t>(j)];
      if (j < nk) e.file_key = true, e.start = start(j);
      e.value = ee->theta(j);
      e.std_error = std::sqrt(ee->covariance(j, j));
      e.std_error_corrected = std::sqrt(ee->covariance_corrected(j, j));
      result.estimates.push_back(e);
    }
    result.covariance = ee->covariance;
    result.covariance_corrected = ee->covariance_corrected;
    result.fit = ee->fit;
    result.iterations = ee->iterations;
    result.scaled_condition = ee->condition;
    Correlate(result);
    ModesOf(result, file, spec.axis, keys, ee->theta.head(nk));
    if (spec.response_points > 0) {
      Layout keys_only;
      keys_only.keys = static_cast<int>(nk);
      result.responses = ResponsesOf(file, flight, spec.axis, keys, keys_only, ee->theta.head(nk), start,
                                     spec.response_points);
    }
    return result;
  }

  // Output error.
  Layout layout;
  layout.keys = static_cast<int>(nk);
  const AxisModel at_start = Evaluate(file, spec.axis, keys, start);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (spec.estimate_x0) layout.x0_states.push_back(static_cast<int>(i));
    // A state no equation reads (ψ): its bias is its x0's offset.
    if (spec.estimate_bias && !(spec.estimate_x0 && at_start.A.col(i).isZero(0.0)))
      layout.bias_states.push_back(static_cast<int>(i));
  }
  std::vector<std::string> names;
  for (const model::WrittenKey* k : keys) names.push_back(k->path);
  for (int i : layout.x0_states) names.push_back("x0." + states[static_cast<std::size_t>(i)].name);
  for (int i : layout.bias_states) names.push_back("bias." + states[static_cast<std::size_t>(i)].name);
  const Eigen::Index np = layout.size();
  Eigen::VectorXd p = Eigen::VectorXd::Zero(np);
  p.head(nk) = ee ? Eigen::VectorXd(ee->theta.head(nk)) : start;
  for (std::size_t i = 0; i < layout.x0_states.size(); ++i)
    p(nk + static_cast<Eigen::Index>(i)) = flight.first(layout.x0_states[i]);

  // Each flight of the model is summed as it goes (SumsOf): the iterations
  // hold nothing proportional to the flight's length.
  auto simulate = [&](const Eigen::VectorXd& q) { return SumsOf(file, flight, spec.axis, keys, layout, q); };
  flight.For(IdentifyProgress::Stage::kOutputError, 1, spec.max_iterations);
  Sums sim = simulate(p);
  if (!sim.finite && ee) {  // the equation-error start diverges: the file's values
    p.head(nk) = start;
    sim = simulate(p);
  }
  if (!sim.finite)
    throw core::NumericalError("the model at the start values diverges over the flight (output error "
                               "simulates it); start nearer (the file's values) or use --method equation-error");
  Eigen::VectorXd R = NoiseVariances(sim.squares, measured.squares, flight.rows());
  double J = Cost(R);
  Information info = InformationOf(sim, R.cwiseInverse());
  CheckIdentifiable(info.M, names, flight.path());
  double lambda = 1e-3;
  result.converged = false;
  for (result.iterations = 1; result.iterations <= spec.max_iterations; ++result.iterations) {
    flight.For(IdentifyProgress::Stage::kOutputError, result.iterations, spec.max_iterations);
    const Eigen::VectorXd D = info.M.diagonal();
    bool accepted = false;
    bool small = false;
    for (int tries = 0; tries < 30; ++tries) {
      Eigen::MatrixXd damped = info.M;
      damped.diagonal() += lambda * D;
      const Eigen::VectorXd step = InverseOf(damped) * info.g;
      small = step.dot(info.M * step) <= kStepTolerance * kStepTolerance;
      const Eigen::VectorXd q = p + step;
      Sums trial = simulate(q);
      if (trial.finite) {
        const Eigen::VectorXd Rq = NoiseVariances(trial.squares, measured.squares, flight.rows());
        const double Jq = Cost(Rq);
        if (Jq <= J) {
          const double change = std::abs(std::expm1(Jq - J));
          p = q, sim = std::move(trial), R = Rq, J = Jq;
          info = InformationOf(sim, R.cwiseInverse());
          lambda = std::max(lambda / 10.0, 1e-12);
          accepted = true;
          flight.Report({IdentifyProgress::Stage::kOutputError, 0.0, result.iterations, J});
          result.converged = change < kCostTolerance && small;
          break;
        }
      }
      if (small) break;  // no decrease even at a negligible step: at the minimum
      lambda *= 10.0;
    }
    if (result.converged) break;
    if (!accepted) {
      if (small) {
        result.converged = true;
      } else {
        result.stop_reason = fmt::format(
            "stalled at iteration {}: no damped step lowers the cost (Levenberg-Marquardt lambda {:.3g}); "
            "the estimate is the best found, its error bars may not hold",
            result.iterations, lambda);
      }
      break;
    }
  }
  if (result.iterations > spec.max_iterations) {
    result.iterations = spec.max_iterations;
    result.stop_reason = fmt::format("not converged in {} iterations; the estimate is the best found",
                                     spec.max_iterations);
  }
  result.scaled_condition = CheckIdentifiable(info.M, names, flight.path());
  result.covariance = InverseOf(info.M);
  // The coloured-residual bracket: the residuals' correlation at the
  // estimate (with the fit's sums), then one more flight streaming R⁻¹S
  // through it.
  flight.Report({IdentifyProgress::Stage::kBounds});
  flight.For(IdentifyProgress::Stage::kBounds);
  Eigen::VectorXd squares(n), total(n);  // Σν², Σ(z − z̄)² of each output
  const auto [correlation, window] = WindowedCorrelation(flight.rows(), n, [&](CorrelationStream& stream) {
    squares.setZero(), total.setZero();
    Walk(file, flight, spec.axis, keys, layout, p, false,
         [&](Eigen::Index, const auto& z, const Eigen::VectorXd& residual, const Eigen::MatrixXd&) {
           stream.Add(residual);
           squares += residual.cwiseAbs2();
           total += (z.transpose() - measured.mean).cwiseAbs2();
         });
  });
  ColouredBracketStream bracket(correlation, window, np);
  const Eigen::VectorXd weight = R.cwiseInverse();
  Walk(file, flight, spec.axis, keys, layout, p, true,
       [&](Eigen::Index, const auto&, const Eigen::VectorXd&, const Eigen::MatrixXd& S) {
         bracket.Add(weight.asDiagonal() * S);
       });
  result.covariance_corrected = result.covariance * bracket.Finish() * result.covariance;
  for (Eigen::Index j = 0; j < np; ++j) {
    Estimate e;
    e.key = names[static_cast<std::size_t>(j)];
    e.file_key = j < nk;
    e.start = j < nk ? start(j) : (j < nk + static_cast<Eigen::Index>(layout.x0_states.size())
                                       ? flight.first(layout.x0_states[static_cast<std::size_t>(j - nk)])
                                       : 0.0);
    e.value = p(j);
    e.std_error = std::sqrt(result.covariance(j, j));
    e.std_error_corrected = std::sqrt(result.covariance_corrected(j, j));
    result.estimates.push_back(e);
  }
  for (Eigen::Index o = 0; o < n; ++o) {
    const core::Signal& s = states[static_cast<std::size_t>(o)];
    result.fit.push_back({s.name, std::string(core::ToString(s.unit)),
                          std::sqrt(squares(o) / static_cast<double>(flight.rows())),
                          total(o) > 0 ? 1.0 - squares(o) / total(o) : 0.0});
  }
  Correlate(result);
  ModesOf(result, file, spec.axis, keys, p.head(nk));
  if (spec.response_points > 0)
    result.responses = ResponsesOf(file, flight, spec.axis, keys, layout, p, start, spec.response_points);
  return result;
}

}  // namespace

IdentifyResult Identify(const model::AircraftFile& file, const FlightSamples& flight, const IdentifySpec& spec) {
  CheckNotAugmented(file);
  CheckFreeKeys(file, spec);
  const auto n = static_cast<Eigen::Index>(model::StateSignals(spec.axis).size());
  const auto m = static_cast<Eigen::Index>(AxisControls(file, spec.axis).size());
  if (flight.states.cols() != n || flight.controls.cols() != m || flight.controls.rows() != flight.states.rows())
    throw std::invalid_argument(fmt::format("Identify: the flight has {}×{} states and {}×{} controls, the axis {} and {}",
                                            flight.states.rows(), flight.states.cols(), flight.controls.rows(),
                                            flight.controls.cols(), n, m));
  Flight passes(PassesOf(flight), spec.progress);
  return IdentifyOn(file, passes, spec);
}

std::vector<data::ColumnSource> FlightSources(const model::AircraftFile& file, model::Axis axis,
                                              const std::vector<data::ColumnMapping>& columns) {
  std::vector<core::Signal> wanted = model::StateSignals(axis);
  for (const model::Control* c : AxisControls(file, axis)) wanted.push_back({c->name, c->unit, c->name});
  const model::Axis other = IsLongitudinal(axis) ? model::Axis::kLateral : model::Axis::kLongitudinal;
  std::vector<std::string> ignored;
  for (const std::string& name : FlightColumns(file, other))
    if (std::find_if(wanted.begin(), wanted.end(), [&](const core::Signal& s) { return s.name == name; }) ==
        wanted.end())
      ignored.push_back(name);
  return data::ResolveColumns(wanted, columns, ignored);
}

IdentifyResult IdentifyFlightCsv(const model::AircraftFile& file, const std::string& path,
                                 const IdentifySpec& spec, const std::vector<data::ColumnMapping>& map) {
  CheckNotAugmented(file);
  CheckFreeKeys(file, spec);
  std::function<void(double)> reading;
  if (spec.progress)
    reading = [&](double fraction) { spec.progress({IdentifyProgress::Stage::kReading, fraction, 0, 0.0}); };
  // Read once (every defect found here) into a temporary file, which each
  // pass reads again.
  data::SpooledFlight spool(path, FlightSources(file, spec.axis, map), kMinSamples, reading);
  const auto n = static_cast<Eigen::Index>(model::StateSignals(spec.axis).size());
  const auto columns = static_cast<Eigen::Index>(spool.shape().columns.size()) - 1;  // the states, the controls
  Flight flight({path, spool.shape().dt, spool.shape().rows, n, columns - n,
                 [&spool](const data::FlightChunkFunction& chunk) { spool.Replay(chunk); }},
                spec.progress);
  return IdentifyOn(file, flight, spec);
}

}  // namespace aerolin::study
