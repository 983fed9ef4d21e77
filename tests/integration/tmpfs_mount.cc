#include "tests/integration/tmpfs_mount.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace integration {

TmpfsMount::TmpfsMount(const std::string& directory, size_t bytes) : directory_(directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    why_not_ = "cannot create " + directory + ": " + error.message();
    return;
  }
  if (::geteuid() != 0) {
    why_not_ = "not running as root, so no tmpfs can be mounted";
    return;
  }
  const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
  if (::mount("tmpfs", directory.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    why_not_ = std::string("mount -t tmpfs failed (no CAP_SYS_ADMIN in this container?): ") + std::strerror(errno);
    return;
  }
  mounted_ = true;
}

TmpfsMount::~TmpfsMount() {
  if (mounted_) ::umount2(directory_.c_str(), MNT_DETACH);
}

size_t TmpfsMount::fill(const std::string& name) {
  const std::string path = directory_ + "/" + name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return 0;
  char block[4096];
  std::memset(block, 'x', sizeof(block));
  size_t written = 0;
  for (;;) {
    const ssize_t n = ::write(fd, block, sizeof(block));
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  // Byte by byte for what a whole block did not fit in.
  while (::write(fd, block, 1) == 1) ++written;
  ::close(fd);
  return written;
}

void TmpfsMount::free_space(const std::string& name) {
  std::error_code ignored;
  std::filesystem::remove(directory_ + "/" + name, ignored);
}

}  // namespace integration
