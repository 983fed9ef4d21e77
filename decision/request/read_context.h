#pragma once
// State shared by the section readers while one body is read: the document, the path of
// the current value, the error list, and the first JSON-level fault. Internal to
// decision/request.
//
// Validation is one ondemand pass. ondemand's stage 1 already checks the whole body for
// UTF-8, unescaped control characters and unclosed strings, and its iterators check commas,
// colons and brackets of everything they walk; what it leaves unchecked is what nobody
// reads (skipped values, literals and numbers never converted) and trailing content. So
// every value is walked: known fields by their readers, everything else by skip(), which
// unescapes each string and key and checks each literal and number; after the root object
// the document must be at its end. Measured (docs/decision-request.md): a simdjson::dom pre-pass for
// validation followed by the ondemand read costs 1.3-1.4x this single pass, from a 35-byte
// body to a 60 KiB one. The JSONTestSuite conformance tests and a differential test against
// simdjson::dom hold the single pass to DOM's verdicts.
#include <cstdint>
#include <string_view>
#include <utility>

#include "decision/request/decision_request.h"
#include "decision/request/error_list.h"
#include "decision/request/json_path.h"
#include "decision/request/request_reader.h"
#include "decision/request/time_zone_cache.h"
#include "simdjson.h"

namespace decision::request {

namespace ondemand = simdjson::ondemand;

enum class JsonFault : uint8_t { kNone, kInvalid, kTooDeep };

// What stood where a reader expects one kind of value (ReadContext::expect).
enum class Found : uint8_t {
  kFault,      // the JSON is broken: the read ends
  kNull,       // null: an optional field given as null is absent (docs/decision-request.md)
  kOtherKind,  // another kind: its error is recorded and the value walked past
  kExpected,   // the kind expected, still to be read
};

class ReadContext {
 public:
  ReadContext(const ReadOptions& options, ondemand::document& doc, ErrorList& errors,
              TimeZoneCache& time_zones, RequestReaderCounters& counters)
      : options(options), doc(doc), errors(errors), time_zones(time_zones), counters(counters) {}

  const ReadOptions& options;
  ondemand::document& doc;
  ErrorList& errors;
  TimeZoneCache& time_zones;
  RequestReaderCounters& counters;
  JsonPath path;

  // JSON-level faults end the read: each helper returns false and callers unwind.
  bool fail(JsonFault fault);
  JsonFault fault() const { return fault_; }

  // A validation error at the current path (plus `key`, when given).
  void error(int code, std::string_view message);
  void error_at(std::string_view key, int code, std::string_view message);
  // A field is being read again (a duplicate key): forget what its earlier value caused.
  void forget_errors() { errors.forget_under(path); }
  void forget_errors_at(std::string_view key);

  // Containers entered by the caller, checked against kMaxJsonDepth.
  bool enter();
  void leave() { --depth_; }

  // Walks an object one level deeper, calling on_field(key, value) for each member in
  // document order; on_field returns false to stop (after recording why). False when
  // the walk stopped or the JSON is broken.
  template <typename OnField>
  bool for_each_field(ondemand::object& object, OnField&& on_field) {
    if (!enter()) return false;
    for (auto field_result : object) {
      ondemand::field field;
      std::string_view key;
      if (std::move(field_result).get(field) != simdjson::SUCCESS ||
          field.unescaped_key().get(key) != simdjson::SUCCESS) {
        return fail(JsonFault::kInvalid);
      }
      if (!on_field(key, field.value())) return false;
    }
    leave();
    return true;
  }
  // The same over a value already checked to be an object.
  template <typename OnField>
  bool for_each_field(ondemand::value& value, OnField&& on_field) {
    ondemand::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
    return for_each_field(object, std::forward<OnField>(on_field));
  }

  // Walks an array (already checked to be one) one level deeper, calling on_item(index,
  // item) for its first `bound` items in document order; items past the bound are only
  // walked, checked to be JSON: what else they hold adds nothing to the caller's "at most
  // N" error. `count` is the number of items, those past the bound included. on_item
  // returns false to stop, as on_field does.
  template <typename OnItem>
  bool for_each_item(ondemand::value& value, uint32_t bound, uint32_t& count, OnItem&& on_item) {
    ondemand::array array;
    if (value.get_array().get(array) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
    if (!enter()) return false;
    count = 0;
    for (auto item_result : array) {
      ondemand::value item;
      if (item_result.get(item) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
      if (!(count < bound ? on_item(count, item) : skip(item))) return false;
      ++count;
    }
    leave();
    return true;
  }
  // The same without a bound: on_item sees every item.
  template <typename OnItem>
  bool for_each_item(ondemand::value& value, OnItem&& on_item) {
    uint32_t count = 0;
    return for_each_item(value, UINT32_MAX, count, std::forward<OnItem>(on_item));
  }

  // The kind check a field's reader starts with: null is absent, any kind but `expected`
  // is the error (code, message) at the current path and is walked past, so the caller
  // reads on only on kExpected.
  Found expect(ondemand::value& value, ondemand::json_type expected, int code,
               std::string_view message);

  bool type(ondemand::value& value, ondemand::json_type& out);
  // Walks a value nobody reads, checking that it is JSON and within kMaxJsonDepth.
  bool skip(ondemand::value& value);
  bool get_string(ondemand::value& value, std::string_view& out);
  bool get_bool(ondemand::value& value, bool& out);
  bool check_null(ondemand::value& value);
  // A number's literal, grammar checked (not consumed: ondemand skips it on the next step).
  bool number_token(ondemand::value& value, std::string_view& out);
  // A number as a double: false only on a fault; `in_range` false for a valid literal a
  // double cannot hold (1e400).
  bool get_double(ondemand::value& value, double& out, bool& in_range);

  // Walks an object or array (already checked to be one) with skip() and returns its raw
  // JSON text in the body copy.
  bool skip_capturing(ondemand::value& value, std::string_view& raw);
  // The raw JSON text of a container that started at `start` and has just been walked.
  bool raw_since(const char* start, std::string_view& raw);

 private:
  JsonFault fault_ = JsonFault::kNone;
  int depth_ = 0;
};

// The scope of a known field while its value is read: its key on the path, and the errors
// of an earlier value of the same key forgotten, since the last value given wins
// (docs/decision-request.md, "Duplicate keys").
class FieldScope {
 public:
  FieldScope(ReadContext& ctx, std::string_view key) : path_(ctx.path, key) { ctx.forget_errors(); }

 private:
  PathScope path_;
};

// Section readers: false only on a JSON fault; validation errors are recorded and reading
// goes on, so one response lists them all.
bool read_root(ReadContext& ctx, ondemand::object& root, DecisionRequest& out);
bool read_placement(ReadContext& ctx, ondemand::value& value, PlacementRequest& out);
bool read_targeting(ReadContext& ctx, ondemand::value& value, Targeting& out);
bool read_location(ReadContext& ctx, ondemand::value& value, Targeting& out);
bool read_custom(ReadContext& ctx, ondemand::value& value, Targeting& out);
// present: user was an object (null counts as absent).
bool read_user(ReadContext& ctx, ondemand::value& value, User& out, bool& present);

}  // namespace decision::request
