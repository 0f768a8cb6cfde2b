#include "aerolin/viz/flight_log_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <iterator>
#include <string>

namespace aerolin::viz {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The bytes of `path` from `offset` to its end.
std::string ReadFrom(const std::string& path, std::size_t offset) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Regression: rows went through an ofstream buffer that reached the file at
// arbitrary byte boundaries, so a kill -9 could leave a torn last row. Now
// the file holds whole rows whenever it is looked at.
TEST(FlightLogWriter, TheFileHoldsWholeRowsOnlyAtEveryMoment) {
  // Per-process names: test runs sharing a machine must not write one file.
  const std::string stem = ::testing::TempDir() + "aerolin_log_writer_test_" + std::to_string(::getpid());
  const std::string csv = stem + ".csv";
  const std::string script = stem + ".script.txt";
  {
    FlightLogWriter writer(csv, script, {"elevator", "throttle"});
    const std::size_t columns = 1 + sim::kNumFlightStates + 2;
    sim::FlightState x;
    for (int i = 0; i < sim::kNumFlightStates; ++i) x[i] = 0.1234567891234 * (i + 1);
    Eigen::VectorXd controls(2);
    controls << 0.01, 1.0 / 3.0;
    std::size_t rows_seen = 0;
    // The whole file after every row, read incrementally: it only grows (its
    // size is checked), so each look reads what was added since the last one
    // and the counts are kept. (Reading all of it 3000 times took 14 s, the
    // longest of the unit tests.)
    std::size_t size = 0, lines = 0, commas = 0;
    char last = '\0';
    for (int k = 0; k < 3000; ++k) {
      writer.AppendRow(0.1 * k, x * (1.0 + k), controls);
      const std::string added = ReadFrom(csv, size);
      size += added.size();
      ASSERT_EQ(std::filesystem::file_size(csv), size) << "the file shrank at row " << k;
      if (!added.empty()) last = added.back();
      ASSERT_GT(size, 0u);
      ASSERT_EQ(last, '\n') << "torn row after row " << k;
      lines += static_cast<std::size_t>(std::count(added.begin(), added.end(), '\n'));
      commas += static_cast<std::size_t>(std::count(added.begin(), added.end(), ','));
      ASSERT_EQ(commas, lines * (columns - 1)) << "row " << k;
      rows_seen = lines - 1;
    }
    EXPECT_GT(rows_seen, 0u) << "rows were written before any flush";
    writer.Flush("0 1 8\n");
    const std::string text = Read(csv);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3001);
    EXPECT_EQ(Read(script), "0 1 8\n");
  }
  std::remove(csv.c_str());
  std::remove(script.c_str());
}

// A snapshot's script copy replays itself: its replay line names the copy
// (not the live log) and writes a CSV beside the snapshot's.
TEST(RetargetReplayLine, PointsTheReplayCommandAtTheSnapshotsCopies) {
  const std::string live = "logs/flight-1.script.txt";
  const std::string script =
      "# aerolin-fly pilot script\n0 1.5 8\n"
      "# replay: aerolin simulate p.toml --dt 0.1 --integrator rk45 --duration 12.3 --script " +
      live + " --csv replay.csv\n";
  EXPECT_EQ(RetargetReplayLine(script, live, "logs/aerolin-fly-t000012.3-01.script.txt",
                               "logs/aerolin-fly-t000012.3-01.replay.csv"),
            "# aerolin-fly pilot script\n0 1.5 8\n"
            "# replay: aerolin simulate p.toml --dt 0.1 --integrator rk45 --duration 12.3 --script "
            "logs/aerolin-fly-t000012.3-01.script.txt --csv "
            "logs/aerolin-fly-t000012.3-01.replay.csv\n");
  // No replay line (or the first line): handled, nothing else touched.
  EXPECT_EQ(RetargetReplayLine("0 1 8\n", live, "c", "r"), "0 1 8\n");
  EXPECT_EQ(RetargetReplayLine("# replay: x --csv replay.csv", live, "c", "r.csv"),
            "# replay: x --csv r.csv");
}

// Regression (#27): a second flight with the same --log-name truncated the
// first one's CSV.
TEST(FlightLogWriter, NeverOverwritesAnExistingLog) {
  const std::string stem =
      ::testing::TempDir() + "aerolin_log_writer_exists_" + std::to_string(::getpid());
  const std::string csv = stem + ".csv";
  std::ofstream(csv) << "earlier flight\n";
  try {
    FlightLogWriter writer(csv, stem + ".script.txt", {"elevator"});
    ADD_FAILURE() << "the existing log was opened";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write flight log '" + csv + "' (File exists)");
  }
  EXPECT_EQ(Read(csv), "earlier flight\n");
  std::remove(csv.c_str());
}

TEST(CheckLogStem, KeepsTheLogInsideItsDirectory) {
  for (const std::string bad : {"../../x", "a/b", "..", "/tmp/x", "x..y", ""}) {
    EXPECT_THROW(CheckLogStem(bad), std::invalid_argument) << bad;
  }
  try {
    CheckLogStem("../../x");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "log name '../../x': may not contain '/' or '..' (the log stays in its "
                           "directory; use --log-dir to move it)");
  }
  for (const std::string good : {"flight-20261125-230000", "w", "a.b", "run_2"})
    EXPECT_NO_THROW(CheckLogStem(good)) << good;
}

TEST(FreeLogStem, TakesTheNextNameFreeOfEarlierFlights) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) /
                       ("aerolin_free_stem_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_EQ(FreeLogStem(dir.string(), "w"), "w");  // a missing directory holds no log
  fs::create_directories(dir);
  for (const char* other : {"w-x.csv", "wx-1.csv", "w-1.txt", "w.csv", "w_2-1.csv.tmp"})
    std::ofstream(dir / other) << "not a log of w\n";
  EXPECT_EQ(FreeLogStem(dir.string(), "w"), "w");
  std::ofstream(dir / "w-3.script.txt") << "0 1 8\n";
  EXPECT_EQ(FreeLogStem(dir.string(), "w"), "w_2");
  std::ofstream(dir / "w_2-1.csv") << "t\n";
  EXPECT_EQ(FreeLogStem(dir.string(), "w"), "w_3");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace aerolin::viz
