#include "tracking/tokens/key_set_difference.h"

#include <openssl/crypto.h>

#include <algorithm>

namespace tracking {
namespace {

bool same_bytes(const KeyEntry& x, const KeyEntry& y) {
  return CRYPTO_memcmp(x.aes_key.data(), y.aes_key.data(), x.aes_key.size()) == 0 &&
         CRYPTO_memcmp(x.hmac_key.data(), y.hmac_key.data(), x.hmac_key.size()) == 0;
}

}  // namespace

std::vector<const KeyEntry*> entries_by_id(std::span<const KeyEntry> entries) {
  std::vector<const KeyEntry*> sorted;
  for (const KeyEntry& entry : entries) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const KeyEntry* x, const KeyEntry* y) { return x->id < y->id; });
  return sorted;
}

KeySetDifference difference_of(std::span<const KeyEntry> a, std::span<const KeyEntry> b) {
  KeySetDifference difference;
  difference.signing_id_a = a.empty() ? 0 : a.front().id;
  difference.signing_id_b = b.empty() ? 0 : b.front().id;
  const std::vector<const KeyEntry*> sorted_a = entries_by_id(a);
  const std::vector<const KeyEntry*> sorted_b = entries_by_id(b);
  auto in_a = sorted_a.begin();
  auto in_b = sorted_b.begin();
  // One merge of the two id-ordered lists.
  while (in_a != sorted_a.end() || in_b != sorted_b.end()) {
    if (in_b == sorted_b.end() || (in_a != sorted_a.end() && (*in_a)->id < (*in_b)->id)) {
      difference.only_in_a.push_back((*in_a++)->id);
    } else if (in_a == sorted_a.end() || (*in_b)->id < (*in_a)->id) {
      difference.only_in_b.push_back((*in_b++)->id);
    } else {
      difference.shared_ids.push_back((*in_a)->id);
      if (!same_bytes(**in_a, **in_b)) difference.different_bytes.push_back((*in_a)->id);
      ++in_a;
      ++in_b;
    }
  }
  return difference;
}

}  // namespace tracking
