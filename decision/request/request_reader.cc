#include "decision/request/request_reader.h"

#include <cstring>
#include <new>

#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

static_assert(kMaxJsonDepth == 64, "update the 10001 message below");
constexpr std::string_view kNotJson = "body is not valid JSON";
constexpr std::string_view kTooDeep = "body nests arrays and objects deeper than 64 levels";
constexpr std::string_view kNotObject = "body must be a JSON object";

// RFC 8259 section 8.1 lets a parser ignore a leading byte order mark; clients on some
// platforms add one, and refusing it would help nobody.
std::string_view without_bom(std::string_view body) {
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  return body;
}

// Whether a root that is not an object is valid JSON all the same. The answer is 10001
// either way; the walk makes its message exact.
bool walk_other_root(ondemand::document& doc, ondemand::json_type root_type, ReadContext& ctx) {
  bool valid = false;
  switch (root_type) {
    case ondemand::json_type::array: {
      ondemand::array array;
      valid = doc.get_array().get(array) == simdjson::SUCCESS && ctx.enter();
      if (!valid) break;  // never iterate an array that failed to start
      for (auto item_result : array) {
        ondemand::value item;
        valid = item_result.get(item) == simdjson::SUCCESS && ctx.skip(item);
        if (!valid) break;
      }
      break;
    }
    case ondemand::json_type::string: {
      std::string_view text;
      valid = doc.get_string().get(text) == simdjson::SUCCESS;
      break;
    }
    case ondemand::json_type::number: {
      double number = 0;  // a valid literal too large for a double reads as not JSON
      valid = doc.get_double().get(number) == simdjson::SUCCESS;
      break;
    }
    case ondemand::json_type::boolean: {
      bool flag = false;
      valid = doc.get_bool().get(flag) == simdjson::SUCCESS;
      break;
    }
    case ondemand::json_type::null:
      valid = doc.is_null();
      break;
    case ondemand::json_type::object:
      break;
  }
  return valid;
}

}  // namespace

RequestReader::RequestReader(size_t capacity_bytes) {
  // The parser sizes its structural index and string buffers to the capacity; a body no
  // larger never makes it allocate again.
  reserve(capacity_bytes);
}

bool RequestReader::reserve(size_t body_bytes) {
  if (body_copy_ && body_bytes <= capacity_) return true;
  const size_t capacity = body_bytes < 64 ? 64 : body_bytes;
  std::unique_ptr<char[]> copy(new (std::nothrow) char[capacity + simdjson::SIMDJSON_PADDING]);
  if (!copy || parser_.allocate(capacity) != simdjson::SUCCESS) return false;
  body_copy_ = std::move(copy);
  capacity_ = capacity;
  return true;
}

ReadResult RequestReader::invalid_json(std::string_view message) {
  ++counters_.invalid_json;
  errors_.clear();
  errors_.add_without_field(http::error_code::kInvalidJson, message);
  return ReadResult{ReadStatus::kInvalidJson, errors_.items(), 0};
}

ReadResult RequestReader::refuse_other_root(ondemand::document& doc, ondemand::json_type root_type,
                                            ReadContext& ctx) {
  const bool walked = walk_other_root(doc, root_type, ctx);
  if (ctx.fault() == JsonFault::kTooDeep) {
    ++counters_.too_deep;
    return invalid_json(kTooDeep);
  }
  // Some root getters leave trailing content to the caller ("" x).
  const char* next = nullptr;
  if (!walked || doc.current_location().get(next) != simdjson::OUT_OF_BOUNDS) return invalid_json(kNotJson);
  ++counters_.not_object;
  return invalid_json(kNotObject);
}

ReadResult RequestReader::read(std::string_view body, const ReadOptions& options,
                               DecisionRequest& out) {
  ++counters_.reads;
  out.clear();
  errors_.clear();
  body = without_bom(body);
  if (!body_copy_ || body.size() > capacity_) {
    ++counters_.buffer_grows;
    // Out of memory for a body the HTTP layer let through: fail this request, not the core.
    if (!reserve(body.size())) {
      ++counters_.out_of_memory;
      errors_.add_without_field(http::error_code::kInternalError, "out of memory reading the body");
      return ReadResult{ReadStatus::kInternalError, errors_.items(), 0};
    }
  }
  // One copy into padded storage: simdjson reads up to SIMDJSON_PADDING bytes past the
  // end, and every view of the request points into this copy or the parser's strings.
  std::memcpy(body_copy_.get(), body.data(), body.size());
  std::memset(body_copy_.get() + body.size(), 0, simdjson::SIMDJSON_PADDING);

  ondemand::document doc;
  if (parser_.iterate(body_copy_.get(), body.size(), capacity_ + simdjson::SIMDJSON_PADDING)
          .get(doc) != simdjson::SUCCESS) {
    return invalid_json(kNotJson);
  }
  ondemand::json_type root_type;
  if (doc.type().get(root_type) != simdjson::SUCCESS) return invalid_json(kNotJson);

  ReadContext ctx(options, doc, errors_, time_zones_, counters_);
  if (root_type != ondemand::json_type::object) return refuse_other_root(doc, root_type, ctx);
  ondemand::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) return invalid_json(kNotJson);
  const bool complete = read_root(ctx, root, out);
  if (ctx.fault() == JsonFault::kTooDeep) {
    ++counters_.too_deep;
    return invalid_json(kTooDeep);
  }
  // Trailing content: after the root object the iterator must be at the end.
  const char* next = nullptr;
  if (!complete || ctx.fault() != JsonFault::kNone ||
      doc.current_location().get(next) != simdjson::OUT_OF_BOUNDS) {
    return invalid_json(kNotJson);
  }
  if (!errors_.empty() || errors_.dropped() > 0) {
    ++counters_.invalid_requests;
    counters_.errors_dropped += errors_.dropped();
    return ReadResult{ReadStatus::kInvalidRequest, errors_.items(), errors_.dropped()};
  }
  return ReadResult{};
}

}  // namespace decision::request
