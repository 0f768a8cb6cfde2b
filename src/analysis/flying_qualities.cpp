#include "aerolin/analysis/flying_qualities.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "aerolin/model/conventions.hpp"

namespace aerolin::analysis {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Table selectors: a row applies to the categories and classes whose bits it
// carries.
constexpr unsigned kCatA = 1u << 0;
constexpr unsigned kCatB = 1u << 1;
constexpr unsigned kCatC = 1u << 2;
constexpr unsigned kAllCategories = kCatA | kCatB | kCatC;
constexpr unsigned kClassI = 1u << 0;
constexpr unsigned kClassIIC = 1u << 1;
constexpr unsigned kClassIIL = 1u << 2;
constexpr unsigned kClassIII = 1u << 3;
constexpr unsigned kClassIV = 1u << 4;
constexpr unsigned kAllClasses = kClassI | kClassIIC | kClassIIL | kClassIII | kClassIV;

constexpr unsigned Bit(FlightPhaseCategory c) { return 1u << static_cast<unsigned>(c); }
constexpr unsigned Bit(AircraftClass c) { return 1u << static_cast<unsigned>(c); }

// Inclusive [min, max]; ±inf is no limit on that side.
struct Band {
  double min = -kInf;
  double max = kInf;
};
using Bands = std::array<Band, 3>;  // Level 1, 2, 3

struct BandRow {
  unsigned categories;
  unsigned classes;
  Bands bands;
};

// ---------------------------------------------------------------------------
// The tables. Numbers are MIL-F-8785C's (5 Nov 1980) unless the comment says
// otherwise; see /work/notes/fq-readme.md for the sources consulted and the
// readings chosen where they disagree.

// 3.2.2.1.2, Table IV: short-period damping ratio ζsp limits. Cat B Level 3 is
// 0.15 (one public script uses 0.1; 0.15 is the 8785C value and agrees with
// the other sources).
constexpr std::array<BandRow, 2> kShortPeriodDamping = {{
    {kCatA | kCatC, kAllClasses, {{{0.35, 1.30}, {0.25, 2.00}, {0.15, kInf}}}},
    {kCatB, kAllClasses, {{{0.30, 2.00}, {0.20, 2.00}, {0.15, kInf}}}},
}};

// 3.2.2.1.1, Figures 1-3, read as Control Anticipation Parameter bands
// CAP = ωsp²/(n/α) [1/(s²·g)], the form MIL-STD-1797A gives them. Level 3 has
// no upper CAP limit and no ωn floor, but keeps the Level 2 lower CAP line,
// extended below the ωn floors: so read from the figures by a transcription
// of the 8785C PDF (Level 3 "CAP ≥ 0.16 / 0.038 / 0.036") and by C. Regan's
// ShortPeriodCrit.m (MIL-STD-1797A; its Cat A Level 3 line is CAP 0.16 down to
// n/α 0.1). Cat C Level 2: 0.05 per MIL-STD-1797A (CapCrit.m); the 8785C
// transcription reads 0.036 on Figure 3 (unresolved, see the README).
constexpr std::array<BandRow, 3> kShortPeriodCap = {{
    {kCatA, kAllClasses, {{{0.28, 3.6}, {0.16, 10.0}, {0.16, kInf}}}},
    {kCatB, kAllClasses, {{{0.085, 3.6}, {0.038, 10.0}, {0.038, kInf}}}},
    {kCatC, kAllClasses, {{{0.16, 3.6}, {0.05, 10.0}, {0.05, kInf}}}},
}};

// 3.2.2.1.1, Figures 1 and 3: the minimum ωsp [rad/s] drawn as a horizontal
// floor. Category B has none (no row: no "wn" requirement is reported).
constexpr std::array<BandRow, 3> kShortPeriodFrequency = {{
    {kCatA, kAllClasses, {{{1.0, kInf}, {0.6, kInf}, {}}}},
    {kCatC, kClassI | kClassIIC | kClassIV, {{{0.87, kInf}, {0.6, kInf}, {}}}},
    {kCatC, kClassIIL | kClassIII, {{{0.7, kInf}, {0.4, kInf}, {}}}},
}};

// 3.2.1.2: phugoid stability. Levels 1 and 2 are minimum ζp; Level 3 allows a
// divergence with time to double T2 ≥ 55 s. Written as two criteria: "zeta"
// (no Level 3 limit) and "T2" whose Level 1 and 2 minimum is +inf, i.e. "does
// not diverge", which is what ζp ≥ 0 implies.
constexpr std::array<BandRow, 1> kPhugoidDamping = {{
    {kAllCategories, kAllClasses, {{{0.04, kInf}, {0.0, kInf}, {}}}},
}};
constexpr std::array<BandRow, 1> kPhugoidTimeToDouble = {{
    {kAllCategories, kAllClasses, {{{kInf, kInf}, {kInf, kInf}, {55.0, kInf}}}},
}};

// 3.3.1.1, Table VI: minimum Dutch-roll ζd, ζd·ωnd [rad/s], ωnd [rad/s].
// NaN = no ζd·ωnd minimum ("—" in the table). The CO/GA row applies to
// Class IV in the Category A combat and ground-attack phases only.
// MATLAB's implementation prints 0.16 for the Cat A ζd and groups ωnd ≥ 1.0
// with Classes I and II; an 8785B-era reprint gives ζω 0.15 for Cat C II-L/III
// and ζd ≥ 0.02 at Level 3. The 8785C values are used.
struct DutchRollRow {
  int level;
  unsigned categories;
  unsigned classes;
  bool combat_or_ground_attack;
  double zeta_min;
  double zeta_wn_min;
  double wn_min;
};
constexpr std::array<DutchRollRow, 8> kDutchRoll = {{
    {1, kCatA, kClassIV, true, 0.4, kNaN, 1.0},
    {1, kCatA, kClassI | kClassIV, false, 0.19, 0.35, 1.0},
    {1, kCatA, kClassIIC | kClassIIL | kClassIII, false, 0.19, 0.35, 0.4},
    {1, kCatB, kAllClasses, false, 0.08, 0.15, 0.4},
    {1, kCatC, kClassI | kClassIIC | kClassIV, false, 0.08, 0.15, 1.0},
    {1, kCatC, kClassIIL | kClassIII, false, 0.08, 0.10, 0.4},
    {2, kAllCategories, kAllClasses, false, 0.02, 0.05, 0.4},
    {3, kAllCategories, kAllClasses, false, 0.0, kNaN, 0.4},
}};
// 3.3.1.1: when ωnd²|φ/β|d > 20 rad²/s², the minimum ζd·ωnd of Level 1, 2, 3
// rises by k·(ωnd²|φ/β|d − 20) rad/s with k = 0.014, 0.009, 0.005 (8785C p. 22,
// as transcribed from the PDF; see the README's sources).
constexpr double kPhiBetaThreshold = 20.0;  // [rad²/s²]
constexpr std::array<double, 3> kPhiBetaSlope = {0.014, 0.009, 0.005};
// 3.3.1.1: "a ζd of 0.7 need not be exceeded for Class III".
constexpr double kClassIIIZetaCap = 0.7;

// 3.3.1.2, Table VII: maximum roll-mode time constant τR [s].
constexpr std::array<BandRow, 5> kRollTimeConstant = {{
    {kCatA, kClassI | kClassIV, {{{-kInf, 1.0}, {-kInf, 1.4}, {-kInf, 10.0}}}},
    {kCatA, kClassIIC | kClassIIL | kClassIII, {{{-kInf, 1.4}, {-kInf, 3.0}, {-kInf, 10.0}}}},
    {kCatB, kAllClasses, {{{-kInf, 1.4}, {-kInf, 3.0}, {-kInf, 10.0}}}},
    {kCatC, kClassI | kClassIIC | kClassIV, {{{-kInf, 1.0}, {-kInf, 1.4}, {-kInf, 10.0}}}},
    {kCatC, kClassIIL | kClassIII, {{{-kInf, 1.4}, {-kInf, 3.0}, {-kInf, 10.0}}}},
}};

// 3.3.1.3, Table VIII: minimum spiral time to double amplitude T2 [s], by
// category (8785B tabulated it by class). A stable or neutral spiral never
// doubles (T2 = +inf) and meets every level.
constexpr std::array<BandRow, 2> kSpiralTimeToDouble = {{
    {kCatA | kCatC, kAllClasses, {{{12.0, kInf}, {8.0, kInf}, {4.0, kInf}}}},
    {kCatB, kAllClasses, {{{20.0, kInf}, {8.0, kInf}, {4.0, kInf}}}},
}};

// 3.3.1.4: a coupled roll-spiral oscillation is permitted in Categories B and
// C if ζRS·ωnRS [rad/s] meets these minima; it is not permitted in Category A,
// written as an unattainable minimum (+inf) at every level.
constexpr std::array<BandRow, 2> kRollSpiral = {{
    {kCatB | kCatC, kAllClasses, {{{0.5, kInf}, {0.3, kInf}, {0.15, kInf}}}},
    {kCatA, kAllClasses, {{{kInf, kInf}, {kInf, kInf}, {kInf, kInf}}}},
}};

// ---------------------------------------------------------------------------

template <std::size_t N>
const BandRow* FindRow(const std::array<BandRow, N>& table, AircraftClass c,
                       FlightPhaseCategory cat) {
  for (const BandRow& row : table)
    if ((row.categories & Bit(cat)) && (row.classes & Bit(c))) return &row;
  return nullptr;
}

std::array<Limits, 3> ToLimits(const Bands& bands) {
  std::array<Limits, 3> limits;
  for (int k = 0; k < 3; ++k) {
    if (bands[k].min != -kInf) limits[k].min = bands[k].min;
    if (bands[k].max != kInf) limits[k].max = bands[k].max;
  }
  return limits;
}

template <std::size_t N>
std::optional<std::array<Limits, 3>> Lookup(const std::array<BandRow, N>& table, AircraftClass c,
                                            FlightPhaseCategory cat) {
  const BandRow* row = FindRow(table, c, cat);
  if (row == nullptr) return std::nullopt;
  return ToLimits(row->bands);
}

// The Level 1, 2, 3 rows of Table VI that apply.
std::array<const DutchRollRow*, 3> DutchRollRows(AircraftClass c, FlightPhaseCategory cat,
                                                 const GradeOptions& options) {
  const bool co_ga = options.combat_or_ground_attack && cat == FlightPhaseCategory::kA &&
                     c == AircraftClass::kIV;
  std::array<const DutchRollRow*, 3> rows{};
  for (const DutchRollRow& row : kDutchRoll) {
    if (rows[row.level - 1] != nullptr) continue;
    if (!(row.categories & Bit(cat)) || !(row.classes & Bit(c))) continue;
    if (row.combat_or_ground_attack && !co_ga) continue;
    rows[row.level - 1] = &row;
  }
  return rows;
}

RequirementResult Result(ModeKind mode, std::string criterion, double value, std::string unit,
                         const std::array<Limits, 3>& limits, std::string paragraph,
                         std::string note = {}) {
  RequirementResult r;
  r.mode = mode;
  r.criterion = std::move(criterion);
  r.value = value;
  r.unit = std::move(unit);
  r.limits = limits;
  r.level = LevelFor(value, limits);
  r.paragraph = std::move(paragraph);
  r.note = std::move(note);
  return r;
}

std::string Join(std::string a, const std::string& b) {
  if (b.empty()) return a;
  return a.empty() ? b : a + "; " + b;
}

std::string OverdampedNote(const SecondOrderRoots& roots) {
  return "two real roots " + std::to_string(roots.lambda.real()) + ", " +
         std::to_string(*roots.second_root) +
         " 1/s: equivalent wn = sqrt(l1*l2), zeta = -(l1+l2)/(2 wn)";
}

void GradeShortPeriod(const SecondOrderRoots& sp, double n_alpha, AircraftClass c,
                      FlightPhaseCategory cat, std::vector<RequirementResult>& out) {
  const ModeKind kind = ModeKind::kShortPeriod;
  const bool defined = sp.natural_frequency_squared() > 0.0;
  std::string note = sp.overdamped() ? OverdampedNote(sp) : "";
  if (!defined) note = "a real root >= 0: statically unstable, no equivalent zeta or wn";
  out.push_back(Result(kind, "zeta", defined ? sp.damping_ratio() : kNaN, "1",
                       *RequirementLimits(Criterion::kShortPeriodDamping, c, cat), "3.2.2.1.2",
                       note));
  const double cap = defined && n_alpha > 0.0 ? sp.natural_frequency_squared() / n_alpha : kNaN;
  std::string cap_note = "CAP = wn^2/(n/alpha), n/alpha = -Z_alpha/g = " + std::to_string(n_alpha) +
                         " g/rad; bands per MIL-STD-1797A";
  if (n_alpha <= 0.0) cap_note = "n/alpha <= 0: no positive load factor per unit alpha";
  out.push_back(Result(kind, "CAP", cap, "1/(s^2*g)",
                       *RequirementLimits(Criterion::kShortPeriodCap, c, cat), "3.2.2.1.1",
                       Join(cap_note, note)));
  if (const auto limits = RequirementLimits(Criterion::kShortPeriodFrequency, c, cat))
    out.push_back(Result(kind, "wn", defined ? sp.natural_frequency() : kNaN, "rad/s", *limits,
                         "3.2.2.1.1", note));
}

void GradePhugoid(const SecondOrderRoots& ph, AircraftClass c, FlightPhaseCategory cat,
                  std::vector<RequirementResult>& out) {
  const ModeKind kind = ModeKind::kPhugoid;
  const bool defined = ph.natural_frequency_squared() > 0.0;
  if (defined)
    out.push_back(Result(kind, "zeta", ph.damping_ratio(), "1",
                         *RequirementLimits(Criterion::kPhugoidDamping, c, cat), "3.2.1.2",
                         ph.overdamped() ? OverdampedNote(ph) : ""));
  const double sigma = ph.largest_real_part();
  const double t2 = sigma > 0.0 ? std::log(2.0) / sigma : kInf;
  std::string note = sigma > 0.0 ? "divergent: T2 = ln 2 / Re(lambda)" : "does not diverge";
  if (!defined) note += "; aperiodic with a root >= 0: no equivalent zeta, graded by T2 only";
  out.push_back(Result(kind, "T2", t2, "s",
                       *RequirementLimits(Criterion::kPhugoidTimeToDouble, c, cat), "3.2.1.2",
                       note));
}

void GradeDutchRoll(const SecondOrderRoots& dr, std::optional<double> phi_beta, AircraftClass c,
                    FlightPhaseCategory cat, const GradeOptions& options,
                    std::vector<RequirementResult>& out) {
  const ModeKind kind = ModeKind::kDutchRoll;
  const bool defined = dr.natural_frequency_squared() > 0.0;
  const double zeta = defined ? dr.damping_ratio() : kNaN;
  std::string note = dr.overdamped() ? OverdampedNote(dr) : "";
  if (!defined) note = "a real root >= 0: divergent, no equivalent zeta or wn";

  std::array<Limits, 3> zeta_wn_limits =
      *RequirementLimits(Criterion::kDutchRollDampingRate, c, cat, options);
  std::string zw_note = note;
  if (phi_beta && defined) {
    const double x = dr.natural_frequency_squared() * *phi_beta;
    const std::array<double, 3> raise = DutchRollDampingRateIncrease(x);
    for (int k = 0; k < 3; ++k)
      if (raise[k] > 0.0) zeta_wn_limits[k].min = zeta_wn_limits[k].min.value_or(0.0) + raise[k];
    zw_note = Join(zw_note, "wn^2|phi/beta| = " + std::to_string(x) + " rad^2/s^2" +
                                (x > kPhiBetaThreshold
                                     ? " > 20: minima raised by (0.014, 0.009, 0.005)(x - 20)"
                                     : " <= 20: no raise"));
  } else if (!phi_beta) {
    zw_note = Join(zw_note, "|phi/beta| unknown: no wn^2|phi/beta| raise");
  }
  out.push_back(Result(kind, "zeta", zeta, "1",
                       *RequirementLimits(Criterion::kDutchRollDamping, c, cat, options),
                       "3.3.1.1", note));
  RequirementResult zw = Result(kind, "zeta*wn", defined ? dr.damping_rate() : kNaN, "rad/s",
                                zeta_wn_limits, "3.3.1.1", zw_note);
  // 3.3.1.1: for Class III a ζd of 0.7 need not be exceeded, so ζd ≥ 0.7
  // satisfies any ζd·ωnd minimum.
  if (c == AircraftClass::kIII && zeta >= kClassIIIZetaCap && zw.level != Level::k1) {
    zw.level = Level::k1;
    zw.note = Join(zw.note, "Class III with zeta >= 0.7: the zeta*wn minimum need not be met");
  }
  out.push_back(std::move(zw));
  out.push_back(Result(kind, "wn", defined ? dr.natural_frequency() : kNaN, "rad/s",
                       *RequirementLimits(Criterion::kDutchRollFrequency, c, cat, options),
                       "3.3.1.1", note));
}

}  // namespace

std::optional<std::array<Limits, 3>> RequirementLimits(Criterion criterion,
                                                       AircraftClass c,
                                                       FlightPhaseCategory cat,
                                                       const GradeOptions& options) {
  switch (criterion) {
    case Criterion::kShortPeriodDamping: return Lookup(kShortPeriodDamping, c, cat);
    case Criterion::kShortPeriodCap: return Lookup(kShortPeriodCap, c, cat);
    case Criterion::kShortPeriodFrequency: return Lookup(kShortPeriodFrequency, c, cat);
    case Criterion::kPhugoidDamping: return Lookup(kPhugoidDamping, c, cat);
    case Criterion::kPhugoidTimeToDouble: return Lookup(kPhugoidTimeToDouble, c, cat);
    case Criterion::kRollTimeConstant: return Lookup(kRollTimeConstant, c, cat);
    case Criterion::kSpiralTimeToDouble: return Lookup(kSpiralTimeToDouble, c, cat);
    case Criterion::kRollSpiralDampingRate: return Lookup(kRollSpiral, c, cat);
    case Criterion::kDutchRollDamping:
    case Criterion::kDutchRollDampingRate:
    case Criterion::kDutchRollFrequency: {
      const auto rows = DutchRollRows(c, cat, options);
      std::array<Limits, 3> limits;
      for (int k = 0; k < 3; ++k) {
        const double min = criterion == Criterion::kDutchRollDamping       ? rows[k]->zeta_min
                           : criterion == Criterion::kDutchRollFrequency ? rows[k]->wn_min
                                                                         : rows[k]->zeta_wn_min;
        if (!std::isnan(min)) limits[k].min = min;
      }
      // A "—" above a tabulated worse level (ζω in the CO/GA row) cannot mean
      // a looser requirement than that level's: Level 1 implies Level 2.
      for (int k = 1; k >= 0; --k)
        if (!limits[k].min && limits[k + 1].min) limits[k].min = limits[k + 1].min;
      return limits;
    }
  }
  return std::nullopt;
}

std::array<double, 3> DutchRollDampingRateIncrease(double wn2_phi_beta) {
  std::array<double, 3> raise{};
  if (wn2_phi_beta > kPhiBetaThreshold)
    for (int k = 0; k < 3; ++k) raise[k] = kPhiBetaSlope[k] * (wn2_phi_beta - kPhiBetaThreshold);
  return raise;
}

Level LevelFor(double value, const std::array<Limits, 3>& limits) {
  for (int k = 0; k < 3; ++k) {
    // Written as negations so that NaN meets no level.
    const bool meets_min = !limits[k].min || value >= *limits[k].min;
    const bool meets_max = !limits[k].max || value <= *limits[k].max;
    if (meets_min && meets_max && !std::isnan(value)) return static_cast<Level>(k + 1);
  }
  return Level::k4;
}

SecondOrderRoots SecondOrderRoots::Pair(std::complex<double> lambda) {
  return {{lambda.real(), std::abs(lambda.imag())}, std::nullopt};
}

SecondOrderRoots SecondOrderRoots::Real(double first, double second) {
  return {{first, 0.0}, second};
}

double SecondOrderRoots::natural_frequency_squared() const {
  return second_root ? lambda.real() * *second_root : std::norm(lambda);
}

double SecondOrderRoots::natural_frequency() const {
  return std::sqrt(std::max(natural_frequency_squared(), 0.0));
}

double SecondOrderRoots::damping_rate() const {
  return second_root ? -0.5 * (lambda.real() + *second_root) : -lambda.real();
}

double SecondOrderRoots::damping_ratio() const {
  const double wn2 = natural_frequency_squared();
  return wn2 > 0.0 ? damping_rate() / std::sqrt(wn2) : kNaN;
}

double SecondOrderRoots::largest_real_part() const {
  return second_root ? std::max(lambda.real(), *second_root) : lambda.real();
}

namespace {

std::optional<SecondOrderRoots> Collect(const std::vector<Mode>& modes, ModeKind kind) {
  std::vector<const Mode*> found;
  for (const Mode& m : modes)
    if (m.kind == kind) found.push_back(&m);
  if (found.size() == 1 && found[0]->oscillatory) return SecondOrderRoots::Pair(found[0]->lambda);
  if (found.size() == 2 && !found[0]->oscillatory && !found[1]->oscillatory)
    return SecondOrderRoots::Real(found[0]->lambda.real(), found[1]->lambda.real());
  return std::nullopt;
}

std::optional<double> RealRoot(const std::vector<Mode>& modes, ModeKind kind) {
  const Mode* m = FindMode(modes, kind);
  if (m == nullptr || m->oscillatory) return std::nullopt;
  return m->lambda.real();
}

}  // namespace

ModalSummary SummarizeModes(const std::vector<Mode>& longitudinal, const std::vector<Mode>& lateral,
                            const model::AircraftData& aircraft) {
  ModalSummary s;
  s.short_period = Collect(longitudinal, ModeKind::kShortPeriod);
  s.phugoid = Collect(longitudinal, ModeKind::kPhugoid);
  s.dutch_roll = Collect(lateral, ModeKind::kDutchRoll);
  if (!s.short_period) throw std::invalid_argument("SummarizeModes: no short period (one pair or two real roots) in the longitudinal modes");
  if (!s.phugoid) throw std::invalid_argument("SummarizeModes: no phugoid (one pair or two real roots) in the longitudinal modes");
  if (!s.dutch_roll) throw std::invalid_argument("SummarizeModes: no Dutch roll (one pair or two real roots) in the lateral modes");
  if (const Mode* dr = FindMode(lateral, ModeKind::kDutchRoll); dr->oscillatory) {
    const double beta = std::abs(dr->shape(model::lat::kBeta));
    if (beta == 0.0) throw std::invalid_argument("SummarizeModes: the Dutch-roll shape has no sideslip (|beta| = 0)");
    s.dutch_roll_phi_beta = std::abs(dr->shape(model::lat::kPhi)) / beta;
  }
  if (const Mode* rs = FindMode(lateral, ModeKind::kRollSpiral)) {
    s.roll_spiral = rs->lambda;
  } else {
    s.roll = RealRoot(lateral, ModeKind::kRollSubsidence);
    s.spiral = RealRoot(lateral, ModeKind::kSpiral);
    if (!s.roll || !s.spiral)
      throw std::invalid_argument("SummarizeModes: the lateral modes have neither a roll and a spiral root nor a roll-spiral pair");
  }
  s.n_alpha = -aircraft.longitudinal.Za / aircraft.condition.g;
  return s;
}

std::optional<Level> QualitiesGrade::LevelOf(ModeKind mode) const {
  std::optional<Level> worst;
  for (const RequirementResult& r : requirements)
    if (r.mode == mode && (!worst || ToInt(r.level) > ToInt(*worst))) worst = r.level;
  return worst;
}

QualitiesGrade Grade(const ModalSummary& modes, AircraftClass aircraft_class,
                     FlightPhaseCategory category, const GradeOptions& options) {
  if (!modes.short_period) throw std::invalid_argument("Grade: the short period is missing");
  if (!modes.phugoid) throw std::invalid_argument("Grade: the phugoid is missing");
  if (!modes.dutch_roll) throw std::invalid_argument("Grade: the Dutch roll is missing");
  if (!modes.roll_spiral && (!modes.roll || !modes.spiral))
    throw std::invalid_argument("Grade: neither roll and spiral roots nor a roll-spiral pair is given");
  if (!std::isfinite(modes.n_alpha)) throw std::invalid_argument("Grade: n/alpha is not finite");

  QualitiesGrade g{aircraft_class, category, modes.n_alpha, {}, Level::k1};
  auto& out = g.requirements;
  GradeShortPeriod(*modes.short_period, modes.n_alpha, aircraft_class, category, out);
  GradePhugoid(*modes.phugoid, aircraft_class, category, out);
  GradeDutchRoll(*modes.dutch_roll, modes.dutch_roll_phi_beta, aircraft_class, category, options, out);
  if (modes.roll_spiral) {
    const bool permitted = category != FlightPhaseCategory::kA;
    out.push_back(Result(ModeKind::kRollSpiral, "zeta*wn", -modes.roll_spiral->real(), "rad/s",
                         *RequirementLimits(Criterion::kRollSpiralDampingRate, aircraft_class, category), "3.3.1.4",
                         permitted ? "" : "coupled roll-spiral oscillation not permitted in Category A"));
  } else {
    const double lr = *modes.roll;
    out.push_back(Result(ModeKind::kRollSubsidence, "tau_R", lr < 0.0 ? -1.0 / lr : kInf, "s",
                         *RequirementLimits(Criterion::kRollTimeConstant, aircraft_class, category), "3.3.1.2",
                         lr < 0.0 ? "tau_R = -1/lambda" : "roll root >= 0: does not subside"));
    const double ls = *modes.spiral;
    out.push_back(Result(ModeKind::kSpiral, "T2", ls > 0.0 ? std::log(2.0) / ls : kInf, "s",
                         *RequirementLimits(Criterion::kSpiralTimeToDouble, aircraft_class, category), "3.3.1.3",
                         ls > 0.0 ? "divergent: T2 = ln 2 / lambda" : "stable or neutral: never doubles"));
  }
  for (const RequirementResult& r : out)
    if (ToInt(r.level) > ToInt(g.level)) g.level = r.level;
  return g;
}

}  // namespace aerolin::analysis
