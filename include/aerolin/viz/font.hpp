#pragma once
/// @file
/// Run-time lookup of the HUD fonts (Debian's fonts-dejavu-core).

#include <string>
#include <vector>

namespace aerolin::viz {

/// Returns the places searched, in order, for the font file `file_name`
/// (e.g. "DejaVuSansMono.ttf"): `$AEROLIN_FONT_DIR`, then Debian's
/// /usr/share/fonts/truetype/dejavu, then other common font directories.
std::vector<std::string> FontSearchPath(const std::string& file_name);

/// Returns the path of the first existing candidate of FontSearchPath.
/// @throws std::runtime_error naming every path tried and the package that
///         provides the font ("apt-get install fonts-dejavu-core").
std::string FindFont(const std::string& file_name);

}  // namespace aerolin::viz
