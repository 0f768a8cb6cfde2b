#include "mathgl_canvas.hpp"

#include "aerolin/core/files.hpp"
#include "aerolin/export/svg_text.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <filesystem>
#include <map>
#include <numbers>
#include <stdexcept>
#include <system_error>

#include <cairo-pdf.h>
#include <librsvg/rsvg.h>
#include <mgl2/canvas.h>
#include <mgl2/font.h>

namespace aerolin::exporting {

ImageFormat ImageFormatOf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".png") return ImageFormat::kPng;
  if (ext == ".svg") return ImageFormat::kSvg;
  if (ext == ".eps") return ImageFormat::kEps;
  if (ext == ".pdf") return ImageFormat::kPdf;
  throw std::invalid_argument(path + ": unknown image format '" + ext +
                              "' (expected .png, .svg, .eps or .pdf)");
}

namespace internal {
namespace {

// Appends what a cairo stream writes to a std::string (its closure).
cairo_status_t AppendToString(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

// MathGL 8.0 (Debian) writes PDF only as a 3D (PRC) annotation on an empty
// page, so a PDF figure is MathGL's SVG drawn onto a cairo PDF page by
// librsvg: vector output, 1 px of the SVG = 0.75 pt (96 dpi). Returns the
// PDF's bytes; `pdf_path` names it in messages.
std::string SvgToPdf(const std::string& svg, const std::string& pdf_path) {
  GError* error = nullptr;
  RsvgHandle* handle = rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()),
                                                 svg.size(), &error);
  if (handle == nullptr) {
    const std::string why = error ? error->message : "unknown error";
    if (error) g_error_free(error);
    throw std::runtime_error(pdf_path + ": cannot write image (librsvg: " + why + ")");
  }
  gdouble width = 0.0, height = 0.0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height)) {
    g_object_unref(handle);
    throw std::runtime_error(pdf_path + ": cannot write image (librsvg: SVG has no size)");
  }
  constexpr double kPointsPerPixel = 0.75;
  std::string pdf;
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(
      AppendToString, &pdf, width * kPointsPerPixel, height * kPointsPerPixel);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, kPointsPerPixel, kPointsPerPixel);
  const RsvgRectangle viewport{0.0, 0.0, width, height};
  const gboolean drawn = rsvg_handle_render_document(handle, cr, &viewport, &error);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  const cairo_status_t status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  g_object_unref(handle);
  if (!drawn || status != CAIRO_STATUS_SUCCESS) {
    const std::string why = error ? error->message : cairo_status_to_string(status);
    if (error) g_error_free(error);
    throw std::runtime_error(pdf_path + ": cannot write image (" + why + ")");
  }
  return pdf;
}

// The PNG of `graph` (MathGL's RGB pixels, as its WritePNG without alpha),
// encoded in memory by cairo: MathGL's own PNG writer aborts the process on
// a write error (libpng's "Write Error" with no error handler).
std::string PngBytes(mglGraph& graph, const std::string& path) {
  const int w = graph.GetWidth(), h = graph.GetHeight();
  const unsigned char* rgb = graph.GetRGB();
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
  std::string png;
  cairo_status_t status = cairo_surface_status(surface);
  if (status == CAIRO_STATUS_SUCCESS && rgb != nullptr) {
    cairo_surface_flush(surface);
    unsigned char* data = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < h; ++y) {
      auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
      const unsigned char* in = rgb + 3 * static_cast<std::ptrdiff_t>(y) * w;
      for (int x = 0; x < w; ++x, in += 3)
        row[x] = (std::uint32_t{in[0]} << 16) | (std::uint32_t{in[1]} << 8) | in[2];
    }
    cairo_surface_mark_dirty(surface);
    status = cairo_surface_write_to_png_stream(surface, AppendToString, &png);
  }
  cairo_surface_destroy(surface);
  if (rgb == nullptr) throw std::runtime_error(path + ": cannot write image (MathGL drew no pixels)");
  if (status != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(path + ": cannot write image (cairo: " +
                             std::string(cairo_status_to_string(status)) + ")");
  return png;
}

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string ErrnoText(int error) {
  return error != 0 ? std::string(std::strerror(error)) : std::string("unknown error");
}

// What MathGL's file writer `write` (given a path) writes, caught in an
// anonymous memory file: MathGL's writers ignore their stdio errors, so a
// full disk left a truncated file behind and no error. `complete` says
// whether the bytes are whole (e.g. end with "</svg>"); `path` names the
// figure in messages, "PATH: cannot write (errno text)" as core::AtomicOutput's.
template <typename Write, typename Complete>
std::string WrittenByMathGL(mglGraph& graph, const std::string& path, Write write,
                            Complete complete) {
  Fd memory{::memfd_create("aerolin-figure", MFD_CLOEXEC)};
  if (memory.fd < 0)
    throw std::runtime_error(path + ": cannot write (" + ErrnoText(errno) + ")");
  const std::string name = "/proc/self/fd/" + std::to_string(memory.fd);
  errno = 0;
  write(name.c_str());
  const int write_error = errno;
  if (graph.GetWarn() != 0) return {};  // reported by WriteCanvas
  std::string bytes;
  char buffer[65536];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(memory.fd, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw std::runtime_error(path + ": cannot write (" + ErrnoText(errno) + ")");
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
  if (!complete(bytes))
    throw std::runtime_error(path + ": cannot write (" + ErrnoText(write_error) + ")");
  return bytes;
}

bool EndsWith(const std::string& text, std::string_view end) {
  const std::size_t last = text.find_last_not_of(" \n\r\t");
  return last != std::string::npos && last + 1 >= end.size() &&
         std::string_view(text).substr(last + 1 - end.size(), end.size()) == end;
}

// MathGL's glyph outlines are about 500 units to its font's em; the SVG
// text is set at 455 / 500 of that so that DejaVu Serif (Debian's serif, a
// wide face, librsvg ignoring font-stretch and textLength) runs no wider than
// MathGL's glyphs did: measured on the rendered titles and labels of the
// figures (DejaVu at 500 units was 10 % wider).
constexpr double kGlyphUnitsPerEm = 455.0;

// Every text MathGL drew on `graph`, where and how big it drew it: a text is
// MathGL primitive 6 (the string, its colour), its characters primitives 4
// (glyphs) whose n2 is the text's anchor point; the first glyph gives the
// baseline start, the largest the font size (subscripts are smaller).
std::vector<SvgTextItem> DrawnTexts(mglGraph& graph) {
  mglBase& base = *graph.Self();
  const double height = graph.GetHeight();
  struct Found {
    long anchor;
    std::wstring text;
    std::string style;
    std::uint32_t rgb;
    bool has_glyph = false;
    double x = 0, y = 0, angle = 0, scale = 0, length = 0;
  };
  std::vector<Found> texts;
  std::map<long, std::size_t> by_anchor;
  for (long i = 0; i < base.GetPrmNum(); ++i) {
    const mglPrim& q = base.GetPrm(i, false);
    if (q.type == 6 && q.n3 >= 0 && q.n3 < base.GetPtxNum()) {
      // n2 packs the colour as r + 256 g + 65536 b.
      const auto packed = static_cast<std::uint32_t>(q.n2);
      const std::uint32_t rgb = ((packed & 0xFF) << 16) | (packed & 0xFF00) | ((packed >> 16) & 0xFF);
      by_anchor[q.n1] = texts.size();
      texts.push_back({q.n1, base.GetPtx(q.n3).text, base.GetPtx(q.n3).stl, rgb});
    } else if (q.type == 4 && !(q.n3 & 8)) {
      const auto found = by_anchor.find(q.n2);
      if (found == by_anchor.end()) continue;
      Found& t = texts[found->second];
      const mglPnt& p = base.GetPnt(q.n1);
      const double scale = 0.5 * q.s * q.p;  // pixels per glyph unit
      if (!t.has_glyph) {
        // MathGL's SVG: translate(x, H − y) scale(ss, −ss) rotate(−φ), the
        // glyph at (u, v)/p with ss = s p / 2; φ as MathGL computes it (NaN:
        // not drawn). The glyph's origin, in pixels from the top left:
        const double phi = base.GetGlyphPhi(base.GetPnt(q.n2), q.w);
        if (std::isnan(phi)) continue;
        const double theta = -phi * std::numbers::pi / 180.0;
        const double gx = 0.5 * q.s * p.u, gy = 0.5 * q.s * p.v;
        t.x = p.x + gx * std::cos(theta) - gy * std::sin(theta);
        t.y = (height - p.y) - (gx * std::sin(theta) + gy * std::cos(theta));
        t.angle = phi;
        // Glyph offsets (u, v) are in the font's width units, drawn at s / 2.
        t.length = base.GetFont()->Width(t.text.c_str(), t.style.c_str()) * 0.5 * q.s;
        t.has_glyph = true;
      }
      t.scale = std::max(t.scale, scale);
    }
  }
  std::vector<SvgTextItem> items;
  for (const Found& t : texts)
    if (t.has_glyph)
      items.push_back({t.x, t.y, t.angle, kGlyphUnitsPerEm * t.scale, t.rgb, t.text, t.length});
  return items;
}

// MathGL's SVG of `graph` with real text (svg_text.hpp); `path` names it in
// messages. Empty when MathGL warned (reported by WriteCanvas).
std::string SvgWithText(mglGraph& graph, const std::string& path) {
  const std::vector<SvgTextItem> texts = DrawnTexts(graph);
  const std::string svg = WrittenByMathGL(
      graph, path, [&](const char* name) { graph.WriteSVG(name, ""); },
      [](const std::string& bytes) { return EndsWith(bytes, "</svg>"); });
  if (graph.GetWarn() != 0) return {};
  return ReplaceGlyphsWithText(svg, texts);
}

}  // namespace

std::unique_ptr<mglGraph> MakeCanvas(const PlotOptions& options,
                                     const std::string& path) {
  ImageFormatOf(path);  // fail before drawing
  if (options.width_px <= 0 || options.height_px <= 0)
    throw std::invalid_argument(
        path + ": image size must be positive, got " +
        std::to_string(options.width_px) + "x" +
        std::to_string(options.height_px) + " px");
  // MathGL prints its warnings to stderr by default; aerolin reports them
  // through the exception thrown by WriteCanvas instead.
  mglGraph::SuppressWarn(true);
  auto graph = std::make_unique<mglGraph>(0, options.width_px,
                                          options.height_px);
  graph->Clf('w');
  graph->Light(false);
  graph->SetQuality(MGL_DRAW_NORM);
  return graph;
}

void InPanel(mglGraph& graph, const PanelRect& rect, double font_size) {
  // MathGL shrinks an InPlot area about its centre by its plot factor (1.55
  // by default) to leave room for labels; undo that so the box lands on
  // `rect`. Text scales with the area too, so the caller sets the font after.
  constexpr double kMathGLPlotFactor = 1.55;
  const double cx = 0.5 * (rect.x0 + rect.x1);
  const double cy = 0.5 * (rect.y0 + rect.y1);
  const double hx = 0.5 * (rect.x1 - rect.x0) * kMathGLPlotFactor;
  const double hy = 0.5 * (rect.y1 - rect.y0) * kMathGLPlotFactor;
  graph.InPlot(cx - hx, cx + hx, cy - hy, cy + hy, false);
  graph.SetFontSize(font_size);
}

double SmallImageTextScale(mglGraph& graph) {
  const PlotOptions reference;
  const double r = std::min(graph.GetWidth() / static_cast<double>(reference.width_px),
                            graph.GetHeight() / static_cast<double>(reference.height_px));
  return r < 1.0 ? 1.0 / std::sqrt(r) : 1.0;
}

std::array<double, 2> TextSizePx(mglGraph& graph, const std::wstring& text, double scale) {
  // Pixels per MathGL font unit at font size 1 and font factor 1: measured
  // on PNGs at 800x600 and 1200x900, font sizes 1.4-4 and panels of several
  // sizes (predicted widths within 1 px of the ink).
  constexpr double kPixelsPerFontUnit = 0.04923;
  // The ink of a line (cap height plus descender) over MathGL's line height.
  constexpr double kInkOverLineHeight = 0.72;
  mglBase& base = *graph.Self();
  mglFont& font = *base.GetFont();
  const double px = kPixelsPerFontUnit * scale * base.GetFontSize() * base.FontFactor();
  return {font.Width(text.c_str(), "") * px, kInkOverLineHeight * font.Height("") * px};
}

PanelMap MapPanel(mglGraph& graph, const AxisRange& x, const AxisRange& y) {
  const mglPoint lo = graph.CalcScr(mglPoint(x.min, y.min));
  const mglPoint hi = graph.CalcScr(mglPoint(x.max, y.max));
  return {x, y, {lo.x, hi.x, lo.y, hi.y}};
}

namespace {
// Legend geometry relative to the text height h: padding inside the frame,
// the line sample's length and the gap after it, the row pitch.
constexpr double kLegendPad = 0.45;
constexpr double kLegendSample = 1.8;
constexpr double kLegendSampleGap = 0.4;
constexpr double kLegendRowPitch = 1.35;
}  // namespace

std::array<double, 2> LegendSizePx(mglGraph& graph, const std::vector<LegendEntry>& entries) {
  double text_w = 0.0, h = 0.0;
  for (const LegendEntry& e : entries) {
    const std::array<double, 2> size = TextSizePx(graph, e.text);
    text_w = std::max(text_w, size[0]);
    h = std::max(h, size[1]);
  }
  return {text_w + h * (2.0 * kLegendPad + kLegendSample + kLegendSampleGap),
          h * (2.0 * kLegendPad + kLegendRowPitch * static_cast<double>(entries.size()) -
               (kLegendRowPitch - 1.0))};
}

void DrawLegend(mglGraph& graph, const PanelMap& map, const PixelBox& box,
                const std::vector<LegendEntry>& entries) {
  if (entries.empty()) return;
  double h = 0.0;
  for (const LegendEntry& e : entries) h = std::max(h, TextSizePx(graph, e.text)[1]);
  graph.Face(map.ToData(box.x0, box.y0), map.ToData(box.x1, box.y0), map.ToData(box.x0, box.y1),
             map.ToData(box.x1, box.y1), "w");
  constexpr const char* kFramePen = "{xB0B0B0}1";
  graph.Line(map.ToData(box.x0, box.y0), map.ToData(box.x1, box.y0), kFramePen);
  graph.Line(map.ToData(box.x1, box.y0), map.ToData(box.x1, box.y1), kFramePen);
  graph.Line(map.ToData(box.x1, box.y1), map.ToData(box.x0, box.y1), kFramePen);
  graph.Line(map.ToData(box.x0, box.y1), map.ToData(box.x0, box.y0), kFramePen);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    // Row i's ink box, from the top.
    const double top = box.y1 - h * (kLegendPad + kLegendRowPitch * static_cast<double>(i));
    const double bottom = top - h;
    const double mid = 0.5 * (top + bottom) + 0.1 * h;  // x-height centre
    const double x0 = box.x0 + kLegendPad * h;
    if (!entries[i].pen.empty())
      graph.Line(map.ToData(x0, mid), map.ToData(x0 + kLegendSample * h, mid),
                 entries[i].pen.c_str());
    graph.Putsw(map.ToData(x0 + (kLegendSample + kLegendSampleGap) * h,
                           BaselineForInkBox(bottom, h)),
                entries[i].text.c_str(), ":L");
  }
}

double WidestTickLabelPx(mglGraph& graph, double lo, double hi, double step) {
  double widest = 0.0;
  if (!(step > 0.0) || !(hi > lo)) return widest;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi * (1.0 + 1e-12) + 1e-300; k += 1.0) {
    const double v = std::abs(k) < 0.5 ? 0.0 : k * step;  // no "-0"
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    std::wstring wide(text, text + std::strlen(text));
    widest = std::max(widest, TextSizePx(graph, wide)[0]);
  }
  return widest;
}

void DrawFrame(mglGraph& graph) {
  graph.Grid("xy", "{xD0D0D0}:");
  graph.Box("k", false);
  graph.SetRotatedText(false);  // horizontal tick labels
  graph.Axis("xy");
  graph.SetRotatedText(true);
}

void LabelYClearOfTicks(mglGraph& graph, const std::wstring& text, double widest_tick_px) {
  // MathGL centres a y label about 1.3 h left of the axis (h: TextSizePx
  // height of the font) and Label's "value" option moves it out by about
  // 4.3 h per unit: measured on PNGs. Wanted: the tick labels, a gap of
  // 0.4 h, then the label's half height.
  const double h = TextSizePx(graph, L"0")[1];
  const double wanted = widest_tick_px + 0.4 * h + 0.5 * h;
  const double shift = std::max(0.0, (wanted - 1.3 * h) / (4.3 * h));
  // A label longer than the panel is tall would spill into the panels above
  // and below: set it smaller (MathGL's relative "size", at least 0.6).
  mglBase& base = *graph.Self();
  const double panel_px = std::abs(graph.CalcScr(mglPoint(base.Min.x, base.Max.y)).y -
                                   graph.CalcScr(mglPoint(base.Min.x, base.Min.y)).y);
  const double length = TextSizePx(graph, text)[0];
  const double scale = length > 0.95 * panel_px ? std::max(0.6, 0.95 * panel_px / length) : 1.0;
  char option[64];
  std::snprintf(option, sizeof option, "value %.3f; size %.3f", shift, -scale);
  graph.Label('y', text.c_str(), 0, option);
}

void WriteCanvas(mglGraph& graph, const std::string& path) {
  const ImageFormat format = ImageFormatOf(path);
  // The figure is made in memory, then written atomically (a failed write
  // leaves no partial figure, and its message carries the errno text):
  // MathGL's own writers abort (PNG) or fail silently (SVG, EPS).
  graph.SetWarn(0, "");
  std::string bytes;
  if (format == ImageFormat::kPng) {
    bytes = PngBytes(graph, path);
  } else if (format == ImageFormat::kSvg) {
    bytes = SvgWithText(graph, path);
  } else if (format == ImageFormat::kEps) {
    bytes = WrittenByMathGL(
        graph, path, [&](const char* name) { graph.WriteEPS(name, ""); },
        [](const std::string& eps) { return EndsWith(eps, "%%EOF"); });
  } else {
    const std::string svg = SvgWithText(graph, path);
    if (graph.GetWarn() == 0) bytes = SvgToPdf(svg, path);
  }
  if (graph.GetWarn() != 0 || bytes.empty()) {
    std::string message = graph.Message() ? graph.Message() : "";
    // MathGL starts each message with a newline; keep the report on one line.
    const std::size_t first = message.find_first_not_of(" \n\r\t");
    const std::size_t last = message.find_last_not_of(" \n\r\t");
    message = first == std::string::npos ? "" : message.substr(first, last - first + 1);
    throw std::runtime_error(path + ": cannot write image (MathGL: " +
                             (message.empty() ? std::string("no message") : message) + ")");
  }
  core::WriteFileAtomically(path, bytes);
}

std::wstring Widen(const std::string& utf8) {
  std::wstring out;
  constexpr wchar_t kReplacement = 0xFFFD;
  for (std::size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    int extra = 0;
    char32_t code = 0;
    if (c < 0x80) {
      code = c;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1;
      code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      code = c & 0x07;
    } else {
      out.push_back(kReplacement);
      ++i;
      continue;
    }
    bool valid = true;
    for (int k = 1; k <= extra; ++k) {
      if (i + k >= utf8.size() ||
          (static_cast<unsigned char>(utf8[i + k]) & 0xC0) != 0x80) {
        valid = false;
        break;
      }
      code = (code << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    if (!valid) {
      out.push_back(kReplacement);
      ++i;
      continue;
    }
    out.push_back(static_cast<wchar_t>(code));
    i += extra + 1;
  }
  return out;
}

std::wstring FigureTitle(const PlotOptions& options, const std::string& title) {
  return Widen(options.aircraft.empty() ? title
                                        : options.aircraft + ": " + title);
}

double TitleSizeToFit(mglGraph& graph, const std::wstring& text, double size) {
  const double width = TextSizePx(graph, text, -size)[0];
  const double fits = 0.96 * graph.GetWidth();
  return width > fits ? size * fits / width : size;
}

std::string FlightSubject(const PlotOptions& options, const std::string& subject, bool beside) {
  if (beside) return subject + " (linear and nonlinear models)";
  return options.flown_by.empty() ? subject : subject + " (" + options.flown_by + ")";
}

void CheckBesideFlight(const sim::FlightLog& log, const sim::FlightLog* nonlinear,
                       const std::string& path) {
  if (nonlinear == nullptr) return;
  const std::size_t n = nonlinear->size();
  if (n == 0 || n > log.size() || !std::equal(nonlinear->time.begin(), nonlinear->time.end(), log.time.begin()))
    throw std::invalid_argument(path + ": the nonlinear flight has " + std::to_string(n) +
                                " rows, the linear one " + std::to_string(log.size()) +
                                " (they must be at the same times; the nonlinear one may end first)");
}

}  // namespace internal
}  // namespace aerolin::exporting
