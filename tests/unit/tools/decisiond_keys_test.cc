// tools/decisiond-keys (docs/keys.md): create, list, rotate and retire keys in
// <state-dir>/keys.json, each change a whole new file of mode 0600 renamed into place under
// a lock; the signing key is never retired, an id is never given twice, a file others can
// read is refused, and nothing printed holds key bytes. Also keys.json's "lastId".
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/unit/tools/keys_tool_runs.h"
#include "tests/unit/tracking/test_keys.h"
#include "tools/decisiond-keys/command_line.h"
#include "tools/decisiond-keys/key_commands.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/secret_file.h"

namespace tools::decisiond_keys {
namespace {

using tracking::KeyEntry;
using tracking::KeyRing;
using tracking::testing::TemporaryDirectory;
using tracking::testing::test_key;

using testing::ids_in;
using testing::kNow;
using testing::read_text;
using testing::run;
using testing::ToolRun;

mode_t mode_of(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

// Writes keys.json for entries (first one signing) with mode 0600, as a hand or an older
// build would; last_id 0 writes no "lastId".
void write_keys(const std::string& dir, std::vector<KeyEntry> entries, uint16_t last_id = 0) {
  std::string text = tracking::format_key_file(entries, last_id);
  if (last_id == 0) text.replace(0, text.find('\n') + 2, "{");  // drop the "lastId" line
  ASSERT_TRUE(tracking::replace_secret_file(dir + "/keys.json", text).ok());
}

// ---------------------------------------------------------------------------------------
// The command line.

absl::StatusOr<CommandLine> parse(std::vector<std::string_view> args,
                                  std::optional<std::string_view> env = std::nullopt) {
  return parse_command_line(args, env);
}

TEST(DecisiondKeysCommandLine, ReadsEachCommandWithItsFlags) {
  const absl::StatusOr<CommandLine> retire = parse({"--state-dir=/var/d", "retire", "--id=3"});
  ASSERT_TRUE(retire.ok()) << retire.status();
  EXPECT_EQ(retire->command, Command::kRetire);
  EXPECT_EQ(retire->state_dir, "/var/d");
  EXPECT_EQ(retire->id, 3);
  const absl::StatusOr<CommandLine> list = parse({"list", "--state-dir", "/var/d", "--json"});
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->command, Command::kList);
  EXPECT_TRUE(list->json);
  EXPECT_EQ(parse({"rotate", "--state-dir=d"})->command, Command::kRotate);
  EXPECT_EQ(parse({"create", "--state-dir=d"})->command, Command::kCreate);
  EXPECT_TRUE(parse({"--help"})->help);
}

TEST(DecisiondKeysCommandLine, StateDirFallsBackToDecisiondsVariable) {
  EXPECT_EQ(parse({"list"}, "/srv/state")->state_dir, "/srv/state");
  EXPECT_EQ(parse({"list", "--state-dir=/flag"}, "/srv/state")->state_dir, "/flag");
  EXPECT_FALSE(parse({"list"}).ok());
  EXPECT_FALSE(parse({"list"}, "").ok());
}

TEST(DecisiondKeysCommandLine, MistakesAreRefusedNamingTheArgument) {
  const auto message = [](std::vector<std::string_view> args) {
    const absl::StatusOr<CommandLine> line = parse_command_line(args);
    return line.ok() ? std::string() : std::string(line.status().message());
  };
  EXPECT_EQ(message({"--state-dir=d"}), "say create, list, fingerprint, compare, rotate, promote or retire");
  EXPECT_EQ(message({"--state-dir=d", "rotate", "list"}), "one command only, not also \"list\"");
  EXPECT_EQ(message({"--state-dir=d", "delete"}), "unknown command \"delete\"");
  EXPECT_EQ(message({"--state-dir=d", "retire"}), "retire needs --id=N");
  EXPECT_EQ(message({"--state-dir=d", "rotate", "--id=2"}), "--id goes with retire and promote only");
  EXPECT_EQ(message({"--state-dir=d", "rotate", "--json"}), "--json goes with list and fingerprint only");
  EXPECT_EQ(message({"--state-dir=d", "list", "--bogus=1"}), "unknown flag --bogus");
  EXPECT_EQ(message({"list", "--state-dir"}), "--state-dir lacks its value");
  for (std::string_view id : {"0", "65536", "-1", "x", "", "1.5"}) {
    const std::string flag = "--id=" + std::string(id);
    EXPECT_EQ(message({"--state-dir=d", "retire", flag}),
              "--id must be a key id in 1..65535, not \"" + std::string(id) + "\"");
  }
}

// ---------------------------------------------------------------------------------------
// create

TEST(DecisiondKeysCreate, WritesOneKeyWithId1AndMode0600) {
  TemporaryDirectory dir;
  const std::string state = dir.path() + "/state";  // made, as decisiond makes it
  const absl::StatusOr<KeyInfo> key = create_keys(state, kNow);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->id, 1);
  EXPECT_TRUE(key->signing);
  EXPECT_EQ(mode_of(state + "/keys.json"), 0600);
  const absl::StatusOr<KeyRing> ring = KeyRing::load(state);
  ASSERT_TRUE(ring.ok()) << ring.status();
  EXPECT_EQ(ring->signing_key().id, 1);
  EXPECT_EQ(ring->signing_key().created_s, kNow);
  EXPECT_NE(ring->signing_key().aes_key, ring->signing_key().hmac_key);
}

TEST(DecisiondKeysCreate, AnExistingFileIsNeverReplaced) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(4)});
  const std::string before = read_text(dir.path() + "/keys.json");
  const absl::StatusOr<KeyInfo> key = create_keys(dir.path(), kNow);
  EXPECT_EQ(key.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(key.status().message().find("rotate"), std::string_view::npos) << key.status();
  EXPECT_EQ(read_text(dir.path() + "/keys.json"), before);
}

// ---------------------------------------------------------------------------------------
// rotate

TEST(DecisiondKeysRotate, PutsANewSigningKeyFirstAndKeepsTheOthersUnchanged) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(2), test_key(1)});
  const absl::StatusOr<KeyInfo> key = rotate_keys(dir.path(), kNow);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->id, 3);
  const absl::StatusOr<KeyRing> ring = KeyRing::load(dir.path());
  ASSERT_TRUE(ring.ok()) << ring.status();
  ASSERT_EQ(ring->entries().size(), 3u);
  EXPECT_EQ(ring->signing_key().id, 3);
  EXPECT_EQ(ring->signing_key().created_s, kNow);
  for (uint16_t id : {2, 1}) {
    const KeyEntry* kept = ring->find(id);
    ASSERT_NE(kept, nullptr) << id;
    EXPECT_EQ(kept->aes_key, test_key(id).aes_key) << id;
    EXPECT_EQ(kept->hmac_key, test_key(id).hmac_key) << id;
  }
  EXPECT_NE(ring->signing_key().aes_key, test_key(3).aes_key);  // fresh, not derived
  EXPECT_NE(read_text(dir.path() + "/keys.json").find("\"lastId\": 3"), std::string::npos);
}

TEST(DecisiondKeysRotate, TheNewFileHasMode0600WhateverTheUmask) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(1)});
  const mode_t old_umask = ::umask(0);
  const absl::StatusOr<KeyInfo> key = rotate_keys(dir.path(), kNow);
  ::umask(old_umask);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(mode_of(dir.path() + "/keys.json"), 0600);
}

TEST(DecisiondKeysRotate, RunAsRootTheFileKeepsItsOwner) {
  // An operator running the tool with sudo must not leave decisiond's user a file it cannot
  // read at its next start.
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to hand a file to another user";
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(1)});
  const std::string path = dir.path() + "/keys.json";
  constexpr uid_t kServiceUser = 65534;
  constexpr gid_t kServiceGroup = 65533;
  ASSERT_EQ(::chown(path.c_str(), kServiceUser, kServiceGroup), 0);
  ASSERT_TRUE(rotate_keys(dir.path(), kNow).ok());
  ASSERT_TRUE(retire_key(dir.path(), 1).ok());
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_uid, kServiceUser);
  EXPECT_EQ(info.st_gid, kServiceGroup);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
}

TEST(DecisiondKeysRotate, LeavesNoTemporaryFileBehind) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(1)});
  ASSERT_TRUE(rotate_keys(dir.path(), kNow).ok());
  ASSERT_TRUE(retire_key(dir.path(), 1).ok());
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) names.push_back(entry.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"keys.json"});
}

TEST(DecisiondKeysRotate, ANewIdIsAboveEveryIdEverGiven) {
  TemporaryDirectory dir;
  // A file of an older build, without lastId: the highest listed id counts.
  write_keys(dir.path(), {test_key(2), test_key(7)});
  EXPECT_EQ(rotate_keys(dir.path(), kNow)->id, 8);
  // lastId above every listed id: a retired key had it.
  write_keys(dir.path(), {test_key(2), test_key(1)}, 9);
  EXPECT_EQ(rotate_keys(dir.path(), kNow)->id, 10);
}

TEST(DecisiondKeysRotate, RetiredIdsAreNeverGivenAgain) {
  TemporaryDirectory dir;
  ASSERT_TRUE(create_keys(dir.path(), kNow).ok());
  std::set<uint16_t> given = {1};
  for (int round = 0; round < 5; ++round) {
    const absl::StatusOr<KeyInfo> key = rotate_keys(dir.path(), kNow);
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_TRUE(given.insert(key->id).second) << "id " << key->id << " given twice";
    // Retire every key but the new one: the file then holds only the highest id.
    for (uint16_t id : ids_in(dir.path())) {
      if (id != key->id) {
        ASSERT_TRUE(retire_key(dir.path(), id).ok());
      }
    }
  }
  EXPECT_EQ(ids_in(dir.path()), std::vector<uint16_t>{6});
  ASSERT_TRUE(rotate_keys(dir.path(), kNow).ok());
  ASSERT_TRUE(retire_key(dir.path(), 6).ok());
  ASSERT_TRUE(rotate_keys(dir.path(), kNow).ok());
  EXPECT_EQ(ids_in(dir.path()), (std::vector<uint16_t>{8, 7}));  // 6 not reused
}

TEST(DecisiondKeysRotate, TheLastIdIsNeverExceeded) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(3)}, 65535);
  const absl::Status status = rotate_keys(dir.path(), kNow).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_EQ(ids_in(dir.path()), std::vector<uint16_t>{3});
}

TEST(DecisiondKeysRotate, AFullRingIsRefused) {
  TemporaryDirectory dir;
  std::vector<KeyEntry> entries;
  for (uint16_t id = KeyRing::kMaxKeys; id >= 1; --id) entries.push_back(test_key(id));
  write_keys(dir.path(), entries);
  const absl::Status status = rotate_keys(dir.path(), kNow).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("retire one first"), std::string_view::npos) << status;
}

TEST(DecisiondKeysRotate, ConcurrentRunsLoseNoKey) {
  // Every run reads, adds and writes under the state directory's lock.
  TemporaryDirectory dir;
  ASSERT_TRUE(create_keys(dir.path(), kNow).ok());
  constexpr int kRuns = 8;
  std::vector<std::thread> runs;
  std::atomic<int> failures{0};
  for (int i = 0; i < kRuns; ++i) {
    runs.emplace_back([&] {
      if (!rotate_keys(dir.path(), kNow).ok()) ++failures;
    });
  }
  for (std::thread& run : runs) run.join();
  EXPECT_EQ(failures.load(), 0);
  const std::vector<uint16_t> ids = ids_in(dir.path());
  EXPECT_EQ(std::set<uint16_t>(ids.begin(), ids.end()).size(), static_cast<size_t>(kRuns + 1));
  EXPECT_EQ(ids.front(), kRuns + 1);
}

TEST(DecisiondKeysRotate, ReadersDuringChangesAlwaysSeeAWholeFile) {
  // decisiond reads without the lock: the rename shows it the old file or the new one.
  TemporaryDirectory dir;
  ASSERT_TRUE(create_keys(dir.path(), kNow).ok());
  std::atomic<bool> done{false};
  std::atomic<int> bad_reads{0}, reads{0};
  std::thread reader([&] {
    while (!done) {
      if (!KeyRing::load(dir.path()).ok()) ++bad_reads;
      ++reads;
    }
  });
  for (int round = 0; round < 40; ++round) {
    const absl::StatusOr<KeyInfo> key = rotate_keys(dir.path(), kNow);
    ASSERT_TRUE(key.ok()) << key.status();
    ASSERT_TRUE(retire_key(dir.path(), static_cast<uint16_t>(key->id - 1)).ok());
  }
  done = true;
  reader.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(bad_reads.load(), 0);
}

// ---------------------------------------------------------------------------------------
// retire

TEST(DecisiondKeysRetire, DropsTheKeyAndKeepsTheRest) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(3), test_key(2), test_key(1)});
  ASSERT_TRUE(retire_key(dir.path(), 2).ok());
  EXPECT_EQ(ids_in(dir.path()), (std::vector<uint16_t>{3, 1}));
  const absl::StatusOr<KeyRing> ring = KeyRing::load(dir.path());
  ASSERT_TRUE(ring.ok());
  EXPECT_EQ(ring->find(1)->aes_key, test_key(1).aes_key);
  EXPECT_EQ(ring->signing_key().hmac_key, test_key(3).hmac_key);
  EXPECT_EQ(mode_of(dir.path() + "/keys.json"), 0600);
}

TEST(DecisiondKeysRetire, TheSigningKeyIsNeverRetired) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(2), test_key(1)});
  const absl::Status status = retire_key(dir.path(), 2);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("key 2 is the signing key; rotate first"), std::string_view::npos) << status;
  EXPECT_EQ(ids_in(dir.path()), (std::vector<uint16_t>{2, 1}));
}

TEST(DecisiondKeysRetire, AnUnknownIdIsRefusedListingTheIds) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(2), test_key(1)});
  const absl::Status status = retire_key(dir.path(), 5);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(status.message().find("no key 5 (keys: 2, 1)"), std::string_view::npos) << status;
}

// ---------------------------------------------------------------------------------------
// Refusals of the file, shared by every command.

TEST(DecisiondKeysFile, AFileGroupOrOthersCanAccessIsRefusedAndLeftAlone) {
  TemporaryDirectory dir;
  write_keys(dir.path(), {test_key(2), test_key(1)});
  const std::string path = dir.path() + "/keys.json";
  const std::string before = read_text(path);
  for (mode_t mode : {0640, 0604, 0660, 0620, 0602, 0601, 0610}) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    for (const absl::Status& status :
         {list_keys(dir.path()).status(), rotate_keys(dir.path(), kNow).status(), retire_key(dir.path(), 1)}) {
      EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << std::oct << mode;
      char octal[8];
      std::snprintf(octal, sizeof(octal), "%04o", mode);
      EXPECT_NE(status.message().find(path), std::string_view::npos) << status;
      EXPECT_NE(status.message().find(octal), std::string_view::npos) << status;
      EXPECT_NE(status.message().find("chmod 600"), std::string_view::npos) << status;
    }
    EXPECT_EQ(mode_of(path), mode);  // not "fixed" behind the operator's back
    EXPECT_EQ(read_text(path), before);
  }
}

TEST(DecisiondKeysFile, AMissingFileIsNamedWithTheWayToMakeOne) {
  TemporaryDirectory dir;
  const absl::Status status = rotate_keys(dir.path(), kNow).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(status.message().find("decisiond-keys create"), std::string_view::npos) << status;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/keys.json"));
}

TEST(DecisiondKeysFile, ABrokenFileIsRefusedWithoutQuotingIt) {
  TemporaryDirectory dir;
  const std::string secret = "c2VjcmV0LWJ5dGVzLXRoYXQtbXVzdC1ub3QtbGVhaw==";
  ASSERT_TRUE(tracking::replace_secret_file(dir.path() + "/keys.json",
                                            "{\"keys\": [{\"id\": 1, \"aesKey\": \"" + secret + "\"}]}")
                  .ok());
  const absl::Status status = rotate_keys(dir.path(), kNow).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("keys[0].aesKey: must be 32 bytes base64"), std::string_view::npos) << status;
  EXPECT_EQ(status.message().find(secret.substr(0, 12)), std::string_view::npos) << status;
}

// ---------------------------------------------------------------------------------------
// keys.json's "lastId" (tracking/tokens/key_file.h).

TEST(KeyFileLastId, IsTheHighestOfTheMemberAndTheListedIds) {
  const std::string keys = tracking::format_key_file(std::vector<KeyEntry>{test_key(4), test_key(2)});
  EXPECT_EQ(keys.substr(0, keys.find('\n')), "{\"lastId\": 4,");
  EXPECT_EQ(tracking::parse_key_file_contents(keys)->last_id, 4);
  std::string with_member = keys;
  with_member.replace(0, keys.find(','), "{\"lastId\": 9");
  EXPECT_EQ(tracking::parse_key_file_contents(with_member)->last_id, 9);
  std::string below = keys;
  below.replace(0, keys.find(','), "{\"lastId\": 1");
  EXPECT_EQ(tracking::parse_key_file_contents(below)->last_id, 4);
  std::string without = keys;
  without.replace(0, keys.find('\n') + 2, "{");
  EXPECT_EQ(tracking::parse_key_file_contents(without)->last_id, 4);
}

TEST(KeyFileLastId, MustBeAnIdWhenGiven) {
  const std::string keys = tracking::format_key_file(std::vector<KeyEntry>{test_key(1)});
  for (const char* bad : {"0", "65536", "-1", "\"3\"", "null", "2.5"}) {
    std::string text = keys;
    text.replace(0, keys.find(','), std::string("{\"lastId\": ") + bad);
    const absl::StatusOr<tracking::KeyFileContents> parsed = tracking::parse_key_file_contents(text);
    EXPECT_EQ(parsed.status().message(), "lastId: must be an integer in 1..65535") << bad;
  }
}

// ---------------------------------------------------------------------------------------
// The binary.

// Every aesKey and hmacKey value of the file (standard base64).
std::vector<std::string> key_texts(const std::string& path) {
  std::vector<std::string> out;
  const std::string text = read_text(path);
  for (const char* name : {"\"aesKey\": \"", "\"hmacKey\": \""}) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      const size_t start = at + std::string_view(name).size();
      out.push_back(text.substr(start, text.find('"', start) - start));
    }
  }
  return out;
}

TEST(DecisiondKeysTool, CreateRotateListRetireAndNeverPrintAKey) {
  TemporaryDirectory dir;
  const std::string state = "--state-dir=" + dir.path();
  std::string printed;
  for (const std::string& args : {state + " create", state + " rotate", state + " rotate", state + " retire --id=1",
                                  state + " list", state + " list --json"}) {
    const ToolRun r = run(args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.out;
    printed += r.out;
  }
  const std::vector<std::string> keys = key_texts(dir.path() + "/keys.json");
  ASSERT_EQ(keys.size(), 4u);
  for (const std::string& key : keys) {
    EXPECT_EQ(printed.find(key.substr(0, 16)), std::string::npos) << "a key was printed:\n" << printed;
  }
  const ToolRun list = run(state + " list");
  EXPECT_NE(list.out.find("3      signing"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("2      verifying"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("last id given: 3 (the next key gets 4)"), std::string::npos) << list.out;
  const ToolRun json = run(state + " list --json");
  EXPECT_TRUE(json.out.starts_with("{\"lastId\":3,\"keys\":[{\"id\":3,\"role\":\"signing\",\"created\":\"20"))
      << json.out;
  EXPECT_NE(json.out.find("{\"id\":2,\"role\":\"verifying\",\"created\":\"20"), std::string::npos) << json.out;
}

TEST(DecisiondKeysTool, RefusalsExitWith1AndSayWhy) {
  TemporaryDirectory dir;
  const std::string state = "--state-dir=" + dir.path();
  ASSERT_EQ(run(state + " create").status, 0);
  const ToolRun again = run(state + " create");
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.out.find("already exists"), std::string::npos) << again.out;
  const ToolRun signing = run(state + " retire --id=1");
  EXPECT_EQ(signing.status, 1);
  EXPECT_NE(signing.out.find("is the signing key"), std::string::npos) << signing.out;
  ASSERT_EQ(::chmod((dir.path() + "/keys.json").c_str(), 0640), 0);
  const ToolRun readable = run(state + " list");
  EXPECT_EQ(readable.status, 1);
  EXPECT_NE(readable.out.find("(mode 0640)"), std::string::npos) << readable.out;
  EXPECT_NE(readable.out.find("run chmod 600 " + dir.path() + "/keys.json"), std::string::npos) << readable.out;
}

TEST(DecisiondKeysTool, BadArgumentsExitWith2) {
  EXPECT_EQ(run("list").status, 2);
  EXPECT_EQ(run("--state-dir=/tmp retire").status, 2);
  EXPECT_EQ(run("--state-dir=/tmp retire --id=0").status, 2);
  EXPECT_EQ(run("--state-dir=/tmp shred").status, 2);
  EXPECT_EQ(run("--help").status, 0);
}

}  // namespace
}  // namespace tools::decisiond_keys
