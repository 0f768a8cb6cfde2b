#include "aerolin/viz/flight_window.hpp"

#include <SFML/Graphics.hpp>
#include <SFML/OpenGL.hpp>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/core/frames.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/viz/camera.hpp"
#include "aerolin/viz/display.hpp"
#include "aerolin/viz/flight_log_writer.hpp"
#include "aerolin/viz/font.hpp"
#include "aerolin/viz/scene.hpp"
#include "aerolin/viz/slice_clock.hpp"

namespace aerolin::viz {
namespace {

using Clock = std::chrono::steady_clock;
using pilot::Key;

using core::kPi;
// Wall time a frame may spend on catch-up slices before it draws anyway
// [s]: at 60 Hz a frame lasts 16.7 ms, drawing takes ~1-3 ms.
constexpr double kSliceBudget = 0.010;
// Wall time a fast scripted run spends on slices between two drawn frames [s].
constexpr double kFastBudget = 0.030;
// Time constants of the camera filters [s].
constexpr double kFitTau = 0.6;
constexpr double kChaseTau = 0.4;
// Smallest overview radius [m], so a flight's first second is not a close-up.
constexpr double kMinFitRadius = 600.0;
constexpr double kDefaultChaseDistance = 450.0;  // [m]
// A camera-filter time step long enough to settle every filter at once [s].
constexpr double kSnapCamera = 1e6;

enum class CameraMode { kOverview, kChase, kFree };

const char* ToString(CameraMode m) {
  switch (m) {
    case CameraMode::kOverview: return "overview (auto-fit)";
    case CameraMode::kChase: return "chase";
    case CameraMode::kFree: return "free orbit";
  }
  return "?";
}

// Pilot keys: the numpad as in the seed, plus alternates for keyboards
// without one (see KeyBindings). NumLock-off numpad codes (Home, PageUp, arrows)
// are the same alternates, so the numpad works either way.
std::optional<Key> PilotKeyOf(sf::Keyboard::Key code) {
  using K = sf::Keyboard;
  switch (code) {
    case K::Numpad8: case K::Up: return Key::k8;
    case K::Numpad5: case K::Down: return Key::k5;
    case K::Add: case K::Equal: return Key::kPlus;
    case K::Subtract: case K::Hyphen: return Key::kMinus;
    case K::Numpad4: case K::Left: return Key::k4;
    case K::Numpad6: case K::Right: return Key::k6;
    case K::Numpad9: case K::E: case K::PageUp: return Key::k9;
    case K::Numpad7: case K::Q: case K::Home: return Key::k7;
    default: return std::nullopt;
  }
}

// `b` with its z (altitude) multiplied by k > 0.
Bounds Exaggerated(Bounds b, double k) {
  b.min.z() *= k;
  b.max.z() *= k;
  return b;
}

void SaveWindow(const sf::RenderWindow& window, const std::string& path) {
  sf::Texture texture;
  const sf::Vector2u size = window.getSize();
  if (!texture.create(size.x, size.y))
    throw std::runtime_error("cannot create a " + std::to_string(size.x) + "x" +
                             std::to_string(size.y) + " texture for the screenshot");
  texture.update(window);
  // Written beside the target and renamed when complete (same extension, so
  // SFML still picks the format from it).
  core::AtomicOutput out(path);
  errno = 0;
  if (!texture.copyToImage().saveToFile(out.temp_path()))
    throw std::runtime_error("cannot write screenshot '" + path + "' (" +
                             (errno != 0 ? std::strerror(errno) : "SFML could not encode it") + ")");
  out.Commit();
}

}  // namespace

namespace {

// Set from a signal handler: only a lock-free atomic store happens there.
std::atomic<bool> g_stop_requested{false};

extern "C" void RequestStop(int) { g_stop_requested.store(true); }

}  // namespace

void StopOnInterruptSignals() {
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
}

unsigned DefaultAntialiasing() {
  const sf::Context probe;  // a current GL context, to ask which renderer it is
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string name = renderer != nullptr ? renderer : "";
  for (const char* software : {"llvmpipe", "softpipe", "Software Rasterizer", "swrast"})
    if (name.find(software) != std::string::npos) return 0;
  return 4;
}

namespace {

class FlightWindow {
 public:
  FlightWindow(FlightSession& session, const WindowOptions& options)
      : session_(session),
        options_(options),
        hud_model_(session, options.aircraft_name, options.script),
        clock_(session.dt()) {
    if (!sans_.loadFromFile(FindFont("DejaVuSans.ttf")) ||
        !mono_.loadFromFile(FindFont("DejaVuSansMono.ttf")))
      throw std::runtime_error("cannot load the DejaVu fonts (fonts-dejavu-core)");
    scene_ = std::make_unique<SceneRenderer>(sans_);
    hud_ = std::make_unique<HudRenderer>(sans_, mono_);
    sf::ContextSettings settings;
    settings.antialiasingLevel = options.antialiasing ? *options.antialiasing : DefaultAntialiasing();
    window_.create(sf::VideoMode(options.width, options.height), options.title,
                   sf::Style::Default, settings);
    if (!window_.isOpen()) throw std::runtime_error("cannot open the window (is DISPLAY set?)");
    window_.setKeyRepeatEnabled(false);
    const bool fast = options.script != nullptr && !options.realtime;
    if (!fast) window_.setFramerateLimit(options.fps_limit);
    clock_.SetTimeScale(options.time_scale);
    ResetView();
    help_ = options.show_help;
    if (options.camera == "chase") mode_ = CameraMode::kChase;
    else if (options.camera == "free") mode_ = CameraMode::kFree;
    path_points_.reserve(session.path().max_drawn() + 2);
    exaggeration_ = options.vertical_exaggeration;
    attitude_exaggeration_ = options.attitude_exaggeration;
    panels_ = options.panels;
  }

  int Run() {
    const bool scripted = options_.script != nullptr;
    const long total = options_.duration ? sim::NumSlices(*options_.duration, session_.dt()) : -1;
    double next_frame_time = options_.frame_interval;
    int frame_number = 0;
    if (!options_.frames_dir.empty()) {  // frame-00000 shows t = 0
      Render(kSnapCamera, /*final_frame=*/true);
      SaveWindow(window_, (std::filesystem::path(options_.frames_dir) /
                           fmt::format("frame-{:05d}.png", frame_number++))
                              .string());
    }
    auto last = Clock::now();
    while (window_.isOpen()) {
      if (g_stop_requested.load()) {
        session_.MaybeFlush(true);
        std::cout << "interrupted at t = " << session_.time() << " s; flight log flushed\n";
        return kExitInterrupted;
      }
      PollEvents();
      if (!window_.isOpen()) break;
      const auto now = Clock::now();
      const double wall_dt = std::chrono::duration<double>(now - last).count();
      last = now;
      const bool done = total >= 0 && session_.slice_index() >= total;
      if (!done) {
        if (scripted && !options_.realtime) {
          RunFastSlices(total, options_.frames_dir.empty() ? -1.0 : next_frame_time);
        } else {
          RunRealTimeSlices(wall_dt, total);
        }
      }
      session_.MaybeFlush();
      UpdateRates(now);
      // A fast scripted run moves the camera filters by simulated time, so
      // its frames look like the real-time flight's.
      const double camera_dt = scripted && !options_.realtime
                                   ? session_.time() - last_render_time_ : wall_dt;
      last_render_time_ = session_.time();
      Render(std::max(camera_dt, 0.0));
      if (!options_.frames_dir.empty() && session_.time() + 1e-9 >= next_frame_time) {
        const std::string name = fmt::format("frame-{:05d}.png", frame_number++);
        SaveWindow(window_, (std::filesystem::path(options_.frames_dir) / name).string());
        while (next_frame_time <= session_.time() + 1e-9) next_frame_time += options_.frame_interval;
      }
      if (total >= 0 && session_.slice_index() >= total) {
        // The final frame shows the newest state, not one interpolated
        // between the last two slices.
        Render(kSnapCamera, /*final_frame=*/true);
        session_.MaybeFlush(true);
        if (!options_.screenshot.empty()) {
          SaveWindow(window_, options_.screenshot);
          std::cout << "screenshot: " << options_.screenshot;
          if (aircraft_px_)
            std::cout << " (aircraft at " << std::lround(aircraft_px_->x) << ", "
                      << std::lround(aircraft_px_->y) << " px)";
          std::cout << '\n';
        }
        window_.display();
        return 0;
      }
      window_.display();
    }
    session_.MaybeFlush(true);
    return 0;
  }

 private:
  void ResetView() {
    mode_ = CameraMode::kOverview;
    camera_ = OrbitCamera{};
    camera_.azimuth = -2.3;  // from the south-west, the flight heading north
    camera_.elevation = 0.42;
    camera_.fov_y = 0.75;
    overview_zoom_ = 1.0;
    chase_distance_ = kDefaultChaseDistance;
    chase_offset_ = 0.0;
    const auto [w, h] = window_.getSize();
    camera_ = FitToBounds(DrawnBounds(session_.path().bounds()), camera_, SceneWidth() / h,
                          kMinFitRadius);
  }

  // The HUD's panels: the Tab key's choice, else the default for the
  // window's size (compact below 1100 × 700 px).
  PanelMode Panels() const {
    const auto [w, h] = window_.getSize();
    return panels_ ? *panels_ : DefaultPanelMode(float(w), float(h));
  }
  // Where the HUD's panels go (hud_model.hpp LayoutHud, last frame's HUD).
  HudLayout Layout() const {
    const auto [w, h] = window_.getSize();
    return LayoutHud(hud_model_.hud(), float(w), float(h), Panels(), 1);
  }
  // Width [px] the HUD's state panel takes from the scene on the left and
  // its right column (attitude indicator, turbulence) on the right: the
  // scene is centred between them, so the overview does not fit the flight,
  // nor chase put the aircraft, under them.
  double SceneShift() const { return Layout().scene_left; }
  // The right column is kept clear in chase view (the aircraft sits in the
  // scene's centre) and otherwise only while at least 40 % of the window
  // stays for the scene: at 800 px with full panels the overview rather runs
  // under it (its labels still keep clear of every panel).
  double RightReserve() const {
    const double w = window_.getSize().x;
    const HudLayout layout = Layout();
    const double right = w - layout.scene_right;
    const double rest = layout.scene_right - layout.scene_left;
    return rest >= 0.4 * w || (mode_ == CameraMode::kChase && rest >= 0.2 * w) ? right : 0.0;
  }
  double SceneWidth() const {
    return std::max(1.0, window_.getSize().x - SceneShift() - RightReserve());
  }
  // Horizontal offset [px] of the scene's centre from the window's.
  float SceneCentreOffset() const {
    return static_cast<float>(0.5 * (SceneShift() - RightReserve()));
  }

  void PollEvents() {
    sf::Event e;
    while (window_.pollEvent(e)) {
      switch (e.type) {
        case sf::Event::Closed: window_.close(); break;
        case sf::Event::Resized:
          window_.setView(sf::View(sf::FloatRect(0, 0, float(e.size.width), float(e.size.height))));
          break;
        case sf::Event::LostFocus: keys_.ReleaseAll(); break;
        case sf::Event::KeyPressed: OnKey(e.key.code, true); break;
        case sf::Event::KeyReleased:
          // X11 autorepeat sends release/press pairs while a key is held;
          // SFML drops a pair only when both are already queued, so under
          // load a held key could read as released for a slice. A release
          // counts when the keyboard says the key is up.
          if (!sf::Keyboard::isKeyPressed(e.key.code)) OnKey(e.key.code, false);
          break;
        case sf::Event::MouseButtonPressed:
          if (e.mouseButton.button == sf::Mouse::Left) {
            dragging_ = true;
            drag_from_ = {e.mouseButton.x, e.mouseButton.y};
          }
          break;
        case sf::Event::MouseButtonReleased:
          if (e.mouseButton.button == sf::Mouse::Left) dragging_ = false;
          break;
        case sf::Event::MouseMoved:
          if (dragging_) {
            const sf::Vector2i to(e.mouseMove.x, e.mouseMove.y);
            const double dx = to.x - drag_from_.x, dy = to.y - drag_from_.y;
            drag_from_ = to;
            if (mode_ == CameraMode::kChase) {
              chase_offset_ = std::remainder(chase_offset_ - dx * 0.006, 2 * kPi);
              camera_.Orbit(0.0, dy * 0.006);
            } else {
              camera_.Orbit(-dx * 0.006, dy * 0.006);
            }
          }
          break;
        case sf::Event::MouseWheelScrolled: {
          const double f = std::pow(0.88, e.mouseWheelScroll.delta);
          if (mode_ == CameraMode::kOverview) overview_zoom_ = std::clamp(overview_zoom_ * f, 0.1, 8.0);
          else if (mode_ == CameraMode::kChase) chase_distance_ = std::clamp(chase_distance_ * f, 20.0, 2e4);
          else camera_.Zoom(f, 5.0, 5e6);
          break;
        }
        default: break;
      }
    }
  }

  void OnKey(sf::Keyboard::Key code, bool down) {
    using K = sf::Keyboard;
    if (auto key = PilotKeyOf(code)) {
      if (options_.script != nullptr) return;  // the script flies
      const int k = static_cast<int>(*key);
      if (down) keys_.Press(k); else keys_.Release(k);
      return;
    }
    if (!down) return;
    switch (code) {
      case K::Escape: window_.close(); break;
      case K::P: case K::Space: clock_.SetPaused(!clock_.paused()); break;
      case K::R: session_.ResetToTrim(); Note("reset to trim; new log " + session_.csv_path()); break;
      case K::Num1: Excite(Excitation::kShortPeriod); break;
      case K::Num2: Excite(Excitation::kPhugoid); break;
      case K::Num3: Excite(Excitation::kDutchRoll); break;
      case K::Num4: Excite(Excitation::kRoll); break;
      case K::Num5: Excite(Excitation::kSpiral); break;
      case K::LBracket: clock_.StepTimeScale(false); break;
      case K::RBracket: clock_.StepTimeScale(true); break;
      case K::S: Snapshot(); break;
      case K::H: case K::F1: help_ = !help_; break;
      case K::C:
        if (mode_ == CameraMode::kOverview) mode_ = CameraMode::kChase;
        else if (mode_ == CameraMode::kChase) mode_ = CameraMode::kFree;
        else mode_ = CameraMode::kOverview;
        Note(std::string("camera: ") + ToString(mode_));
        break;
      case K::V: ResetView(); Note("view reset"); break;
      case K::X: CycleExaggeration(); break;
      case K::A: CycleAttitudeExaggeration(); break;
      case K::Tab:
        panels_ = NextPanelMode(Panels());
        Note(fmt::format("panels: {} (Tab)", ToString(*panels_)));
        break;
      case K::T: CycleTurbulence(); break;
      case K::G: ToggleAugmentation(); break;
      case K::N: ToggleNonlinear(); break;
      case K::Comma: case K::Period:
        session_.SetAmplitudeFactor(session_.amplitude_factor() * (code == K::Period ? 2.0 : 0.5));
        Note(fmt::format("excitation amplitude \xc3\x97{:g} (keys 1\xe2\x80\x93" "5)",
                         session_.amplitude_factor()));
        break;
      default: break;
    }
  }

  // auto → ×1 → ×10 → ×30 → auto.
  void CycleExaggeration() {
    if (!exaggeration_) exaggeration_ = 1.0;
    else if (*exaggeration_ < 10.0) exaggeration_ = 10.0;
    else if (*exaggeration_ < 30.0) exaggeration_ = 30.0;
    else exaggeration_.reset();
    Note(exaggeration_ ? fmt::format("altitude \xc3\x97{:g}", *exaggeration_)
                       : std::string("altitude exaggeration: auto"));
  }

  // auto → ×1 → ×5 → ×20 → auto.
  void CycleAttitudeExaggeration() {
    if (!attitude_exaggeration_) attitude_exaggeration_ = 1.0;
    else if (*attitude_exaggeration_ < 5.0) attitude_exaggeration_ = 5.0;
    else if (*attitude_exaggeration_ < 20.0) attitude_exaggeration_ = 20.0;
    else attitude_exaggeration_.reset();
    Note(attitude_exaggeration_
             ? fmt::format("attitude \xc3\x97{:g}", *attitude_exaggeration_)
             : std::string("attitude exaggeration: auto"));
  }

  // The glyph's exaggerations: chosen (the same on all three angles), or
  // from the segment's largest perturbations so far, the heading's on its
  // own (a Dutch roll's yaw is a third to a seventh of its bank).
  GlyphExaggeration AttitudeExaggeration() const {
    if (attitude_exaggeration_) return {*attitude_exaggeration_, *attitude_exaggeration_};
    return AutoGlyphExaggeration(session_.attitude_peak());
  }

  // off → light → moderate → severe → off; each starts a new segment at trim.
  // The file's [augmentation] on <-> off: a new segment, started as the
  // current one was (trim or the mode excited).
  void ToggleAugmentation() {
    if (!session_.augmentable()) {
      Note("no [augmentation] in the file: `aerolin augment FILE --axis ... --write OUT.toml` "
           "designs one (docs/augmentation.md)");
      return;
    }
    session_.SetAugmentation(!session_.augmentation_on());
    const std::optional<Excitation> e = session_.excitation();
    Note(fmt::format("augmentation {}: {}; new log {}",
                     session_.augmentation_on() ? "on" : "off (bare airframe)",
                     e ? "restarted on the " + ToString(*e) : std::string("reset to trim"),
                     session_.csv_path()));
  }

  // The nonlinear aircraft beside the linear one on <-> off (no new segment).
  void ToggleNonlinear() {
    if (session_.nonlinear_wanted()) {
      session_.SetNonlinear(false);
      Note("nonlinear aircraft beside: off (N)");
    } else if (session_.SetNonlinear(true)) {
      Note(fmt::format("nonlinear aircraft beside (N): on, from the linear state at t = {:.1f} s",
                       session_.time()));
    } else {
      Note("nonlinear aircraft beside (N): not flown: " +
           session_.nonlinear_refusal().value_or("it stopped"));
    }
  }

  void CycleTurbulence() {
    using sim::TurbulenceIntensity;
    const auto now = session_.turbulence();
    std::optional<TurbulenceIntensity> next;
    if (!now) next = TurbulenceIntensity::kLight;
    else if (*now == TurbulenceIntensity::kLight) next = TurbulenceIntensity::kModerate;
    else if (*now == TurbulenceIntensity::kModerate) next = TurbulenceIntensity::kSevere;
    try {
      session_.SetTurbulence(next);
    } catch (const std::invalid_argument& e) {
      Note(e.what());
      return;
    }
    const study::TurbulenceHeightChoice& h = session_.turbulence_height();
    Note(next ? fmt::format("turbulence {} at {:.0f} m above ground ({}); new log {}",
                            sim::ToString(*next), h.height, study::ToString(h.source),
                            session_.csv_path())
              : "turbulence off; new log " + session_.csv_path());
  }

  // The exaggeration of the current camera: the chase view shows the
  // aircraft's true climb angle (×1).
  double Exaggeration() const {
    if (mode_ == CameraMode::kChase) return 1.0;
    return exaggeration_ ? *exaggeration_ : AutoVerticalExaggeration(session_.path().bounds());
  }

  void Excite(Excitation e) {
    if (session_.Excite(e)) Note("excited " + ToString(e) + "; new log " + session_.csv_path());
    else Note("this aircraft has no " + ToString(e) + " mode");
  }

  void Note(const std::string& text) {
    message_ = text;
    message_until_ = Clock::now() + std::chrono::seconds(4);
    std::cout << text << '\n';
  }

  void Snapshot() {
    session_.MaybeFlush(true);
    std::filesystem::create_directories(options_.snapshot_dir);
    // Named by the time the HUD shows (the newest slice: drawn with
    // final_frame), zero-padded so that names sort by time.
    const std::string stem =
        (std::filesystem::path(options_.snapshot_dir) /
         fmt::format("aerolin-fly-t{:08.1f}-{:02d}", session_.time(), ++snapshots_))
            .string();
    Render(0.0, /*final_frame=*/true);
    SaveWindow(window_, stem + ".png");
    if (!session_.csv_path().empty()) {
      namespace fs = std::filesystem;
      // Copies of whole files (the log holds whole rows after the flush),
      // each written atomically; the script copy's replay line names the
      // copies, not the live log that goes on growing.
      for (const auto& [from, to] : {std::pair{session_.csv_path(), stem + ".csv"},
                                     std::pair{session_.script_path(), stem + ".script.txt"}}) {
        std::ifstream in(from, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) throw std::runtime_error("cannot read '" + from + "' for the snapshot");
        std::string contents = text.str();
        if (to == stem + ".script.txt")
          contents = RetargetReplayLine(contents, session_.script_path(), to, stem + ".replay.csv");
        core::WriteFileAtomically(to, contents);
      }
      Note("saved " + stem + ".png/.csv/.script.txt");
    } else {
      Note("saved " + stem + ".png");
    }
  }

  pilot::KeySet HeldKeys() const {
    pilot::KeySet set;
    for (int k = 0; k < pilot::kNumKeys; ++k)
      if (keys_.Active(k)) set.Set(static_cast<Key>(k));
    return set;
  }

  void StepOnce() {
    try {
      if (options_.script == nullptr) session_.Hold(HeldKeys());
      session_.Step();
    } catch (const core::NumericalError& e) {
      if (options_.script != nullptr) throw;
      clock_.SetPaused(true);
      Note(std::string("simulation stopped: ") + e.what() + " (R resets)");
    }
    keys_.SliceDone();
  }

  // Real time: pay the slices owed, but stop after kSliceBudget of wall time
  // so the window keeps drawing; what is left stays owed (no simulated time
  // or input is dropped) and the frame counts as an overrun.
  void RunRealTimeSlices(double wall_dt, long total) {
    clock_.AdvanceWall(std::min(wall_dt, 1.0));
    const auto deadline = Clock::now() + std::chrono::duration<double>(kSliceBudget);
    while (clock_.SliceDue() && Clock::now() < deadline) {
      if (total >= 0 && session_.slice_index() >= total) break;
      StepOnce();
      clock_.ConsumeSlice();
    }
    clock_.EndFrame();
  }

  void RunFastSlices(long total, double stop_at_time) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(kFastBudget);
    while (session_.slice_index() < total && Clock::now() < deadline) {
      StepOnce();
      if (stop_at_time >= 0 && session_.time() + 1e-9 >= stop_at_time) break;
    }
  }

  void UpdateRates(Clock::time_point now) {
    samples_.push_back({now, session_.time() + session_.slice_index() * 0.0, ++frames_});
    while (samples_.size() > 2 &&
           std::chrono::duration<double>(now - samples_.front().wall).count() > 1.0)
      samples_.pop_front();
    const double span = std::chrono::duration<double>(now - samples_.front().wall).count();
    if (span > 0.2) {
      fps_ = (samples_.back().frame - samples_.front().frame) / span;
      const double dsim = samples_.back().sim - samples_.front().sim;
      rtf_ = dsim >= 0 ? dsim / span : 0.0;  // a reset restarts sim time
    }
  }

  void UpdateCamera(const Eigen::Vector3d& aircraft, double psi, double phi, double wall_dt) {
    const auto [w, h] = window_.getSize();
    const double aspect = SceneWidth() / std::max(1u, h);
    camera_.roll = mode_ == CameraMode::kChase ? phi : 0.0;
    switch (mode_) {
      case CameraMode::kOverview: {
        Bounds b = Exaggerated(session_.path().bounds(), Exaggeration());
        b.Extend(aircraft);
        const OrbitCamera goal = FitToBounds(DrawnBounds(b), camera_, aspect, kMinFitRadius);
        camera_.target = SmoothApproach(camera_.target, goal.target, wall_dt, kFitTau);
        fit_distance_ = SmoothApproach(fit_distance_ > 0 ? fit_distance_ : goal.distance,
                                       goal.distance, wall_dt, kFitTau);
        camera_.distance = fit_distance_ * overview_zoom_;
        break;
      }
      case CameraMode::kChase: {
        // Behind the aircraft: heading ψ from north toward east.
        const double behind = std::atan2(-std::cos(psi), -std::sin(psi)) + chase_offset_;
        camera_.azimuth = SmoothApproachAngle(camera_.azimuth, behind, wall_dt, kChaseTau);
        camera_.target = aircraft;
        camera_.distance = SmoothApproach(camera_.distance, chase_distance_, wall_dt, kChaseTau);
        break;
      }
      case CameraMode::kFree:
        // Orbit around the aircraft at the angle and distance the user set
        // (mouse): a fixed target would lose the aircraft within seconds,
        // and there is no pan to bring it back.
        camera_.target = aircraft;
        break;
    }
  }

  void Render(double wall_dt, bool final_frame = false) {
    const auto start = Clock::now();
    const double alpha = final_frame ? 1.0 : clock_.Alpha();
    const bool realtime_draw = options_.script == nullptr || options_.realtime;
    const sim::FlightState x =
        realtime_draw ? Interpolate(session_.previous_state(), session_.state(), alpha)
                      : session_.state();
    const double k = Exaggeration();
    Eigen::Vector3d aircraft = core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]);
    aircraft.z() *= k;
    UpdateCamera(aircraft, x[sim::kPsi], x[sim::kPhi], wall_dt);

    session_.path().Collect(&path_points_);
    for (Eigen::Vector3d& p : path_points_) p.z() *= k;
    if (!path_points_.empty()) path_points_.back() = aircraft;

    const sf::Vector2u size = window_.getSize();
    const Projector projector(camera_, int(size.x), int(size.y));
    SceneView view;
    view.path = &path_points_;
    view.bounds = Exaggerated(session_.path().bounds(), k);
    view.bounds.Extend(aircraft);
    view.vertical_exaggeration = k;
    // Chase and free orbit keep a ground grid under the aircraft, however
    // far it has flown; the overview's covers the whole flight.
    if (mode_ != CameraMode::kOverview) view.follow_distance = camera_.distance;
    view.aircraft = aircraft;
    // The glyph's attitude, its perturbations from trim exaggerated ×ka so
    // a mode shows in its own terms (bank, yaw, pitch); the path, the
    // camera and the HUD's attitude indicator stay true.
    const GlyphExaggeration glyph = AttitudeExaggeration();
    const double ka = glyph.attitude, kh = glyph.heading;
    view.attitude = core::BodyToPlot(kh * x[sim::kPsi], session_.model().theta0() + ka * x[sim::kTheta],
                                     ka * x[sim::kPhi]);
    // The wing tips' trail: the same exaggerations, ending at the glyph.
    auto drawn_trail = [&](const std::deque<FlightSession::TrailPoint>& points,
                           std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>>& out) {
      out.clear();
      for (const FlightSession::TrailPoint& p : points) {
        Eigen::Vector3d at = p.position;
        at.z() *= k;
        out.push_back({at, core::BodyToPlot(kh * p.psi, session_.model().theta0() + ka * p.theta,
                                            ka * p.phi)});
      }
    };
    drawn_trail(session_.trail(), trail_);
    if (!trail_.empty()) trail_.back() = {aircraft, view.attitude};
    view.trail = &trail_;
    // The nonlinear aircraft beside (N): its own position and attitude, drawn
    // as the linear glyph is (same exaggerations); the camera stays on the
    // linear one.
    std::optional<sim::FlightState> xn;
    if (session_.nonlinear_on()) {
      xn = realtime_draw ? Interpolate(session_.nonlinear_previous_state(),
                                       session_.nonlinear_state(), alpha)
                         : session_.nonlinear_state();
      SceneView::Beside& b = view.nonlinear.emplace();
      b.position = core::NedToPlot((*xn)[sim::kNorth], (*xn)[sim::kEast], (*xn)[sim::kDown]);
      b.position.z() *= k;
      b.attitude = core::BodyToPlot(kh * (*xn)[sim::kPsi],
                                    session_.model().theta0() + ka * (*xn)[sim::kTheta],
                                    ka * (*xn)[sim::kPhi]);
      drawn_trail(session_.nonlinear_trail(), nonlinear_trail_);
      if (!nonlinear_trail_.empty()) nonlinear_trail_.back() = {b.position, b.attitude};
      b.trail = &nonlinear_trail_;
      view.bounds.Extend(b.position);
    }
    window_.clear();
    // The projector centres on its own viewport; shifting the view moves
    // that centre into the middle of the area right of the state panel.
    const float dx = SceneCentreOffset();
    const sf::View pixels(sf::FloatRect(0, 0, float(size.x), float(size.y)));
    window_.setView(sf::View(sf::FloatRect(-dx, 0, float(size.x), float(size.y))));
    // Labels stay clear of the HUD panels (last frame's: they move only
    // when the window or the HUD's content changes size).
    std::vector<sf::FloatRect> keep_out = hud_->panels();
    for (sf::FloatRect& r : keep_out) r.left -= dx;
    scene_->SetKeepOut(std::move(keep_out));
    scene_->Draw(window_, projector, view);
    window_.setView(pixels);
    aircraft_px_ = scene_->aircraft_on_screen();
    if (aircraft_px_) aircraft_px_->x += dx;

    // The HUD from the model; then the window's own readings.
    HudState& h = hud_model_.Update(x, (1.0 - alpha) * (realtime_draw ? session_.dt() : 0.0),
                                    xn ? &*xn : nullptr);
    h.frame_cost = frame_cost_;
    h.fps = fps_;
    h.as_fast_as_possible = options_.script != nullptr && !options_.realtime;
    h.time_scale = clock_.time_scale();
    h.realtime_factor = rtf_;
    h.behind = clock_.SliceDue() ? clock_.owed() : 0.0;
    h.overruns = clock_.overruns();
    h.drawn_points = path_points_.size();
    h.paused = clock_.paused();
    h.camera_mode = ToString(mode_);
    h.message = Clock::now() < message_until_ ? message_ : std::string();
    h.vertical_exaggeration = k;
    h.exaggeration_auto = !exaggeration_ && mode_ != CameraMode::kChase;
    h.attitude_exaggeration = ka;
    h.heading_exaggeration = kh;
    h.panels = Panels();
    h.attitude_exaggeration_auto = !attitude_exaggeration_;
    hud_->Draw(window_, h);
    if (help_) hud_->DrawHelp(window_, KeyBindings());
    frame_cost_ = std::chrono::duration<double>(Clock::now() - start).count();
  }

  struct RateSample {
    Clock::time_point wall;
    double sim;
    long frame;
  };

  FlightSession& session_;
  WindowOptions options_;
  sf::RenderWindow window_;
  sf::Font sans_, mono_;
  std::unique_ptr<SceneRenderer> scene_;
  std::unique_ptr<HudRenderer> hud_;
  HudModel hud_model_;
  SliceClock clock_;
  KeyLatch<pilot::kNumKeys> keys_;
  CameraMode mode_ = CameraMode::kOverview;
  std::optional<double> exaggeration_;  // nullopt: automatic
  std::optional<double> attitude_exaggeration_;  // nullopt: automatic
  std::optional<PanelMode> panels_;  // nullopt: DefaultPanelMode of the size
  OrbitCamera camera_;
  double overview_zoom_ = 1.0, fit_distance_ = 0.0;
  double chase_distance_ = kDefaultChaseDistance, chase_offset_ = 0.0;
  bool dragging_ = false;
  sf::Vector2i drag_from_;
  bool help_ = false;
  std::vector<Eigen::Vector3d> path_points_;
  std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>> trail_;
  std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>> nonlinear_trail_;
  std::optional<ScreenPoint> aircraft_px_;
  std::deque<RateSample> samples_;
  long frames_ = 0;
  double fps_ = 0.0, rtf_ = 0.0, frame_cost_ = 0.0;
  double last_render_time_ = 0.0;
  std::string message_;
  Clock::time_point message_until_;
  int snapshots_ = 0;
};

}  // namespace

const std::vector<KeyHelp>& KeyBindings() {
  static const std::vector<KeyHelp> keys = {
      {"Num4 / Num6   (\xe2\x86\x90 / \xe2\x86\x92)", "roll left / right (aileron; ramps while held)"},
      {"Num7 / Num9   (Q / E)", "yaw left / right (rudder)"},
      {"Num8 / Num5   (\xe2\x86\x91 / \xe2\x86\x93)", "nose down / up (elevator: stick forward / back)"},
      {"Num+ / Num\xe2\x88\x92   (= / -)", "more / less thrust (throttle)"},
      {"", "keys act by effect on every aircraft (data signs aside)"},
      {"", "released controls decay \xc3\x97" "0.5 per 0.1 s"},
      {"P / Space", "pause / resume"},
      {"R", "reset to trim (starts a new log)"},
      {"1 2 3 4 5", "excite short period / phugoid / Dutch roll / roll / spiral"},
      {"[  /  ]", "time \xc3\x97" "0.5 / \xc3\x97" "2 (0.25\xc3\x97 to 16\xc3\x97)"},
      {"S", "save screenshot PNG + the flight so far"},
      {", / .", "excitation amplitude \xc3\x97" "0.5 / \xc3\x97" "2 (next 1\xe2\x80\x93" "5)"},
      {"T", "turbulence off \xe2\x86\x92 light \xe2\x86\x92 moderate \xe2\x86\x92 severe (new log)"},
      {"G", "augmentation on / off (the file's [augmentation]; new log)"},
      {"N", "the nonlinear aircraft beside: on / off (violet glyph)"},
      {"C", "camera: overview \xe2\x86\x92 chase \xe2\x86\x92 free orbit"},
      {"X", "altitude exaggeration auto \xe2\x86\x92 \xc3\x97" "1 \xe2\x86\x92 \xc3\x97" "10 \xe2\x86\x92 \xc3\x97" "30"},
      {"A", "glyph attitude exaggeration auto \xe2\x86\x92 \xc3\x97" "1 \xe2\x86\x92 \xc3\x97" "5 \xe2\x86\x92 \xc3\x97" "20"},
      {"V", "reset the view"},
      {"mouse drag / wheel", "orbit / zoom"},
      {"Tab", "panels full \xe2\x86\x92 compact \xe2\x86\x92 hidden (compact below 1100\xc3\x97" "700)"},
      {"H / F1", "this help"},
      {"Esc / close", "quit (the log is already on disk)"},
  };
  return keys;
}

int RunFlightWindow(FlightSession& session, const WindowOptions& options) {
  RequireDisplay();
  if (!options.frames_dir.empty()) std::filesystem::create_directories(options.frames_dir);
  FlightWindow window(session, options);
  return window.Run();
}

}  // namespace aerolin::viz
