#include "http/request_parser.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "http/error_codes.h"
#include "runtime/absl_view.h"

namespace http {

namespace {
RequestParser* self(llhttp_t* p) { return static_cast<RequestParser*>(p->data); }

Method to_method(uint8_t m) {
  switch (m) {
    case HTTP_GET: return Method::kGet;
    case HTTP_HEAD: return Method::kHead;
    case HTTP_POST: return Method::kPost;
    case HTTP_PUT: return Method::kPut;
    case HTTP_DELETE: return Method::kDelete;
    case HTTP_OPTIONS: return Method::kOptions;
    case HTTP_PATCH: return Method::kPatch;
    default: return Method::kOther;
  }
}

// Bytes a header line costs beyond its name and value: ": " and CRLF.
constexpr size_t kHeaderLineOverhead = 4;
// Bodies from this size (by Content-Length) are held apart from the head (body_apart_).
constexpr uint64_t kBodyApartBytes = 1 << 20;
}  // namespace

RequestParser::RequestParser(const HttpLimits& limits) : limits_(limits) {
  llhttp_settings_init(&settings_);
  settings_.on_message_begin = &RequestParser::on_message_begin;
  settings_.on_url = &RequestParser::on_url;
  settings_.on_header_field = &RequestParser::on_header_field;
  settings_.on_header_value = &RequestParser::on_header_value;
  settings_.on_headers_complete = &RequestParser::on_headers_complete;
  settings_.on_body = &RequestParser::on_body;
  settings_.on_chunk_header = &RequestParser::on_chunk_header;
  settings_.on_message_complete = &RequestParser::on_message_complete;
  reset();
}

void RequestParser::reset() {
  llhttp_init(&parser_, HTTP_REQUEST, &settings_);
  parser_.data = this;
  head_guard_.reset();
  in_message_ = false;
  paused_ = false;
  failed_ = false;
  continue_pending_ = false;
  chunk_header_pending_ = false;
  error_ = {};
}

RequestParser::Step RequestParser::feed(std::string_view bytes) {
  if (failed_) return {Event::kError, 0};
  if (paused_) {
    llhttp_resume(&parser_);
    paused_ = false;
  }
  if (bytes.empty()) return {Event::kNeedMore, 0};
  size_t offset = 0;  // past chunk-size lines already checked
  for (;;) {
    const std::string_view rest = bytes.substr(offset);
    // The head's line grammar first: llhttp would act on a head it should have refused.
    if (head_guard_.in_head() && head_guard_.scan(rest) == HeadLineGuard::Verdict::kRefused) return refuse();
    const llhttp_errno_t rc = llhttp_execute(&parser_, rest.data(), rest.size());
    if (rc == HPE_OK) return {Event::kNeedMore, bytes.size()};
    if (rc != HPE_PAUSED) break;
    const size_t consumed = offset + static_cast<size_t>(llhttp_get_error_pos(&parser_) - rest.data());
    if (chunk_header_pending_) {
      chunk_header_pending_ = false;
      llhttp_resume(&parser_);
      // llhttp 8 takes any byte after the CR of a chunk-size line (it stops right after
      // that byte, so it is in this buffer); only LF ends a line.
      if (consumed == 0 || bytes[consumed - 1] != '\n') return refuse();
      // After the last chunk come trailer lines and the blank line: a head's grammar.
      if (parser_.content_length == 0) head_guard_.enter_trailers();
      offset = consumed;
      if (offset == bytes.size()) return {Event::kNeedMore, bytes.size()};
      continue;
    }
    paused_ = true;
    if (continue_pending_) {
      continue_pending_ = false;
      return {Event::kContinue, consumed};
    }
    return {Event::kRequest, consumed};
  }
  failed_ = true;
  // llhttp's own verdict, unless a callback of ours already named the error.
  if (error_.message.empty()) fail(ParseError::Kind::kMalformed);
  return {Event::kError, 0};
}

RequestParser::Step RequestParser::refuse() {
  failed_ = true;
  fail(ParseError::Kind::kMalformed);
  return {Event::kError, 0};
}

int RequestParser::on_chunk_header(llhttp_t* p) {
  // Paused so that feed() can check the line end llhttp did not, and see the trailers.
  self(p)->chunk_header_pending_ = true;
  return HPE_PAUSED;
}

int RequestParser::fail(ParseError::Kind kind) {
  error_.kind = kind;
  switch (kind) {
    case ParseError::Kind::kHeadersTooLarge:
      error_.status = 431;
      error_.code = error_code::kHeadersTooLarge;
      error_.message = "request headers too large";
      break;
    case ParseError::Kind::kBodyTooLarge:
      error_.status = 413;
      error_.code = error_code::kBodyTooLarge;
      error_.message = "request body too large";
      break;
    case ParseError::Kind::kMalformed:
      error_.status = 400;
      error_.code = error_code::kMalformedRequest;
      error_.message = "malformed HTTP request";
      break;
  }
  return -1;
}

int RequestParser::on_message_begin(llhttp_t* p) {
  RequestParser& r = *self(p);
  r.in_message_ = true;
  r.storage_.clear();
  if (r.body_is_apart_) r.body_apart_ = std::string();  // up to the body limit: not kept for the next
  r.body_is_apart_ = false;
  r.url_ = {};
  r.body_ = {};
  r.header_count_ = 0;
  r.head_bytes_ = 0;
  r.last_field_ = Field::kNone;
  r.headers_done_ = false;
  r.error_ = {};
  return 0;
}

int RequestParser::append_head(Field field, const char* at, size_t length) {
  head_bytes_ += length;
  if (field == Field::kName && last_field_ != Field::kName) head_bytes_ += kHeaderLineOverhead;
  if (head_bytes_ > limits_.max_header_bytes) return fail(ParseError::Kind::kHeadersTooLarge);
  if (headers_done_) {
    // Trailer fields of a chunked body: counted against the header budget, never taken
    // as request headers (a client must not add headers after the body).
    last_field_ = field;
    return 0;
  }
  Span* span = nullptr;
  if (field == Field::kUrl) {
    span = &url_;
  } else if (field == Field::kName) {
    if (last_field_ != Field::kName) {
      if (header_count_ >= std::min(limits_.max_headers, Request::kMaxHeaders)) {
        return fail(ParseError::Kind::kHeadersTooLarge);
      }
      names_[header_count_] = {static_cast<uint32_t>(storage_.size()), 0};
      values_[header_count_] = {static_cast<uint32_t>(storage_.size()), 0};
      ++header_count_;
    }
    span = &names_[header_count_ - 1];
  } else {
    if (last_field_ != Field::kValue) {
      values_[header_count_ - 1] = {static_cast<uint32_t>(storage_.size()), 0};
    }
    span = &values_[header_count_ - 1];
  }
  // Pieces of one field arrive back to back, so the span stays contiguous in storage_.
  if (span->length == 0) span->offset = static_cast<uint32_t>(storage_.size());
  storage_.append(at, length);
  span->length += static_cast<uint32_t>(length);
  last_field_ = field;
  return 0;
}

int RequestParser::on_url(llhttp_t* p, const char* at, size_t length) {
  return self(p)->append_head(Field::kUrl, at, length);
}

int RequestParser::on_header_field(llhttp_t* p, const char* at, size_t length) {
  return self(p)->append_head(Field::kName, at, length);
}

int RequestParser::on_header_value(llhttp_t* p, const char* at, size_t length) {
  return self(p)->append_head(Field::kValue, at, length);
}

int RequestParser::on_headers_complete(llhttp_t* p) {
  RequestParser& r = *self(p);
  r.headers_done_ = true;
  r.last_field_ = Field::kNone;
  for (size_t i = 0; i < r.header_count_; ++i) {
    // RFC 9112 5.1: whitespace between a field name and the colon must be refused.
    const std::string_view name = r.view(r.names_[i]);
    if (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
      return r.fail(ParseError::Kind::kMalformed);
    }
    // llhttp drops whitespace before a value but keeps it after; a field value has none.
    Span& value = r.values_[i];
    while (value.length > 0) {
      const char last = r.storage_[value.offset + value.length - 1];
      if (last != ' ' && last != '\t') break;
      --value.length;
    }
  }
  const bool chunked = (p->flags & F_CHUNKED) != 0;
  const bool has_length = (p->flags & F_CONTENT_LENGTH) != 0;
  if (has_length && p->content_length > r.limits_.max_body_bytes) {
    return r.fail(ParseError::Kind::kBodyTooLarge);
  }
  r.body_ = {static_cast<uint32_t>(r.storage_.size()), 0};
  if (has_length && p->content_length >= kBodyApartBytes) {
    // Reserved, not written: the pages are the kernel's to give as the bytes arrive.
    r.body_is_apart_ = true;
    r.body_apart_.reserve(static_cast<size_t>(p->content_length));
  }
  const bool body_expected = chunked || (has_length && p->content_length > 0);
  if (body_expected && p->http_major == 1 && p->http_minor >= 1) {
    for (size_t i = 0; i < r.header_count_; ++i) {
      if (absl::EqualsIgnoreCase(runtime::av(r.view(r.names_[i])), "expect") &&
          absl::EqualsIgnoreCase(runtime::av(r.view(r.values_[i])), "100-continue")) {
        r.continue_pending_ = true;
        return HPE_PAUSED;
      }
    }
  }
  return 0;
}

int RequestParser::on_body(llhttp_t* p, const char* at, size_t length) {
  RequestParser& r = *self(p);
  if (r.body_.length + length > r.limits_.max_body_bytes) {
    return r.fail(ParseError::Kind::kBodyTooLarge);
  }
  (r.body_is_apart_ ? r.body_apart_ : r.storage_).append(at, length);
  r.body_.length += static_cast<uint32_t>(length);
  return 0;
}

int RequestParser::on_message_complete(llhttp_t* p) {
  RequestParser& r = *self(p);
  r.finish_request();
  r.in_message_ = false;
  r.head_guard_.reset();  // the bytes after this request are the next one's head
  return HPE_PAUSED;
}

void RequestParser::finish_request() {
  Request& q = request_;
  q.method = to_method(parser_.method);
  q.method_text = llhttp_method_name(static_cast<llhttp_method_t>(parser_.method));
  q.target = view(url_);
  std::string_view origin = q.target;
  // RFC 9112 3.2.2: absolute-form ("http://host/path?q") must be accepted; route on the
  // path and query it carries.
  if (const size_t scheme = origin.find("://");
      scheme != std::string_view::npos && origin.front() != '/') {
    const size_t slash = origin.find('/', scheme + 3);
    origin = slash == std::string_view::npos ? std::string_view("/") : origin.substr(slash);
  }
  const size_t mark = origin.find('?');
  q.path = origin.substr(0, mark);
  q.query = mark == std::string_view::npos ? std::string_view() : origin.substr(mark + 1);
  q.version_major = parser_.http_major;
  q.version_minor = parser_.http_minor;
  // An upgrade is not taken up: answer the request and end the connection.
  q.keep_alive = llhttp_should_keep_alive(&parser_) != 0 && parser_.upgrade == 0;
  q.header_count = header_count_;
  for (size_t i = 0; i < header_count_; ++i) q.headers[i] = {view(names_[i]), view(values_[i])};
  q.body = body_is_apart_ ? std::string_view(body_apart_) : view(body_);
  q.owned_body = body_is_apart_ ? &body_apart_ : nullptr;
}

}  // namespace http
