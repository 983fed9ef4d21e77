#pragma once
// Incremental HTTP/1.1 request parsing over llhttp. Bytes may arrive split anywhere;
// the parser stops after each complete request (so pipelined requests are handled one at
// a time, in order) and before a body that was announced with Expect: 100-continue.
#include <llhttp.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/error_codes.h"
#include "http/head_line_guard.h"
#include "http/limits.h"
#include "http/request.h"
#include "runtime/spare_buffers.h"

namespace http {

struct ParseError {
  int status = 400;
  int code = error_code::kMalformedRequest;
  std::string_view message;
  enum class Kind { kMalformed, kHeadersTooLarge, kBodyTooLarge } kind = Kind::kMalformed;
};

class RequestParser {
 public:
  enum class Event {
    kNeedMore,  // every byte consumed, no complete request yet
    kRequest,   // request() is complete; feed the unconsumed rest afterwards
    kContinue,  // headers asked for 100-continue; reply it, then feed the rest
    kError,     // error() says what; the connection cannot go on
  };
  struct Step {
    Event event;
    size_t consumed;
  };

  explicit RequestParser(const HttpLimits& limits);
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  // Starts over for a new connection.
  void reset();
  // The buffer a request's bytes are kept in, from the core's spares while a request is read
  // and back to them between requests (when nothing refers to the last request any more).
  void borrow_storage(runtime::SpareBuffers& spares) { spares.lend(storage_); }
  void give_back_storage(runtime::SpareBuffers& spares) { spares.take_back(storage_); }
  Step feed(std::string_view bytes);

  const Request& request() const { return request_; }
  // What the connection knows of its peer, carried by every request parsed after.
  void set_peer_loopback(bool loopback) { request_.peer_loopback = loopback; }
  // The client of the request parsed last (the connection settles it before dispatching).
  void set_client_address(const runtime::IpAddress& address) { request_.client_address = address; }
  // The body its Content-Encoding decoded to (http/content_coding/request_body_decoder.h), in
  // place of the bytes sent, until the next request; a handler may take it (owned_body).
  void set_decoded_body(std::string& body) {
    request_.body = body;
    request_.owned_body = &body;
  }
  const ParseError& error() const { return error_; }
  // Some bytes of a request have been seen and it is not complete yet.
  bool in_message() const { return in_message_; }

 private:
  struct Span {
    uint32_t offset = 0;
    uint32_t length = 0;
  };
  enum class Field : uint8_t { kNone, kUrl, kName, kValue };

  static int on_message_begin(llhttp_t* p);
  static int on_url(llhttp_t* p, const char* at, size_t length);
  static int on_header_field(llhttp_t* p, const char* at, size_t length);
  static int on_header_value(llhttp_t* p, const char* at, size_t length);
  static int on_headers_complete(llhttp_t* p);
  static int on_body(llhttp_t* p, const char* at, size_t length);
  static int on_chunk_header(llhttp_t* p);
  static int on_message_complete(llhttp_t* p);

  int append_head(Field field, const char* at, size_t length);
  int fail(ParseError::Kind kind);
  Step refuse();  // malformed: 400 10007
  void finish_request();
  std::string_view view(Span span) const { return {storage_.data() + span.offset, span.length}; }

  const HttpLimits& limits_;
  llhttp_settings_t settings_;
  llhttp_t parser_;
  HeadLineGuard head_guard_;  // what llhttp lets through of bare LFs and obs-fold
  std::string storage_;  // url, header bytes, then body; reused across requests
  // A body whose Content-Length is at least kBodyApartBytes goes here instead, sized once
  // from that length: no regrowth copies, and a handler may take it whole (Request::owned_body).
  std::string body_apart_;
  bool body_is_apart_ = false;
  Span url_;
  Span names_[Request::kMaxHeaders];
  Span values_[Request::kMaxHeaders];
  size_t header_count_ = 0;
  size_t head_bytes_ = 0;
  Span body_;
  Field last_field_ = Field::kNone;
  bool headers_done_ = false;  // later field callbacks are chunked trailers
  bool in_message_ = false;
  bool paused_ = false;
  bool failed_ = false;
  bool continue_pending_ = false;
  bool chunk_header_pending_ = false;  // paused at a chunk-size line
  Request request_;
  ParseError error_;
};

}  // namespace http
