#include "decision/catalog/json_reader.h"

#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {
namespace {

// The plain names decision/request's paths leave unquoted, so catalog and request errors
// read alike: "contents.pt-BR", but contents["fr FR"].
bool is_plain_name(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-';
    if (!plain) return false;
  }
  return true;
}

}  // namespace

void ErrorList::add(std::string path, std::string message) {
  add(CatalogError{std::move(path), std::move(message), std::nullopt});
}

void ErrorList::add(CatalogError error) {
  ++total_;
  if (errors_.size() < kMaxReportedErrors) errors_.push_back(std::move(error));
}

std::vector<CatalogError> ErrorList::take() {
  std::vector<CatalogError> out = std::move(errors_);
  if (total_ > out.size()) {
    out.push_back({"", absl::StrCat(total_ - out.size(), " more errors not listed"), std::nullopt});
  }
  errors_.clear();
  total_ = 0;
  return out;
}

std::string item_path(std::string_view parent, size_t index) {
  return absl::StrCat(runtime::av(parent), "[", index, "]");
}

std::string member_path(std::string_view parent, std::string_view key) {
  if (!is_plain_name(key)) {
    std::string quoted;
    for (char c : key) {
      if (c == '"' || c == '\\') quoted.push_back('\\');
      quoted.push_back(c);
    }
    return absl::StrCat(runtime::av(parent), "[\"", quoted, "\"]");
  }
  if (parent.empty()) return std::string(key);
  return absl::StrCat(runtime::av(parent), ".", runtime::av(key));
}

std::optional<std::string_view> read_string(element value, const std::string& path,
                                            ErrorList& errors) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) {
    errors.add(path, "must be a string");
    return std::nullopt;
  }
  return text;
}

std::optional<std::string_view> read_text(element value, const std::string& path,
                                          ErrorList& errors) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS || text.empty()) {
    errors.add(path, "must be a non-empty string");
    return std::nullopt;
  }
  return text;
}

std::optional<Id> read_id(element value, const std::string& path, ErrorList& errors) {
  uint64_t id = 0;
  if (value.get_uint64().get(id) != simdjson::SUCCESS || id == 0) {
    errors.add(path, "must be a positive integer");
    return std::nullopt;
  }
  return id;
}

std::optional<uint64_t> read_integer(element value, const std::string& path, ErrorList& errors,
                                     uint64_t min, uint64_t max) {
  uint64_t number = 0;
  if (value.get_uint64().get(number) != simdjson::SUCCESS || number < min || number > max) {
    errors.add(path, absl::StrCat("must be an integer in ", min, "..", max));
    return std::nullopt;
  }
  return number;
}

std::optional<double> read_number(element value, const std::string& path, ErrorList& errors,
                                  double min, double max) {
  double number = 0;
  if (value.get_double().get(number) != simdjson::SUCCESS || !(number >= min && number <= max)) {
    errors.add(path, absl::StrCat("must be a number in ", min, "..", max));
    return std::nullopt;
  }
  return number;
}

std::optional<array> read_array(element value, const std::string& path, ErrorList& errors) {
  array items;
  if (value.get_array().get(items) != simdjson::SUCCESS) {
    errors.add(path, "must be an array");
    return std::nullopt;
  }
  return items;
}

std::optional<object> read_object(element value, const std::string& path, ErrorList& errors) {
  object members;
  if (value.get_object().get(members) != simdjson::SUCCESS) {
    errors.add(path, "must be an object");
    return std::nullopt;
  }
  return members;
}

void ObjectReader::error(std::string_view key, std::string message) const {
  errors_.add(path_of(key), std::move(message));
}

bool ObjectReader::has(std::string_view key) const {
  element found;
  return members_.at_key(key).get(found) == simdjson::SUCCESS && !found.is_null();
}

std::optional<std::string_view> ObjectReader::spelling(
    std::initializer_list<std::string_view> keys) const {
  std::optional<std::string_view> chosen;
  std::string chosen_json;
  for (std::string_view key : keys) {
    element found;
    if (members_.at_key(key).get(found) != simdjson::SUCCESS || found.is_null()) continue;
    if (!chosen) {
      chosen = key;
      chosen_json = simdjson::to_string(found);
    } else if (simdjson::to_string(found) != chosen_json) {
      error(key,
            absl::StrCat("conflicts with ", runtime::av(*chosen), " (two spellings of one field)"));
    }
  }
  return chosen;
}

std::optional<element> ObjectReader::value(std::string_view key, Presence presence) const {
  element found;
  if (members_.at_key(key).get(found) != simdjson::SUCCESS || found.is_null()) {
    if (presence == Presence::kRequired) error(key, "is required");
    return std::nullopt;
  }
  return found;
}

std::optional<std::string_view> ObjectReader::string(std::string_view key,
                                                     Presence presence) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_string(*found, path_of(key), errors_) : std::nullopt;
}

std::optional<std::string_view> ObjectReader::text(std::string_view key, Presence presence) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_text(*found, path_of(key), errors_) : std::nullopt;
}

std::optional<bool> ObjectReader::boolean(std::string_view key, Presence presence) const {
  const std::optional<element> found = value(key, presence);
  if (!found) return std::nullopt;
  bool flag = false;
  if (found->get_bool().get(flag) != simdjson::SUCCESS) {
    errors_.add(path_of(key), "must be true or false");
    return std::nullopt;
  }
  return flag;
}

std::optional<Id> ObjectReader::id(std::string_view key, Presence presence) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_id(*found, path_of(key), errors_) : std::nullopt;
}

std::optional<uint64_t> ObjectReader::integer(std::string_view key, Presence presence, uint64_t min,
                                              uint64_t max) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_integer(*found, path_of(key), errors_, min, max) : std::nullopt;
}

std::optional<double> ObjectReader::number(std::string_view key, Presence presence, double min,
                                           double max) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_number(*found, path_of(key), errors_, min, max) : std::nullopt;
}

std::optional<array> ObjectReader::array_of(std::string_view key, Presence presence) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_array(*found, path_of(key), errors_) : std::nullopt;
}

std::optional<object> ObjectReader::object_of(std::string_view key, Presence presence) const {
  const std::optional<element> found = value(key, presence);
  return found ? read_object(*found, path_of(key), errors_) : std::nullopt;
}

}  // namespace decision::catalog::detail
