#pragma once
// Byte buffers a core's connections borrow while they hold bytes and give back when they go
// idle. A kept-alive connection between requests then holds no buffer at all (at 10,000 idle
// connections a core keeps kilobytes, not tens of megabytes), and a busy one gets a buffer
// already grown by an earlier request, so serving allocates nothing once the pool is warm.
//
// Bounded twice: at most most_kept spares are kept (a burst's buffers beyond that are
// freed when it ends), and none larger than largest_kept_bytes (a large reply's buffer is
// freed rather than held). Single-threaded: only the owning core calls it.
#include <cstddef>
#include <string>
#include <vector>

namespace runtime {

class SpareBuffers {
 public:
  static constexpr size_t kMostKept = 1024;
  static constexpr size_t kLargestKeptBytes = 16 * 1024;

  explicit SpareBuffers(size_t most_kept = kMostKept, size_t largest_kept_bytes = kLargestKeptBytes);
  SpareBuffers(const SpareBuffers&) = delete;
  SpareBuffers& operator=(const SpareBuffers&) = delete;

  // Gives buffer a spare's capacity if it has none of its own (it only holds its inline
  // bytes); a buffer that has capacity keeps it. With no spare, buffer grows as strings do.
  void lend(std::string& buffer) {
    if (holds_no_memory(buffer) && !spares_.empty()) lend_spare(buffer);
  }
  // Takes buffer's capacity back, dropping its bytes: buffer is left empty and holding no
  // memory. Kept as a spare within the bounds, freed past them.
  void take_back(std::string& buffer) {
    if (holds_no_memory(buffer)) {
      buffer.clear();
      return;
    }
    keep_or_free(buffer);
  }

  size_t kept() const { return spares_.size(); }

 private:
  // A string with no memory of its own: its capacity is the inline bytes every string has.
  static bool holds_no_memory(const std::string& buffer) { return buffer.capacity() <= kInlineBytes; }
  static constexpr size_t kInlineBytes = 15;  // libstdc++'s small-string capacity
  void lend_spare(std::string& buffer);
  void keep_or_free(std::string& buffer);

  const size_t most_kept_;
  const size_t largest_kept_bytes_;
  std::vector<std::string> spares_;
};

}  // namespace runtime
