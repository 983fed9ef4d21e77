#include "tests/integration/token_keys.h"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <utility>

#include "tests/integration/json_body.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/secret_file.h"

namespace integration {

namespace {
// Fixed bytes: a test key, never a secret.
tracking::KeyRing fixed_keys() {
  tracking::KeyEntry entry;
  entry.id = 41;
  for (size_t i = 0; i < tracking::kSecretKeyBytes; ++i) {
    entry.aes_key[i] = static_cast<uint8_t>(i * 11 + 3);
    entry.hmac_key[i] = static_cast<uint8_t>(i * 13 + 5);
  }
  std::vector<tracking::KeyEntry> entries;
  entries.push_back(entry);
  return *tracking::KeyRing::from_entries(std::move(entries));
}

int64_t unix_now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

StateDirWithKeys::StateDirWithKeys() : keys_(fixed_keys()), codec_(keys_) {
  std::string pattern = (std::filesystem::temp_directory_path() / "decisiond-state-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
    return;
  }
  directory_ = pattern;
  const absl::Status written =
      tracking::create_secret_file(directory_ + "/keys.json", tracking::format_key_file(keys_.entries()));
  if (!written.ok()) ADD_FAILURE() << "keys.json: " << written;
}

StateDirWithKeys::~StateDirWithKeys() {
  std::error_code ignored;
  if (!directory_.empty()) std::filesystem::remove_all(directory_, ignored);
}

::testing::AssertionResult StateDirWithKeys::Open(std::string_view token, std::string& storage,
                                                  tracking::TrackingEvent& event) {
  const tracking::DecodedToken decoded = codec_.decode(token, unix_now_s(), storage);
  if (!decoded.ok()) {
    return ::testing::AssertionFailure() << "token " << token << " is " << tracking::verdict_name(decoded.verdict);
  }
  event = decoded.event;
  return ::testing::AssertionSuccess();
}

std::string StateDirWithKeys::Seal(const tracking::TrackingEvent& event) {
  std::string token;
  const absl::Status sealed = codec_.encode_any_kind(event, token);
  if (!sealed.ok()) ADD_FAILURE() << "sealing: " << sealed;
  return token;
}

std::vector<std::string> impression_tokens(const std::string& body, std::string_view tracking_prefix) {
  std::vector<std::string> tokens;
  const JsonBody json(body);
  if (!json.ok()) return tokens;
  for (simdjson::dom::element placement : array_member(json.root(), "data")) {
    for (simdjson::dom::element creative : array_member(placement, "creatives")) {
      const std::optional<simdjson::dom::element> tracking = member(creative, "tracking");
      if (!tracking) continue;
      for (simdjson::dom::element item : array_member(*tracking, "impressions")) {
        const std::string url = string_member(item, "value").value_or("");
        tokens.push_back(url.starts_with(tracking_prefix) ? url.substr(tracking_prefix.size()) : "");
      }
    }
  }
  return tokens;
}

}  // namespace integration
