#pragma once
// Runs the built `aerolin` binary and captures its output and exit code.

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace aerolin::testing_cli {

struct CommandResult {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

inline std::string ReadAll(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) text.append(buf.data(), n);
    std::fclose(f);
  }
  return text;
}

/// {width, height} of the PNG at `path`, from its IHDR chunk (bytes 16..23,
/// big-endian); {0, 0} if the file is shorter.
inline std::array<std::uint32_t, 2> PngSize(const std::string& path) {
  const std::string png = ReadAll(path);
  if (png.size() < 24) return {0, 0};
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

/// Runs `AEROLIN_BINARY_DIR/aerolin <args>` from the source directory.
/// `tag` names the temporary files, so tests may run in parallel.
inline CommandResult RunAerolin(const std::string& args, const std::string& tag) {
  const std::string out_path = std::string(AEROLIN_BINARY_DIR) + "/cli_test_" + tag + ".out";
  const std::string err_path = std::string(AEROLIN_BINARY_DIR) + "/cli_test_" + tag + ".err";
  const std::string command = "cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" +
                              std::string(AEROLIN_BINARY_DIR) + "/aerolin' " + args + " >'" +
                              out_path + "' 2>'" + err_path + "'";
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadAll(out_path);
  r.err = ReadAll(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

}  // namespace aerolin::testing_cli
