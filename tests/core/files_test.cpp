#include "aerolin/core/files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "aerolin/core/error.hpp"

namespace aerolin::core {
namespace {

namespace fs = std::filesystem;

fs::path Fresh(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("aerolin_files_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int CountFiles(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}

TEST(AtomicOutput, ReplacesTheTargetOnlyOnCommit) {
  const fs::path dir = Fresh("commit");
  const fs::path target = dir / "out.csv";
  std::ofstream(target) << "old\n";
  {
    AtomicOutput out(target.string());
    out.stream() << "new\n";
    EXPECT_EQ(Read(target), "old\n");  // not yet
    EXPECT_EQ(fs::path(out.temp_path()).parent_path(), dir);
    EXPECT_EQ(fs::path(out.temp_path()).extension(), ".csv");
    out.Commit();
  }
  EXPECT_EQ(Read(target), "new\n");
  EXPECT_EQ(CountFiles(dir), 1);
  {
    AtomicOutput out(target.string());
    out.stream() << "abandoned\n";
  }  // no commit (an exception, a failed run)
  EXPECT_EQ(Read(target), "new\n");
  EXPECT_EQ(CountFiles(dir), 1) << "the temporary file was left behind";
}

TEST(AtomicOutput, KeepsASymbolicLinkAndReplacesItsDestination) {
  const fs::path dir = Fresh("link");
  std::ofstream(dir / "real.txt") << "old";
  fs::create_symlink("real.txt", dir / "link.txt");
  WriteFileAtomically((dir / "link.txt").string(), "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.txt"));
  EXPECT_EQ(Read(dir / "real.txt"), "new");
}

// The message names the target and gives the errno text.
TEST(AtomicOutput, ReportsTheErrnoText) {
  try {
    WriteFileAtomically("/nonexistent/dir/x.csv", "x");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/x.csv: cannot write (No such file or directory)");
  }
}

TEST(SameFile, SeesThroughSymbolicAndHardLinks) {
  const fs::path dir = Fresh("same");
  std::ofstream(dir / "a") << "a";
  std::ofstream(dir / "b") << "a";
  fs::create_symlink(dir / "a", dir / "sym");
  fs::create_hard_link(dir / "a", dir / "hard");
  EXPECT_TRUE(SameFile((dir / "a").string(), (dir / "sym").string()));
  EXPECT_TRUE(SameFile((dir / "a").string(), (dir / "hard").string()));
  EXPECT_FALSE(SameFile((dir / "a").string(), (dir / "b").string()));
  EXPECT_FALSE(SameFile((dir / "a").string(), (dir / "missing").string()));
}

TEST(CheckOutputPath, RefusesInputsDirectoriesAndMissingDirectories) {
  const fs::path dir = Fresh("check");
  std::ofstream(dir / "in.toml") << "x";
  const std::string in = (dir / "in.toml").string();
  EXPECT_NO_THROW(CheckOutputPath((dir / "out.csv").string(), {in}));
  auto message = [&](const std::string& out) {
    try {
      CheckOutputPath(out, {in});
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(in), "output '" + in + "' is the input file '" + in +
                             "' of this run; choose another output path");
  EXPECT_EQ(message(dir.string()), "output '" + dir.string() + "' is a directory; give a file name");
  EXPECT_EQ(message((dir / "no" / "x.csv").string()),
            "output '" + (dir / "no" / "x.csv").string() + "': directory '" + (dir / "no").string() +
                "' does not exist");
}

TEST(ReadInputFile, RefusesAFifoWithoutBlocking) {
  const fs::path dir = Fresh("fifo");
  const std::string fifo = (dir / "f").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(ReadInputFile(fifo), DataError);
}

TEST(ReadInputFile, StripsAByteOrderMarkAndHonoursTheCap) {
  const fs::path dir = Fresh("read");
  std::ofstream(dir / "bom.txt", std::ios::binary) << "\xEF\xBB\xBF" "abc\n";
  EXPECT_EQ(ReadInputFile((dir / "bom.txt").string()), "abc\n");
  try {
    ReadInputFile((dir / "bom.txt").string(), 4);
    FAIL();
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find(":0: file is 7 bytes, larger than the"), std::string::npos)
        << e.what();
  }
}

TEST(CheckInputText, AcceptsUtf8AndLocatesTheFirstBadByte) {
  EXPECT_NO_THROW(CheckInputText("β = 1 # ψ, 😀\n", "x"));
  try {
    CheckInputText("ok\nok\nab\xF8\n", "x");
    FAIL();
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "x:3: invalid UTF-8 byte 0xF8 at column 3 (aerolin reads UTF-8 text files)");
  }
}

// Restores an environment variable when it goes out of scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The XDG Base Directory rules: an absolute XDG_DATA_HOME wins; an empty or
// relative one is ignored in favour of $HOME/.local/share.
TEST(UserDataDirectory, FollowsTheXdgBaseDirectorySpecification) {
  ScopedEnv home("HOME", "/home/pilot");
  {
    ScopedEnv xdg("XDG_DATA_HOME", "/data/xdg");
    EXPECT_EQ(UserDataDirectory("flights"), "/data/xdg/aerolin/flights");
  }
  for (const char* ignored : {"", "relative/dir"}) {
    ScopedEnv xdg("XDG_DATA_HOME", ignored);
    EXPECT_EQ(UserDataDirectory("flights"), "/home/pilot/.local/share/aerolin/flights") << ignored;
  }
  ScopedEnv xdg("XDG_DATA_HOME", nullptr);
  EXPECT_EQ(UserDataDirectory("flights"), "/home/pilot/.local/share/aerolin/flights");
  ScopedEnv no_home("HOME", nullptr);
  EXPECT_THROW(UserDataDirectory("flights"), std::runtime_error);
}

TEST(PrepareOutputDirectory, CreatesMissingDirectoriesAndRefusesWhatCannotHoldFiles) {
  const fs::path dir = Fresh("prepare");
  const fs::path nested = dir / "a" / "b";
  PrepareOutputDirectory(nested.string());
  EXPECT_TRUE(fs::is_directory(nested));
  PrepareOutputDirectory(nested.string());  // existing: fine
  std::ofstream(dir / "file") << "x";
  try {
    PrepareOutputDirectory((dir / "file").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("exists and is not a directory"), std::string::npos) << e.what();
  }
  try {
    PrepareOutputDirectory((dir / "file" / "frames").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create"), std::string::npos) << e.what();
  }
  if (::geteuid() != 0) {  // root writes anywhere
    const fs::path locked = dir / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(PrepareOutputDirectory(locked.string()), std::runtime_error);
    fs::permissions(locked, fs::perms::owner_all);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace aerolin::core
