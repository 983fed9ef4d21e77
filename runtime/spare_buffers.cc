#include "runtime/spare_buffers.h"

namespace runtime {

namespace {

// A string with no memory of its own: its capacity is the inline bytes every string has.
bool holds_no_memory(const std::string& buffer) { return buffer.capacity() <= std::string().capacity(); }

}  // namespace

SpareBuffers::SpareBuffers(size_t most_kept, size_t largest_kept_bytes)
    : most_kept_(most_kept), largest_kept_bytes_(largest_kept_bytes) {
  spares_.reserve(most_kept_);  // kept spares never make the vector grow
}

void SpareBuffers::lend(std::string& buffer) {
  if (!holds_no_memory(buffer) || spares_.empty()) return;
  std::string& spare = spares_.back();
  spare.assign(buffer);  // its inline bytes, if any: within the spare's capacity
  buffer.swap(spare);
  spares_.pop_back();
}

void SpareBuffers::take_back(std::string& buffer) {
  if (holds_no_memory(buffer)) {
    buffer.clear();
    return;
  }
  if (spares_.size() < most_kept_ && buffer.capacity() <= largest_kept_bytes_) {
    spares_.emplace_back();
    spares_.back().swap(buffer);
    spares_.back().clear();
  }
  std::string().swap(buffer);  // frees what was not kept
}

}  // namespace runtime
