// The public routes' CORS policies (service/cross_origin.h): a page of another origin may
// send what a decision reads and read what a client reads.
#include <gtest/gtest.h>

#include <string>

#include "api_versions/version_resolver.h"
#include "service/cross_origin.h"

namespace service {
namespace {

bool lists(std::string_view list, std::string_view name) {
  // Comma-separated tokens, compared whole: "X-Decision-Version-2" is not "X-Decision-Version".
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item == name) return true;
    start = end + 1;
  }
  return false;
}

TEST(CrossOrigin, ADecisionMaySendItsContentTypeVersionAndLanguage) {
  EXPECT_EQ(kDecisionCors.allow_methods, "POST");
  for (std::string_view name : {std::string_view("Content-Type"), api_versions::kDecisionVersionHeader,
                                std::string_view("Accept-Language")}) {
    EXPECT_TRUE(lists(kDecisionCors.allow_headers, name)) << name;
  }
  EXPECT_GT(kDecisionCors.max_age_s, 0);
}

TEST(CrossOrigin, APageReadsTheVersionDeprecationAndRetryHeaders) {
  for (std::string_view name : {api_versions::kDecisionVersionHeader, api_versions::kDeprecatedHeader,
                                api_versions::kSunsetHeader, std::string_view("Retry-After")}) {
    EXPECT_TRUE(lists(kDecisionCors.expose_headers, name)) << name;
  }
  for (std::string_view name : {api_versions::kTrackingVersionHeader, api_versions::kDeprecatedHeader,
                                api_versions::kSunsetHeader, std::string_view("Retry-After")}) {
    EXPECT_TRUE(lists(kTrackingCors.expose_headers, name)) << name;
  }
}

TEST(CrossOrigin, EveryPublicRouteAnswersEveryOriginWithoutCredentials) {
  for (const http::CorsPolicy& policy : {kDecisionCors, kTrackingCors, kVastCors}) {
    EXPECT_EQ(policy.allow_origin, "*");
  }
}

}  // namespace
}  // namespace service
