#include "tests/integration/http_reply.h"

#include <charconv>
#include <regex>
#include <strings.h>

namespace integration {

namespace {
bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

ParsedReply invalid(std::string why) {
  ParsedReply parsed;
  parsed.outcome = ParsedReply::Outcome::kInvalid;
  parsed.error = std::move(why);
  return parsed;
}
}  // namespace

std::optional<std::string> HttpReply::header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (equals_ignore_case(n, name)) return v;
  }
  return std::nullopt;
}

size_t HttpReply::header_count(std::string_view name) const {
  size_t count = 0;
  for (const auto& [n, v] : headers) count += equals_ignore_case(n, name) ? 1 : 0;
  return count;
}

bool HttpReply::closes_connection() const {
  const std::optional<std::string> connection = header("Connection");
  return connection && equals_ignore_case(*connection, "close");
}

ParsedReply parse_reply(std::string_view bytes, bool to_head) {
  const size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return {};
  const std::string_view head = bytes.substr(0, head_end);
  ParsedReply parsed;
  HttpReply& reply = parsed.reply;

  size_t line_end = head.find("\r\n");
  reply.status_line = std::string(head.substr(0, line_end));
  const std::string_view status_line = reply.status_line;
  if (status_line.size() < 12 || status_line.substr(0, 9) != "HTTP/1.1 ") {
    return invalid("bad status line: " + reply.status_line);
  }
  const auto [end, ec] = std::from_chars(status_line.data() + 9, status_line.data() + 12, reply.status);
  if (ec != std::errc() || end != status_line.data() + 12) return invalid("bad status code: " + reply.status_line);

  while (line_end != std::string_view::npos) {
    const size_t start = line_end + 2;
    line_end = head.find("\r\n", start);
    const std::string_view line = head.substr(start, line_end == std::string_view::npos ? head.npos : line_end - start);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return invalid("bad header line: " + std::string(line));
    reply.headers.emplace_back(std::string(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
  }

  size_t body_length = 0;
  // Interim 1xx replies and 204 have no body (RFC 9110 15.2, 15.3.5): a 204 needs no
  // Content-Length, and one it gives must be 0.
  if (reply.status >= 200) {
    const std::optional<std::string> length = reply.header("Content-Length");
    if (!length && reply.status != 204) return invalid("no Content-Length: " + reply.status_line);
    if (length) {
      const auto [l_end, l_ec] = std::from_chars(length->data(), length->data() + length->size(), body_length);
      if (l_ec != std::errc() || l_end != length->data() + length->size()) return invalid("bad Content-Length: " + *length);
      if (reply.status == 204 && body_length != 0) return invalid("a 204 with a body: " + *length);
    }
  }
  if (to_head) body_length = 0;
  const size_t total = head_end + 4 + body_length;
  if (bytes.size() < total) return {};
  reply.body = std::string(bytes.substr(head_end + 4, body_length));
  reply.raw = std::string(bytes.substr(0, total));
  parsed.outcome = ParsedReply::Outcome::kComplete;
  parsed.consumed = total;
  return parsed;
}

bool is_imf_fixdate(std::string_view text) {
  static const std::regex kFixdate(
      R"((Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT)");
  return std::regex_match(text.begin(), text.end(), kFixdate);
}

}  // namespace integration
