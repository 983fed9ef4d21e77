#pragma once
// Compresses a reply's body for the coding its request's Accept-Encoding chose
// (accept_encoding.h), when --compress offers one. One per server and core: its contexts
// are made at start, its scratch buffer reused, so a warm core allocates nothing per reply.
//
// A reply is compressed when its status has a body, the body is kMinCompressedReplyBytes
// or more and at most kMaxCompressedReplyBytes, and the coded bytes are fewer than the
// body's. Every reply of kMinCompressedReplyBytes or more carries Vary: Accept-Encoding
// while a coding is offered, compressed or not: its bytes depend on the request's
// Accept-Encoding, which a cache must know.
#include <cstddef>
#include <memory>
#include <string_view>

#include "http/content_coding/coding.h"
#include "http/content_coding/content_coding_metrics.h"
#include "http/content_coding/gzip_codec.h"
#include "http/content_coding/zstd_codec.h"
#include "http/reply_writer.h"
#include "http/request.h"
#include "http/response.h"

namespace http::content_coding {

class ReplyCompressor {
 public:
  ReplyCompressor(CodingSet offered, ContentCodingMetrics& metrics);

  CodingSet offered() const { return offered_; }
  // How response's body goes on the wire for request (its Accept-Encoding, read only when
  // the reply may be compressed at all); coded bytes live in this object until the next call.
  BodyCoding code_for(const Request& request, const Response& response);
  // The same with the coding already chosen.
  BodyCoding code(const Response& response, Coding coding);

 private:
  // Whether the reply's body may vary by coding: a coding is offered, the status has a body,
  // and the body is kMinCompressedReplyBytes or more.
  bool varies(const Response& response) const;
  // Room for size bytes; a buffer grown past kRetainedScratchBytes for one large reply is
  // given back at the next small one.
  char* scratch(size_t size);

  const CodingSet offered_;
  ContentCodingMetrics& metrics_;
  std::unique_ptr<GzipCompressor> gzip_;
  std::unique_ptr<ZstdCompressor> zstd_;
  std::unique_ptr<char[]> scratch_;
  size_t scratch_bytes_ = 0;
};

}  // namespace http::content_coding
