#include "aerolin/export/dimensional_text.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace aerolin::exporting {
namespace {

model::AircraftAsWritten Sample() {
  model::AircraftAsWritten d;
  d.longitudinal.raw = true;
  // 1 lbf s/ft = 4.4482216152605 N / 0.3048 m · s = 14.593902937 N s/m, so
  // 1459.3902937 N s/m is 100 lbf s/ft; 1 slug = 14.593902937 kg.
  d.longitudinal.Xu = 1459.3902937;
  d.longitudinal.Zwdot = 14.593902937;
  d.lateral.raw = false;  // given dimensionally in the file: not shown
  model::Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.M = 1.3558179483;  // 1 ft lbf
  model::Control rudder;  // no coefficient part: not shown
  rudder.name = "rudder";
  d.controls = {elevator, rudder};
  return d;
}

TEST(DimensionalDerivativesText, ShowsOnlyTheCoefficientPartsWithSIAndImperialUnits) {
  std::ostringstream si, imperial;
  WriteDimensionalDerivativesText(si, Sample(), core::UnitSystem::kSI);
  WriteDimensionalDerivativesText(imperial, Sample(), core::UnitSystem::kImperial);
  EXPECT_NE(si.str().find("  Xu     =       1459.4 N s/m\n"), std::string::npos) << si.str();
  EXPECT_EQ(si.str().find("lbf"), std::string::npos);
  EXPECT_EQ(si.str().find("Lateral"), std::string::npos);
  EXPECT_EQ(si.str().find("rudder"), std::string::npos);
  EXPECT_NE(imperial.str().find("  Xu     =       1459.4 N s/m     =          100 lbf s/ft\n"),
            std::string::npos)
      << imperial.str();
  EXPECT_NE(imperial.str().find("  Zwdot  =       14.594 kg        =            1 slug\n"),
            std::string::npos)
      << imperial.str();
  EXPECT_NE(imperial.str().find("Control elevator (per rad)\n"), std::string::npos);
  EXPECT_NE(imperial.str().find("  M      =       1.3558 N m       =            1 ft lbf\n"),
            std::string::npos)
      << imperial.str();
}

}  // namespace
}  // namespace aerolin::exporting
