// The flight CSV reader: columns by name, and one located message per defect.

#include "aerolin/data/flight_record.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/data/edit_values.hpp"

namespace aerolin::data {
namespace {

std::string Message(const std::string& csv, const std::vector<std::string>& columns, int min_rows = 2) {
  std::istringstream in(csv);
  try {
    ReadFlightCsv(in, "f.csv", columns, min_rows);
  } catch (const core::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReadFlightCsv, ReadsTheColumnsAskedForInTheirOrder) {
  std::istringstream in("t,u,alpha,q\n0,1,2,3\n0.1,4,5,6\n0.2,7,8,9\n");
  const FlightRecord r = ReadFlightCsv(in, "f.csv", {"q", "u"}, 3);
  EXPECT_EQ(r.columns, (std::vector<std::string>{"t", "q", "u"}));
  ASSERT_EQ(r.rows(), 3);
  EXPECT_DOUBLE_EQ(r.dt, 0.1);
  EXPECT_EQ(r.values(2, 1), 9);
  EXPECT_EQ(r.values(1, 2), 4);
  EXPECT_EQ(r.first_line, 2);
}

TEST(ReadFlightCsv, EachDefectIsLocatedAndSaysWhatToDo) {
  EXPECT_EQ(Message("t,u\n0,1\n", {"alpha"}),
            "f.csv:1: no column 'alpha' (the header has: t, u; aerolin simulate --csv writes t, the states and the "
            "controls)");
  EXPECT_EQ(Message("t,u\n0,1\n0.1,x\n", {"u"}),
            "f.csv:3: column 'u': 'x' is not a number (every cell of a flight must be a number)");
  EXPECT_EQ(Message("t,u\n0,1\n0.1,nan\n", {"u"}),
            "f.csv:3: a NaN (or empty) cell in the columns used (identification needs every sample; cut the record "
            "before or after it)");
  EXPECT_EQ(Message("t,u\n0,1\n0.1,2\n0.25,3\n", {"u"}),
            "f.csv:4: uneven sampling: step 0.15 s from t = 0.1, expected 0.1 s (the first step) within a relative "
            "1e-06 (resample the record to one step)");
  EXPECT_EQ(Message("t,u\n0,1\n0.1,2\n0.4,3\n", {"u"}),
            "f.csv:4: a gap: t jumps from 0.1 to 0.4, 2 samples of step 0.1 s missing (identify needs one even "
            "record; split it at the gap)");
  EXPECT_EQ(Message("t,u\n0,1\n0,2\n", {"u"}), "f.csv:3: t = 0 does not increase (previous row t = 0)");
  EXPECT_EQ(Message("t,u\n0,1\n0.1,2\n", {"u"}, 5), "f.csv:3: 2 rows of samples, at least 5 needed");
  EXPECT_EQ(Message("t,u\n0,1\n0.1\n", {"u"}), "f.csv:3: 1 cells, the header has 2 (every row needs one cell per column)");
  // Steps within the tolerance (the CSV's shortest decimals of k·Δt) are even.
  EXPECT_EQ(Message("t,u\n0,1\n0.1,2\n0.2,3\n0.30000000000000004,3\n", {"u"}), "(no error)");
}

// A flight of `rows` rows, t = k/100 and u = a value that differs on every
// row (written in shortest round-trip form, so read back exactly).
std::string LongFlight(int rows) {
  std::string csv = "t,u,alpha\n";
  for (int k = 0; k < rows; ++k)
    csv += std::to_string(k) + "e-2," + std::to_string(k) + "." + std::to_string(k % 7) + ",-" +
           std::to_string(k % 13) + "\n";
  return csv;
}

// The chunks hand on every row once, in order, from the right first row,
// each of at most kFlightChunkRows rows: the rows ReadFlightCsv collects.
TEST(ReadFlightChunks, HandsOnTheRowsOfReadFlightCsvInOrderedChunks) {
  const int rows = 2 * static_cast<int>(kFlightChunkRows) + 777;  // two full chunks and a short one
  std::istringstream whole(LongFlight(rows)), chunked(LongFlight(rows));
  const FlightRecord record = ReadFlightCsv(whole, "f.csv", {"alpha", "u"}, 3);
  std::vector<ColumnSource> sources{{"t", "t", "s", 1.0, false}, {"alpha", "alpha", "", 1.0, false},
                                    {"u", "u", "", 1.0, false}};
  Eigen::Index next = 0;
  int chunks = 0;
  const FlightShape shape =
      ReadFlightChunks(chunked, "f.csv", sources, 3, [&](Eigen::Index first, const FlightRows& r) {
        EXPECT_EQ(first, next);
        EXPECT_LE(r.rows(), kFlightChunkRows);
        EXPECT_EQ(r, FlightRows(record.values.middleRows(first, r.rows())));
        next += r.rows(), ++chunks;
      });
  EXPECT_EQ(next, rows);
  EXPECT_EQ(chunks, 3);
  EXPECT_EQ(shape.rows, rows);
  EXPECT_EQ(shape.dt, record.dt);
  EXPECT_EQ(shape.columns, record.columns);
  EXPECT_EQ(shape.first_line, 2);
}

// The spooled flight gives back, pass after pass, exactly the columns after
// t that ReadFlightCsv reads; a stream (standard input, a pipe) is read
// once into it like a file; a defect stops the first reading at its line.
TEST(SpooledFlight, ReplaysTheColumnsAfterTEveryPass) {
  const int rows = static_cast<int>(kFlightChunkRows) + 5;
  const std::string csv = LongFlight(rows);
  std::istringstream whole(csv), spooled(csv);
  const FlightRecord record = ReadFlightCsv(whole, "f.csv", {"u", "alpha"}, 3);
  SpooledFlight flight(spooled, "f.csv", {{"t", "t", "s", 1.0, false}, {"u", "u", "", 1.0, false},
                                          {"alpha", "alpha", "", 1.0, false}},
                       3);
  EXPECT_EQ(flight.shape().rows, rows);
  EXPECT_EQ(flight.shape().dt, record.dt);
  for (int pass = 0; pass < 2; ++pass) {
    Eigen::Index next = 0;
    flight.Replay([&](Eigen::Index first, const FlightRows& r) {
      ASSERT_EQ(first, next);
      ASSERT_EQ(r.cols(), 2);
      EXPECT_EQ(r, FlightRows(record.values.middleRows(first, r.rows()).rightCols(2)));
      next += r.rows();
    });
    EXPECT_EQ(next, rows) << "pass " << pass;
  }
  std::istringstream bad("t,u\n0,1\n0.1,2\n0.2,x\n");
  try {
    SpooledFlight f(bad, "bad.csv", {{"t", "t", "s", 1.0, false}, {"u", "u", "", 1.0, false}}, 2);
    FAIL();
  } catch (const core::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bad.csv:4: column 'u': 'x' is not a number (every cell of a flight must be a number)");
  }
}

const std::vector<core::Signal> kWanted{{"u", core::Unit::kMetrePerSecond, "u"},
                                        {"alpha", core::Unit::kRadian, "α"},
                                        {"q", core::Unit::kRadianPerSecond, "q"},
                                        {"elevator", core::Unit::kRadian, "δe"}};

std::string MapMessage(const std::vector<std::string>& entries) {
  try {
    ResolveColumns(kWanted, ParseColumnMap(entries), {"beta", "p"});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ColumnMap, ReadsForeignNamesAndUnitsInSI) {
  std::istringstream in(
      "time_ms,AoA_deg,V_kt,u,Q,q_dps,dE\n"
      "0,2,100,9,0,-1,1\n"
      "50,4,200,9,0,-2,2\n"
      "100,6,300,9,0,-3,3\n");
  const std::vector<ColumnSource> sources = ResolveColumns(
      kWanted, ParseColumnMap({"t=time_ms:ms", "alpha = AoA_deg : deg", "u=V_kt:kt", "q=q_dps:deg/s", "elevator=dE"}));
  ASSERT_EQ(sources.size(), 5u);
  EXPECT_EQ(sources[0].column, "time_ms");
  EXPECT_EQ(sources[2].unit, "deg");
  EXPECT_EQ(sources[4].unit, "rad");  // mapped without a unit: SI
  EXPECT_TRUE(sources[4].mapped);
  const FlightRecord r = ReadFlightColumns(in, "f.csv", sources, 3);
  EXPECT_EQ(r.columns, (std::vector<std::string>{"t", "u", "alpha", "q", "elevator"}));
  EXPECT_DOUBLE_EQ(r.dt, 0.05);
  EXPECT_DOUBLE_EQ(r.values(2, 0), 0.1);
  EXPECT_DOUBLE_EQ(r.values(1, 1), 200 * 1852.0 / 3600.0);  // not the CSV's own u
  EXPECT_DOUBLE_EQ(r.values(2, 2), 6 * core::kPi / 180);
  EXPECT_DOUBLE_EQ(r.values(1, 3), -2 * core::kPi / 180);
  EXPECT_EQ(r.values(2, 4), 3);
  // Not mapped: by aerolin's names, in SI (the names of another reading are accepted and not read).
  std::istringstream plain("t,u,alpha,q,elevator\n0,1,2,3,4\n0.1,1,2,3,4\n");
  const FlightRecord p = ReadFlightColumns(plain, "p.csv", ResolveColumns(kWanted, ParseColumnMap({"beta=b:deg"}), {"beta"}), 2);
  EXPECT_EQ(p.values(1, 2), 2);
}

TEST(ColumnMap, EachMistakeSaysWhatToDo) {
  EXPECT_EQ(MapMessage({"alpha"}),
            "'alpha' is not NAME=COLUMN or NAME=COLUMN:UNIT (aerolin's name, the CSV's column, its unit; e.g. "
            "alpha=AoA_deg:deg)");
  EXPECT_EQ(MapMessage({"alpha=AoA:"}),
            "'alpha=AoA:' is not NAME=COLUMN or NAME=COLUMN:UNIT (aerolin's name, the CSV's column, its unit; e.g. "
            "alpha=AoA_deg:deg)");
  EXPECT_EQ(MapMessage({"alfa=AoA:deg"}),
            "'alfa=AoA:deg': alfa is not a name aerolin reads here (t, u, alpha, q, elevator; also accepted: beta, p)");
  EXPECT_EQ(MapMessage({"u=V:deg"}), "'u=V:deg': deg is not a unit of u (a m/s quantity: write m/s, ft/s, kt)");
  EXPECT_EQ(MapMessage({"t=time:min"}), "'t=time:min': min is not a unit of t (a s quantity: write s, ms)");
  EXPECT_EQ(MapMessage({"q=rate:deg"}), "'q=rate:deg': deg is not a unit of q (a rad/s quantity: write rad/s, deg/s)");
  EXPECT_EQ(MapMessage({"alpha=AoA:deg", "q=AoA:deg/s"}),
            "alpha and q are both mapped to the CSV column 'AoA' (each column is one quantity: map each to its own)");
  EXPECT_EQ(MapMessage({"q=alpha"}),
            "q is mapped to the CSV column 'alpha', which is also alpha's own (not mapped): map alpha to its column "
            "too");
  EXPECT_EQ(MapMessage({"alpha=a", "alpha=b"}), "alpha is mapped twice ('alpha=a' and 'alpha=b'): keep one");
  EXPECT_EQ(MapMessage({"q=alpha", "alpha=AoA:deg"}), "(no error)");  // swapped names are fine
  // A mapped column: named in the file's messages with what it was mapped to.
  auto read = [](const std::string& csv) -> std::string {
    std::istringstream in(csv);
    try {
      ReadFlightColumns(in, "f.csv", ResolveColumns({kWanted[0]}, ParseColumnMap({"u=V_kt:kt"})), 2);
    } catch (const core::DataError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(read("t,u\n0,1\n0.1,1\n"),
            "f.csv:1: no column 'V_kt' (the column map reads u from it; the header has: t, u)");
  EXPECT_EQ(read("t,V_kt\n0,1\n0.1,x\n"),
            "f.csv:3: column 'V_kt' (u): 'x' is not a number (every cell of a flight must be a number)");
}

TEST(SpellingsOf, OneTableForEveryUnit) {
  EXPECT_EQ(core::ToSIFactor(core::Unit::kRadian, "deg"), core::kDegToRad);
  EXPECT_EQ(core::ToSIFactor(core::Unit::kMetrePerSecond, "ft/s"), core::kMetresPerFoot);
  EXPECT_EQ(core::ToSIFactor(core::Unit::kMetre, "ft"), 0.3048);
  EXPECT_EQ(core::ToSIFactor(core::Unit::kSecond, "ms"), 1e-3);
  EXPECT_EQ(core::ToSIFactor(core::Unit::kMetrePerSecond, "kt"), 1852.0 / 3600.0);
  EXPECT_FALSE(core::ToSIFactor(core::Unit::kMetrePerSecond, "deg"));
  EXPECT_FALSE(core::ToSIFactor(core::Unit::kSecond, "Ms"));
  for (core::Unit u : {core::Unit::kOne, core::Unit::kRadian, core::Unit::kRadianPerSecond, core::Unit::kMetre,
                       core::Unit::kMetrePerSecond, core::Unit::kSecond, core::Unit::kGravity})
    EXPECT_EQ(core::SpellingsOf(u)[0].spelling, core::ToString(u));  // the SI symbol first, factor 1
}

TEST(WithValues, ReplacesTheNumbersAndKeepsEveryOtherByte) {
  const std::string text = "# comment\n[longitudinal]\nMa = -3.78   # 1/s²\nMq = -0.992\n[controls.elevator]\nM = -2.48\n";
  EXPECT_EQ(WithValues(text, "x.toml", {{"longitudinal.Ma", -3.5}, {"controls.elevator.M", -2.25}}),
            "# comment\n[longitudinal]\nMa = -3.5   # 1/s²\nMq = -0.992\n[controls.elevator]\nM = -2.25\n");
  EXPECT_THROW(WithValues(text, "x.toml", {{"avl.Cma", 1.0}}), core::DataError);
}

}  // namespace
}  // namespace aerolin::data
