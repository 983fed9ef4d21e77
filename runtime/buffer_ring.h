#pragma once
// Provided receive buffers (IORING_REGISTER_PBUF_RING): the kernel picks a free buffer
// for each receive, so idle connections hold no receive memory of their own.
#include <liburing.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "runtime/check.h"

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
  // A completion handed buffer_id to us: ours until recycle(). A buffer the kernel did not
  // hold would be one we already own, about to be read while the kernel writes into it.
  void take(uint16_t buffer_id) {
    DECISIOND_CHECK_MSG(buffer_id < count_ && with_kernel_[buffer_id], "receive buffer taken twice");
    with_kernel_[buffer_id] = 0;
  }
  std::string_view view(uint16_t buffer_id, uint32_t length) const {
    DECISIOND_CHECK_MSG(buffer_id < count_ && length <= buffer_bytes_, "receive view past its buffer");
    return {memory_ + size_t{buffer_id} * buffer_bytes_, length};
  }
  // Hands a taken buffer back to the kernel. Handed back twice, it would sit in the ring
  // twice and two receives would write into the same memory.
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
  std::vector<uint8_t> with_kernel_;  // per buffer: 1 while the kernel may fill it
};

}  // namespace runtime
