#pragma once
// How two lists of keys differ, id by id (docs/keys.md): what `decisiond-keys compare` says
// of two files, and what decisiond's SIGHUP reload weighs between the keys in force and
// the file (tracking/core_keys/key_reload.h). Ids and roles only: nothing here returns key
// bytes, and bytes are compared in constant time.
#include <cstdint>
#include <span>
#include <vector>

#include "tracking/tokens/key_ring.h"

namespace tracking {

struct KeySetDifference {
  std::vector<uint16_t> only_in_a;        // ids, increasing
  std::vector<uint16_t> only_in_b;
  std::vector<uint16_t> different_bytes;  // ids both lists hold with another aesKey or hmacKey
  uint16_t signing_id_a = 0;
  uint16_t signing_id_b = 0;
  std::vector<uint16_t> shared_ids;       // ids both hold, whether their bytes agree or not

  bool same() const {
    return only_in_a.empty() && only_in_b.empty() && different_bytes.empty() && signing_id_a == signing_id_b;
  }
};

// a and b as files list them: the first one signs.
KeySetDifference difference_of(std::span<const KeyEntry> a, std::span<const KeyEntry> b);

// Pointers to entries in increasing id order.
std::vector<const KeyEntry*> entries_by_id(std::span<const KeyEntry> entries);

}  // namespace tracking
