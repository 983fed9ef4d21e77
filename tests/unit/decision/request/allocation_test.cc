// Once warm, a reader allocates nothing for a typical request: the body copy, the parser's
// buffers, the error list and the request are all reused. Counted by the test-support
// allocation counter (tests/support/allocation_count.h).
#include <functional>

#include "reader_fixture.h"
#include "tests/support/allocation_count.h"

namespace decision::request {
namespace {

using decision::testing::allocations_while;

using Allocation = ReaderTest;

TEST_F(Allocation, CounterSeesAllocations) {
  EXPECT_EQ(allocations_while([] { auto p = std::make_unique<std::string>(100, 'x'); }), 2u);
}

TEST_F(Allocation, NoneOnceWarmForTypicalRequests) {
  const std::string valid = R"({"placements":[{"key":"home_top","count":2,"advertiserId":"advertiser_4",
      "format":"native","targeting":{"geo":[2988507,"3017382"],"location":[{"lat":1,"lon":2}],
      "custom":{"tier":"gold","tags":["a","b"]},"destination":[1]}},{"key":"feed"}],
      "user":{"id":"u1","ip":"81.2.69.142","timezone":"Europe/London","consent":{"gdpr":true}},
      "device":{"os":"ios"},"app":{"name":"x"},"extra":[1,{"a":null}]})";
  const std::string invalid = R"({"placements":[{"count":0,"targeting":{"geo":[0,-1]}}],
      "user":{"ip":"nope","timezone":"Europe/London"}})";
  const std::string not_json = R"({"placements":[{"key":"a"}],"x":[1,]})";
  // A TC string is decoded in place (the IAB specification's example, core and disclosed
  // vendors); a bad one costs nothing more.
  const std::string consent_string = R"({"placements":[{"key":"home_top"}],"user":{"consent":
      {"gdpr":"COvFyGBOvFyGBAbAAAENAPCAAOAAAAAAAAAAAEEUACCKAAA.IFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAA)"
      R"(AQAIAgEAACEAAAAAgAQBAAAAAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUw"}}})";
  const std::string bad_consent_string =
      R"({"placements":[{"key":"home_top"}],"user":{"consent":{"gdpr":"COvFyGBOvFyGBAbAAAENAP"}}})";
  const std::string largest = std::string(RequestReader::kDefaultCapacityBytes - valid.size(), ' ') + valid;
  ASSERT_TRUE(read(valid).ok());  // warms the time zone cache
  ASSERT_TRUE(read(consent_string).ok());
  ASSERT_TRUE(request().user.consent_string_purpose1);
  ASSERT_FALSE(read(bad_consent_string).ok());
  for (const std::string* body :
       {&valid, &invalid, &not_json, &largest, &consent_string, &bad_consent_string}) {
    const size_t count = allocations_while([&] {
      for (int i = 0; i < 100; ++i) read(*body);
    });
    EXPECT_EQ(count, 0u) << *body;
  }
  ASSERT_TRUE(read(valid).ok());
}

TEST_F(Allocation, LargerBodyGrowsTheBuffersOnce) {
  RequestReader small(128);
  auto request = std::make_unique<DecisionRequest>();
  const std::string body = R"({"placements":[{"key":"a"}],"pad":")" + std::string(1000, 'p') + "\"}";
  ASSERT_TRUE(small.read(body, v2025_11_01(), *request).ok());
  EXPECT_EQ(small.counters().buffer_grows, 1u);
  const size_t count = allocations_while([&] { small.read(body, v2025_11_01(), *request); });
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(small.counters().buffer_grows, 1u);
}

}  // namespace
}  // namespace decision::request
