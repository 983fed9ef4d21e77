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
