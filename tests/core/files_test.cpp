#include "aerolin/core/files.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

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

// Issue #27: as root, `--csv /dev/null` replaced the system's /dev/null with a
// regular file. A device node made here (the null device's numbers, 1:3),
// never the system's; skipped if this process may not make one.
TEST(AtomicOutput, WritesADeviceInPlaceAlsoThroughASymbolicLink) {
  const fs::path dir = Fresh("device");
  const fs::path node = dir / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "mknod of a character device failed (" << std::strerror(errno)
                 << "): needs root";
  const fs::path link = dir / "link.csv";
  fs::create_symlink(node, link);
  for (const fs::path& target : {node, link}) {
    EXPECT_NO_THROW(CheckOutputPath(target.string(), {}));
    AtomicOutput out(target.string());
    EXPECT_EQ(out.temp_path(), target.string());
    EXPECT_EQ(NumLiveTemporaryOutputs(), 0);
    out.stream() << "t,u\n0,1\n";
    out.Commit();
    struct stat st {};
    ASSERT_EQ(::stat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << target;
    EXPECT_TRUE(fs::is_symlink(link));
  }
  EXPECT_EQ(CountFiles(dir), 2);  // no temporary file left
}

TEST(AtomicOutput, WritesAFifoInPlace) {
  const fs::path dir = Fresh("fifo");
  const fs::path fifo = dir / "pipe.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::string received;
  std::thread reader([&] { received = Read(fifo); });
  {
    EXPECT_NO_THROW(CheckOutputPath(fifo.string(), {}));
    AtomicOutput out(fifo.string());
    out.stream() << "rows\n";
    out.Commit();
  }
  reader.join();
  EXPECT_EQ(received, "rows\n");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(CountFiles(dir), 1);
}

// `--csv /dev/stdout > out.txt`: renaming a file over out.txt would cut off
// whatever else the process writes to its standard output.
TEST(AtomicOutput, WritesAnOpenDescriptorInPlace) {
  const fs::path dir = Fresh("descriptor");
  const fs::path file = dir / "out.txt";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "summary\n", 8), 8);
  struct stat before {};
  ASSERT_EQ(::fstat(fd, &before), 0);
  const std::string path = "/dev/fd/" + std::to_string(fd);
  EXPECT_NO_THROW(CheckOutputPath(path, {}));
  {
    AtomicOutput out(path);
    out.stream() << "rows\n";
    out.Commit();
  }
  ASSERT_EQ(::write(fd, "more\n", 5), 5);
  ::close(fd);
  struct stat after {};
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(Read(file), "summary\nrows\nmore\n");
  EXPECT_EQ(CountFiles(dir), 1);
}

TEST(AtomicOutput, RefusesADirectoryAndASocketAlsoThroughASymbolicLink) {
  const fs::path dir = Fresh("refused");
  const fs::path socket_path = dir / "s";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0)
      << std::strerror(errno);
  fs::create_directory(dir / "d");
  fs::create_symlink(dir / "d", dir / "to_d");
  fs::create_symlink(socket_path, dir / "to_s");
  const std::pair<fs::path, std::string> cases[] = {
      {dir / "d", "a directory"}, {dir / "to_d", "a directory"},
      {socket_path, "a socket"},  {dir / "to_s", "a socket"}};
  for (const auto& [path, kind] : cases) {
    try {
      CheckOutputPath(path.string(), {});
      ADD_FAILURE() << path;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "output '" + path.string() + "' is " + kind +
                                           "; give a file name");
    }
    try {
      AtomicOutput out(path.string());
      ADD_FAILURE() << path;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), path.string() + ": cannot write (it is " + kind + ")");
    }
  }
  ::close(fd);
  struct stat st {};
  ASSERT_EQ(::stat(socket_path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_TRUE(fs::is_directory(dir / "d"));
  EXPECT_EQ(CountFiles(dir), 4);
}

TEST(CheckOutputPath, RefusesAnEmptyPath) {
  try {
    CheckOutputPath("", {});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "output '': give a file name");
  }
}

TEST(AtomicOutput, RegistersItsTemporaryFileForTheSignalHandlerWhileLive) {
  const fs::path dir = Fresh("registry");
  const int before = NumLiveTemporaryOutputs();
  {
    AtomicOutput kept((dir / "a.csv").string());
    {
      AtomicOutput dropped((dir / "b.csv").string());
      EXPECT_EQ(NumLiveTemporaryOutputs(), before + 2);
    }
    EXPECT_EQ(NumLiveTemporaryOutputs(), before + 1);
    kept.Commit();
    EXPECT_EQ(NumLiveTemporaryOutputs(), before);
  }
  EXPECT_EQ(NumLiveTemporaryOutputs(), before);
}

// In a child process: SIGINT or SIGTERM removes the temporary file, leaves
// the target as it was and still ends the process by the signal.
TEST(RemoveTemporaryOutputsOnSignals, RemovesTheTemporaryFileAndDiesOfTheSignal) {
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const fs::path dir = Fresh("signal" + std::to_string(signal_number));
    const fs::path target = dir / "out.csv";
    std::ofstream(target) << "before\n";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      RemoveTemporaryOutputsOnSignals();
      AtomicOutput out(target.string());
      out.stream() << "partial" << std::flush;
      ::raise(signal_number);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << status;
    EXPECT_EQ(CountFiles(dir), 1) << "a temporary file was left";
    EXPECT_EQ(Read(target), "before\n");
  }
}

// The message of a write that failed before Commit carries the errno of
// that write (the stream had gone bad there and Commit's own errno was 0:
// "cannot write (write failed)"). In a child process with a 4 KiB file size
// limit and SIGXFSZ ignored, so the write fails with EFBIG; the target is
// kept and the temporary file removed.
TEST(AtomicOutput, KeepsTheErrnoOfTheFirstFailedWrite) {
  const fs::path dir = Fresh("efbig");
  const fs::path target = dir / "out.csv";
  std::ofstream(target) << "before\n";
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    const struct rlimit limit {4096, 4096};
    ::signal(SIGXFSZ, SIG_IGN);
    std::string message = "no error";
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) message = "setrlimit failed";
    try {
      AtomicOutput out(target.string());
      for (int i = 0; i < 4096; ++i) out.stream() << "row " << i << ", 0.125, 0.25\n";
      out.Commit();
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    (void)!::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(message, target.string() + ": cannot write (" + std::strerror(EFBIG) + ")");
  EXPECT_EQ(Read(target), "before\n");
  EXPECT_EQ(CountFiles(dir), 1) << "the temporary file was left";
}

// A device written in place: /dev/full's ENOSPC is in the message.
TEST(AtomicOutput, ReportsAFullDeviceWithItsErrnoText) {
  try {
    AtomicOutput out("/dev/full");
    for (int i = 0; i < 10000; ++i) out.stream() << "row " << i << '\n';
    out.Commit();
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), std::string("/dev/full: cannot write (") + std::strerror(ENOSPC) + ")");
  }
}

}  // namespace
}  // namespace aerolin::core
