#include "tracking/tokens/key_file.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "runtime/absl_view.h"
#include "simdjson.h"
#include "tracking/tokens/base64url.h"

namespace tracking {
namespace {

constexpr char kCreatedFormat[] = "%Y-%m-%d%ET%H:%M:%SZ";
constexpr size_t kPaddedBase64KeyChars = 44;  // 32 bytes: 43 characters and one '='

// Keys are written in standard padded base64 (what `openssl rand -base64 32` prints) and read
// through the strict base64url decoder by swapping the two alphabet characters that differ.
bool decode_padded_base64_key(std::string_view text, SecretKey& key) {
  if (text.size() != kPaddedBase64KeyChars || text.back() != '=') return false;
  char url[kPaddedBase64KeyChars - 1];
  for (size_t i = 0; i < sizeof(url); ++i) {
    const char c = text[i];
    if (c == '-' || c == '_') return false;  // base64url characters are not base64
    url[i] = c == '+' ? '-' : c == '/' ? '_' : c;
  }
  uint8_t bytes[base64url_decoded_max_size(sizeof(url))];
  const std::optional<size_t> size = base64url_decode(std::string_view(url, sizeof(url)), bytes);
  const bool ok = size == key.size();
  if (ok) std::copy_n(bytes, key.size(), key.begin());
  OPENSSL_cleanse(url, sizeof(url));
  OPENSSL_cleanse(bytes, sizeof(bytes));
  return ok;
}

void append_padded_base64_key(const SecretKey& key, std::string& out) {
  const size_t start = out.size();
  base64url_encode(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()), out);
  for (size_t i = start; i < out.size(); ++i) {
    if (out[i] == '-') out[i] = '+';
    if (out[i] == '_') out[i] = '/';
  }
  out += '=';
}

// Reads one member of a key object, adding "keys[i].name: problem" to errors.
class EntryReader {
 public:
  EntryReader(simdjson::dom::object object, size_t index, std::vector<std::string>& errors)
      : object_(object), prefix_(absl::StrCat("keys[", index, "].")), errors_(errors) {}

  void id(uint16_t& id) {
    simdjson::dom::element value;
    if (!member("id", value)) return;
    int64_t number;
    if (value.type() != simdjson::dom::element_type::INT64 || value.get_int64().get(number) ||
        number < 1 || number > 65535) {
      fail("id", "must be an integer in 1..65535");
      return;
    }
    id = static_cast<uint16_t>(number);
  }

  void secret_key(const char* name, SecretKey& key) {
    simdjson::dom::element value;
    if (!member(name, value)) return;
    std::string_view text;
    if (value.get_string().get(text) || !decode_padded_base64_key(text, key)) {
      fail(name, "must be 32 bytes base64");
    }
  }

  void created(std::optional<int64_t>& created_s) {
    simdjson::dom::element value;
    if (object_["created"].get(value)) return;  // optional
    std::string_view text;
    absl::Time time;
    std::string ignored;
    if (value.get_string().get(text) ||
        !absl::ParseTime(absl::RFC3339_full, runtime::av(text), &time, &ignored)) {
      fail("created", "must be an RFC 3339 time such as 2026-11-21T12:00:00Z");
      return;
    }
    created_s = absl::ToUnixSeconds(time);
  }

 private:
  bool member(const char* name, simdjson::dom::element& value) {
    if (object_[name].get(value) == simdjson::SUCCESS) return true;
    fail(name, "required");
    return false;
  }

  void fail(const char* name, const char* problem) {
    errors_.push_back(absl::StrCat(prefix_, name, ": ", problem));
  }

  simdjson::dom::object object_;
  std::string prefix_;
  std::vector<std::string>& errors_;
};

// The optional top-level "lastId": 0 when absent.
void read_last_id(simdjson::dom::object root, uint16_t& last_id, std::vector<std::string>& errors) {
  simdjson::dom::element value;
  if (root["lastId"].get(value)) return;
  int64_t number;
  if (value.type() != simdjson::dom::element_type::INT64 || value.get_int64().get(number) || number < 1 ||
      number > 65535) {
    errors.push_back("lastId: must be an integer in 1..65535");
    return;
  }
  last_id = static_cast<uint16_t>(number);
}

}  // namespace

absl::StatusOr<std::vector<KeyEntry>> parse_key_file(std::string_view text) {
  absl::StatusOr<KeyFileContents> contents = parse_key_file_contents(text);
  if (!contents.ok()) return contents.status();
  return std::move(contents->entries);
}

absl::StatusOr<KeyFileContents> parse_key_file_contents(std::string_view text) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text.data(), text.size());
  simdjson::dom::element root;
  if (const auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(
        absl::StrCat("not valid JSON: ", simdjson::error_message(error)));
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) {
    return absl::InvalidArgumentError("(root): must be an object");
  }
  simdjson::dom::element keys_value;
  if (object["keys"].get(keys_value)) return absl::InvalidArgumentError("keys: required");
  simdjson::dom::array keys;
  if (keys_value.get_array().get(keys)) {
    return absl::InvalidArgumentError("keys: must be an array");
  }
  if (keys.size() == 0) return absl::InvalidArgumentError("keys: must list at least one key");
  if (keys.size() > KeyRing::kMaxKeys) {
    return absl::InvalidArgumentError(absl::StrCat("keys: at most ", KeyRing::kMaxKeys, " keys"));
  }

  KeyFileContents contents;
  std::vector<KeyEntry>& entries = contents.entries;
  entries.reserve(keys.size());  // no reallocation leaving key copies behind
  std::vector<std::string> errors;
  read_last_id(object, contents.last_id, errors);
  size_t index = 0;
  for (simdjson::dom::element item : keys) {
    KeyEntry& entry = entries.emplace_back();
    simdjson::dom::object entry_object;
    if (item.get_object().get(entry_object)) {
      errors.push_back(absl::StrCat("keys[", index++, "]: must be an object"));
      continue;
    }
    EntryReader reader(entry_object, index++, errors);
    reader.id(entry.id);
    reader.secret_key("aesKey", entry.aes_key);
    reader.secret_key("hmacKey", entry.hmac_key);
    reader.created(entry.created_s);
  }
  if (!errors.empty()) {
    contents.wipe();
    return absl::InvalidArgumentError(absl::StrJoin(errors, "; "));
  }
  for (const KeyEntry& entry : entries) contents.last_id = std::max(contents.last_id, entry.id);
  return contents;
}

std::string format_key_file(std::span<const KeyEntry> entries, uint16_t last_id) {
  for (const KeyEntry& entry : entries) last_id = std::max(last_id, entry.id);
  std::string text = absl::StrCat("{\"lastId\": ", last_id, ",\n \"keys\": [\n");
  for (size_t i = 0; i < entries.size(); ++i) {
    const KeyEntry& entry = entries[i];
    absl::StrAppend(&text, "  {\"id\": ", entry.id, ", \"aesKey\": \"");
    append_padded_base64_key(entry.aes_key, text);
    text += "\", \"hmacKey\": \"";
    append_padded_base64_key(entry.hmac_key, text);
    text += '"';
    if (entry.created_s) {
      absl::StrAppend(&text, ", \"created\": \"",
                      absl::FormatTime(kCreatedFormat, absl::FromUnixSeconds(*entry.created_s),
                                       absl::UTCTimeZone()),
                      "\"");
    }
    text += i + 1 < entries.size() ? "},\n" : "}\n";
  }
  text += "]}\n";
  return text;
}

}  // namespace tracking
