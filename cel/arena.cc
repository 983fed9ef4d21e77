#include "cel/arena.h"

#include <algorithm>
#include <cstring>

#include "runtime/check.h"

namespace cel {
namespace {

// Small first block (a scalar evaluation may need none); later blocks double up to a cap,
// so a big evaluation takes few blocks and a small one wastes little.
constexpr size_t kFirstBlockBytes = 1024;
constexpr size_t kLargestGrowthBlockBytes = 64 * 1024;

size_t aligned(size_t offset, size_t alignment) {
  return (offset + alignment - 1) & ~(alignment - 1);
}

}  // namespace

Arena::Arena(size_t bytes_max) : bytes_max_(bytes_max) {}

void* Arena::allocate(size_t bytes, size_t alignment) {
  DECISIOND_CHECK_MSG(alignment != 0 && (alignment & (alignment - 1)) == 0, "an alignment that is no power of two");
  if (bytes > bytes_max_ - bytes_used_) return nullptr;
  if (blocks_.empty() || aligned(offset_, alignment) + bytes > blocks_[block_index_].size) {
    if (!move_to_block_fitting(bytes, alignment)) return nullptr;
  }
  offset_ = aligned(offset_, alignment);
  std::byte* memory = blocks_[block_index_].data.get() + offset_;
  offset_ += bytes;
  bytes_used_ += bytes;
  DECISIOND_CHECK(offset_ <= blocks_[block_index_].size && bytes_used_ <= bytes_max_);
  return memory;
}

bool Arena::move_to_block_fitting(size_t bytes, size_t alignment) {
  // A kept block that is too small for this request is skipped for this round: blocks stay
  // in order, and the next reset() starts again from the first.
  const size_t needed = bytes + alignment;
  size_t next = blocks_.empty() ? 0 : block_index_ + 1;
  while (next < blocks_.size() && blocks_[next].size < needed) ++next;
  if (next == blocks_.size()) {
    const size_t grown = blocks_.empty()
                             ? kFirstBlockBytes
                             : std::min(blocks_.back().size * 2, kLargestGrowthBlockBytes);
    const size_t size = std::max(grown, needed);
    blocks_.push_back(Block{std::make_unique<std::byte[]>(size), size});
    next = blocks_.size() - 1;
  }
  DECISIOND_CHECK(blocks_[next].size >= needed);
  block_index_ = next;
  offset_ = 0;
  return true;
}

std::optional<std::string_view> Arena::copy(std::string_view text) {
  if (text.empty()) return std::string_view();
  char* memory = static_cast<char*>(allocate(text.size(), 1));
  if (memory == nullptr) return std::nullopt;
  std::memcpy(memory, text.data(), text.size());
  return std::string_view(memory, text.size());
}

void Arena::reset() {
  block_index_ = 0;
  offset_ = 0;
  bytes_used_ = 0;
}

}  // namespace cel
