#pragma once
// One axis's modes as `aerolin modes --json` writes them (internal to
// export): the list and the state names, shared by modes_json.cpp and the
// augment report so a mode reads the same in both.

#include <nlohmann/json.hpp>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::exporting {

/// The modes of one axis (schema aerolin.modes/2's `modes` array).
nlohmann::json ModeListJson(const std::vector<analysis::Mode>& modes, const model::StateSpace& sys,
                            core::UnitSystem speed_units);

/// The names of `states` as a JSON array.
nlohmann::json StateNames(const std::vector<core::Signal>& states);

}  // namespace aerolin::exporting
