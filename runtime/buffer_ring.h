#pragma once
// Provided receive buffers (IORING_REGISTER_PBUF_RING): the kernel picks a free buffer
// for each receive, so idle connections hold no receive memory of their own.
#include <liburing.h>

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"

namespace runtime {

class BufferRing {
 public:
  BufferRing() = default;
  BufferRing(const BufferRing&) = delete;
  BufferRing& operator=(const BufferRing&) = delete;
  ~BufferRing();

  // count must be a power of two.
  absl::Status init(io_uring* ring, uint16_t group_id, uint32_t count, uint32_t buffer_bytes);

  uint16_t group_id() const { return group_id_; }
  std::string_view view(uint16_t buffer_id, uint32_t length) const {
    return {memory_ + size_t{buffer_id} * buffer_bytes_, length};
  }
  // Hands a buffer back to the kernel.
  void recycle(uint16_t buffer_id);

 private:
  io_uring* ring_ = nullptr;
  io_uring_buf_ring* entries_ = nullptr;
  char* memory_ = nullptr;
  size_t entries_bytes_ = 0;
  size_t memory_bytes_ = 0;
  uint32_t count_ = 0;
  uint32_t buffer_bytes_ = 0;
  uint16_t group_id_ = 0;
};

}  // namespace runtime
