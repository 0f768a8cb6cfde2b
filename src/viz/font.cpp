#include "aerolin/viz/font.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace aerolin::viz {

std::vector<std::string> FontSearchPath(const std::string& file_name) {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("AEROLIN_FONT_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  dirs.insert(dirs.end(), {"/usr/share/fonts/truetype/dejavu",
                           "/usr/share/fonts/dejavu",
                           "/usr/share/fonts/TTF",
                           "/usr/local/share/fonts"});
  std::vector<std::string> paths;
  for (const std::string& dir : dirs) paths.push_back(dir + "/" + file_name);
  return paths;
}

std::string FindFont(const std::string& file_name) {
  const std::vector<std::string> paths = FontSearchPath(file_name);
  std::string tried;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path;
    tried += "\n  " + path;
  }
  throw std::runtime_error("font '" + file_name + "' not found; tried:" + tried +
                           "\n(install it with 'apt-get install fonts-dejavu-core', "
                           "or point AEROLIN_FONT_DIR at a directory holding it)");
}

}  // namespace aerolin::viz
