// The flight CSV reader: columns by name, and one located message per defect.

#include "aerolin/data/flight_record.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "aerolin/core/error.hpp"
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

TEST(WithValues, ReplacesTheNumbersAndKeepsEveryOtherByte) {
  const std::string text = "# comment\n[longitudinal]\nMa = -3.78   # 1/s²\nMq = -0.992\n[controls.elevator]\nM = -2.48\n";
  EXPECT_EQ(WithValues(text, "x.toml", {{"longitudinal.Ma", -3.5}, {"controls.elevator.M", -2.25}}),
            "# comment\n[longitudinal]\nMa = -3.5   # 1/s²\nMq = -0.992\n[controls.elevator]\nM = -2.25\n");
  EXPECT_THROW(WithValues(text, "x.toml", {{"avl.Cma", 1.0}}), core::DataError);
}

}  // namespace
}  // namespace aerolin::data
