#pragma once
// Serialises a Response onto a connection's output: status line, Date, Content-Type,
// Content-Length, the handler's headers, Connection: close when ending, then the body.
#include <string>
#include <string_view>

#include "http/response.h"

namespace http {

// How a reply's body goes on the wire (http/content_coding/reply_compressor.h).
struct BodyCoding {
  std::string_view content_encoding;  // "gzip", "zstd"; empty: the body as the handler wrote it
  std::string_view coded;             // with a content_encoding: the bytes sent instead of the body
  bool vary = false;                  // the reply carries Vary: Accept-Encoding
};

// A reply to HEAD keeps its Content-Length but sends no body. route_headers: the header
// lines of the resource (Router::add_reply_headers), written after the handler's.
void append_reply(std::string& out, const Response& response, std::string_view date,
                  bool close_connection, bool head_request = false, std::string_view route_headers = {},
                  const BodyCoding& coding = {});
// "HTTP/1.1 100 Continue\r\n\r\n"
void append_continue(std::string& out);

}  // namespace http
