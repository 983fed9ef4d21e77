#include "cel/value.h"

namespace cel {

std::string_view error_message(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNoMatchingOverload: return "no matching overload";
    case ErrorCode::kDivideByZero: return "divide by zero";
    case ErrorCode::kModulusByZero: return "modulus by zero";
    case ErrorCode::kOverflow: return "integer overflow";
    case ErrorCode::kRangeError: return "conversion out of range";
    case ErrorCode::kBadConversion: return "type conversion error";
    case ErrorCode::kInvalidUtf8: return "invalid UTF-8";
    case ErrorCode::kNoSuchKey: return "no such key";
    case ErrorCode::kIndexOutOfBounds: return "index out of bounds";
    case ErrorCode::kInvalidIndex: return "invalid list index";
    case ErrorCode::kNoSuchField: return "type does not support field selection";
    case ErrorCode::kUnsupportedKeyType: return "unsupported map key type";
    case ErrorCode::kRepeatedKey: return "repeated map key";
    case ErrorCode::kUnboundVariable: return "unbound variable";
    case ErrorCode::kUnboundFunction: return "unbound function";
    case ErrorCode::kInvalidRegex: return "invalid regular expression";
    case ErrorCode::kLimitExceeded: return "evaluation limit exceeded";
  }
  return "unknown error";
}

std::string_view type_name(TypeName type) {
  switch (type) {
    case TypeName::kNullType: return "null_type";
    case TypeName::kBool: return "bool";
    case TypeName::kInt: return "int";
    case TypeName::kUint: return "uint";
    case TypeName::kDouble: return "double";
    case TypeName::kString: return "string";
    case TypeName::kBytes: return "bytes";
    case TypeName::kList: return "list";
    case TypeName::kMap: return "map";
    case TypeName::kType: return "type";
  }
  return "unknown";
}

TypeName type_of(const Value& value) {
  switch (value.kind()) {
    case Kind::kNull: return TypeName::kNullType;
    case Kind::kBool: return TypeName::kBool;
    case Kind::kInt: return TypeName::kInt;
    case Kind::kUint: return TypeName::kUint;
    case Kind::kDouble: return TypeName::kDouble;
    case Kind::kString: return TypeName::kString;
    case Kind::kBytes: return TypeName::kBytes;
    case Kind::kList: return TypeName::kList;
    case Kind::kMap: return TypeName::kMap;
    case Kind::kType:
    case Kind::kError: return TypeName::kType;
  }
  return TypeName::kType;
}

}  // namespace cel
