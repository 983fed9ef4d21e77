// decisiond-catalog's arguments (tools/decisiond-catalog/command_line.h): each error is one
// line naming what is wrong; main turns it into exit status 2.
#include "tools/decisiond-catalog/command_line.h"

#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace tools::decisiond_catalog {
namespace {

absl::StatusOr<CommandLine> parse(std::vector<std::string_view> args) { return parse_command_line(args); }

TEST(DecisiondCatalogCommandLine, PublishTakesServersANameAndOneFile) {
  const absl::StatusOr<CommandLine> line =
      parse({"publish", "--to=nats://a:4222,b:4223/main", "--replicas", "1", "--timeout=500ms", "catalog.json"});
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->command, Command::kPublish);
  EXPECT_EQ(line->to.urls, (std::vector<std::string>{"nats://a:4222", "nats://b:4223"}));
  EXPECT_EQ(line->to.name, "main");
  EXPECT_EQ(line->replicas, 1);
  EXPECT_EQ(line->timeout, std::chrono::milliseconds(500));
  EXPECT_EQ(line->file, "catalog.json");
}

TEST(DecisiondCatalogCommandLine, StatusTakesJsonAndALogin) {
  const absl::StatusOr<CommandLine> line =
      parse({"status", "--json", "--to", "nats://a:4222/main", "--user=ops", "--password-file=/etc/pw"});
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->command, Command::kStatus);
  EXPECT_TRUE(line->json);
  EXPECT_EQ(line->user, "ops");
  EXPECT_EQ(line->password_file, "/etc/pw");
  EXPECT_EQ(line->replicas, 3) << "the default";
  EXPECT_EQ(line->timeout, std::chrono::milliseconds(5000)) << "the default";
}

TEST(DecisiondCatalogCommandLine, EachMistakeIsOneLineNamingIt) {
  const std::vector<std::pair<std::vector<std::string_view>, std::string>> cases = {
      {{}, "say publish or status"},
      {{"publish", "--to=nats://a:4222/main"}, "publish takes one catalog FILE"},
      {{"publish", "--to=nats://a:4222/main", "a.json", "b.json"}, "publish takes one catalog FILE"},
      {{"publish", "a.json"}, "--to=nats://HOST:PORT[,...]/NAME is required"},
      {{"publish", "--to=nats://a:4222", "a.json"}, "--to: 'nats://a:4222': no name: nats://host:port[,host:port...]/<name>"},
      {{"publish", "--to=nats://a:4222/main", "--replicas=0", "a.json"}, "--replicas must be 1 to 5, not \"0\""},
      {{"publish", "--to=nats://a:4222/main", "--json", "a.json"}, "--json goes with status only"},
      {{"status", "--to=nats://a:4222/main", "--replicas=3"}, "--replicas goes with publish only"},
      {{"status", "--to=nats://a:4222/main", "extra"}, "status takes no operand, not \"extra\""},
      {{"status", "--to=nats://a:4222/main", "--timeout=5"}, "--timeout must be a duration such as 5s or 500ms, not \"5\""},
      {{"status", "--to=nats://a:4222/main", "--verbose=1"}, "unknown flag --verbose"},
      {{"status", "--to"}, "--to lacks its value"},
      {{"unpublish"}, "unknown command \"unpublish\""},
  };
  for (const auto& [args, message] : cases) {
    const absl::StatusOr<CommandLine> line = parse(args);
    ASSERT_FALSE(line.ok()) << message;
    EXPECT_EQ(line.status().message(), message);
  }
}

TEST(DecisiondCatalogCommandLine, HelpWinsAndTheUsageSaysTheExitStatuses) {
  const absl::StatusOr<CommandLine> line = parse({"publish", "--help"});
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->help);
  EXPECT_NE(usage().find("Exit status: 0 done; 1 no NATS server answered"), std::string_view::npos);
}

}  // namespace
}  // namespace tools::decisiond_catalog
