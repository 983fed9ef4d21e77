#pragma once
// gzip (RFC 1952) with libdeflate: whole buffers in one call, no stream state, no
// allocation per call. One of each per server and core, made at start.
#include <cstddef>
#include <string>
#include <string_view>

#include "http/content_coding/coding.h"

struct libdeflate_compressor;
struct libdeflate_decompressor;

namespace http::content_coding {

class GzipCompressor {
 public:
  explicit GzipCompressor(int level);
  ~GzipCompressor();
  GzipCompressor(const GzipCompressor&) = delete;
  GzipCompressor& operator=(const GzipCompressor&) = delete;

  // The gzip member's size in out, or 0 when it does not fit in capacity bytes.
  size_t compress(std::string_view in, char* out, size_t capacity);
  // The most compress can write for in_bytes: with that much room it never takes the
  // slower path that checks for running out.
  size_t bound(size_t in_bytes) const;

 private:
  libdeflate_compressor* compressor_;
};

class GzipDecompressor {
 public:
  GzipDecompressor();
  ~GzipDecompressor();
  GzipDecompressor(const GzipDecompressor&) = delete;
  GzipDecompressor& operator=(const GzipDecompressor&) = delete;

  // One gzip member into out (replaced), never more than limit bytes of it. The member's
  // size field (ISIZE) sizes out when it is within the limit, so an honest body is inflated
  // once into exactly its size; a body whose field claims less than it holds is settled by
  // a second pass bounded by the limit. Several members are refused (kUndecodable).
  DecodeResult decompress(std::string_view in, std::string& out, size_t limit);

 private:
  libdeflate_decompressor* decompressor_;
};

}  // namespace http::content_coding
