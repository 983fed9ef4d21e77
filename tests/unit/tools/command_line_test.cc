// gen-catalog's flags: --name=value, every mistake refused with a line naming the flag.
#include "tools/gen-catalog/command_line.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace tools::gen_catalog {
namespace {

absl::StatusOr<CommandLine> parse(std::vector<std::string_view> args) {
  return parse_command_line(args);
}

std::string error_of(std::vector<std::string_view> args) {
  const absl::StatusOr<CommandLine> line = parse(args);
  return line.ok() ? "(accepted)" : std::string(line.status().message());
}

TEST(CommandLine, NoFlagsGiveTheDefaults) {
  const absl::StatusOr<CommandLine> line = parse({});
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->options.ads, GeneratorOptions{}.ads);
  EXPECT_TRUE(line->options.targeting);
  EXPECT_TRUE(line->out_path.empty());
  EXPECT_FALSE(line->help);
}

TEST(CommandLine, EveryFlagSetsItsOption) {
  const absl::StatusOr<CommandLine> line =
      parse({"--ads=100000", "--placements=1000", "--advertisers=7", "--templates=5",
             "--seed=18446744073709551615", "--targeted-share=0.25", "--capped-share=1",
             "--video-share=0.1", "--placements-per-ad-max=4", "--languages=en,pt-BR",
             "--no-targeting", "--out=/tmp/catalog.json"});
  ASSERT_TRUE(line.ok()) << line.status();
  const GeneratorOptions& o = line->options;
  EXPECT_EQ(o.ads, 100000u);
  EXPECT_EQ(o.placements, 1000u);
  EXPECT_EQ(o.advertisers, 7u);
  EXPECT_EQ(o.templates, 5u);
  EXPECT_EQ(o.seed, 18446744073709551615ull);
  EXPECT_EQ(o.targeted_share, 0.25);
  EXPECT_EQ(o.capped_share, 1.0);
  EXPECT_EQ(o.video_share, 0.1);
  EXPECT_EQ(o.placements_per_ad_max, 4u);
  EXPECT_EQ(o.languages, (std::vector<std::string>{"en", "pt-BR"}));
  EXPECT_FALSE(o.targeting);
  EXPECT_EQ(line->out_path, "/tmp/catalog.json");
}

TEST(CommandLine, HelpIsRecognised) {
  const absl::StatusOr<CommandLine> line = parse({"--help"});
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->help);
  EXPECT_NE(usage().find("--no-targeting"), std::string_view::npos);
}

TEST(CommandLine, UnknownFlagsAndArgumentsAreRefused) {
  EXPECT_EQ(error_of({"--bogus=1"}), "unknown flag --bogus");
  EXPECT_EQ(error_of({"catalog.json"}), "unexpected argument \"catalog.json\"");
  EXPECT_EQ(error_of({"--ads"}), "--ads takes a value (--ads=...) or is unknown");
}

TEST(CommandLine, NumbersMustBeWholeAndInRange) {
  EXPECT_EQ(error_of({"--ads=12x"}), "--ads must be an integer in 0..4294967295, not \"12x\"");
  EXPECT_EQ(error_of({"--ads=-1"}), "--ads must be an integer in 0..4294967295, not \"-1\"");
  EXPECT_EQ(error_of({"--ads="}), "--ads must be an integer in 0..4294967295, not \"\"");
  EXPECT_EQ(error_of({"--ads=4294967296"}),
            "--ads must be an integer in 0..4294967295, not \"4294967296\"");
  EXPECT_EQ(error_of({"--video-share=1.5"}), "--video-share must be a number in 0..1, not \"1.5\"");
  EXPECT_EQ(error_of({"--capped-share=nan"}),
            "--capped-share must be a number in 0..1, not \"nan\"");
}

TEST(CommandLine, OptionsAreCheckedAfterParsing) {
  EXPECT_EQ(error_of({"--placements=0"}), "--placements must be in 1..1000000");
  EXPECT_EQ(error_of({"--languages=en,,fr"}),
            "--languages must be a comma-separated list of tags, not \"en,,fr\"");
  EXPECT_EQ(error_of({"--languages=en,English"}),
            "--languages \"English\" is not a normalised language tag (such as en or pt-BR)");
  EXPECT_EQ(error_of({"--out="}), "--out must be a file path, not \"\"");
}

}  // namespace
}  // namespace tools::gen_catalog
