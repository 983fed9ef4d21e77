#pragma once
// A reply body parsed with simdjson's DOM and kept alive with its parser, so a test can
// walk it as docs/ describe it (members and types), never compare it as text.
#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace integration {

class JsonBody {
 public:
  explicit JsonBody(std::string_view text);
  JsonBody(JsonBody&&) = default;
  JsonBody& operator=(JsonBody&&) = default;

  // Whether the text was JSON; if not, simdjson's reason.
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  simdjson::dom::element root() const { return root_; }

 private:
  // The elements point into the parser: it must not move when the body does.
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
  std::string error_;
};

// A member of an object; nullopt when absent or when `object` is not an object.
std::optional<simdjson::dom::element> member(simdjson::dom::element object, std::string_view key);

// Members of an object, by type; nullopt when absent or of another type.
std::optional<std::string> string_member(simdjson::dom::element object, std::string_view key);
std::optional<int64_t> int_member(simdjson::dom::element object, std::string_view key);
bool has_member(simdjson::dom::element object, std::string_view key);

// The items of an array; empty when `array` is not one.
std::vector<simdjson::dom::element> array_items(simdjson::dom::element array);
// The items of an array member; empty when absent or not an array.
std::vector<simdjson::dom::element> array_member(simdjson::dom::element object, std::string_view key);

}  // namespace integration
