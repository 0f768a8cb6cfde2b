#include "aerolin/core/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "aerolin/core/error.hpp"

namespace aerolin::core {
namespace {

std::string ErrnoText(int error) {
  return error != 0 ? std::string(std::strerror(error)) : std::string("write failed");
}

std::string CannotWrite(const std::string& path, int error) {
  return path + ": cannot write (" + ErrnoText(error) + ")";
}

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string ByteText(unsigned char c) {
  static const char kHex[] = "0123456789ABCDEF";
  return std::string("0x") + kHex[c >> 4] + kHex[c & 15];
}

std::string SizeText(std::size_t bytes) {
  return std::to_string(bytes) + " bytes";
}

// What an existing path is, for messages ("a directory", "a FIFO", ...).
const char* KindOf(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// A device or FIFO is written in place (AtomicOutput in the header).
bool WrittenInPlace(mode_t mode) { return S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode); }

// An open descriptor named as a path (`/dev/stdout`, `/dev/fd/3`,
// `/proc/self/fd/1`) is written in place whatever it is: renaming a file
// over the one the shell opened for `> out.txt` would cut off the rest of
// what goes to that descriptor.
bool IsDescriptorPath(const std::string& path) {
  return path == "/dev/stdout" || path == "/dev/stderr" || path.rfind("/dev/fd/", 0) == 0 ||
         path.rfind("/proc/self/fd/", 0) == 0;
}

// The live temporary output files, for the signal handler. Fixed static
// storage and atomics only: the handler may not allocate or lock. A slot is
// kFree, kClaimed (being filled in, invisible to the handler) or kLive.
constexpr int kTemporarySlots = 32;
constexpr std::size_t kTemporaryPathBytes = 4096;  // PATH_MAX on Linux
enum SlotState : int { kFree = 0, kClaimed = 1, kLive = 2 };
struct TemporarySlot {
  std::atomic<int> state{kFree};
  char path[kTemporaryPathBytes];
};
TemporarySlot g_temporaries[kTemporarySlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

// Returns the slot now holding `path`, or -1 if the registry is full or the
// path too long (the file is then only removed by the destructor).
int RegisterTemporary(const std::string& path) {
  if (path.size() >= kTemporaryPathBytes) return -1;
  for (int i = 0; i < kTemporarySlots; ++i) {
    int expected = kFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
    g_temporaries[i].state.store(kLive);
    return i;
  }
  return -1;
}

void UnregisterTemporary(int slot) {
  if (slot >= 0) g_temporaries[slot].state.store(kFree);
}

extern "C" void RemoveTemporariesAndReraise(int signal_number) {
  const int saved_errno = errno;
  for (TemporarySlot& slot : g_temporaries)
    if (slot.state.load() == kLive) ::unlink(slot.path);
  // The default action, so the exit status says which signal ended the run.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  errno = saved_errno;
  ::raise(signal_number);  // delivered when this handler returns
}

}  // namespace

void RemoveTemporaryOutputsOnSignals() {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(signal_number, nullptr, &old) != 0) continue;
    // A signal ignored by whoever started us (nohup, `cmd &` without job
    // control) stays ignored, as POSIX asks of interactive tools.
    if (old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = RemoveTemporariesAndReraise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    ::sigaction(signal_number, &action, nullptr);
  }
}

int NumLiveTemporaryOutputs() {
  int n = 0;
  for (const TemporarySlot& slot : g_temporaries) n += slot.state.load() == kLive ? 1 : 0;
  return n;
}

std::string_view StripByteOrderMark(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

void CheckInputText(std::string_view text, const std::string& path) {
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  auto fail = [&](const std::string& what) {
    throw DataError({path, line}, what + " at column " + std::to_string(i - line_start + 1) +
                                      " (aerolin reads UTF-8 text files)");
  };
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == 0) fail("NUL byte");
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: the sequence length and the smallest code point it may
    // encode (anything below is an overlong form).
    int length = 0;
    char32_t cp = 0;
    char32_t smallest = 0;
    if ((c & 0xE0) == 0xC0) {
      length = 2, cp = c & 0x1F, smallest = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3, cp = c & 0x0F, smallest = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4, cp = c & 0x07, smallest = 0x10000;
    } else {
      fail("invalid UTF-8 byte " + ByteText(c));
    }
    if (text.size() - i < static_cast<std::size_t>(length))
      fail("truncated UTF-8 sequence " + ByteText(c));
    for (int k = 1; k < length; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) fail("invalid UTF-8 sequence " + ByteText(c) + " " + ByteText(cc));
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      fail("invalid UTF-8 sequence starting " + ByteText(c));
    i += static_cast<std::size_t>(length);
  }
}

std::string ReadInputFile(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0)
    throw DataError({path, 0}, "cannot open file: " + ErrnoText(errno) + " (check the path)");
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    throw DataError({path, 0}, "cannot read file: " + ErrnoText(errno));
  if (!S_ISREG(st.st_mode))
    throw DataError({path, 0}, std::string("not a regular file (") +
                                   (S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket") +
                                   "); give the path of a text file");
  const auto limit_text = [&] {
    return "larger than the " + std::to_string(max_bytes >> 20) + " MiB limit of an input file";
  };
  if (static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw DataError({path, 0}, "file is " + SizeText(static_cast<std::size_t>(st.st_size)) + ", " +
                                   limit_text());
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  char extra[4096];
  for (;;) {
    // Read into the string while it has room, then probe for growth.
    char* dst = have < text.size() ? text.data() + have : extra;
    const std::size_t room = have < text.size() ? text.size() - have : sizeof extra;
    const ssize_t n = ::read(file.fd, dst, room);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw DataError({path, 0}, "cannot read file: " + ErrnoText(errno));
    }
    if (n == 0) break;
    if (dst == extra) {
      if (text.size() + static_cast<std::size_t>(n) > max_bytes)
        throw DataError({path, 0}, "file grew while being read, " + limit_text());
      text.append(extra, static_cast<std::size_t>(n));
    }
    have += static_cast<std::size_t>(n);
  }
  text.resize(have);
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  CheckInputText(text, path);
  return text;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void CheckOutputPath(const std::string& output, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs)
    if (!input.empty() && SameFile(output, input))
      throw std::runtime_error("output '" + output + "' is the input file '" + input +
                               "' of this run; choose another output path");
  if (output.empty()) throw std::runtime_error("output '': give a file name");
  namespace fs = std::filesystem;
  std::error_code ec;
  struct stat st {};
  const bool exists = ::stat(output.c_str(), &st) == 0;
  if (exists && (!S_ISREG(st.st_mode) || IsDescriptorPath(output))) {
    if (!WrittenInPlace(st.st_mode) && !S_ISREG(st.st_mode))
      throw std::runtime_error("output '" + output + "' is " + KindOf(st.st_mode) +
                               "; give a file name");
    // Written in place: the directory need not be writable, the node must.
    if (::access(output.c_str(), W_OK) != 0)
      throw std::runtime_error("output '" + output + "' (" + KindOf(st.st_mode) +
                               "): cannot write (" + ErrnoText(errno) + ")");
    return;
  }
  fs::path dir = fs::path(output).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("output '" + output + "': directory '" + dir.string() +
                             "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error("output '" + output + "': cannot write in directory '" +
                             dir.string() + "' (" + ErrnoText(errno) + ")");
  // access() answers for permissions, not for what the file system takes
  // (/proc, a read-only mount as root): create the kind of file the output
  // will be, hidden, and remove it at once.
  std::string probe = (dir / ".aerolin-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    throw std::runtime_error("output '" + output + "': cannot create a file in directory '" +
                             dir.string() + "' (" + ErrnoText(errno) + ")");
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string UserDataDirectory(std::string_view kind) {
  namespace fs = std::filesystem;
  // The specification: a relative or empty XDG_DATA_HOME is ignored.
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && fs::path(xdg).is_absolute())
    return (fs::path(xdg) / "aerolin" / kind).string();
  const char* home = std::getenv("HOME");
  if (home != nullptr && fs::path(home).is_absolute())
    return (fs::path(home) / ".local/share/aerolin" / kind).string();
  throw std::runtime_error("no data directory: neither XDG_DATA_HOME nor HOME is set to an "
                           "absolute path (set one, or name a directory)");
}

void PrepareOutputDirectory(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec)
      throw std::runtime_error("directory '" + dir + "': cannot create (" + ec.message() + ")");
  }
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("directory '" + dir + "': exists and is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error("directory '" + dir + "': cannot write in it (" + ErrnoText(errno) +
                             ")");
}

namespace internal {

ErrnoKeepingFileBuf::int_type ErrnoKeepingFileBuf::overflow(int_type c) {
  errno = 0;
  const int_type put = std::filebuf::overflow(c);
  if (traits_type::eq_int_type(put, traits_type::eof()) && error_ == 0) error_ = errno;
  return put;
}

std::streamsize ErrnoKeepingFileBuf::xsputn(const char* s, std::streamsize n) {
  errno = 0;
  const std::streamsize put = std::filebuf::xsputn(s, n);
  if (put < n && error_ == 0) error_ = errno;
  return put;
}

int ErrnoKeepingFileBuf::sync() {
  errno = 0;
  const int result = std::filebuf::sync();
  if (result != 0 && error_ == 0) error_ = errno;
  return result;
}

}  // namespace internal

AtomicOutput::AtomicOutput(const std::string& path) : path_(path), target_(path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 &&
      (!S_ISREG(existing.st_mode) || IsDescriptorPath(path))) {
    if (!WrittenInPlace(existing.st_mode) && !S_ISREG(existing.st_mode))
      throw std::runtime_error(path_ + ": cannot write (it is " + KindOf(existing.st_mode) + ")");
    // A device or FIFO: no temporary file, no rename (renaming over
    // /dev/null would replace the device with a regular file). Opened
    // without O_TRUNC, which means nothing to a device or a FIFO.
    in_place_ = true;
    temp_ = path_;
    if (file_.open(path_, std::ios::binary | std::ios::out | std::ios::app) == nullptr)
      throw std::runtime_error(CannotWrite(path_, errno));
    return;
  }
  // Replace a link's destination, not the link.
  if (fs::is_symlink(path, ec)) {
    const fs::path resolved = fs::weakly_canonical(path, ec);
    if (!ec) target_ = resolved.string();
  }
  const fs::path target(target_);
  const std::string extension = target.extension().string();
  fs::path dir = target.parent_path();
  std::string name = (dir.empty() ? std::string() : dir.string() + "/") + "." +
                     target.filename().string() + ".tmp-XXXXXX" + extension;
  std::vector<char> templ(name.begin(), name.end());
  templ.push_back('\0');
  // Block the cleanup signals while the file exists unregistered, so an
  // interrupt cannot leave it behind.
  sigset_t cleanup_signals, previous;
  sigemptyset(&cleanup_signals);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&cleanup_signals, s);
  ::pthread_sigmask(SIG_BLOCK, &cleanup_signals, &previous);
  const int fd = ::mkstemps(templ.data(), static_cast<int>(extension.size()));
  const int mkstemp_error = errno;
  if (fd >= 0) {
    temp_ = templ.data();
    slot_ = RegisterTemporary(temp_);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (fd < 0) throw std::runtime_error(CannotWrite(path_, mkstemp_error));
  // mkstemp makes the file 0600; give it the target's mode, or the usual
  // 0666 less the umask.
  struct stat st {};
  mode_t mode = 0;
  if (::stat(target_.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  ::close(fd);
  if (file_.open(temp_, std::ios::binary | std::ios::out | std::ios::trunc) == nullptr) {
    const int error = errno;
    std::remove(temp_.c_str());
    UnregisterTemporary(slot_);
    throw std::runtime_error(CannotWrite(path_, error));
  }
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    file_.close();
    if (!in_place_) std::remove(temp_.c_str());
  }
  UnregisterTemporary(slot_);
}

void AtomicOutput::Commit() {
  // The errno of the first failed write, else that of the flush or close.
  const auto failed = [this] {
    return std::runtime_error(CannotWrite(path_, file_.error() != 0 ? file_.error() : errno));
  };
  errno = 0;
  if (file_.is_open()) {
    stream_.flush();
    if (!stream_) throw failed();
    if (file_.close() == nullptr) throw failed();
  }
  if (in_place_) {
    committed_ = true;
    return;
  }
  {
    Fd file{::open(temp_.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0 || ::fsync(file.fd) != 0) throw std::runtime_error(CannotWrite(path_, errno));
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    throw std::runtime_error(CannotWrite(path_, errno));
  committed_ = true;
  UnregisterTemporary(slot_);
  slot_ = -1;
}

void WriteFileAtomically(const std::string& path, std::string_view contents) {
  AtomicOutput out(path);
  out.stream().write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.Commit();
}

std::fstream OpenScratchFile(const std::string& what) {
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  std::string path = dir + "/aerolin-scratch-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0)
    throw std::runtime_error("cannot make a temporary file for " + what + " in " + dir + ": " +
                             std::strerror(errno) + " (set TMPDIR to a writable directory)");
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary | std::ios::trunc);
  ::unlink(path.c_str());
  ::close(fd);
  if (!file)
    throw std::runtime_error("cannot make a temporary file for " + what + " in " + dir +
                             ": cannot open it (set TMPDIR to a writable directory)");
  return file;
}

}  // namespace aerolin::core
