#pragma once
// A small tmpfs mounted over a directory for a test's life (docs/events.md: a disk that
// refuses writes). Mounting needs root (CAP_SYS_ADMIN); when it is not possible the guard
// says why, and the test skips. Unmounted (lazily, so files the server still holds open do
// not keep it) when the guard dies.
#include <cstddef>
#include <string>

namespace integration {

class TmpfsMount {
 public:
  // Creates directory if needed and mounts a tmpfs of `bytes` over it.
  TmpfsMount(const std::string& directory, size_t bytes);
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;
  ~TmpfsMount();

  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_not_; }

  // Writes a file of the test's own ("<directory>/<name>") until the filesystem refuses a
  // block; the bytes it wrote.
  size_t fill(const std::string& name = "filler");
  // Deletes that file, which gives its space back even while the server has its own open.
  void free_space(const std::string& name = "filler");

 private:
  std::string directory_;
  bool mounted_ = false;
  std::string why_not_;
};

}  // namespace integration
