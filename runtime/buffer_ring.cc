#include "runtime/buffer_ring.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace runtime {

absl::Status BufferRing::init(io_uring* ring, uint16_t group_id, uint32_t count,
                              uint32_t buffer_bytes) {
  if (count == 0 || (count & (count - 1)) != 0 || count > 32768) {
    return absl::InvalidArgumentError("buffer count must be a power of two up to 32768");
  }
  ring_ = ring;
  group_id_ = group_id;
  count_ = count;
  buffer_bytes_ = buffer_bytes;
  entries_bytes_ = sizeof(io_uring_buf) * count;
  void* entries = mmap(nullptr, entries_bytes_, PROT_READ | PROT_WRITE,
                       MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
  if (entries == MAP_FAILED) return absl::ErrnoToStatus(errno, "mmap buffer ring");
  entries_ = static_cast<io_uring_buf_ring*>(entries);
  memory_bytes_ = size_t{count} * buffer_bytes;
  void* memory = mmap(nullptr, memory_bytes_, PROT_READ | PROT_WRITE,
                      MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
  if (memory == MAP_FAILED) return absl::ErrnoToStatus(errno, "mmap receive buffers");
  memory_ = static_cast<char*>(memory);

  io_uring_buf_reg reg;
  std::memset(&reg, 0, sizeof(reg));
  reg.ring_addr = reinterpret_cast<uint64_t>(entries_);
  reg.ring_entries = count;
  reg.bgid = group_id;
  if (int rc = io_uring_register_buf_ring(ring, &reg, 0); rc < 0) {
    return absl::ErrnoToStatus(-rc, "io_uring_register_buf_ring (kernel 5.19 or newer needed)");
  }
  io_uring_buf_ring_init(entries_);
  const int mask = io_uring_buf_ring_mask(count);
  for (uint32_t i = 0; i < count; ++i) {
    io_uring_buf_ring_add(entries_, memory_ + size_t{i} * buffer_bytes, buffer_bytes,
                          static_cast<uint16_t>(i), mask, static_cast<int>(i));
  }
  io_uring_buf_ring_advance(entries_, static_cast<int>(count));
  with_kernel_.assign(count, 1);
  return absl::OkStatus();
}

void BufferRing::recycle(uint16_t buffer_id) {
  DECISIOND_CHECK_MSG(buffer_id < count_ && !with_kernel_[buffer_id], "receive buffer recycled twice");
  with_kernel_[buffer_id] = 1;
  io_uring_buf_ring_add(entries_, memory_ + size_t{buffer_id} * buffer_bytes_, buffer_bytes_,
                        buffer_id, io_uring_buf_ring_mask(count_), 0);
  io_uring_buf_ring_advance(entries_, 1);
}

BufferRing::~BufferRing() {
  if (ring_ != nullptr && entries_ != nullptr) io_uring_unregister_buf_ring(ring_, group_id_);
  if (entries_ != nullptr) munmap(entries_, entries_bytes_);
  if (memory_ != nullptr) munmap(memory_, memory_bytes_);
}

}  // namespace runtime
