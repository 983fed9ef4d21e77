#pragma once
// Reading a simdjson DOM with a JSON path in hand: each accessor returns the value or
// nullopt, and records why not (missing, wrong type, out of range) at the value's path.
// Null counts as absent everywhere ("end": null is an open end), so a required member that
// is null is reported as missing. Members the loader does not ask for are never looked at:
// the tolerant reader of docs/catalog.md ("Unknown members are ignored").
#include <simdjson.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/catalog_error.h"
#include "decision/catalog/model.h"

namespace decision::catalog::detail {

// Collects errors up to kMaxReportedErrors; past it, only counts them.
class ErrorList {
 public:
  void add(std::string path, std::string message);
  void add(CatalogError error);
  bool empty() const { return total_ == 0; }
  size_t total() const { return total_; }
  // The errors, plus a last item saying how many more were not listed.
  std::vector<CatalogError> take();

 private:
  std::vector<CatalogError> errors_;
  size_t total_ = 0;
};

// "ads" + 3 -> "ads[3]"; "ads[3]" + "weight" -> "ads[3].weight"; "contents" + "pt-BR" ->
// "contents.pt-BR"; a key that is not a plain name ([A-Za-z0-9_-]+) is quoted:
// "contents" + "fr FR" -> "contents[\"fr FR\"]".
std::string item_path(std::string_view parent, size_t index);
std::string member_path(std::string_view parent, std::string_view key);

enum class Presence : uint8_t { kRequired, kOptional };
// Short names for the validators, which say one or the other for every member they read.
inline constexpr Presence kRequired = Presence::kRequired;
inline constexpr Presence kOptional = Presence::kOptional;

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Element readers: the value, or nullopt with an error at path.
std::optional<std::string_view> read_string(element value, const std::string& path,
                                            ErrorList& errors);
std::optional<std::string_view> read_text(element value, const std::string& path,
                                          ErrorList& errors);
std::optional<Id> read_id(element value, const std::string& path, ErrorList& errors);
std::optional<uint64_t> read_integer(element value, const std::string& path, ErrorList& errors,
                                     uint64_t min, uint64_t max);
std::optional<double> read_number(element value, const std::string& path, ErrorList& errors,
                                  double min, double max);
std::optional<array> read_array(element value, const std::string& path, ErrorList& errors);
std::optional<object> read_object(element value, const std::string& path, ErrorList& errors);

class ObjectReader {
 public:
  ObjectReader(object members, std::string path, ErrorList& errors)
      : members_(members), path_(std::move(path)), errors_(errors) {}

  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return member_path(path_, key); }
  ErrorList& errors() const { return errors_; }
  void error(std::string_view key, std::string message) const;

  // Present and not null.
  bool has(std::string_view key) const;
  // Of keys naming one field in several spellings, the one present; with two present, an
  // error unless they hold the same string.
  std::optional<std::string_view> spelling(std::initializer_list<std::string_view> keys) const;

  std::optional<element> value(std::string_view key, Presence presence) const;
  std::optional<std::string_view> string(std::string_view key, Presence presence) const;
  std::optional<std::string_view> text(std::string_view key, Presence presence) const;
  std::optional<bool> boolean(std::string_view key, Presence presence) const;
  std::optional<Id> id(std::string_view key, Presence presence) const;
  std::optional<uint64_t> integer(std::string_view key, Presence presence, uint64_t min,
                                  uint64_t max) const;
  std::optional<double> number(std::string_view key, Presence presence, double min,
                               double max) const;
  std::optional<array> array_of(std::string_view key, Presence presence) const;
  std::optional<object> object_of(std::string_view key, Presence presence) const;

 private:
  object members_;
  std::string path_;
  ErrorList& errors_;
};

// Calls read(ObjectReader, index) for each item of the array member key; an item that is
// not an object is an error at its path. Returns the item count, nullopt when the member
// is absent or not an array.
template <typename Read>
std::optional<size_t> for_each_object(const ObjectReader& parent, std::string_view key,
                                      Presence presence, Read&& read) {
  const std::optional<array> items = parent.array_of(key, presence);
  if (!items) return std::nullopt;
  const std::string path = parent.path_of(key);
  size_t index = 0;
  for (element item : *items) {
    std::string item_at = item_path(path, index);
    if (const std::optional<object> members = read_object(item, item_at, parent.errors())) {
      read(ObjectReader(*members, std::move(item_at), parent.errors()), index);
    }
    ++index;
  }
  return index;
}

}  // namespace decision::catalog::detail
