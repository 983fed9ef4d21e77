#pragma once
// One line of the access log (docs/access-log.md): a JSON object, members in a fixed order,
// written without a DOM straight into the log's buffer. No query string (tracking tokens
// and signed tag parameters are bearer credentials), no body. The client's address is the one
// the request was placed by (docs/client_address.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/request_observer.h"
#include "runtime/ip_address.h"

namespace service::access_log {

// Longest path and User-Agent kept, in bytes; longer ones are cut at a character boundary
// and marked with "truncated" (a 16 KiB URL must not make a 16 KiB line).
inline constexpr size_t kMaxPathBytes = 256;
inline constexpr size_t kMaxUserAgentBytes = 200;

struct AccessRecord {
  int64_t time_ms = 0;          // Unix milliseconds, when the reply was queued
  uint32_t core = 0;
  std::string_view listener;    // "public", "admin"
  std::string_view route;       // the metrics label; "unmatched" for 404s and unreadable requests
  std::string_view method;      // empty: the request could not be read
  std::string_view path;        // without the query string
  int status = 0;
  int code = 0;                 // the error envelope's first code; 0: none
  uint64_t request_bytes = 0;
  uint64_t reply_bytes = 0;
  int64_t duration_us = 0;
  std::string_view user_agent;  // empty: none sent
  runtime::IpAddress client;    // the client's address (docs/client_address.md); unknown: none
};

// Appends the record as one line, without the line feed.
void append_access_line(const AccessRecord& record, std::string& out);

// The code of the first error of a reply body in the error envelope
// ({"success":false,"data":null,"errors":[{"code":N,...), or 0.
int error_code_of(std::string_view body);

// The record of a completed request, its strings viewing the request and reply.
AccessRecord access_record(const http::CompletedRequest& completed, int64_t time_ms, uint32_t core,
                           std::string_view listener);

}  // namespace service::access_log
