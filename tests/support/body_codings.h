#pragma once
// Bodies coded and decoded by libraries other than the ones decisiond uses (zlib for gzip;
// libzstd's own one-shot and streaming calls for zstd), so a test's round trip proves the
// wire format rather than that two halves of our code agree. Header-only; link zlib and
// libzstd (pkg-config zlib, libzstd).
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace test_support {

inline std::string zlib_gzip(std::string_view in) {
  z_stream z{};
  // windowBits 15 + 16: a gzip wrapper.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, in.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline std::optional<std::string> zlib_gunzip(std::string_view in) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
  std::string out;
  char chunk[16384];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

// One frame that declares its content size.
inline std::string zstd_frame(std::string_view in, int level = 3) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), level));
  return out;
}

// A frame that does not declare its size, as `zstd` writes from a pipe: the decoder cannot
// size its buffer from the header.
inline std::string zstd_stream_frame(std::string_view in) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(in.size()) + 64, '\0');
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  // Fed in pieces with no pledged size: the frame header says "unknown".
  size_t fed = 0;
  while (fed < in.size()) {
    const size_t piece = std::min<size_t>(in.size() - fed, 4096);
    ZSTD_inBuffer input{in.data() + fed, piece, 0};
    while (input.pos < input.size) ZSTD_compressStream2(cctx, &output, &input, ZSTD_e_continue);
    fed += piece;
  }
  ZSTD_inBuffer none{nullptr, 0, 0};
  while (ZSTD_compressStream2(cctx, &output, &none, ZSTD_e_end) != 0) {
  }
  ZSTD_freeCCtx(cctx);
  out.resize(output.pos);
  return out;
}

inline std::optional<std::string> zstd_decode(std::string_view in) {
  const unsigned long long size = ZSTD_getFrameContentSize(in.data(), in.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) return std::nullopt;
  std::string out(size, '\0');
  const size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) return std::nullopt;
  out.resize(n);
  return out;
}

// JSON-like text that compresses as a decision does (repeated keys, varied values).
inline std::string json_like(size_t bytes, uint32_t seed = 7) {
  std::mt19937 random(seed);
  std::string text = "{\"placements\":[";
  while (text.size() < bytes) {
    text += "{\"key\":\"slot_" + std::to_string(random() % 1000) + "\",\"count\":" + std::to_string(random() % 10) +
            ",\"creative\":\"https://cdn.example/" + std::to_string(random()) + ".png\"},";
  }
  text.resize(bytes);
  return text;
}

inline std::string random_bytes(size_t bytes, uint32_t seed = 11) {
  std::mt19937 random(seed);
  std::string out(bytes, '\0');
  for (char& c : out) c = static_cast<char>(random());
  return out;
}

}  // namespace test_support
