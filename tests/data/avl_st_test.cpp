#include "aerolin/data/avl_st.hpp"

#include <gtest/gtest.h>

#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "data/loader_test_support.hpp"

namespace aerolin::data {
namespace {

using test_support::Edit;

std::string Bundled(const std::string& name) {
  return std::string(AEROLIN_SOURCE_DIR) + "/data/avl/" + name;
}

// The message ParseAvlStability throws for `text`, or "(no error)".
std::string ErrorOf(const std::string& text) {
  return test_support::DataErrorOf([&] { ParseAvlStability(text, "t.st"); });
}

// Numbers typed from data/avl/b737_classic.st (AVL's own b737 example,
// classic ST text).
TEST(AvlStability, ClassicFileGivesPrintedNumbers) {
  const AvlStability st = ReadAvlStabilityFile(Bundled("b737_classic.st"));
  EXPECT_EQ(st.format, AvlFormat::kClassic);
  EXPECT_EQ(st.configuration, "Boeing 737-800");
  EXPECT_DOUBLE_EQ(st.Sref, 1260.0);
  EXPECT_DOUBLE_EQ(st.Cref, 11.0);
  EXPECT_DOUBLE_EQ(st.Bref, 113.0);
  EXPECT_DOUBLE_EQ(st.alpha_deg, 1.91840);
  EXPECT_DOUBLE_EQ(st.beta_deg, 0.0);
  EXPECT_DOUBLE_EQ(st.mach, 0.700);
  EXPECT_DOUBLE_EQ(st.CLtot, 0.54444);
  EXPECT_DOUBLE_EQ(st.CDtot, 0.01053);
  EXPECT_DOUBLE_EQ(st.CDind, 0.0105289);
  ASSERT_TRUE(st.CDvis.has_value());
  EXPECT_DOUBLE_EQ(*st.CDvis, 0.0);
  EXPECT_DOUBLE_EQ(st.CLa, 7.299206);
  EXPECT_DOUBLE_EQ(st.CYb, -1.326015);
  EXPECT_DOUBLE_EQ(st.Clb, -0.276089);
  EXPECT_DOUBLE_EQ(st.Cma, -1.884644);
  EXPECT_DOUBLE_EQ(st.Cnb, 0.244427);  // not the spiral ratio 2.447930
  EXPECT_FALSE(st.CDa.has_value());    // the classic file of AVL 3.3x prints no CDa
  EXPECT_DOUBLE_EQ(st.CLq, 22.200703);
  EXPECT_DOUBLE_EQ(st.CYp, 0.079192);
  EXPECT_DOUBLE_EQ(st.CYr, 1.047402);
  EXPECT_DOUBLE_EQ(st.Clp, -0.570732);
  EXPECT_DOUBLE_EQ(st.Clr, 0.226779);
  EXPECT_DOUBLE_EQ(st.Cmq, -84.906515);
  EXPECT_DOUBLE_EQ(st.Cnp, -0.034837);
  EXPECT_DOUBLE_EQ(st.Cnr, -0.491477);
  ASSERT_TRUE(st.spiral_ratio.has_value());
  EXPECT_DOUBLE_EQ(*st.spiral_ratio, 2.447930);
  ASSERT_TRUE(st.Xnp.has_value());
  EXPECT_DOUBLE_EQ(*st.Xnp, 68.108784);
  ASSERT_EQ(st.controls.size(), 5u);
  const char* names[] = {"slat", "flap", "aileron", "elevator", "rudder"};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(st.controls[i].name, names[i]);
  const AvlControl& elevator = st.controls[3];
  EXPECT_DOUBLE_EQ(elevator.deflection_deg, 0.89680);
  EXPECT_DOUBLE_EQ(elevator.CL, 0.015022);
  EXPECT_DOUBLE_EQ(elevator.Cm, -0.071575);
  EXPECT_FALSE(elevator.CD.has_value());
  ASSERT_TRUE(elevator.CDff.has_value());
  EXPECT_DOUBLE_EQ(*elevator.CDff, 0.000542);
  EXPECT_DOUBLE_EQ(st.controls[2].Cl, 0.002762);   // aileron
  EXPECT_DOUBLE_EQ(st.controls[4].Cn, 0.004367);   // rudder
  EXPECT_DOUBLE_EQ(st.controls[4].CY, -0.009405);
  EXPECT_EQ(st.LineOf("CLa"), 42);
  EXPECT_EQ(st.LineOf("Cnb"), 46);
  EXPECT_EQ(st.LineOf("Alpha"), 16);
  EXPECT_EQ(st.controls[3].line, 58);
}

// Numbers typed from data/avl/b737_machine.st (the same example through
// AVL 3.52's machine format).
TEST(AvlStability, MachineFileGivesPrintedNumbers) {
  const AvlStability st = ReadAvlStabilityFile(Bundled("b737_machine.st"));
  EXPECT_EQ(st.format, AvlFormat::kMachine);
  EXPECT_EQ(st.configuration, "Boeing 737-800");
  EXPECT_DOUBLE_EQ(st.Sref, 1.260000000000000E+03);
  EXPECT_DOUBLE_EQ(st.Bref, 1.130000000000000E+02);
  EXPECT_DOUBLE_EQ(st.alpha_deg, 1.918400970233704E+00);
  EXPECT_DOUBLE_EQ(st.mach, 7.000000000000000E-01);
  EXPECT_DOUBLE_EQ(st.CLtot, 5.444379999999998E-01);
  EXPECT_DOUBLE_EQ(st.CDtot, 1.052887087779430E-02);
  EXPECT_DOUBLE_EQ(st.CDind, 1.052887087779430E-02);
  EXPECT_DOUBLE_EQ(st.CLa, 7.299205928213639E+00);
  ASSERT_TRUE(st.CDa.has_value());
  EXPECT_DOUBLE_EQ(*st.CDa, 2.805855404724963E-01);
  EXPECT_DOUBLE_EQ(st.Clb, -2.416071998114548E-01);
  EXPECT_DOUBLE_EQ(st.Cma, -1.884649571193578E+00);
  EXPECT_DOUBLE_EQ(st.Cnb, 2.429597868185692E-01);
  EXPECT_DOUBLE_EQ(st.CLq, 2.220071462706525E+01);
  ASSERT_TRUE(st.CDq.has_value());
  EXPECT_DOUBLE_EQ(*st.CDq, 7.405797756094779E-01);
  EXPECT_DOUBLE_EQ(st.CYr, 1.027902949218746E+00);
  EXPECT_DOUBLE_EQ(st.Clp, -5.704625543685965E-01);
  EXPECT_DOUBLE_EQ(st.Cmq, -8.490653640251359E+01);
  EXPECT_DOUBLE_EQ(st.Cnr, -4.885038205607300E-01);
  ASSERT_TRUE(st.spiral_ratio.has_value());
  EXPECT_DOUBLE_EQ(*st.spiral_ratio, 2.232434792379680E+00);
  EXPECT_DOUBLE_EQ(*st.Xnp, 6.810878250147344E+01);
  ASSERT_EQ(st.controls.size(), 5u);
  EXPECT_EQ(st.controls[3].name, "elevator");
  EXPECT_DOUBLE_EQ(st.controls[3].deflection_deg, 8.967974687214668E-01);
  EXPECT_DOUBLE_EQ(st.controls[3].CL, 1.502251046318952E-02);
  EXPECT_DOUBLE_EQ(st.controls[3].Cm, -7.159010417567435E-02);
  ASSERT_TRUE(st.controls[3].CD.has_value());
  EXPECT_DOUBLE_EQ(*st.controls[3].CD, 5.584711475871017E-04);
  EXPECT_DOUBLE_EQ(st.controls[4].Cn, 4.361827421137506E-03);
  EXPECT_EQ(st.LineOf("CLa"), 34);
  EXPECT_EQ(st.controls[3].line, 53);
}

// The last line of every ST file is AVL's spiral-stability ratio: a naive
// "word before '='" reader takes it for Cnb.
TEST(AvlStability, SpiralRatioLineIsNotCnb) {
  const std::string body =
      "  Sref =  1.0  Cref = 1.0  Bref = 1.0\n"
      "  Alpha = 2.0  Beta = 0.0\n  Mach = 0.1\n"
      "  CLtot = 0.5\n  CDtot = 0.02\n  CDvis = 0.0  CDind = 0.02\n"
      " Stability-axis derivatives...\n"
      " z' force CL |    CLa =   5.0    CLb =   0.0\n"
      " y  force CY |    CYa =   0.0    CYb =  -0.3\n"
      " x' mom.  Cl'|    Cla =   0.0    Clb =  -0.1\n"
      " y  mom.  Cm |    Cma =  -1.0    Cmb =   0.0\n"
      " z' mom.  Cn'|    Cna =   0.0    Cnb =   0.07\n"
      " z' force CL |    CLp =   0.0    CLq =   8.0    CLr =   0.0\n"
      " y  force CY |    CYp =   0.0    CYq =   0.0    CYr =   0.2\n"
      " x' mom.  Cl'|    Clp =  -0.5    Clq =   0.0    Clr =   0.1\n"
      " y  mom.  Cm |    Cmp =   0.0    Cmq = -12.0    Cmr =   0.0\n"
      " z' mom.  Cn'|    Cnp =  -0.02   Cnq =   0.0    Cnr =  -0.1\n";
  // The ratio after Cnb, as AVL writes it.
  AvlStability st = ParseAvlStability(
      body + " Neutral point  Xnp =  0.3\n Clb Cnr / Clr Cnb  =   9.9    (  > 1 if spirally stable )\n",
      "t.st");
  EXPECT_DOUBLE_EQ(st.Cnb, 0.07);
  EXPECT_DOUBLE_EQ(*st.spiral_ratio, 9.9);
  EXPECT_DOUBLE_EQ(*st.Xnp, 0.3);
  // Before the table, and spaced differently: still not Cnb.
  st = ParseAvlStability("Clb  Cnr /  Clr  Cnb = 9.9\n" + body, "t.st");
  EXPECT_DOUBLE_EQ(st.Cnb, 0.07);
  EXPECT_DOUBLE_EQ(*st.spiral_ratio, 9.9);
  EXPECT_EQ(st.LineOf("Cnb"), 13);
}

TEST(AvlStability, MalformedClassicLinesAreLocated) {
  const std::string text = core::ReadInputFile(Bundled("b737_classic.st"));
  EXPECT_EQ(ErrorOf(Edit(text, "CLa =   7.299206", "CLa =   7.2x9206")),
            "t.st:42: 'CLa =' is followed by '7.2x9206', not a number");
  EXPECT_EQ(ErrorOf(Edit(text, "Cmq = -84.906515", "Cmq = *********")),
            "t.st:53: 'Cmq' is printed as '*********', AVL's overflow of its number field (the "
            "value is too large; check the run case)");
  EXPECT_EQ(ErrorOf(Edit(text, "Cnr =  -0.491477", "Cnx =  -0.491477")),
            "t.st:38: missing 'Cnr' (AVL's ST output prints it; is the file complete?)");
  EXPECT_EQ(ErrorOf(Edit(text, "CLa =   7.299206", "CLa =   nan")),
            "t.st:42: 'CLa' is nan (AVL printed a non-finite value; check the run case)");
  EXPECT_EQ(ErrorOf(Edit(text, "Cmd4 =  -0.071575", "Cmx4 =  -0.071575")),
            "t.st:58: missing 'Cmd4' of control 'elevator'");
  EXPECT_EQ(ErrorOf("hello\nworld\n"),
            "t.st:1: no AVL stability derivatives found (expected the output of AVL's ST command: "
            "\"CLa = ...\" lines, or the machine format starting DERMATS)");
  EXPECT_EQ(ErrorOf(Edit(text, "Stability-axis derivatives", "Geometry-axis derivatives")),
            "t.st:1: this is AVL's body-axis derivative file (SB); aerolin reads the "
            "stability-axis derivatives (write them with AVL's ST command)");
}

TEST(AvlStability, RepeatedKeyNamesBothLines) {
  const std::string text =
      Edit(core::ReadInputFile(Bundled("b737_classic.st")), "Cnr =  -0.491477", "Cnb =  -0.491477");
  const std::string message = ErrorOf(text);
  EXPECT_NE(message.find("t.st:54: 'Cnb' given twice (first at line 46; one ST output per file)"),
            std::string::npos)
      << message;
}

TEST(AvlStability, MalformedMachineLinesAreLocated) {
  const std::string text = core::ReadInputFile(Bundled("b737_machine.st"));
  EXPECT_EQ(ErrorOf(Edit(text, "VERSION 1.0", "VERSION 2.0")),
            "t.st:2: machine-format VERSION 2.0 (aerolin reads VERSION 1.0; write the file with "
            "ST in AVL's classic format instead)");
  EXPECT_EQ(ErrorOf(Edit(text, "  1.503380098712780E-02 -4.006895825238065E-15  1.027902949218746E+00",
                            "  1.503380098712780E-02  1.027902949218746E+00")),
            "t.st:42: 2 values for 3 labels ( CYp, CYq, CYr)");
  EXPECT_EQ(ErrorOf(Edit(text, " -1.884649571193578E+00", " -1.88464957119357xE+00")),
            "t.st:38: '-1.88464957119357xE+00' is not a number (expected 'values | labels')");
  EXPECT_EQ(ErrorOf(Edit(text, "-6.584622373718117E-19  | z' force CL  : CLd*", " | z' force CL  : CLd*")),
            "t.st:53: 4 values for 5 control variables in 'CLd*'");
  EXPECT_EQ(ErrorOf(Edit(text, "   5  | # control vars", "   9  | # control vars")).substr(0, 6),
            "t.st:5");
  EXPECT_EQ(ErrorOf(Edit(text, "DERMATS", "DERMATB")),
            "t.st:1: this is AVL's body-axis derivative file (SB); aerolin reads the "
            "stability-axis derivatives (write them with AVL's ST command)");
}

}  // namespace
}  // namespace aerolin::data
