#include "tests/integration/reply_log.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <map>
#include <mutex>

namespace integration::reply_log {
namespace {

// A reply body longer than this is logged cut, marked "body_truncated" (the check then
// skips its body); a target longer than this is cut too (a 1 MB URL of the abuse tests).
constexpr size_t kMaxBodyBytes = 1 << 20;
constexpr size_t kMaxTargetBytes = 4096;
// A raw connection's unanswered bytes kept to read requests back from.
constexpr size_t kMaxPendingBytes = 4 << 20;
// Replies logged per test for one listener, method, path and status. Tests under load
// read a hundred thousand alike replies (400 MB of log, half a minute to check) where a
// few hundred show the same shapes: past this, a reply is counted, not logged, and the
// count is logged when the test ends (the check reports it).
constexpr uint64_t kMaxRepliesPerKind = 300;

struct LogFile {
  std::mutex mutex;
  int fd = -1;
  bool tried = false;
  std::map<uint16_t, std::string> listeners;
  std::map<std::string, uint64_t> replies_of_kind;  // of the running test
};

LogFile& log_file() {
  static LogFile file;
  return file;
}

const char* log_dir() {
  static const char* dir = [] {
    const char* value = std::getenv("DECISIOND_REPLY_LOG_DIR");
    return value != nullptr && *value != '\0' ? value : nullptr;
  }();
  return dir;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      out.append("\\u00");
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    // Multi-byte UTF-8 passes as is when well-formed; any other byte becomes U+FFFD, so
    // the line stays JSON (the check compares bodies only where they are text anyway).
    size_t length = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    bool ok = length != 0 && i + length <= text.size();
    for (size_t k = 1; ok && k < length; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out.append("\xef\xbf\xbd");
      ++i;
    }
  }
  out.push_back('"');
}

void append_headers(std::string& out, const std::vector<std::pair<std::string, std::string>>& headers) {
  out.push_back('[');
  for (size_t i = 0; i < headers.size(); ++i) {
    if (i != 0) out.push_back(',');
    out.push_back('[');
    append_json_string(out, headers[i].first);
    out.push_back(',');
    append_json_string(out, headers[i].second);
    out.push_back(']');
  }
  out.push_back(']');
}

std::string current_test() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return {};
  return std::string(info->test_suite_name()) + "." + info->name();
}

// One write per line, O_APPEND: lines of concurrent client threads never interleave.
void write_line(std::string line) {
  LogFile& file = log_file();
  std::lock_guard lock(file.mutex);
  if (!file.tried) {
    file.tried = true;
    ::mkdir(log_dir(), 0755);  // normally made by openapi.replies.reset; EEXIST is fine
    const std::string path = std::string(log_dir()) + "/replies-" + std::to_string(::getpid()) + ".jsonl";
    file.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  if (file.fd < 0) return;
  line.push_back('\n');
  [[maybe_unused]] const ssize_t written = ::write(file.fd, line.data(), line.size());
}

// Records each test as it starts, so the check can tell a whole run from a filtered one,
// and as it ends, the replies it read past kMaxRepliesPerKind.
class TestStartLogger final : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& info) override {
    std::string line = "{\"started\":";
    append_json_string(line, std::string(info.test_suite_name()) + "." + info.name());
    line.push_back('}');
    write_line(std::move(line));
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    std::map<std::string, uint64_t> kinds;
    {
      LogFile& file = log_file();
      std::lock_guard lock(file.mutex);
      kinds.swap(file.replies_of_kind);
    }
    for (const auto& [kind, count] : kinds) {
      if (count <= kMaxRepliesPerKind) continue;
      std::string line = "{\"test\":";
      append_json_string(line, std::string(info.test_suite_name()) + "." + info.name());
      line.append(",\"not_logged\":").append(std::to_string(count - kMaxRepliesPerKind)).append(",\"kind\":");
      append_json_string(line, kind);
      line.push_back('}');
      write_line(std::move(line));
    }
  }
};

[[maybe_unused]] const bool kListening = [] {
  if (log_dir() != nullptr) ::testing::UnitTest::GetInstance()->listeners().Append(new TestStartLogger);
  return true;
}();

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c <= ' ' || c >= 0x7f) return false;
  }
  return true;
}

}  // namespace

bool enabled() { return log_dir() != nullptr; }

void note_listeners(uint16_t public_port, uint16_t admin_port, uint16_t tls_port) {
  if (!enabled()) return;
  LogFile& file = log_file();
  std::lock_guard lock(file.mutex);
  if (public_port != 0) file.listeners[public_port] = "public";
  file.listeners[admin_port] = "admin";
  if (tls_port != 0) file.listeners[tls_port] = "public";
}

void note_balancer_port(uint16_t port) {
  if (!enabled()) return;
  LogFile& file = log_file();
  std::lock_guard lock(file.mutex);
  file.listeners[port] = "public";
}

bool is_logged_request_header(std::string_view name) {
  for (std::string_view known : {"X-Decision-Version", "X-Tracking-Version", "Content-Type", "Accept-Language",
                                 "Authorization", "Origin", "Access-Control-Request-Method",
                                 "Access-Control-Request-Headers"}) {
    if (equals_ignore_case(name, known)) return true;
  }
  return false;
}

void record(uint16_t port, const LoggedRequest& request, const LoggedReply& reply) {
  if (!enabled()) return;
  std::string listener = "unknown";
  {
    LogFile& file = log_file();
    std::lock_guard lock(file.mutex);
    if (auto it = file.listeners.find(port); it != file.listeners.end()) listener = it->second;
    const std::string kind = listener + " " + request.method + " " +
                             request.target.substr(0, request.target.find('?')).substr(0, 256) + " " +
                             std::to_string(reply.status);
    if (++file.replies_of_kind[kind] > kMaxRepliesPerKind) return;
  }
  std::string line = "{\"test\":";
  append_json_string(line, current_test());
  line.append(",\"listener\":\"").append(listener).append("\",\"port\":").append(std::to_string(port));
  line.append(",\"request\":{\"parsed\":").append(request.parsed ? "true" : "false");
  if (!request.method.empty()) {
    line.append(",\"method\":");
    append_json_string(line, request.method);
  }
  if (!request.target.empty()) {
    line.append(",\"target\":");
    append_json_string(line, request.target.substr(0, kMaxTargetBytes));
    if (request.target.size() > kMaxTargetBytes) line.append(",\"target_truncated\":true");
  }
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [name, value] : request.headers) {
    if (!is_logged_request_header(name)) continue;
    headers.emplace_back(name, equals_ignore_case(name, "Authorization") ? "(not logged)" : value);
  }
  line.append(",\"headers\":");
  append_headers(line, headers);
  line.append("},\"status\":").append(std::to_string(reply.status)).append(",\"headers\":");
  append_headers(line, reply.headers != nullptr ? *reply.headers : decltype(headers){});
  line.append(",\"body\":");
  append_json_string(line, reply.body.substr(0, kMaxBodyBytes));
  if (reply.body.size() > kMaxBodyBytes) line.append(",\"body_truncated\":true");
  line.push_back('}');
  write_line(std::move(line));
}

void SentRequests::sent(std::string_view bytes) {
  if (!enabled() || unreadable_) return;
  if (!began_) {
    began_ = true;
    // A PROXY protocol v2 header (docs/client_address.md) goes before any request: the
    // transport's, not HTTP's. Its 16 bytes name the length of what follows.
    constexpr std::string_view kProxySignature("\r\n\r\n\0\r\nQUIT\n", 12);
    if (bytes.size() >= 16 && bytes.substr(0, 12) == kProxySignature) {
      const size_t length = (static_cast<uint8_t>(bytes[14]) << 8) | static_cast<uint8_t>(bytes[15]);
      bytes.remove_prefix(std::min(bytes.size(), 16 + length));
    }
  }
  if (body_left_ > 0) {
    const size_t skipped = static_cast<size_t>(std::min<uint64_t>(body_left_, bytes.size()));
    body_left_ -= skipped;
    bytes.remove_prefix(skipped);
  }
  if (pending_.size() + bytes.size() > kMaxPendingBytes) {
    unreadable_ = true;
    pending_.clear();
    return;
  }
  pending_.append(bytes);
}

// Drops the body of the head just read from pending_; false when its framing cannot be
// followed (the server closes such a connection anyway).
bool SentRequests::skip_body(std::string_view head) {
  uint64_t length = 0;
  bool chunked = false;
  size_t start = head.find("\r\n");
  while (start != std::string_view::npos && start + 2 < head.size()) {
    const size_t end = head.find("\r\n", start + 2);
    const std::string_view line = head.substr(start + 2, end == std::string_view::npos ? head.npos : end - start - 2);
    start = end;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (equals_ignore_case(name, "Content-Length")) {
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || p != value.data() + value.size()) return false;
    } else if (equals_ignore_case(name, "Transfer-Encoding")) {
      chunked = true;
    }
  }
  if (!chunked) {
    const size_t now = static_cast<size_t>(std::min<uint64_t>(length, pending_.size()));
    pending_.erase(0, now);
    body_left_ = length - now;
    return true;
  }
  // Chunks, then trailers up to an empty line; all of it must have been sent already.
  size_t at = 0;
  for (;;) {
    const size_t end = pending_.find("\r\n", at);
    if (end == std::string::npos) return false;
    uint64_t size = 0;
    const char* first = pending_.data() + at;
    const auto [p, ec] = std::from_chars(first, pending_.data() + end, size, 16);
    if (ec != std::errc() || p == first) return false;
    at = end + 2;
    if (size == 0) break;
    if (pending_.size() < at + size + 2) return false;
    at += size + 2;
  }
  for (;;) {
    const size_t end = pending_.find("\r\n", at);
    if (end == std::string::npos) return false;
    const bool last = end == at;
    at = end + 2;
    if (last) break;
  }
  pending_.erase(0, at);
  return true;
}

LoggedRequest SentRequests::peek() const {
  SentRequests copy = *this;
  return copy.next(/*reply_closes=*/false);
}

LoggedRequest SentRequests::next(bool reply_closes) {
  LoggedRequest request;
  const auto finish = [&] {
    if (reply_closes) {
      pending_.clear();
      body_left_ = 0;
    }
    return request;
  };
  if (unreadable_ || pending_.empty()) return finish();
  const size_t line_end = pending_.find("\r\n");
  if (line_end == std::string::npos) {
    pending_.clear();
    return finish();
  }
  const std::string_view line(pending_.data(), line_end);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || !is_token(line.substr(0, sp1)) ||
      line.substr(sp2 + 1, 5) != "HTTP/") {
    pending_.clear();  // garbage: the server answers 400 10007 and closes
    return finish();
  }
  request.parsed = true;
  request.method = std::string(line.substr(0, sp1));
  request.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  const size_t head_end = pending_.find("\r\n\r\n");
  const std::string_view head(pending_.data(), head_end == std::string::npos ? pending_.size() : head_end);
  size_t start = line_end;
  while (start != std::string_view::npos && start + 2 < head.size()) {
    const size_t end = head.find("\r\n", start + 2);
    const std::string_view header = head.substr(start + 2, end == std::string_view::npos ? head.npos : end - start - 2);
    start = end;
    const size_t colon = header.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = header.substr(0, colon);
    if (is_logged_request_header(name)) request.headers.emplace_back(name, trim(header.substr(colon + 1)));
  }
  if (head_end == std::string::npos) {
    pending_.clear();  // an unfinished head (408, 431): nothing after it is read
    return finish();
  }
  const std::string head_copy(head);
  pending_.erase(0, head_end + 4);
  if (!skip_body(head_copy)) pending_.clear();
  return finish();
}

}  // namespace integration::reply_log
