#include "aerolin/export/flight_csv.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <sstream>

namespace aerolin::exporting {
namespace {

sim::FlightLog TwoRowLog() {
  sim::FlightLog log;
  log.control_names = {"elevator", "throttle", "aileron", "rudder"};
  log.control_units = {"rad", "1", "rad", "rad"};
  log.time = {0.0, 0.1};
  sim::FlightState x1;
  for (int i = 0; i < sim::kNumFlightStates; ++i) x1[i] = 0.1 * (i + 1) / 3.0;
  x1[sim::kNorth] = 8.955024000000002;
  log.state = {sim::FlightState::Zero(), x1};
  log.controls = {Eigen::VectorXd::Zero(4), Eigen::Vector4d(0.01, 1.0, -1e-300, 0.0)};
  return log;
}

TEST(FlightCsvHeader, IsTheStatesThenTheControlsInFileOrder) {
  EXPECT_EQ(FlightCsvHeader(TwoRowLog()),
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,"
            "throttle,aileron,rudder");
}

TEST(WriteFlightCsv, WritesOneRowPerEntryThatReadsBackBitForBit) {
  const sim::FlightLog log = TwoRowLog();
  std::ostringstream out;
  WriteFlightCsv(log, out);
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, FlightCsvHeader(log));
  std::getline(in, line);
  EXPECT_EQ(line, "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
  std::getline(in, line);
  std::vector<double> values;
  std::stringstream fields(line);
  for (std::string f; std::getline(fields, f, ',');) values.push_back(std::strtod(f.c_str(), nullptr));
  ASSERT_EQ(values.size(), 17u);
  EXPECT_EQ(values[0], 0.1);
  for (int i = 0; i < sim::kNumFlightStates; ++i) EXPECT_EQ(values[1 + i], log.state[1][i]) << i;
  for (int c = 0; c < 4; ++c) EXPECT_EQ(values[13 + c], log.controls[1][c]) << c;
  EXPECT_FALSE(std::getline(in, line));
}

TEST(WriteFlightCsvFile, ReportsAnUnwritablePath) {
  try {
    WriteFlightCsvFile(TwoRowLog(), "/nonexistent/dir/out.csv");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/out.csv: cannot write (No such file or directory)");
  }
}

}  // namespace
}  // namespace aerolin::exporting
