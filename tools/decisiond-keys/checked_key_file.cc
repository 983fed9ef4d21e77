#include "tools/decisiond-keys/checked_key_file.h"

#include <openssl/crypto.h>

#include "absl/strings/str_cat.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/secret_file.h"

namespace tools::decisiond_keys {

absl::StatusOr<tracking::KeyFileContents> read_key_file(const std::string& path) {
  absl::StatusOr<std::string> text = tracking::read_secret_file(path, tracking::kMaxKeyFileBytes);
  if (absl::IsNotFound(text.status())) {
    return absl::NotFoundError(absl::StrCat(path, ": no such file; decisiond-keys create makes one"));
  }
  if (!text.ok()) return text.status();
  absl::StatusOr<tracking::KeyFileContents> contents = tracking::parse_key_file_contents(*text);
  OPENSSL_cleanse(text->data(), text->size());
  if (!contents.ok()) {
    return absl::Status(contents.status().code(), absl::StrCat(path, ": ", contents.status().message()));
  }
  // The ring rules (unique non-zero ids, at most kMaxKeys) are checked on a copy: the ring
  // takes its entries by value and wipes them when it goes.
  absl::StatusOr<tracking::KeyRing> ring = tracking::KeyRing::from_entries(contents->entries);
  if (!ring.ok()) return absl::Status(ring.status().code(), absl::StrCat(path, ": ", ring.status().message()));
  return contents;
}

}  // namespace tools::decisiond_keys
