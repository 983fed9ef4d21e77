#pragma once
// The decision request's objects as the CEL variables of a `custom` rule (docs/targeting.md,
// "Custom"): `custom` is the placement's targeting.custom, read through its parsed members;
// `user`, `device` and `app` are parsed from their JSON text the first time a rule of the
// request reads them, into documents this object keeps, so a warm core allocates nothing.
// An object the request leaves out is an empty map: `has(device.os)` is then false, and
// `device.os == "ios"` an error (no such key), which leaves the ad ineligible.
#include <array>
#include <optional>
#include <span>
#include <string_view>

#include <simdjson.h>

#include "decision/request/decision_request.h"
#include "cel/collections.h"
#include "cel/json_host.h"
#include "cel/value.h"
#include "decision/targeting/custom/custom_programs.h"

namespace decision::targeting {

// targeting.custom as a CEL map: string keys, scanned in document order (64 at most).
// Numbers are int when written as integers (uint above INT64_MAX), double otherwise, as
// JSON bindings read everywhere else (json_host.h); arrays are lists.
class CustomMembersMap final : public cel::MapValue {
 public:
  void reset(const request::Targeting* targeting) { targeting_ = targeting; }
  size_t size() const override;
  std::optional<cel::Value> find(const cel::Value& key, cel::Arena& arena) const override;
  void for_each_key(cel::Visitor visit, cel::Arena& arena) const override;

 private:
  const request::Targeting* targeting_ = nullptr;
};

class RequestVariables {
 public:
  RequestVariables();
  // values_ points into this object (custom_, the parsed maps): it stays where it is built.
  RequestVariables(const RequestVariables&) = delete;
  RequestVariables& operator=(const RequestVariables&) = delete;

  // The request's texts must outlive every value handed out until the next call.
  void begin_request(const request::DecisionRequest& request);
  void begin_placement(const request::Targeting& targeting) { custom_.reset(&targeting); }

  // The variables in kRequestVariables order, with every object in `read` ready (parsed
  // now if this request has not parsed it yet). Valid until the next begin_*().
  std::span<const cel::Value> values(VariableSet read);

 private:
  // user, device or app: its text, and once parsed its document and map.
  struct JsonObject {
    std::string_view text;
    bool parsed = false;
    simdjson::dom::document document;
    std::optional<cel::JsonMap> map;
  };

  cel::Value parse(JsonObject& object);

  CustomMembersMap custom_;
  simdjson::dom::parser parser_;
  std::array<JsonObject, 3> objects_;  // slots 1..3 of kRequestVariables
  std::array<cel::Value, 4> values_{};
};

}  // namespace decision::targeting
