#pragma once
// Undoes a request body's Content-Encoding before its handler runs, whatever --compress
// says (docs/compression.md): gzip (and its alias x-gzip) and zstd; `identity` items are
// no coding. The decoded body is bounded by the listener's --max-body-bytes like a body sent
// plain, and decoding stops there: a body of a few KiB that would inflate to gigabytes
// costs at most the limit's bytes of memory and the CPU to produce them.
//
// Refusals, each with details.reason: a coding other than these, or more than one, is 415
// 10002; a body past the limit once decoded is 413 10003; a body that does not decode
// (corrupt, truncated, several gzip members) is 400 10001. A request without a body is
// never refused for its Content-Encoding.
#include <cstddef>
#include <string>
#include <string_view>

#include "http/content_coding/coding.h"
#include "http/content_coding/content_coding_metrics.h"
#include "http/content_coding/gzip_codec.h"
#include "http/content_coding/zstd_codec.h"
#include "http/request.h"
#include "http/response.h"

namespace http::content_coding {

class RequestBodyDecoder {
 public:
  explicit RequestBodyDecoder(ContentCodingMetrics& metrics);

  enum class Outcome : uint8_t {
    kAsSent,       // no body, or no coding: the body is the bytes sent
    kDecoded,      // body() holds the decoded body
    kUnsupported,  // 415 10002
    kTooLarge,     // 413 10003
    kUndecodable,  // 400 10001
  };
  // Decodes request's body into body() when its Content-Encoding asks for it.
  Outcome decode(const Request& request, size_t limit);
  // The last decoded body; the request's body view points here until the next decode. A
  // handler may move it out (Request::owned_body).
  std::string& body() { return body_; }
  // The error reply of a refusal (decode's kUnsupported, kTooLarge, kUndecodable).
  void set_refusal(Response& response, Outcome outcome, size_t limit) const;

 private:
  ContentCodingMetrics& metrics_;
  GzipDecompressor gzip_;
  ZstdDecompressor zstd_;
  std::string body_;
  std::string_view reason_;  // of the last refusal: a literal
};

}  // namespace http::content_coding
