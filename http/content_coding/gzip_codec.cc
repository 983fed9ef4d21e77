#include "http/content_coding/gzip_codec.h"

#include <libdeflate.h>

#include <cstdint>
#include <new>

#include "runtime/check.h"

namespace http::content_coding {
namespace {

// A gzip member holds at least a 10-byte header and an 8-byte trailer (CRC32, ISIZE).
constexpr size_t kMinMemberBytes = 18;

uint32_t size_field(std::string_view in) {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data() + in.size() - 4);
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

GzipCompressor::GzipCompressor(int level) : compressor_(libdeflate_alloc_compressor(level)) {
  if (compressor_ == nullptr) throw std::bad_alloc();
}

GzipCompressor::~GzipCompressor() { libdeflate_free_compressor(compressor_); }

size_t GzipCompressor::compress(std::string_view in, char* out, size_t capacity) {
  return libdeflate_gzip_compress(compressor_, in.data(), in.size(), out, capacity);
}

size_t GzipCompressor::bound(size_t in_bytes) const {
  return libdeflate_gzip_compress_bound(compressor_, in_bytes);
}

GzipDecompressor::GzipDecompressor() : decompressor_(libdeflate_alloc_decompressor()) {
  if (decompressor_ == nullptr) throw std::bad_alloc();
}

GzipDecompressor::~GzipDecompressor() { libdeflate_free_decompressor(decompressor_); }

DecodeResult GzipDecompressor::decompress(std::string_view in, std::string& out, size_t limit) {
  out.clear();
  if (in.size() < kMinMemberBytes) return {DecodeStatus::kUndecodable, "gzip: shorter than a gzip member"};
  const uint32_t claimed = size_field(in);
  // An honest trailer within the limit: one pass into exactly its size. Otherwise (it claims
  // more than the limit, or the first pass shows it lied) a pass into the limit itself.
  size_t capacity = claimed <= limit ? claimed : limit;
  for (;;) {
    out.resize(capacity);
    size_t in_used = 0;
    size_t out_used = 0;
    const libdeflate_result result =
        libdeflate_gzip_decompress_ex(decompressor_, in.data(), in.size(), out.data(), capacity, &in_used, &out_used);
    if (result == LIBDEFLATE_INSUFFICIENT_SPACE && capacity < limit) {
      capacity = limit;
      continue;
    }
    if (result == LIBDEFLATE_SUCCESS && in_used == in.size()) {
      DECISIOND_CHECK_MSG(out_used <= limit, "gzip inflated past its limit");
      out.resize(out_used);
      return {DecodeStatus::kDecoded, {}};
    }
    out.clear();
    if (result == LIBDEFLATE_INSUFFICIENT_SPACE) return {DecodeStatus::kTooLarge, {}};
    if (result == LIBDEFLATE_SUCCESS) {
      // Several members (RFC 1952 2.2) are legal gzip, but no HTTP client sends them, and
      // inflating them would take the limit's whole buffer up front: refused, said why.
      return {DecodeStatus::kUndecodable, "gzip: data after the first gzip member"};
    }
    return {DecodeStatus::kUndecodable, "gzip: corrupt or truncated data"};
  }
}

}  // namespace http::content_coding
