#include "aerolin/export/flight_csv.hpp"

#include <gtest/gtest.h>

#include <cmath>
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

// The oracle is the decimal itself: "k·dt" read by strtod is the double
// nearest to it, which SliceGridTime must return exactly.
TEST(SliceGridTime, GivesTheDoubleNearestTheDecimalKTimesDt) {
  struct Case {
    double dt;
    long k;
    const char* decimal;
  };
  for (const Case& c : {Case{0.1, 3, "0.3"}, Case{0.1, 7, "0.7"}, Case{0.1, 123456789, "12345678.9"},
                        Case{0.05, 7, "0.35"}, Case{0.01, 29, "0.29"}, Case{0.3, 3, "0.9"},
                        Case{1e-5, 3, "0.00003"}, Case{2.5, 4, "10"}, Case{0.1, 0, "0"}}) {
    const double t = static_cast<double>(c.k) * c.dt;
    EXPECT_EQ(SliceGridTime(t, c.dt), std::strtod(c.decimal, nullptr)) << c.k << " x " << c.dt;
  }
  EXPECT_NE(3 * 0.1, 0.3);  // why this exists
  // No short decimal (1/3), off the grid, or no grid: unchanged.
  EXPECT_EQ(SliceGridTime(7.0 / 3.0, 1.0 / 3.0), 7.0 / 3.0);
  EXPECT_EQ(SliceGridTime(0.123, 0.1), 0.123);
  EXPECT_EQ(SliceGridTime(0.30000000000000004, 0.0), 0.30000000000000004);
  EXPECT_FALSE(std::signbit(SliceGridTime(-0.0, 0.1)));
}

TEST(FlightCsvRecorder, WritesGridTimesAndNoNegativeZero) {
  std::ostringstream out;
  FlightCsvRecorder recorder(out, nullptr, 0.1);
  recorder.Begin({"elevator"});
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kAlpha] = -0.0;
  x[sim::kQ] = -0.25;
  recorder.Record(3 * 0.1, x, Eigen::VectorXd::Constant(1, -0.0));
  EXPECT_EQ(out.str(),
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator\n"
            "0.3,0,0,-0.25,0,0,0,0,0,0,0,0,0,0\n");
}

// A flight whose surfaces differ from the commands (WatchSurfaces before
// Begin): a NAME_surface column per control after the controls, before the
// wind; the row reads the watched vector at each Record.
TEST(FlightCsvRecorder, WritesTheWatchedSurfacesAfterTheControls) {
  std::ostringstream out;
  const Eigen::Vector4d wind(1.5, 0, 0, 0);
  FlightCsvRecorder recorder(out, &wind, 0.1);
  Eigen::VectorXd surfaces(2);
  recorder.WatchSurfaces(&surfaces);
  recorder.Begin({"elevator", "throttle"});
  const sim::FlightState x = sim::FlightState::Zero();
  surfaces << 0.25, -0.5;
  recorder.Record(0.1, x, Eigen::Vector2d(0.125, -0.5));
  surfaces << -0.0, 2.0;
  recorder.Record(0.2, x, Eigen::Vector2d(0.0, 2.0));
  EXPECT_EQ(out.str(),
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,throttle,"
            "elevator_surface,throttle_surface,u_g,v_g,w_g,p_g\n"
            "0.1,0,0,0,0,0,0,0,0,0,0,0,0,0.125,-0.5,0.25,-0.5,1.5,0,0,0\n"
            "0.2,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,2,1.5,0,0,0\n");
}

}  // namespace
}  // namespace aerolin::exporting
