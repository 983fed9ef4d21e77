#include "tests/integration/decision_client.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/decision_reply.h"

namespace integration {

CurlReply DecisionClient::decide(const std::string& body, const DecisionHeaders& headers) {
  std::vector<std::string> lines;
  // "Content-Type:" with no value stops curl sending its form-encoded default.
  lines.push_back("Content-Type:" + (headers.content_type ? " " + *headers.content_type : std::string()));
  if (headers.version) lines.push_back("X-Decision-Version: " + *headers.version);
  if (headers.accept_language) lines.push_back("Accept-Language: " + *headers.accept_language);
  return curl_.post_with_headers(url_, body, lines);
}

std::set<std::string> ads_served_over(const ServerProcess& server, const std::string& body, int rounds,
                                      const DecisionHeaders& headers) {
  DecisionClient client(server);
  std::set<std::string> ids;
  for (int round = 0; round < rounds; ++round) {
    const CurlReply reply = client.decide(body, headers);
    EXPECT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision));
    for (const std::string& id : decision.ad_ids()) ids.insert(id);
  }
  return ids;
}

}  // namespace integration
