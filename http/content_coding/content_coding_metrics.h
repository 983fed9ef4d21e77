#pragma once
// What one server's content codings count, on its core: replies compressed and the bytes
// before and after, replies that went as they were although the client took a coding, and
// request bodies by coding and outcome. Exported by content_coding_metric_table.h.
#include "http/content_coding/coding.h"
#include "runtime/core_counter.h"

namespace http::content_coding {

struct ContentCodingMetrics {
  using Counter = runtime::CoreCounter;

  // Replies sent coded, and their bodies' bytes before and after.
  Counter gzip_replies;
  Counter zstd_replies;
  Counter gzip_reply_bytes_in;
  Counter gzip_reply_bytes_out;
  Counter zstd_reply_bytes_in;
  Counter zstd_reply_bytes_out;
  // Replies a client would have taken coded that went as they were.
  Counter replies_not_smaller;  // the coding would not have made them smaller
  Counter replies_too_large;    // past kMaxCompressedReplyBytes

  // Request bodies with a Content-Encoding, by outcome.
  Counter gzip_bodies_decoded;
  Counter zstd_bodies_decoded;
  Counter gzip_bodies_too_large;  // 413 10003: past --max-body-bytes once decoded
  Counter zstd_bodies_too_large;
  Counter gzip_bodies_undecodable;  // 400 10001
  Counter zstd_bodies_undecodable;
  Counter bodies_unsupported;  // 415 10002: a coding other than gzip or zstd, or several
};

}  // namespace http::content_coding
