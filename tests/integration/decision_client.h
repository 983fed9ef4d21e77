#pragma once
// POST /v1/decision as a client application calls it: libcurl on one kept-alive
// connection, with the headers docs/openapi.yaml names. A header left nullopt is not sent.
#include <optional>
#include <set>
#include <string>

#include "tests/integration/curl_session.h"
#include "tests/integration/server_process.h"

namespace integration {

struct DecisionHeaders {
  std::optional<std::string> version{};          // X-Decision-Version
  std::optional<std::string> accept_language{};  // Accept-Language
  std::optional<std::string> content_type = "application/json";
};

class DecisionClient {
 public:
  explicit DecisionClient(const ServerProcess& server) : url_(server.public_url("/v1/decision")) {}

  CurlReply decide(const std::string& body, const DecisionHeaders& headers = {});

 private:
  std::string url_;
  CurlSession curl_;
};

// Every ad id served over `rounds` decisions of one request body (each expected 200).
std::set<std::string> ads_served_over(const ServerProcess& server, const std::string& body, int rounds,
                                      const DecisionHeaders& headers = {});

}  // namespace integration
