#include "tracking/tokens/secret_file.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tracking {
namespace {

absl::Status errno_status(int error, const std::string& what) {
  return absl::ErrnoToStatus(error, what);
}

// Closes a descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // close() reports write-back errors on some file systems, so the writer checks it.
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

absl::Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno_status(errno, absl::StrCat("write ", path));
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return absl::OkStatus();
}

// Publishes from as to without ever replacing an existing to.
int rename_no_replace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  // File systems without RENAME_NOREPLACE: link() also fails when the target exists.
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

absl::Status sync_directory(const std::string& directory) {
  FileDescriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return errno_status(errno, absl::StrCat("open ", directory));
  if (::fsync(dir.get()) != 0) return errno_status(errno, absl::StrCat("fsync ", directory));
  return absl::OkStatus();
}

// A name no other process picks: two servers sharing a state directory (or one restarted
// with the same pid in a container) must not write into the same temporary file.
absl::StatusOr<std::string> temporary_name_for(const std::string& path) {
  uint8_t suffix[8];
  if (RAND_bytes(suffix, sizeof(suffix)) != 1) {
    return absl::InternalError("RAND_bytes failed for a temporary file name");
  }
  std::string name = absl::StrCat(path, ".");
  for (uint8_t b : suffix) absl::StrAppendFormat(&name, "%02x", b);
  name += ".tmp";
  return name;
}

struct Owner {
  uid_t uid;
  gid_t gid;
};

// owner: given, the file is handed to it before any byte is written.
absl::Status write_new_file(const std::string& path, std::string_view contents,
                            const std::optional<Owner>& owner = std::nullopt) {
  FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (fd.get() < 0) return errno_status(errno, absl::StrCat("create ", path));
  if (owner && ::fchown(fd.get(), owner->uid, owner->gid) != 0) {
    return errno_status(errno, absl::StrCat("chown ", path));
  }
  if (absl::Status written = write_all(fd.get(), contents, path); !written.ok()) return written;
  if (::fsync(fd.get()) != 0) return errno_status(errno, absl::StrCat("fsync ", path));
  if (fd.close() != 0) return errno_status(errno, absl::StrCat("close ", path));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> read_secret_file(const std::string& path, size_t max_bytes) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return errno_status(errno, absl::StrCat("open ", path));
  struct stat info;
  if (::fstat(fd.get(), &info) != 0) return errno_status(errno, absl::StrCat("stat ", path));
  if (!S_ISREG(info.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": not a regular file"));
  }
  if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s: group or others have access (mode %04o) but the file holds secret keys; "
        "run chmod 600 %s",
        path, info.st_mode & 07777, path));
  }
  if (static_cast<size_t>(info.st_size) > max_bytes) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": larger than ", max_bytes, " bytes"));
  }
  std::string contents(static_cast<size_t>(info.st_size), '\0');
  size_t filled = 0;
  while (filled < contents.size()) {
    const ssize_t got = ::read(fd.get(), contents.data() + filled, contents.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno_status(errno, absl::StrCat("read ", path));
    if (got == 0) break;  // shrank since fstat
    filled += static_cast<size_t>(got);
  }
  contents.resize(filled);
  return contents;
}

absl::Status create_secret_file(const std::string& path, std::string_view contents) {
  absl::StatusOr<std::string> temporary = temporary_name_for(path);
  if (!temporary.ok()) return temporary.status();
  if (absl::Status written = write_new_file(*temporary, contents); !written.ok()) {
    ::unlink(temporary->c_str());
    return written;
  }
  if (rename_no_replace(*temporary, path) != 0) {
    const int error = errno;
    ::unlink(temporary->c_str());
    if (error == EEXIST) return absl::AlreadyExistsError(absl::StrCat(path, ": already exists"));
    return errno_status(error, absl::StrCat("rename ", *temporary, " to ", path));
  }
  // The rename is durable only once the directory entry is on disk.
  return sync_directory(directory_of(path));
}

absl::Status replace_secret_file(const std::string& path, std::string_view contents) {
  std::optional<Owner> owner;
  struct stat existing;
  if (::geteuid() == 0 && ::stat(path.c_str(), &existing) == 0 && existing.st_uid != 0) {
    owner = Owner{existing.st_uid, existing.st_gid};
  }
  absl::StatusOr<std::string> temporary = temporary_name_for(path);
  if (!temporary.ok()) return temporary.status();
  if (absl::Status written = write_new_file(*temporary, contents, owner); !written.ok()) {
    ::unlink(temporary->c_str());
    return written;
  }
  if (::rename(temporary->c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary->c_str());
    return errno_status(error, absl::StrCat("rename ", *temporary, " to ", path));
  }
  return sync_directory(directory_of(path));
}

absl::Status make_directories(const std::string& path, mode_t mode) {
  for (size_t end = path.find('/', 1);; end = path.find('/', end + 1)) {
    const std::string prefix = path.substr(0, end);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), mode) != 0 && errno != EEXIST) {
      return errno_status(errno, absl::StrCat("mkdir ", prefix));
    }
    if (end == std::string::npos) break;
  }
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return errno_status(errno, absl::StrCat("stat ", path));
  if (!S_ISDIR(info.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": not a directory"));
  }
  return absl::OkStatus();
}

}  // namespace tracking
