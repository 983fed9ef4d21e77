#include "http/content_coding/request_body_decoder.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "http/error_body.h"
#include "http/error_codes.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace http::content_coding {
namespace {

// A decoded body's buffer grown past this (a catalog upload) is given back at the next.
constexpr size_t kRetainedBodyBytes = 1 << 20;

// The codings the request's Content-Encoding fields list, in order (RFC 9110 8.4: several
// fields are one list). Identity items are no coding.
struct ListedCodings {
  Coding coding = Coding::kIdentity;
  int count = 0;         // codings other than identity
  bool unknown = false;  // one of them is not gzip or zstd
};

void add_items(std::string_view value, ListedCodings& listed) {
  while (!value.empty()) {
    const size_t comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.empty() || absl::EqualsIgnoreCase(runtime::av(item), "identity")) continue;
    ++listed.count;
    if (absl::EqualsIgnoreCase(runtime::av(item), "gzip") || absl::EqualsIgnoreCase(runtime::av(item), "x-gzip")) {
      listed.coding = Coding::kGzip;
    } else if (absl::EqualsIgnoreCase(runtime::av(item), "zstd")) {
      listed.coding = Coding::kZstd;
    } else {
      listed.unknown = true;
    }
  }
}

}  // namespace

RequestBodyDecoder::RequestBodyDecoder(ContentCodingMetrics& metrics) : metrics_(metrics) {}

RequestBodyDecoder::Outcome RequestBodyDecoder::decode(const Request& request, size_t limit) {
  if (request.body.empty()) return Outcome::kAsSent;
  ListedCodings listed;
  for (size_t i = 0; i < request.header_count; ++i) {
    if (absl::EqualsIgnoreCase(runtime::av(request.headers[i].name), "content-encoding")) {
      add_items(request.headers[i].value, listed);
    }
  }
  if (listed.count == 0) return Outcome::kAsSent;
  if (listed.unknown || listed.count > 1) {
    metrics_.bodies_unsupported.add();
    reason_ = listed.unknown ? "Content-Encoding must be gzip or zstd"
                             : "one content coding at most: gzip or zstd, not several";
    return Outcome::kUnsupported;
  }
  if (body_.capacity() > kRetainedBodyBytes) body_ = std::string();
  const bool gzip = listed.coding == Coding::kGzip;
  const DecodeResult result =
      gzip ? gzip_.decompress(request.body, body_, limit) : zstd_.decompress(request.body, body_, limit);
  switch (result.status) {
    case DecodeStatus::kDecoded:
      (gzip ? metrics_.gzip_bodies_decoded : metrics_.zstd_bodies_decoded).add();
      return Outcome::kDecoded;
    case DecodeStatus::kTooLarge:
      (gzip ? metrics_.gzip_bodies_too_large : metrics_.zstd_bodies_too_large).add();
      reason_ = {};
      return Outcome::kTooLarge;
    case DecodeStatus::kUndecodable:
      (gzip ? metrics_.gzip_bodies_undecodable : metrics_.zstd_bodies_undecodable).add();
      reason_ = result.reason;
      return Outcome::kUndecodable;
  }
  return Outcome::kUndecodable;
}

void RequestBodyDecoder::set_refusal(Response& response, Outcome outcome, size_t limit) const {
  response.body().clear();
  switch (outcome) {
    case Outcome::kUnsupported:
      response.set_json(415);
      append_error_with_reason(response.body(), error_code::kUnsupportedMediaType, "unsupported Content-Encoding",
                               reason_);
      return;
    case Outcome::kTooLarge:
      response.set_json(413);
      // Only on refusals: the one allocation of this path.
      append_error_with_reason(response.body(), error_code::kBodyTooLarge, "request body too large",
                               absl::StrCat("the body decodes to more than ", limit, " bytes"));
      return;
    case Outcome::kUndecodable:
      response.set_json(400);
      append_error_with_reason(response.body(), error_code::kInvalidJson, "request body does not decode", reason_);
      return;
    case Outcome::kAsSent:
    case Outcome::kDecoded:
      break;
  }
  DECISIOND_CHECK_MSG(false, "set_refusal without a refusal");
}

}  // namespace http::content_coding
