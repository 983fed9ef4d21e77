#pragma once
// Fixed keys, rings and scratch directories for the tracking tests.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "tracking/tokens/key_ring.h"

namespace tracking::testing {

// A deterministic entry: different ids give different keys.
inline KeyEntry test_key(uint16_t id) {
  KeyEntry entry;
  entry.id = id;
  for (size_t i = 0; i < kSecretKeyBytes; ++i) {
    entry.aes_key[i] = static_cast<uint8_t>(id * 31 + i);
    entry.hmac_key[i] = static_cast<uint8_t>(id * 17 + 3 * i);
  }
  return entry;
}

// A ring of test keys; the first id signs.
inline KeyRing ring_of(std::initializer_list<uint16_t> ids) {
  std::vector<KeyEntry> entries;
  for (uint16_t id : ids) entries.push_back(test_key(id));
  absl::StatusOr<KeyRing> ring = KeyRing::from_entries(std::move(entries));
  EXPECT_TRUE(ring.ok()) << ring.status();
  return *std::move(ring);
}

// A fresh directory under /tmp, removed with everything in it.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    char pattern[] = "/tmp/decisiond-tracking-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tracking::testing
