#include "http/reply_writer.h"

#include <charconv>

#include "http/status.h"

namespace http {

void append_reply(std::string& out, const Response& response, std::string_view date,
                  bool close_connection, bool head_request, std::string_view route_headers,
                  const BodyCoding& coding) {
  const bool coded = !coding.content_encoding.empty();
  const std::string_view body = coded ? coding.coded : std::string_view(response.body());
  char number[24];
  out.append("HTTP/1.1 ");
  auto r = std::to_chars(number, number + sizeof(number), response.status());
  out.append(number, r.ptr);
  out.push_back(' ');
  out.append(reason_phrase(response.status()));
  out.append("\r\nDate: ");
  out.append(date);
  if (!response.content_type().empty()) {
    out.append("\r\nContent-Type: ");
    out.append(response.content_type());
  }
  // RFC 9110 8.6: no Content-Length on 1xx and 204 replies, which have no body.
  const bool bodiless = response.status() < 200 || response.status() == 204;
  if (!bodiless) {
    out.append("\r\nContent-Length: ");
    r = std::to_chars(number, number + sizeof(number), body.size());
    out.append(number, r.ptr);
  }
  out.append("\r\n");
  if (coded) {
    out.append("Content-Encoding: ");
    out.append(coding.content_encoding);
    out.append("\r\n");
  }
  if (coding.vary) out.append("Vary: Accept-Encoding\r\n");
  out.append(response.extra_headers());
  out.append(route_headers);
  if (close_connection) out.append("Connection: close\r\n");
  out.append("\r\n");
  if (!bodiless && !head_request) out.append(body);
}

void append_continue(std::string& out) { out.append("HTTP/1.1 100 Continue\r\n\r\n"); }

}  // namespace http
