#pragma once
// zstd (RFC 8878) with libzstd: replies in one call, request bodies streamed into a buffer
// that grows to the limit and no further. Contexts are made once per server and core and
// reused: after the first few bodies, no allocation per call.
#include <cstddef>
#include <string>
#include <string_view>

#include "http/content_coding/coding.h"

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;

namespace http::content_coding {

class ZstdCompressor {
 public:
  explicit ZstdCompressor(int level);
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  // One frame (its content size recorded, no checksum: TCP and TLS carry their own) in
  // out; 0 when it does not fit in capacity bytes.
  size_t compress(std::string_view in, char* out, size_t capacity);
  // The most compress can write for in_bytes: with that much room libzstd writes straight
  // into out instead of through its own buffer.
  static size_t bound(size_t in_bytes);

 private:
  ZSTD_CCtx* context_;
};

class ZstdDecompressor {
 public:
  ZstdDecompressor();
  ~ZstdDecompressor();
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  // Every frame of in into out (replaced), never more than limit bytes. A first frame that
  // declares a size past the limit is refused before any decoding; otherwise out grows
  // (from the declared size, or a guess) up to the limit, and one byte decoded past it, into
  // a byte of scratch, says the body is too large.
  DecodeResult decompress(std::string_view in, std::string& out, size_t limit);

 private:
  ZSTD_DCtx* context_;
};

}  // namespace http::content_coding
