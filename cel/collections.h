#pragma once
// How the evaluator reads lists and maps: through these two interfaces, never by copying.
// The host implements them over its request objects (the decision request's `custom`,
// `user`, `device` and `app`; json_host.h over simdjson for the tool and tests); the
// evaluator implements them for the lists and maps it builds (arena_collections.h).
//
// Selecting `custom.age` asks the host map for one key. A host that hands out a nested
// list or map creates the view of it in the arena it is given, which lives until the
// evaluation ends; a host that cannot (arena full) returns an error value
// (ErrorCode::kLimitExceeded) in place of the element.
#include <cstddef>
#include <optional>

#include "absl/functional/function_ref.h"
#include "cel/value.h"

namespace cel {

class Arena;

// Visits elements or keys in order until it returns false.
using Visitor = absl::FunctionRef<bool(const Value&)>;

class ListValue {
 public:
  virtual size_t size() const = 0;
  // index < size().
  virtual Value at(size_t index, Arena& arena) const = 0;
  // In order; the default asks at() for each index (a host whose at() is not O(1)
  // overrides it).
  virtual void for_each(Visitor visit, Arena& arena) const;

 protected:
  // Never deleted through the interface: arena objects are not destroyed at all, host
  // objects by their owner.
  ~ListValue() = default;
};

class MapValue {
 public:
  virtual size_t size() const = 0;
  // The value under key, nullopt when absent. Keys are null, bool, int, uint or string;
  // the evaluator turns an integral double into int or uint before asking, and an int and
  // a uint of equal value are the same key (CEL's numeric key equality). A host map whose
  // keys are all strings answers nullopt for every other kind.
  virtual std::optional<Value> find(const Value& key, Arena& arena) const = 0;
  virtual void for_each_key(Visitor visit, Arena& arena) const = 0;

 protected:
  ~MapValue() = default;
};

}  // namespace cel
