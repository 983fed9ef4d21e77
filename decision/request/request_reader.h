#pragma once
// Reads and validates the body of POST /v1/decision into a DecisionRequest
// (docs/decision-request.md, docs/errors.md). One RequestReader per core: it owns the simdjson
// parser, a padded copy of the body and the error list, all reused, so a warm reader
// allocates nothing for bodies up to its capacity (the HTTP body limit by default).
//
// Outcomes: ok; 400 10001 when the body is not valid JSON, nests deeper than
// kMaxJsonDepth, or is not an object; 422 with every validation error of the request, in
// document order, each with the JSON path of its field; 500 10099 only when a body larger
// than the reader's capacity finds no memory. The rules and the choices taken inside them
// are listed in docs/decision-request.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "decision/request/decision_request.h"
#include "decision/request/error_list.h"
#include "decision/request/time_zone_cache.h"
#include "http/error_body.h"
#include "simdjson.h"

namespace decision::request {

class ReadContext;

// What the request's API version understands; filled from the version's feature table.
// A field that is not understood is neither validated nor read (docs/decision-request.md,
// "Unknown fields": 2025-01-01 clients may send anything there). The defaults are those of 2025-01-01.
struct ReadOptions {
  bool format_understood = false;       // placements[].format (2025-11-01)
  bool destination_understood = false;  // placements[].targeting.destination (2025-11-01)
};

enum class ReadStatus : uint8_t {
  kOk,
  kInvalidJson,     // 400, one error: code 10001, no field
  kInvalidRequest,  // 422, every validation error
  kInternalError,   // 500, one error: code 10099 (no memory for a body past the capacity)
};

struct ReadResult {
  ReadStatus status = ReadStatus::kOk;
  // Valid until the reader's next read().
  std::span<const http::ErrorItem> errors;
  uint32_t errors_dropped = 0;  // validation errors past ErrorList's bounds, not listed

  bool ok() const { return status == ReadStatus::kOk; }
  int http_status() const {
    switch (status) {
      case ReadStatus::kOk: return 200;
      case ReadStatus::kInvalidJson: return 400;
      case ReadStatus::kInvalidRequest: return 422;
      case ReadStatus::kInternalError: return 500;
    }
    return 500;
  }
};

// For metrics: every limit hit is counted.
struct RequestReaderCounters {
  uint64_t reads = 0;
  uint64_t invalid_json = 0;       // 400 10001 (all causes below included)
  uint64_t too_deep = 0;           // nesting past kMaxJsonDepth
  uint64_t not_object = 0;         // valid JSON, not an object
  uint64_t invalid_requests = 0;   // 422
  uint64_t errors_dropped = 0;     // errors past ErrorList's bounds
  uint64_t buffer_grows = 0;       // a body larger than the capacity: buffers reallocated
  uint64_t out_of_memory = 0;      // ... and the reallocation failed (500 10099)
  uint64_t placements_over_limit = 0;
  uint64_t geo_over_limit = 0;
  uint64_t destination_over_limit = 0;
  uint64_t location_over_limit = 0;
  uint64_t custom_keys_over_limit = 0;
  uint64_t custom_items_over_limit = 0;
};

class RequestReader {
 public:
  static constexpr size_t kDefaultCapacityBytes = 64 * 1024;  // the body limit (docs/errors.md)

  // Allocates the parser and buffers for bodies up to capacity_bytes; a larger body still
  // reads, after a reallocation (counted in buffer_grows).
  explicit RequestReader(size_t capacity_bytes = kDefaultCapacityBytes);
  RequestReader(const RequestReader&) = delete;
  RequestReader& operator=(const RequestReader&) = delete;

  // Reads body into out (cleared first). The views in out and in the result stay valid
  // until the next read(); out is complete only when the result is ok.
  ReadResult read(std::string_view body, const ReadOptions& options, DecisionRequest& out);

  const RequestReaderCounters& counters() const { return counters_; }
  const TimeZoneCache& time_zones() const { return time_zones_; }

 private:
  bool reserve(size_t body_bytes);
  ReadResult invalid_json(std::string_view message);
  // A root that is not an object: 400 10001, the message saying whether it was JSON.
  ReadResult refuse_other_root(simdjson::ondemand::document& doc, simdjson::ondemand::json_type root_type,
                               ReadContext& ctx);

  simdjson::ondemand::parser parser_;
  std::unique_ptr<char[]> body_copy_;  // capacity_ + SIMDJSON_PADDING bytes
  size_t capacity_ = 0;
  ErrorList errors_;
  TimeZoneCache time_zones_;
  RequestReaderCounters counters_;
};

}  // namespace decision::request
