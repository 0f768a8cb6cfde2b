#include "aerolin/viz/display.hpp"

#include <X11/Xlib.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace aerolin::viz {

void RequireDisplay() {
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || *name == '\0')
    throw std::runtime_error(
        "no display: DISPLAY is not set (run aerolin-fly in a desktop session, or headless "
        "as xvfb-run -a aerolin-fly FILE --script S --duration T --screenshot out.png)");
  // The connection stays open for the life of the process: an X server with
  // no other client (Xvfb under xvfb-run) resets when its last client
  // disconnects, and SFML's own connection, made right after, would fail
  // during that reset.
  static Display* const display = XOpenDisplay(nullptr);
  if (display == nullptr)
    throw std::runtime_error(std::string("cannot open the X display '") + name +
                             "' (is the X server running and reachable?)");
}

}  // namespace aerolin::viz
