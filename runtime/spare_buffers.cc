#include "runtime/spare_buffers.h"

#include "runtime/check.h"

namespace runtime {

SpareBuffers::SpareBuffers(size_t most_kept, size_t largest_kept_bytes)
    : most_kept_(most_kept), largest_kept_bytes_(largest_kept_bytes) {
  // Not a static_assert: clang does not evaluate std::string's capacity at compile time.
  DECISIOND_CHECK_MSG(std::string().capacity() == kInlineBytes, "kInlineBytes is not this library's inline capacity");
  spares_.reserve(most_kept_);  // kept spares never make the vector grow
}

void SpareBuffers::lend_spare(std::string& buffer) {
  std::string& spare = spares_.back();
  spare.assign(buffer);  // its inline bytes, if any: within the spare's capacity
  buffer.swap(spare);
  spares_.pop_back();
}

void SpareBuffers::keep_or_free(std::string& buffer) {
  if (spares_.size() < most_kept_ && buffer.capacity() <= largest_kept_bytes_) {
    spares_.emplace_back();
    spares_.back().swap(buffer);
    spares_.back().clear();
  }
  std::string().swap(buffer);  // frees what was not kept
}

}  // namespace runtime
