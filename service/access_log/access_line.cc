#include "service/access_log/access_line.h"

#include <array>
#include <charconv>

#include "http/json_writer.h"

namespace service::access_log {

namespace {

void append_int(std::string& out, int64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out.append(digits, result.ptr);
}

// Cut at most `limit` bytes, never inside a UTF-8 sequence.
std::string_view cut(std::string_view text, size_t limit, bool& truncated) {
  if (text.size() <= limit) return text;
  truncated = true;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

void string_member(std::string& out, std::string_view name, std::string_view value) {
  out.append(",\"");
  out.append(name);
  out.append("\":\"");
  http::JsonWriter::append_escaped(out, value);
  out.push_back('"');
}

void int_member(std::string& out, std::string_view name, int64_t value) {
  out.append(",\"");
  out.append(name);
  out.append("\":");
  append_int(out, value);
}

}  // namespace

void append_access_line(const AccessRecord& r, std::string& out) {
  out.append("{\"time_ms\":");
  append_int(out, r.time_ms);
  int_member(out, "core", r.core);
  string_member(out, "listener", r.listener);
  string_member(out, "route", r.route);
  bool truncated = false;
  if (!r.method.empty()) {
    string_member(out, "method", r.method);
    string_member(out, "path", cut(r.path, kMaxPathBytes, truncated));
  }
  int_member(out, "status", r.status);
  if (r.code != 0) int_member(out, "code", r.code);
  int_member(out, "request_bytes", static_cast<int64_t>(r.request_bytes));
  int_member(out, "reply_bytes", static_cast<int64_t>(r.reply_bytes));
  int_member(out, "duration_us", r.duration_us);
  if (!r.user_agent.empty()) string_member(out, "user_agent", cut(r.user_agent, kMaxUserAgentBytes, truncated));
  if (r.client.known()) {
    std::array<char, runtime::IpAddress::kMaxTextBytes + 1> text{};
    string_member(out, "client", runtime::format_ip(r.client, text));
  }
  if (truncated) out.append(",\"truncated\":true");
  out.push_back('}');
}

int error_code_of(std::string_view body) {
  constexpr std::string_view kPrefix = R"({"success":false,"data":null,"errors":[{"code":)";
  if (!body.starts_with(kPrefix)) return 0;
  body.remove_prefix(kPrefix.size());
  int code = 0;
  const auto result = std::from_chars(body.data(), body.data() + body.size(), code);
  return result.ec == std::errc() ? code : 0;
}

AccessRecord access_record(const http::CompletedRequest& completed, int64_t time_ms, uint32_t core,
                           std::string_view listener) {
  AccessRecord r;
  r.time_ms = time_ms;
  r.core = core;
  r.listener = listener;
  r.route = completed.route;
  if (completed.request != nullptr) {
    const http::Request& request = *completed.request;
    r.method = request.method_text.empty() ? std::string_view("?") : request.method_text;
    r.path = request.path;
    r.user_agent = request.header("user-agent");
  }
  r.status = completed.status;
  if (completed.status >= 400 && completed.reply != nullptr) r.code = error_code_of(completed.reply->body());
  r.request_bytes = completed.request_bytes;
  r.reply_bytes = completed.reply_bytes;
  r.duration_us = completed.latency_ns / 1000;
  r.client = completed.client_address;
  return r;
}

}  // namespace service::access_log
