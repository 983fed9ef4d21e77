#include "http/content_coding/zstd_codec.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <new>

#include "runtime/check.h"

namespace http::content_coding {
namespace {

// The first size tried when a frame does not declare its content size.
constexpr size_t kUndeclaredStartBytes = 16 * 1024;

// A fixed reason per error: details.reason names what is wrong without echoing input.
std::string_view reason_for(size_t error) {
  switch (ZSTD_getErrorCode(error)) {
    case ZSTD_error_prefix_unknown: return "zstd: not a zstd frame";
    case ZSTD_error_frameParameter_windowTooLarge: return "zstd: the frame's window is larger than 8 MiB";
    case ZSTD_error_dictionary_wrong: return "zstd: the frame needs a dictionary";
    case ZSTD_error_checksum_wrong: return "zstd: checksum mismatch";
    case ZSTD_error_memory_allocation: return "zstd: out of memory";
    default: return "zstd: corrupt data";
  }
}

constexpr std::string_view kTruncated = "zstd: truncated data";

}  // namespace

ZstdCompressor::ZstdCompressor(int level) : context_(ZSTD_createCCtx()) {
  if (context_ == nullptr) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(context_, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context_, ZSTD_c_checksumFlag, 0);
  ZSTD_CCtx_setParameter(context_, ZSTD_c_contentSizeFlag, 1);
}

ZstdCompressor::~ZstdCompressor() { ZSTD_freeCCtx(context_); }

size_t ZstdCompressor::compress(std::string_view in, char* out, size_t capacity) {
  const size_t written = ZSTD_compress2(context_, out, capacity, in.data(), in.size());
  return ZSTD_isError(written) ? 0 : written;
}

size_t ZstdCompressor::bound(size_t in_bytes) { return ZSTD_compressBound(in_bytes); }

ZstdDecompressor::ZstdDecompressor() : context_(ZSTD_createDCtx()) {
  if (context_ == nullptr) throw std::bad_alloc();
  ZSTD_DCtx_setParameter(context_, ZSTD_d_windowLogMax, kZstdMaxWindowLog);
}

ZstdDecompressor::~ZstdDecompressor() { ZSTD_freeDCtx(context_); }

DecodeResult ZstdDecompressor::decompress(std::string_view in, std::string& out, size_t limit) {
  out.clear();
  ZSTD_DCtx_reset(context_, ZSTD_reset_session_only);
  const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) return {DecodeStatus::kUndecodable, "zstd: not a zstd frame"};
  size_t capacity = 0;
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN) {
    capacity = std::min(limit, std::max(kUndeclaredStartBytes, in.size() * 4));
  } else if (declared > limit) {
    return {DecodeStatus::kTooLarge, {}};
  } else {
    capacity = static_cast<size_t>(declared);
  }
  out.resize(capacity);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t produced = 0;
  const auto fail = [&out](DecodeStatus status, std::string_view reason) {
    out.clear();
    return DecodeResult{status, reason};
  };
  for (;;) {
    if (produced == out.size()) {
      if (out.size() < limit) {
        // Room left under the limit (a later frame, or no declared size): grow toward it.
        out.resize(std::min(limit, std::max(out.size() * 2, kUndeclaredStartBytes)));
        continue;
      }
      // Full at the limit: one byte of scratch tells the end of the data from more of it.
      char probe = 0;
      ZSTD_outBuffer scratch{&probe, 1, 0};
      const size_t input_before = input.pos;
      const size_t rest = ZSTD_decompressStream(context_, &scratch, &input);
      if (ZSTD_isError(rest)) return fail(DecodeStatus::kUndecodable, reason_for(rest));
      if (scratch.pos > 0) return fail(DecodeStatus::kTooLarge, {});
      if (rest == 0 && input.pos == input.size) break;
      if (input.pos == input_before) return fail(DecodeStatus::kUndecodable, kTruncated);
      continue;
    }
    ZSTD_outBuffer output{out.data(), out.size(), produced};
    const size_t input_before = input.pos;
    const size_t rest = ZSTD_decompressStream(context_, &output, &input);
    if (ZSTD_isError(rest)) return fail(DecodeStatus::kUndecodable, reason_for(rest));
    const bool progressed = output.pos != produced || input.pos != input_before;
    produced = output.pos;
    // 0: a frame ended and everything of it is out; more input is a next frame.
    if (rest == 0 && input.pos == input.size) break;
    if (!progressed) return fail(DecodeStatus::kUndecodable, kTruncated);
  }
  DECISIOND_CHECK_MSG(produced <= limit, "zstd decoded past its limit");
  out.resize(produced);
  return {DecodeStatus::kDecoded, {}};
}

}  // namespace http::content_coding
