#pragma once
// Memory for what one evaluation builds (concatenated strings, list and map results, views
// of nested host objects) and for a program's constants. A bump allocator over blocks that
// reset() rewinds without freeing: once an evaluator has seen its largest expression, it
// allocates nothing from the heap again (STYLE: no allocation after start-up on hot paths).
// Objects placed here are never destroyed, so they must be trivially destructible.
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/check.h"

namespace cel {

class Arena {
 public:
  // bytes_max bounds what may be handed out between two resets.
  explicit Arena(size_t bytes_max);
  Arena(Arena&&) = default;
  Arena& operator=(Arena&&) = default;

  // Null once bytes_max would be passed.
  void* allocate(size_t bytes, size_t alignment);

  template <typename T, typename... Args>
  T* create(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    void* memory = allocate(sizeof(T), alignof(T));
    return memory == nullptr ? nullptr : new (memory) T(std::forward<Args>(args)...);
  }

  // Uninitialized room for count objects of T.
  template <typename T>
  T* allocate_array(size_t count) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    DECISIOND_CHECK(count <= SIZE_MAX / sizeof(T));  // the size must not wrap
    return static_cast<T*>(allocate(sizeof(T) * count, alignof(T)));
  }

  // A copy of text; nullopt once the arena is full.
  std::optional<std::string_view> copy(std::string_view text);

  // Forgets everything handed out; keeps the blocks for the next round.
  void reset();

  size_t bytes_used() const { return bytes_used_; }

 private:
  struct Block {
    std::unique_ptr<std::byte[]> data;
    size_t size = 0;
  };

  bool move_to_block_fitting(size_t bytes, size_t alignment);

  std::vector<Block> blocks_;
  size_t block_index_ = 0;  // block being filled
  size_t offset_ = 0;       // first free byte in it
  size_t bytes_used_ = 0;
  size_t bytes_max_;
};

}  // namespace cel
