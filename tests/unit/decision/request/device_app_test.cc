// device and app (10021): kept as raw JSON objects.
#include "reader_fixture.h"

namespace decision::request {
namespace {

using DeviceAndApp = ReaderTest;

TEST_F(DeviceAndApp, AreKeptAsRawJson) {
  ASSERT_TRUE(read(R"({"device" : { "os":"android", "screen":{"w":1080,"h":2400}, "tags":[] } ,
                       "placements":[{"key":"a"}],"app":{}})").ok());
  EXPECT_EQ(request().device_json, R"({ "os":"android", "screen":{"w":1080,"h":2400}, "tags":[] })");
  EXPECT_EQ(request().app_json, "{}");
}

TEST_F(DeviceAndApp, NullIsAbsent) {
  ASSERT_TRUE(read(R"({"placements":[{"key":"a"}],"device":null,"app":null})").ok());
  EXPECT_TRUE(request().device_json.empty());
  EXPECT_TRUE(request().app_json.empty());
}

TEST_F(DeviceAndApp, DeviceNotAnObjectIs10021) {
  EXPECT_EQ(only_error(R"({"placements":[{"key":"a"}],"device":"iPhone"})"), (Error{10021, "device"}));
  EXPECT_EQ(result_.errors[0].message, "device must be an object");
  EXPECT_EQ(only_error(R"({"placements":[{"key":"a"}],"device":[{}]})"), (Error{10021, "device"}));
}

TEST_F(DeviceAndApp, AppNotAnObjectIs10021) {
  EXPECT_EQ(only_error(R"({"placements":[{"key":"a"}],"app":1})"), (Error{10021, "app"}));
  EXPECT_EQ(result_.errors[0].message, "app must be an object");
}

}  // namespace
}  // namespace decision::request
