#pragma once
/// @file
/// Writes new numbers into an aircraft file's text in place, keeping every
/// other byte (comments, order, spacing, the other numbers as written): how
/// `aerolin identify --write` puts its estimates into a copy of the file.

#include <string>
#include <utility>
#include <vector>

namespace aerolin::data {

/// Returns `text` (a TOML aircraft file read from `path`) with the number of
/// each key of `values` ("longitudinal.Ma", "controls.elevator.M", as written
/// in the file, in its units) replaced by the shortest round-trip decimal of
/// its value.
/// @throws core::DataError if the text does not parse or a key is not a
///         number written in the text (e.g. an AVL key, which lives in the
///         `.st` file), located at the file.
std::string WithValues(const std::string& text, const std::string& path,
                       const std::vector<std::pair<std::string, double>>& values);

}  // namespace aerolin::data
