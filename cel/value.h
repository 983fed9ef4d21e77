#pragma once
// The CEL value: 16 bytes, trivially copyable, returned in registers. Scalars are held
// inline; strings and bytes are views (into the program's constants, the host's request
// or the evaluator's arena); lists and maps are pointers to interfaces (collections.h), so
// a host object is read in place, never copied. An error is a value too: CEL's logical
// operators absorb errors, so an error must travel like any other operand.
#include <cstdint>
#include <string_view>

#include "runtime/check.h"

namespace cel {

class ListValue;
class MapValue;

enum class Kind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
  kError,
};

// CEL's type denotations (`int`, `type(x)`): the kinds a value can have, minus errors.
enum class TypeName : uint8_t {
  kNullType,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
};

// Why an evaluation failed. The CEL spec leaves messages informal; these say what went
// wrong, the error's source position says where.
enum class ErrorCode : uint8_t {
  kNoMatchingOverload,  // operator or function applied to operand types it does not take
  kDivideByZero,
  kModulusByZero,
  kOverflow,            // int64/uint64 arithmetic out of range
  kRangeError,          // conversion out of the target type's range
  kBadConversion,       // string not parseable as the target type
  kInvalidUtf8,         // string(bytes) of bytes that are not UTF-8
  kNoSuchKey,           // map lookup or field selection of an absent key
  kIndexOutOfBounds,    // list index outside [0, size)
  kInvalidIndex,        // list index that is not an integral number
  kNoSuchField,         // field selection on a value that is not a map
  kUnsupportedKeyType,  // map literal key that is not bool, int, uint or string
  kRepeatedKey,         // map literal with the same key twice
  kUnboundVariable,     // declared but given no value (or undeclared, unchecked mode)
  kUnboundFunction,     // unknown function (unchecked mode only)
  kInvalidRegex,        // matches() with a pattern RE2 refuses
  kLimitExceeded,       // arena or iteration bound of the evaluator (limits.h)
};

std::string_view error_message(ErrorCode code);
std::string_view type_name(TypeName type);

class Value {
 public:
  constexpr Value() = default;  // null

  static constexpr Value null() { return Value(); }
  static constexpr Value boolean(bool b) {
    Value v(Kind::kBool);
    v.payload_.b = b;
    return v;
  }
  static constexpr Value integer(int64_t i) {
    Value v(Kind::kInt);
    v.payload_.i = i;
    return v;
  }
  static constexpr Value unsigned_integer(uint64_t u) {
    Value v(Kind::kUint);
    v.payload_.u = u;
    return v;
  }
  static constexpr Value floating(double d) {
    Value v(Kind::kDouble);
    v.payload_.d = d;
    return v;
  }
  // The view must outlive the value (see the header comment for who owns what). Sizes are
  // 32-bit: every source of strings is bounded far below 4 GiB (checked).
  static constexpr Value string(std::string_view s) { return text(Kind::kString, s); }
  static constexpr Value bytes(std::string_view s) { return text(Kind::kBytes, s); }
  static constexpr Value list(const ListValue* list) {
    DECISIOND_CHECK(list != nullptr);
    Value v(Kind::kList);
    v.payload_.list = list;
    return v;
  }
  static constexpr Value map(const MapValue* map) {
    DECISIOND_CHECK(map != nullptr);
    Value v(Kind::kMap);
    v.payload_.map = map;
    return v;
  }
  static constexpr Value type(TypeName type) {
    Value v(Kind::kType);
    v.small_ = static_cast<uint8_t>(type);
    return v;
  }
  // source_offset: byte offset in the expression of the operation that failed.
  static constexpr Value error(ErrorCode code, uint32_t source_offset) {
    Value v(Kind::kError);
    v.small_ = static_cast<uint8_t>(code);
    v.size_ = source_offset;
    return v;
  }

  constexpr Kind kind() const { return kind_; }
  constexpr bool is_error() const { return kind_ == Kind::kError; }
  constexpr bool is_bool() const { return kind_ == Kind::kBool; }

  // Accessors: the caller has tested the kind, as a tagged union's reader does; the
  // accessor checks it again (one compare), since a union read as the wrong member is a
  // pointer or a length made up from a number.
  constexpr bool as_bool() const {
    DECISIOND_CHECK(kind_ == Kind::kBool);
    return payload_.b;
  }
  constexpr int64_t as_int() const {
    DECISIOND_CHECK(kind_ == Kind::kInt);
    return payload_.i;
  }
  constexpr uint64_t as_uint() const {
    DECISIOND_CHECK(kind_ == Kind::kUint);
    return payload_.u;
  }
  constexpr double as_double() const {
    DECISIOND_CHECK(kind_ == Kind::kDouble);
    return payload_.d;
  }
  // Strings and bytes.
  constexpr std::string_view as_text() const {
    DECISIOND_CHECK(kind_ == Kind::kString || kind_ == Kind::kBytes);
    return {payload_.text, size_};
  }
  constexpr const ListValue& as_list() const {
    DECISIOND_CHECK(kind_ == Kind::kList);
    return *payload_.list;
  }
  constexpr const MapValue& as_map() const {
    DECISIOND_CHECK(kind_ == Kind::kMap);
    return *payload_.map;
  }
  constexpr TypeName as_type() const {
    DECISIOND_CHECK(kind_ == Kind::kType);
    return static_cast<TypeName>(small_);
  }
  constexpr ErrorCode error_code() const {
    DECISIOND_CHECK(kind_ == Kind::kError);
    return static_cast<ErrorCode>(small_);
  }
  constexpr uint32_t error_offset() const {
    DECISIOND_CHECK(kind_ == Kind::kError);
    return size_;
  }

 private:
  constexpr explicit Value(Kind kind) : kind_(kind) {}
  static constexpr Value text(Kind kind, std::string_view s) {
    DECISIOND_CHECK(s.size() <= UINT32_MAX);
    Value v(kind);
    v.payload_.text = s.data();
    v.size_ = static_cast<uint32_t>(s.size());
    return v;
  }

  Kind kind_ = Kind::kNull;
  uint8_t small_ = 0;  // type name, error code
  uint32_t size_ = 0;  // text length, error offset
  union Payload {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    const char* text;
    const ListValue* list;
    const MapValue* map;
  } payload_{.u = 0};
};

static_assert(sizeof(Value) == 16);

// The type denotation of a value's kind (not meaningful for errors).
TypeName type_of(const Value& value);

}  // namespace cel
