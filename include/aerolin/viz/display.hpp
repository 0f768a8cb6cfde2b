#pragma once
/// @file
/// Whether a window can be opened at all. Kept apart from the drawing code
/// because Xlib's macros (None, Status, Bool) collide with SFML's and Eigen's
/// names.

namespace aerolin::viz {

/// Returns if the X display in $DISPLAY can be opened. SFML aborts the
/// process when it cannot open it; this turns that into an error message.
/// @throws std::runtime_error naming the problem (DISPLAY unset, or the
///         display unreachable) and how to run headless.
void RequireDisplay();

}  // namespace aerolin::viz
