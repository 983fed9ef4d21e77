#pragma once
// The names of a user's keys in the Redis Cluster cap store (docs/cluster.md "Cap state in
// Redis"). Every key of one user carries the hash tag {u:<user key>}, so they share one
// hash slot: a decision reads its user's state in one command and an impression is one
// atomic step on one primary. An impression without a user id is tagged by its identity.
//
//   dcd:{u:<16 hex>}                the user's hash: cap entries and pending serves
//   dcd:{u:<16 hex>}:i:<16 hex>     an impression counted for the user (lives with its token)
//   dcd:{i:<16 hex>}                an impression counted without a user id
#include <array>
#include <cstdint>
#include <string_view>

namespace caps::redis_store {

// A key name in a fixed buffer: built per request without allocating.
class KeyName {
 public:
  std::string_view view() const { return {text_.data(), length_}; }

  static KeyName user_hash(uint64_t user_key);
  static KeyName user_impression(uint64_t user_key, uint64_t impression_id);
  static KeyName lone_impression(uint64_t impression_id);

 private:
  void append(std::string_view text);
  void append_hex(uint64_t value);

  std::array<char, 48> text_{};
  size_t length_ = 0;
};

// An 8-byte little-endian field or argument (entry keys, ad ids), as the function library
// reads them.
std::array<char, 8> le_bytes(uint64_t value);

}  // namespace caps::redis_store
