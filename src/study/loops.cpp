#include "aerolin/study/loops.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "aerolin/model/build.hpp"
#include "aerolin/model/outputs.hpp"
#include "typed_number.hpp"

namespace aerolin::study {
namespace {

std::string SpacedNames(const std::vector<core::Signal>& signals) {
  std::string s;
  for (const core::Signal& x : signals) s += (s.empty() ? "" : " ") + x.name;
  return s;
}

}  // namespace

std::string LoopName(const OutputLoop& loop) { return loop.input + ":" + loop.output; }

OutputLoop ParseLoop(const std::string& text) {
  const std::string expected =
      "expected INPUT:OUTPUT, e.g. rudder:r, optionally =GAIN and ,washout=TAU (rudder:r=1.5,washout=1.5), got '" +
      text + "'";
  std::string head = text, rest;
  if (const std::size_t comma = text.find(','); comma != std::string::npos) {
    head = text.substr(0, comma);
    rest = text.substr(comma + 1);
  }
  OutputLoop loop;
  if (const std::size_t eq = head.find('='); eq != std::string::npos) {
    loop.gain = detail::TypedNumber(head.substr(eq + 1));
    if (!loop.gain)
      throw std::invalid_argument("'" + head.substr(eq + 1) + "' in '" + text +
                                  "' is not a gain (a finite number, SI: input unit per output unit)");
    head = head.substr(0, eq);
  }
  const std::size_t colon = head.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == head.size() ||
      head.find(':', colon + 1) != std::string::npos)
    throw std::invalid_argument(expected);
  loop.input = head.substr(0, colon);
  loop.output = head.substr(colon + 1);
  if (!rest.empty() || text.find(',') != std::string::npos) {
    const std::string key = "washout=";
    if (rest.rfind(key, 0) != 0) throw std::invalid_argument(expected);
    loop.washout_tau = detail::TypedNumber(rest.substr(key.size()));
    if (!loop.washout_tau)
      throw std::invalid_argument("'" + rest.substr(key.size()) + "' in '" + text +
                                  "' is not a washout time constant (a number of seconds > 0)");
  }
  return loop;
}

ResolvedLoop ResolveLoop(const model::AircraftData& aircraft, const model::StateSpace& lon,
                         const model::StateSpace& lat, const OutputLoop& o) {
  const model::Control* control = nullptr;
  for (const model::Control& c : aircraft.controls)
    if (c.name == o.input) control = &c;
  if (control == nullptr) {
    std::string names;
    for (const model::Control& c : aircraft.controls) names += (names.empty() ? "" : ", ") + c.name;
    throw std::invalid_argument("unknown input '" + o.input + "' (this aircraft's controls: " + names + ")");
  }
  // The output is looked up among the model's outputs (C, D): states today,
  // and any derived output the builders add to C and D.
  const model::StateSpace* sys = nullptr;
  int row = -1;
  for (const model::StateSpace* s : {&lon, &lat})
    for (int i = 0; i < s->num_outputs(); ++i)
      if (s->outputs()[static_cast<std::size_t>(i)].name == o.output ||
          (i >= s->num_states() && s->outputs()[static_cast<std::size_t>(i)].symbol == o.output)) {
        sys = s;
        row = i;
      }
  if (sys == nullptr)
    throw std::invalid_argument("unknown output '" + o.output + "' (outputs: " + SpacedNames(lon.outputs()) +
                                " | " + SpacedNames(lat.outputs()) + ")");
  int column = -1;
  for (int j = 0; j < sys->num_inputs(); ++j)
    if (sys->inputs()[static_cast<std::size_t>(j)].name == o.input) column = j;
  const bool lon_axis = sys == &lon;
  if (column < 0)
    throw std::invalid_argument("input '" + o.input + "' does not act on the " +
                                (lon_axis ? "longitudinal" : "lateral") + " axis of output '" +
                                o.output + "'");
  if (o.washout_tau && !(*o.washout_tau > 0.0))
    throw std::invalid_argument("washout time constant must be > 0");
  ResolvedLoop r;
  r.axis = lon_axis ? model::Axis::kLongitudinal : model::Axis::kLateral;
  r.input_column = column;
  r.output_row = row;
  r.input = {control->name, control->unit, control->name};
  r.output = sys->outputs()[static_cast<std::size_t>(row)];
  // "rad/(rad/s)", but "rad/g": a compound denominator only is parenthesized.
  const std::string per(core::ToString(r.output.unit));
  r.gain_unit = std::string(core::ToString(control->unit)) + "/" +
                (per.find_first_of("/*· ") == std::string::npos ? per : "(" + per + ")");
  return r;
}

model::Axis LoopAxis(const model::AircraftData& aircraft, const OutputLoop& loop) {
  return ResolveLoop(aircraft, model::BuildWithOutputs(aircraft, model::Axis::kLongitudinal),
                     model::BuildWithOutputs(aircraft, model::Axis::kLateral), loop)
      .axis;
}

}  // namespace aerolin::study
