#pragma once
// An HTTP client as real callers use one: libcurl with one easy handle, so consecutive
// requests reuse the kept-alive connection the way a production client would.
#include <curl/curl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace integration {

struct CurlReply {
  bool ok = false;      // the transfer completed
  std::string error;    // curl's reason when not
  long status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // of the final reply
  std::string body;
  long new_connections = 0;  // CURLINFO_NUM_CONNECTS: 0 when a kept-alive one was reused

  // The first header of that name (case-insensitive), or empty.
  std::string header(const std::string& name) const;
};

class CurlSession {
 public:
  CurlSession();
  CurlSession(const CurlSession&) = delete;
  CurlSession& operator=(const CurlSession&) = delete;
  ~CurlSession();

  CurlReply get(const std::string& url);
  CurlReply get_with_headers(const std::string& url, const std::vector<std::string>& header_lines);
  CurlReply post(const std::string& url, const std::string& body,
                 const std::string& content_type = "application/json");
  // A POST with exactly these request header lines ("Name: value"). A line "Name:" with
  // no value stops curl sending a header of its own, such as its default Content-Type.
  CurlReply post_with_headers(const std::string& url, const std::string& body,
                              const std::vector<std::string>& header_lines);
  // HTTPS: verify the server's certificate against this CA file (and its name), from now on.
  void trust(const std::string& ca_file) { ca_file_ = ca_file; }
  // From now on, send Accept-Encoding: codings and decode compressed replies as curl
  // --compressed does (CURLOPT_ACCEPT_ENCODING; "" offers every coding this libcurl reads).
  void accept_encoding(const std::string& codings) { accept_encoding_ = codings; }

 private:
  CurlReply perform(const std::string& url, const std::string* post_body,
                    const std::vector<std::string>& header_lines);
  void log_reply(const std::string& url, const std::vector<std::string>& header_lines, const CurlReply& reply);

  CURL* handle_;
  std::string ca_file_;
  std::optional<std::string> accept_encoding_;
};

}  // namespace integration
