#include "tracking/event_shipping/ship_checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace tracking::event_shipping {

namespace {
constexpr std::string_view kName = "shipped";
constexpr size_t kMaxBytes = 256;

absl::Status errno_error(const char* what, const std::string& path) {
  return absl::UnavailableError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

absl::Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return errno_error("cannot write", path);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status sync_directory_of(const std::string& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_error("cannot open", directory);
  const int synced = ::fsync(fd);
  ::close(fd);
  return synced == 0 ? absl::OkStatus() : errno_error("cannot sync", directory);
}
}  // namespace

std::string checkpoint_path(std::string_view core_directory) { return std::string(core_directory) + "/" + std::string(kName); }

absl::StatusOr<std::optional<ShipCheckpoint>> read_checkpoint(const std::string& core_directory) {
  const std::string path = checkpoint_path(core_directory);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::optional<ShipCheckpoint>();
  if (fd < 0) return errno_error("cannot open", path);
  char text[kMaxBytes + 1];
  const ssize_t n = ::read(fd, text, kMaxBytes);
  ::close(fd);
  if (n < 0) return errno_error("cannot read", path);
  text[n] = '\0';
  ShipCheckpoint c;
  unsigned long long next = 0, file = 0, offset = 0, floor = 0;
  int used = 0;
  if (std::sscanf(text, "next_seq=%llu file=%llu offset=%llu stream_floor=%llu\n%n", &next, &file, &offset, &floor,
                  &used) != 4 ||
      used != n || text[n - 1] != '\n') {
    return absl::DataLossError(absl::StrCat(path, " is not a shipping checkpoint"));
  }
  c.next_seq = next;
  c.position = {file, offset};
  c.stream_floor = floor;
  return std::optional<ShipCheckpoint>(c);
}

absl::Status write_checkpoint(const std::string& core_directory, const ShipCheckpoint& c, bool sync_directory) {
  const std::string path = checkpoint_path(core_directory);
  const std::string temporary = path + ".tmp";
  const std::string text = absl::StrCat("next_seq=", c.next_seq, " file=", c.position.file_first_seq, " offset=",
                                        c.position.offset, " stream_floor=", c.stream_floor, "\n");
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error("cannot create", temporary);
  absl::Status written = write_all(fd, text, temporary);
  if (written.ok() && ::fdatasync(fd) != 0) written = errno_error("cannot sync", temporary);
  ::close(fd);
  if (written.ok() && ::rename(temporary.c_str(), path.c_str()) != 0) written = errno_error("cannot rename", temporary);
  if (!written.ok()) {
    ::unlink(temporary.c_str());
    return written;
  }
  return sync_directory ? sync_directory_of(core_directory) : absl::OkStatus();
}

}  // namespace tracking::event_shipping
