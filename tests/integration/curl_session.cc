#include "tests/integration/curl_session.h"

#include <strings.h>

#include "tests/integration/reply_log.h"

namespace integration {

namespace {
size_t append_body(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

size_t append_header(char* data, size_t size, size_t count, void* out) {
  auto& headers = *static_cast<std::vector<std::pair<std::string, std::string>>*>(out);
  std::string line(data, size * count);
  // A new status line starts a new reply (after a 100 Continue): keep only the last.
  if (line.rfind("HTTP/", 0) == 0) headers.clear();
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return size * count;
  std::string value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.erase(0, 1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.pop_back();
  headers.emplace_back(line.substr(0, colon), value);
  return size * count;
}
}  // namespace

std::string CurlReply::header(const std::string& name) const {
  for (const auto& [n, v] : headers) {
    if (::strcasecmp(n.c_str(), name.c_str()) == 0) return v;
  }
  return {};
}

CurlSession::CurlSession() : handle_(curl_easy_init()) {}


CurlSession::~CurlSession() { curl_easy_cleanup(handle_); }

CurlReply CurlSession::get(const std::string& url) { return perform(url, nullptr, {}); }

CurlReply CurlSession::get_with_headers(const std::string& url, const std::vector<std::string>& header_lines) {
  return perform(url, nullptr, header_lines);
}

CurlReply CurlSession::post(const std::string& url, const std::string& body, const std::string& content_type) {
  return perform(url, &body, {"Content-Type: " + content_type});
}

CurlReply CurlSession::post_with_headers(const std::string& url, const std::string& body,
                                         const std::vector<std::string>& header_lines) {
  return perform(url, &body, header_lines);
}

CurlReply CurlSession::perform(const std::string& url, const std::string* post_body,
                               const std::vector<std::string>& header_lines) {
  CurlReply reply;
  curl_easy_reset(handle_);  // keeps the connection cache: that is the point of one handle
  curl_easy_setopt(handle_, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle_, CURLOPT_TIMEOUT_MS, 5000L);
  if (!ca_file_.empty()) {
    curl_easy_setopt(handle_, CURLOPT_CAINFO, ca_file_.c_str());
    curl_easy_setopt(handle_, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle_, CURLOPT_SSL_VERIFYHOST, 2L);
  }
  if (accept_encoding_) curl_easy_setopt(handle_, CURLOPT_ACCEPT_ENCODING, accept_encoding_->c_str());
  curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, &append_body);
  curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(handle_, CURLOPT_HEADERFUNCTION, &append_header);
  curl_easy_setopt(handle_, CURLOPT_HEADERDATA, &reply.headers);
  curl_slist* headers = nullptr;
  if (post_body != nullptr) {
    curl_easy_setopt(handle_, CURLOPT_POST, 1L);
    curl_easy_setopt(handle_, CURLOPT_POSTFIELDS, post_body->data());
    curl_easy_setopt(handle_, CURLOPT_POSTFIELDSIZE, static_cast<long>(post_body->size()));
  }
  for (const std::string& line : header_lines) headers = curl_slist_append(headers, line.c_str());
  if (headers != nullptr) curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, headers);
  const CURLcode rc = curl_easy_perform(handle_);
  curl_slist_free_all(headers);
  reply.ok = rc == CURLE_OK;
  if (!reply.ok) {
    reply.error = curl_easy_strerror(rc);
    return reply;
  }
  curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &reply.status);
  curl_easy_getinfo(handle_, CURLINFO_NUM_CONNECTS, &reply.new_connections);
  if (reply_log::enabled()) log_reply(url, header_lines, reply);
  return reply;
}

void CurlSession::log_reply(const std::string& url, const std::vector<std::string>& header_lines,
                            const CurlReply& reply) {
  reply_log::LoggedRequest request;
  request.parsed = true;
  const char* method = nullptr;
  curl_easy_getinfo(handle_, CURLINFO_EFFECTIVE_METHOD, &method);
  request.method = method != nullptr ? method : "GET";
  // The target as sent: the URL past its scheme and authority.
  const size_t authority = url.find("://");
  const size_t path = authority == std::string::npos ? 0 : url.find('/', authority + 3);
  request.target = path == std::string::npos ? "/" : url.substr(path);
  for (const std::string& line : header_lines) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (!value.empty()) request.headers.emplace_back(line.substr(0, colon), value);
  }
  long port = 0;
  curl_easy_getinfo(handle_, CURLINFO_PRIMARY_PORT, &port);
  reply_log::record(static_cast<uint16_t>(port), request, {static_cast<int>(reply.status), &reply.headers, reply.body});
}

}  // namespace integration
