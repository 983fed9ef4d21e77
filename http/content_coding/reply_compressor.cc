#include "http/content_coding/reply_compressor.h"

#include <algorithm>

#include "http/content_coding/accept_encoding.h"

namespace http::content_coding {
namespace {

// The first buffer holds any decision or VAST document of the demo catalog.
constexpr size_t kFirstScratchBytes = 16 * 1024;
// Grown past this for a large reply (an admin page), it is given back at the next small one.
constexpr size_t kRetainedScratchBytes = 256 * 1024;

}  // namespace

ReplyCompressor::ReplyCompressor(CodingSet offered, ContentCodingMetrics& metrics)
    : offered_(offered), metrics_(metrics) {
  if (offered_.gzip) gzip_ = std::make_unique<GzipCompressor>(kGzipLevel);
  if (offered_.zstd) zstd_ = std::make_unique<ZstdCompressor>(kZstdLevel);
}

char* ReplyCompressor::scratch(size_t size) {
  if (size > scratch_bytes_ || (scratch_bytes_ > kRetainedScratchBytes && size <= kRetainedScratchBytes)) {
    scratch_bytes_ = std::max(size, kFirstScratchBytes);
    scratch_ = std::make_unique_for_overwrite<char[]>(scratch_bytes_);
  }
  return scratch_.get();
}

bool ReplyCompressor::varies(const Response& response) const {
  const int status = response.status();
  return offered_.any() && response.body().size() >= kMinCompressedReplyBytes && status >= 200 && status != 204 &&
         status != 304;
}

BodyCoding ReplyCompressor::code_for(const Request& request, const Response& response) {
  if (!varies(response)) return {};
  return code(response, negotiate(request, offered_));
}

BodyCoding ReplyCompressor::code(const Response& response, Coding coding) {
  if (!varies(response)) return {};
  const std::string_view body = response.body();
  BodyCoding result;
  result.vary = true;
  if (coding == Coding::kIdentity || !offered_.has(coding)) return result;
  if (body.size() > kMaxCompressedReplyBytes) {
    metrics_.replies_too_large.add();
    return result;
  }
  const bool gzip = coding == Coding::kGzip;
  const size_t capacity = gzip ? gzip_->bound(body.size()) : ZstdCompressor::bound(body.size());
  char* out = scratch(capacity);
  const size_t written = gzip ? gzip_->compress(body, out, capacity) : zstd_->compress(body, out, capacity);
  // A coding that saves nothing is not worth the client's CPU.
  if (written == 0 || written >= body.size()) {
    metrics_.replies_not_smaller.add();
    return result;
  }
  if (gzip) {
    metrics_.gzip_replies.add();
    metrics_.gzip_reply_bytes_in.add(body.size());
    metrics_.gzip_reply_bytes_out.add(written);
  } else {
    metrics_.zstd_replies.add();
    metrics_.zstd_reply_bytes_in.add(body.size());
    metrics_.zstd_reply_bytes_out.add(written);
  }
  result.content_encoding = coding_name(coding);
  result.coded = std::string_view(out, written);
  return result;
}

}  // namespace http::content_coding
