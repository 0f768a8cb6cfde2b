// Frame cost of the flight window versus flight length: 1 min and 1 h of
// logged flight at 0.1 s slices, and 1 h at 0.01 s. The drawn path is
// decimated (viz::PathDecimator), so the cost should not grow with length.
//
// BM_FrameGeometry needs no display (collect + project the path);
// BM_FrameDraw draws scene + HUD into an off-screen sf::RenderTexture and
// needs an OpenGL context: run it under `xvfb-run -a` on a headless machine.

#include <benchmark/benchmark.h>

#include <SFML/Graphics.hpp>
#include <map>
#include <memory>

#include "aerolin/core/frames.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/viz/camera.hpp"
#include "aerolin/viz/font.hpp"
#include "aerolin/viz/hud.hpp"
#include "aerolin/viz/path_decimator.hpp"
#include "aerolin/viz/scene.hpp"

namespace {

using namespace aerolin;

// A flight of `slices` slices of `dt` seconds under a script that keeps the
// aircraft manoeuvring (alternating banks and pitch inputs), stored in the
// decimated path exactly as the window stores it.
const viz::PathDecimator& Flight(long slices, double dt) {
  static std::map<std::pair<long, double>, std::unique_ptr<viz::PathDecimator>> cache;
  auto& entry = cache[{slices, dt}];
  if (entry) return *entry;
  const data::LoadResult loaded =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  std::string text;
  for (double t = 0; t < slices * dt; t += 40.0)
    text += std::to_string(t) + " " + std::to_string(t + 1.0) + " 4\n" +
            std::to_string(t + 20.0) + " " + std::to_string(t + 21.0) + " 6\n" +
            std::to_string(t + 5.0) + " " + std::to_string(t + 5.5) + " 8\n";
  const pilot::PilotScript script = pilot::ParsePilotScript(text, "<bench>", loaded.aircraft.controls);
  pilot::ScriptedPilot scripted(script, loaded.aircraft.controls, dt);
  sim::SimulationOptions options;
  options.slice.dt = dt;
  options.duration = slices * dt;
  options.validity.divergence = 1e9;  // a long flight may leave the linear range; keep drawing it
  const sim::SimulationResult run =
      sim::Simulate(sim::FlightModel(loaded.aircraft), sim::FlightState::Zero(), scripted, options);
  entry = std::make_unique<viz::PathDecimator>();
  for (const sim::FlightState& x : run.log.state)
    entry->Append(core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]));
  return *entry;
}

viz::OrbitCamera Overview(const viz::PathDecimator& path) {
  viz::OrbitCamera cam;
  cam.azimuth = -2.3;
  cam.elevation = 0.42;
  cam.fov_y = 0.75;
  return viz::FitToBounds(path.bounds(), cam, 1.6, 600.0);
}

void BM_FrameGeometry(benchmark::State& state) {
  const viz::PathDecimator& path = Flight(state.range(0), state.range(1) / 1000.0);
  const viz::Projector projector(Overview(path), 1280, 800);
  std::vector<Eigen::Vector3d> points;
  points.reserve(path.max_drawn());
  for (auto _ : state) {
    path.Collect(&points);
    double sum = 0;
    for (std::size_t i = 1; i < points.size(); ++i)
      if (auto seg = projector.ProjectSegment(points[i - 1], points[i])) sum += seg->first.x;
    benchmark::DoNotOptimize(sum);
  }
  state.counters["samples"] = double(path.num_samples());
  state.counters["drawn"] = double(points.size());
}

void BM_FrameDraw(benchmark::State& state) {
  const viz::PathDecimator& path = Flight(state.range(0), state.range(1) / 1000.0);
  static sf::RenderTexture* target = nullptr;
  static sf::Font sans, mono;
  if (target == nullptr) {
    target = new sf::RenderTexture;
    if (!target->create(1280, 800) || !sans.loadFromFile(viz::FindFont("DejaVuSans.ttf")) ||
        !mono.loadFromFile(viz::FindFont("DejaVuSansMono.ttf"))) {
      state.SkipWithError("no OpenGL context or fonts (run under xvfb-run -a)");
      return;
    }
  }
  viz::SceneRenderer scene(sans);
  viz::HudRenderer hud(sans, mono);
  const viz::Projector projector(Overview(path), 1280, 800);
  std::vector<Eigen::Vector3d> points;
  viz::HudState h;
  h.aircraft = "bench";
  h.modes.resize(5, viz::ModeRow{"mode", 1.0, 0.5, 3.0, std::nullopt, true, std::nullopt});
  h.controls.resize(4, viz::ControlGauge{"control", core::Unit::kRadian, 0.01, 0.1, "8/5"});
  for (auto _ : state) {
    path.Collect(&points);
    viz::SceneView view;
    view.path = &points;
    view.bounds = path.bounds();
    view.aircraft = points.back();
    target->clear();
    scene.Draw(*target, projector, view);
    hud.Draw(*target, h);
    target->display();
  }
  state.counters["samples"] = double(path.num_samples());
  state.counters["drawn"] = double(points.size());
}

// Args: {slices, dt in ms}: 1 min and 1 h at 0.1 s, 1 h at 0.01 s.
BENCHMARK(BM_FrameGeometry)->Args({600, 100})->Args({36000, 100})->Args({360000, 10})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FrameDraw)->Args({600, 100})->Args({36000, 100})->Args({360000, 10})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
