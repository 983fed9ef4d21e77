// keys.json: created once with mode 0600, reused after, refused when others can read it,
// and every problem in it named by its JSON path.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/clock.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"

namespace tracking {
namespace {

using testing::TemporaryDirectory;
using testing::test_key;

constexpr char kZeroKey[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
constexpr char kCountingKey[] = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";  // bytes 0..31

mode_t mode_of(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

void write_file(const std::string& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  ASSERT_EQ(::chmod(path.c_str(), mode), 0);
}

std::string key_json(const std::string& members) {
  return "{\"keys\": [{" + members + "}]}";
}

std::string valid_members(int id = 1) {
  return "\"id\": " + std::to_string(id) + ", \"aesKey\": \"" + kZeroKey +
         "\", \"hmacKey\": \"" + kCountingKey + "\"";
}

// The parse error of text, or "" when it parses.
std::string parse_error(const std::string& text) {
  const absl::StatusOr<std::vector<KeyEntry>> entries = parse_key_file(text);
  return entries.ok() ? "" : std::string(entries.status().message());
}

TEST(KeyFile, MissingKeysJsonIsCreatedWithMode0600) {
  TemporaryDirectory dir;
  const std::string state_dir = dir.path() + "/var/state";  // parents are created too
  const runtime::ManualClock clock;
  const absl::StatusOr<KeyRing> ring = KeyRing::load_or_create(state_dir, clock);
  ASSERT_TRUE(ring.ok()) << ring.status();
  EXPECT_EQ(mode_of(state_dir + "/keys.json"), 0600);
  ASSERT_EQ(ring->entries().size(), 1u);
  EXPECT_EQ(ring->signing_key().id, 1);
  EXPECT_EQ(ring->signing_key().created_s, clock.wall_s());
  EXPECT_NE(ring->signing_key().aes_key, SecretKey{});
}

TEST(KeyFile, CreationLeavesNoTemporaryFileBehind) {
  TemporaryDirectory dir;
  ASSERT_TRUE(KeyRing::load_or_create(dir.path()).ok());
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename(), "keys.json");
    ++files;
  }
  EXPECT_EQ(files, 1u);
}

TEST(KeyFile, SecondLoadReusesTheSameKeys) {
  TemporaryDirectory dir;
  const absl::StatusOr<KeyRing> first = KeyRing::load_or_create(dir.path());
  const absl::StatusOr<KeyRing> second = KeyRing::load_or_create(dir.path());
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_EQ(second->entries().size(), 1u);
  EXPECT_EQ(second->signing_key().id, first->signing_key().id);
  EXPECT_EQ(second->signing_key().aes_key, first->signing_key().aes_key);
  EXPECT_EQ(second->signing_key().hmac_key, first->signing_key().hmac_key);
  EXPECT_EQ(second->signing_key().created_s, first->signing_key().created_s);

  // So tokens issued before a restart still decode after it.
  TokenCodec before(*first);
  TokenCodec after(*second);
  TrackingEvent event;
  event.issued_at_s = 100;
  event.expires_at_s = 200;
  std::string token, storage;
  ASSERT_TRUE(before.encode(event, token).ok());
  EXPECT_TRUE(after.decode(token, 150, storage).ok());
}

TEST(KeyFile, SimultaneousFirstStartsAgreeOnOneKey) {
  // Two servers (or a restart racing a crashed one) on one state directory must not end up
  // with different keys: the file is published without replacing, and the loser reads it.
  TemporaryDirectory dir;
  const std::string state_dir = dir.path() + "/state";
  constexpr int kStarts = 8;
  std::vector<SecretKey> keys(kStarts);
  std::vector<std::thread> starts;
  for (int i = 0; i < kStarts; ++i) {
    starts.emplace_back([&, i] {
      const absl::StatusOr<KeyRing> ring = KeyRing::load_or_create(state_dir);
      if (ring.ok()) keys[i] = ring->signing_key().aes_key;
    });
  }
  for (std::thread& start : starts) start.join();
  for (int i = 0; i < kStarts; ++i) {
    EXPECT_NE(keys[i], SecretKey{}) << i;
    EXPECT_EQ(keys[i], keys[0]) << i;
  }
}

TEST(KeyFile, GroupReadableKeysJsonIsRefused) {
  TemporaryDirectory dir;
  write_file(dir.path() + "/keys.json", key_json(valid_members()), 0640);
  const absl::Status status = KeyRing::load_or_create(dir.path()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("0640"), std::string_view::npos) << status;
  EXPECT_NE(status.message().find("chmod 600"), std::string_view::npos) << status;
}

TEST(KeyFile, KeysJsonAccessibleByOthersInAnyWayIsRefused) {
  TemporaryDirectory dir;
  for (mode_t mode : {0604, 0602, 0620, 0601}) {
    write_file(dir.path() + "/keys.json", key_json(valid_members()), mode);
    EXPECT_EQ(KeyRing::load_or_create(dir.path()).status().code(),
              absl::StatusCode::kFailedPrecondition)
        << std::oct << mode;
  }
}

TEST(KeyFile, OwnerOnlyKeysJsonIsRead) {
  TemporaryDirectory dir;
  write_file(dir.path() + "/keys.json", key_json(valid_members(9)), 0400);
  const absl::StatusOr<KeyRing> ring = KeyRing::load_or_create(dir.path());
  ASSERT_TRUE(ring.ok()) << ring.status();
  EXPECT_EQ(ring->signing_key().id, 9);
  EXPECT_EQ(ring->signing_key().aes_key, SecretKey{});
  EXPECT_EQ(ring->signing_key().hmac_key[31], 31);
}

TEST(KeyFile, KeysJsonThatIsNotARegularFileIsRefused) {
  TemporaryDirectory dir;
  ASSERT_EQ(::mkdir((dir.path() + "/keys.json").c_str(), 0700), 0);
  EXPECT_FALSE(KeyRing::load_or_create(dir.path()).ok());
}

TEST(KeyFile, ErrorsInTheFileNameTheFileAndTheJsonPath) {
  TemporaryDirectory dir;
  const std::string path = dir.path() + "/keys.json";
  write_file(path, "{\"keys\": [{" + valid_members(1) + "}, {\"id\": 2, \"aesKey\": \"short\", \"hmacKey\": \"" +
                       kZeroKey + "\"}]}",
             0600);
  const absl::Status status = KeyRing::load_or_create(dir.path()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), path + ": keys[1].aesKey: must be 32 bytes base64");
}

TEST(KeyFile, DuplicateIdsInTheFileAreRefused) {
  TemporaryDirectory dir;
  write_file(dir.path() + "/keys.json",
             "{\"keys\": [{" + valid_members(1) + "}, {" + valid_members(1) + "}]}", 0600);
  const absl::Status status = KeyRing::load_or_create(dir.path()).status();
  EXPECT_NE(status.message().find("keys[1].id: 1 is already the id of keys[0]"),
            std::string_view::npos)
      << status;
}

TEST(KeyFile, MalformedDocumentsNameTheirJsonPath) {
  EXPECT_NE(parse_error("{\"keys\": ["), "");
  EXPECT_EQ(parse_error("[]"), "(root): must be an object");
  EXPECT_EQ(parse_error("{}"), "keys: required");
  EXPECT_EQ(parse_error("{\"keys\": {}}"), "keys: must be an array");
  EXPECT_EQ(parse_error("{\"keys\": []}"), "keys: must list at least one key");
  EXPECT_EQ(parse_error("{\"keys\": [1]}"), "keys[0]: must be an object");
}

TEST(KeyFile, MalformedIdsNameTheirJsonPath) {
  const std::string keys = std::string(", \"aesKey\": \"") + kZeroKey + "\", \"hmacKey\": \"" + kZeroKey + "\"";
  for (const char* id : {"0", "65536", "-1", "1.5", "\"1\"", "null", "true"}) {
    EXPECT_EQ(parse_error(key_json(std::string("\"id\": ") + id + keys)),
              "keys[0].id: must be an integer in 1..65535")
        << id;
  }
  EXPECT_EQ(parse_error(key_json(keys.substr(2))), "keys[0].id: required");
  EXPECT_EQ(parse_error(key_json("\"id\": 65535" + keys)), "");
}

TEST(KeyFile, MalformedKeysNameTheirJsonPath) {
  const std::string id = "\"id\": 1, \"hmacKey\": \"" + std::string(kZeroKey) + "\", ";
  for (const std::string& aes : {
           std::string("\"AAAAAAAAAAAAAAAAAAAAAA==\""),                     // 16 bytes
           std::string("\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\""),  // unpadded
           std::string("\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-=\""), // base64url digit
           std::string("\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB=\""), // unused bits set
           std::string("\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\""),  // 35 bytes
           std::string("\" AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\""), // whitespace
           std::string("32"),
       }) {
    EXPECT_EQ(parse_error(key_json(id + "\"aesKey\": " + aes)),
              "keys[0].aesKey: must be 32 bytes base64")
        << aes;
  }
  EXPECT_EQ(parse_error(key_json("\"id\": 1, \"aesKey\": \"" + std::string(kZeroKey) + "\"")),
            "keys[0].hmacKey: required");
}

TEST(KeyFile, MalformedCreatedTimeNamesItsJsonPath) {
  EXPECT_EQ(parse_error(key_json(valid_members() + ", \"created\": \"yesterday\"")),
            "keys[0].created: must be an RFC 3339 time such as 2026-11-21T12:00:00Z");
  EXPECT_EQ(parse_error(key_json(valid_members() + ", \"created\": 1763683200")),
            "keys[0].created: must be an RFC 3339 time such as 2026-11-21T12:00:00Z");
  EXPECT_EQ(parse_error(key_json(valid_members() + ", \"created\": \"2026-11-21T12:00:00Z\"")), "");
}

TEST(KeyFile, EveryProblemIsReportedTogether) {
  const std::string text = "{\"keys\": [{\"id\": 0, \"aesKey\": \"x\", \"hmacKey\": \"" +
                           std::string(kZeroKey) + "\"}, {\"id\": 2}]}";
  EXPECT_EQ(parse_error(text),
            "keys[0].id: must be an integer in 1..65535; keys[0].aesKey: must be 32 bytes "
            "base64; keys[1].aesKey: required; keys[1].hmacKey: required");
}

TEST(KeyFile, UnknownMembersAreIgnored) {
  EXPECT_EQ(parse_error("{\"comment\": \"rotated 2026-05\", \"keys\": [{" + valid_members() +
                        ", \"note\": \"old\"}]}"),
            "");
}

TEST(KeyFile, OpensslRandBase64KeysAreRead) {
  const absl::StatusOr<std::vector<KeyEntry>> entries = parse_key_file(key_json(
      "\"id\": 3, \"aesKey\": \"//////////////////////////////////////////8=\", \"hmacKey\": \"" +
      std::string(kCountingKey) + "\", \"created\": \"2026-11-21T12:00:00Z\""));
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 1u);
  const KeyEntry& entry = (*entries)[0];
  EXPECT_EQ(entry.id, 3);
  SecretKey all_ones;
  all_ones.fill(0xff);
  EXPECT_EQ(entry.aes_key, all_ones);
  for (size_t i = 0; i < entry.hmac_key.size(); ++i) EXPECT_EQ(entry.hmac_key[i], i);
  EXPECT_EQ(entry.created_s, 1'795'262'400);  // 2026-11-21T12:00:00Z
}

TEST(KeyFile, FormattedFileParsesBackToTheSameKeys) {
  std::vector<KeyEntry> entries = {test_key(2), test_key(1)};
  entries[0].created_s = 1'795'262'400;
  const std::string text = format_key_file(entries);
  EXPECT_NE(text.find("\"created\": \"2026-11-21T12:00:00Z\""), std::string::npos) << text;
  const absl::StatusOr<std::vector<KeyEntry>> parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
  ASSERT_EQ(parsed->size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ((*parsed)[i].id, entries[i].id);
    EXPECT_EQ((*parsed)[i].aes_key, entries[i].aes_key);
    EXPECT_EQ((*parsed)[i].hmac_key, entries[i].hmac_key);
    EXPECT_EQ((*parsed)[i].created_s, entries[i].created_s);
  }
}

}  // namespace
}  // namespace tracking
