#pragma once
/// @file
/// Safe file input and output shared by every reader and writer:
/// - inputs (data files, pilot scripts) are regular files of at most
///   kMaxInputFileBytes, read as UTF-8 text without NUL bytes (a leading
///   byte-order mark is dropped);
/// - outputs are written to a temporary file beside the target and renamed
///   over it only when complete, so a full disk or a crash never leaves a
///   half-written file in place of a good one; SIGINT, SIGTERM and SIGHUP
///   remove the temporary file (RemoveTemporaryOutputsOnSignals);
/// - an output path that exists and is a character or block device or a
///   FIFO (also through a symbolic link) is written in place, with no
///   temporary file and no rename: `--csv /dev/null`, `/dev/stdout` or a
///   named pipe mean what they say, and the node is never replaced by a
///   regular file. So is an open descriptor named as a path (`/dev/stdout`,
///   `/dev/fd/N`, `/proc/self/fd/N`), even when it is a regular file (the
///   one a shell opened for `> out.txt`): it is appended to, never replaced.
///   A directory or a socket is refused;
/// - an output path that names an input of the run (the same file, also
///   through a symbolic or hard link) is refused.

#include <cstddef>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace aerolin::core {

/// The largest input file aerolin reads [bytes]: 32 MiB. The bundled data
/// files are a few kB, and an hour of live flight records a script of a few
/// hundred kB.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{32} << 20;

/// Returns the contents of the regular file at `path`, with the UTF-8
/// byte-order mark removed if present, after CheckInputText.
/// @throws DataError "path:0: ..." if `path` cannot be opened, is not a
///         regular file (a directory, FIFO or device such as /dev/zero), or is
///         larger than `max_bytes`; "path:line: ..." as CheckInputText.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes = kMaxInputFileBytes);

/// Returns `text` without a leading UTF-8 byte-order mark (EF BB BF).
std::string_view StripByteOrderMark(std::string_view text);

/// Checks that `text` holds no NUL byte and is valid UTF-8 (no overlong
/// forms, surrogates or code points above U+10FFFF); `path` names the text
/// in messages.
/// @throws DataError "path:line: ..." at the first offending byte.
void CheckInputText(std::string_view text, const std::string& path);

/// True if `a` and `b` both exist and are the same file (same device and
/// inode, so also through symbolic and hard links).
bool SameFile(const std::string& a, const std::string& b);

/// Checks, before any long computation, that `output` can be written: it is
/// not empty, not one of `inputs` (SameFile), not a directory or a socket;
/// a device or FIFO must be writable itself, any other path's directory must
/// exist and be writable.
/// @throws std::runtime_error "output 'PATH' ...: reason" otherwise, e.g.
///         "output 'x' is a directory; give a file name".
void CheckOutputPath(const std::string& output, const std::vector<std::string>& inputs);

namespace internal {
/// A std::filebuf that keeps the errno of its first failed write: the stream
/// goes bad at that write and writes nothing more, so by the final flush the
/// errno (ENOSPC, EFBIG, EIO) is gone, and the message would lack it.
class ErrnoKeepingFileBuf final : public std::filebuf {
 public:
  /// The errno of the first failed write, or 0.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  int error_ = 0;
};
}  // namespace internal

/// An output file written atomically: the data goes to a temporary file in
/// the target's directory (same extension, so format-by-extension writers
/// work on it), and Commit() renames it over the target. Destroying an
/// uncommitted AtomicOutput removes the temporary file and leaves the target
/// as it was. A target that is a symbolic link is resolved, so the link's
/// destination is replaced and the link kept. A target that is a device or
/// FIFO is written in place (temp_path() is then the target, Commit() only
/// flushes); a directory or socket is refused.
class AtomicOutput {
 public:
  /// Creates the temporary file (registered for removal on SIGINT, SIGTERM
  /// and SIGHUP), or opens a device or FIFO target for writing.
  /// @throws std::runtime_error "PATH: cannot write (errno text)", or
  ///         "PATH: cannot write (it is a directory)" (or "a socket").
  explicit AtomicOutput(const std::string& path);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();

  /// The stream writing into the temporary file (binary mode).
  std::ostream& stream() { return stream_; }
  /// The temporary file's path, for writers that take a path; they must
  /// write it completely before Commit().
  const std::string& temp_path() const { return temp_; }
  /// The target path, as given.
  const std::string& path() const { return path_; }
  /// Flushes the stream, syncs the file to disk and renames it over the
  /// target.
  /// @throws std::runtime_error "PATH: cannot write (errno text)" if any of
  ///         this, or any write before, failed (the target is then unchanged).
  void Commit();

 private:
  std::string path_;    // as given (messages)
  std::string target_;  // symbolic links resolved
  std::string temp_;
  internal::ErrnoKeepingFileBuf file_;
  std::ostream stream_{&file_};
  bool committed_ = false;
  bool in_place_ = false;  // a device or FIFO, written directly
  int slot_ = -1;          // in the signal handler's registry, or -1
};

/// Installs handlers of SIGINT, SIGTERM and SIGHUP that remove every live
/// AtomicOutput's temporary file and then re-raise the signal with its
/// default action (so the exit status still says which signal ended the
/// process). A signal ignored when this is called stays ignored. For the
/// main() of a command-line tool; a program with its own handlers (the
/// flight window) does not call it, and its AtomicOutputs are removed by
/// their destructors as usual. The registry is fixed static storage of 32
/// paths of up to 4095 bytes (no allocation in the handler); a temporary
/// beyond that is removed by its destructor only.
void RemoveTemporaryOutputsOnSignals();

/// The number of AtomicOutput temporary files now registered for removal on
/// a signal (for tests).
int NumLiveTemporaryOutputs();

/// Returns the directory of aerolin's user data of one kind (`kind`, e.g.
/// "flights"), following the XDG Base Directory specification:
/// `$XDG_DATA_HOME/aerolin/<kind>` if XDG_DATA_HOME is an absolute path,
/// else `$HOME/.local/share/aerolin/<kind>`. Does not create it.
/// @throws std::runtime_error if neither is set (absolute).
std::string UserDataDirectory(std::string_view kind);

/// Makes sure `dir` is a directory this process can write files in,
/// creating it (and its parents) if missing; for output directories that
/// must work before a long run starts.
/// @throws std::runtime_error "directory 'DIR': reason" otherwise.
void PrepareOutputDirectory(const std::string& dir);

/// Writes `contents` to `path` atomically (AtomicOutput).
void WriteFileAtomically(const std::string& path, std::string_view contents);

/// Returns a new, empty temporary file open for reading and writing (binary),
/// in $TMPDIR (else /tmp) and already removed from that directory: it takes
/// disk space while the stream is open and leaves nothing behind, even if the
/// process is killed. `what` says what it holds, for the message.
/// @throws std::runtime_error "cannot make a temporary file for WHAT in DIR:
///         reason (set TMPDIR to a writable directory)".
std::fstream OpenScratchFile(const std::string& what);

}  // namespace aerolin::core
