#include "decision/endpoint/media_type.h"

#include <gtest/gtest.h>

namespace decision::endpoint {
namespace {

TEST(MediaType, JsonInAnyCaseWithOrWithoutParameters) {
  for (const char* type : {"application/json", "Application/JSON", "application/json; charset=utf-8",
                           "application/json;charset=UTF-8", "application/json ; charset=utf-8",
                           "application/json\t;x=y"}) {
    EXPECT_TRUE(is_json_media_type(type)) << type;
  }
}

TEST(MediaType, AnythingElseIsRefused) {
  for (const char* type : {"", "text/plain", "application/jsonx", "application/json-seq",
                           "application/x-www-form-urlencoded", "application/ld+json", "json",
                           " application/json", "application/*", "*/*", "text/json"}) {
    EXPECT_FALSE(is_json_media_type(type)) << type;
  }
}

}  // namespace
}  // namespace decision::endpoint
