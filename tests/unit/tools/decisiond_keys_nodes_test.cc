// tools/decisiond-keys on several nodes (docs/keys.md, "Several nodes"): a fingerprint that is
// equal exactly when two files hold the same keys with the same roles; compare, naming ids
// only on one side, ids with other bytes and another signing key; and the two phases of a
// rolling rotation, rotate --no-sign (a key every node can open before any signs with it) and
// promote --id=N. Files are read with the server's reader and refused as the server refuses.
#include <openssl/evp.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "tests/unit/tools/keys_tool_runs.h"
#include "tests/unit/tracking/test_keys.h"
#include "tools/decisiond-keys/command_line.h"
#include "tools/decisiond-keys/command_output.h"
#include "tools/decisiond-keys/key_commands.h"
#include "tools/decisiond-keys/key_set.h"
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

// keys.json for entries (the first one signing), mode 0600, "lastId" always written.
void write_keys_with_last_id(const std::string& dir, const std::vector<KeyEntry>& entries, uint16_t last_id = 0) {
  ASSERT_TRUE(tracking::replace_secret_file(dir + "/keys.json", tracking::format_key_file(entries, last_id)).ok());
}

void copy_keys(const std::string& from_dir, const std::string& to_dir) {
  ASSERT_TRUE(tracking::replace_secret_file(to_dir + "/keys.json", read_text(from_dir + "/keys.json")).ok());
}

// A key with the bytes of another: the same id, other secrets.
KeyEntry other_bytes(uint16_t id) {
  KeyEntry entry = test_key(static_cast<uint16_t>(id + 1000));
  entry.id = id;
  return entry;
}

// ---------------------------------------------------------------------------------------
// The command line.

TEST(DecisiondKeysNodesCommandLine, ReadsTheNewCommands) {
  const std::vector<std::string_view> compare_args = {"compare", "/a/keys.json", "/b"};
  const absl::StatusOr<CommandLine> compare = parse_command_line(compare_args, "/ignored");
  ASSERT_TRUE(compare.ok()) << compare.status();
  EXPECT_EQ(compare->command, Command::kCompare);
  EXPECT_EQ(compare->files, (std::vector<std::string>{"/a/keys.json", "/b"}));
  EXPECT_TRUE(compare->state_dir.empty());
  const std::vector<std::string_view> fingerprint_args = {"--state-dir=d", "fingerprint", "--json"};
  const absl::StatusOr<CommandLine> fingerprint = parse_command_line(fingerprint_args);
  ASSERT_TRUE(fingerprint.ok()) << fingerprint.status();
  EXPECT_EQ(fingerprint->command, Command::kFingerprint);
  EXPECT_TRUE(fingerprint->json);
  const std::vector<std::string_view> rotate_args = {"rotate", "--no-sign", "--state-dir", "d"};
  const absl::StatusOr<CommandLine> rotate = parse_command_line(rotate_args);
  ASSERT_TRUE(rotate.ok()) << rotate.status();
  EXPECT_TRUE(rotate->no_sign);
  const std::vector<std::string_view> promote_args = {"--state-dir=d", "promote", "--id=4"};
  const absl::StatusOr<CommandLine> promote = parse_command_line(promote_args);
  ASSERT_TRUE(promote.ok()) << promote.status();
  EXPECT_EQ(promote->command, Command::kPromote);
  EXPECT_EQ(promote->id, 4);
}

TEST(DecisiondKeysNodesCommandLine, KeyFileNamesAnotherFileOfTheFormatAndItsFolderIsLocked) {
  const std::vector<std::string_view> args = {"--key-file=/var/lib/d/tls-ticket-keys.json", "rotate"};
  const absl::StatusOr<CommandLine> line = parse_command_line(args);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->key_file, "/var/lib/d/tls-ticket-keys.json");
  const KeyPlace place = key_place(line->state_dir, line->key_file);
  EXPECT_EQ(place.dir, "/var/lib/d");
  EXPECT_EQ(place.path, "/var/lib/d/tls-ticket-keys.json");
  const KeyPlace keys_json = key_place("/var/lib/d", "");
  EXPECT_EQ(keys_json.path, "/var/lib/d/keys.json");
  const std::vector<std::string_view> with_compare = {"--key-file=f", "compare", "a", "b"};
  EXPECT_FALSE(parse_command_line(with_compare).ok());
}

TEST(DecisiondKeysNodesCommandLine, MistakesAreRefusedNamingTheArgument) {
  const auto message = [](std::vector<std::string_view> args) {
    const absl::StatusOr<CommandLine> line = parse_command_line(args);
    return line.ok() ? std::string() : std::string(line.status().message());
  };
  EXPECT_EQ(message({"compare", "a"}), "compare needs two files: FILE_A FILE_B");
  EXPECT_EQ(message({"compare", "a", "b", "c"}), "compare needs two files: FILE_A FILE_B");
  EXPECT_EQ(message({"--state-dir=d", "compare", "a", "b"}),
            "compare takes two files, not --state-dir or --key-file (name DIR/keys.json)");
  EXPECT_EQ(message({"--state-dir=d", "promote"}), "promote needs --id=N");
  EXPECT_EQ(message({"--state-dir=d", "list", "--no-sign"}), "--no-sign goes with rotate only");
  EXPECT_EQ(message({"--state-dir=d", "fingerprint", "--id=1"}), "--id goes with retire and promote only");
  EXPECT_EQ(message({"compare", "a", "b", "--json"}), "--json goes with list and fingerprint only");
  EXPECT_EQ(message({"--state-dir=d", "fingerprint", "extra"}), "one command only, not also \"extra\"");
}

// ---------------------------------------------------------------------------------------
// The fingerprint.

// The documented construction, computed here apart from key_set.cc: SHA-256 of the label, a
// zero byte, then id (big-endian) || role || aesKey || hmacKey for every key by increasing id.
std::string documented_fingerprint(const std::vector<KeyEntry>& by_increasing_id, uint16_t signing_id) {
  std::string input = std::string(kKeySetFingerprintLabel) + '\0';
  for (const KeyEntry& entry : by_increasing_id) {
    input += static_cast<char>(entry.id >> 8);
    input += static_cast<char>(entry.id & 0xff);
    input += static_cast<char>(entry.id == signing_id ? 1 : 0);
    input.append(reinterpret_cast<const char*>(entry.aes_key.data()), entry.aes_key.size());
    input.append(reinterpret_cast<const char*>(entry.hmac_key.data()), entry.hmac_key.size());
  }
  unsigned char digest[32];
  unsigned int size = 0;
  EXPECT_EQ(EVP_Digest(input.data(), input.size(), digest, &size, EVP_sha256(), nullptr), 1);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), size));
}

TEST(DecisiondKeysFingerprint, IsSha256OverTheSortedIdsRolesAndKeysBehindALabel) {
  const KeySetFingerprint fingerprint = fingerprint_of(std::vector<KeyEntry>{test_key(2), test_key(1)});
  EXPECT_EQ(fingerprint.fingerprint_hex, documented_fingerprint({test_key(1), test_key(2)}, 2));
  EXPECT_EQ(fingerprint.fingerprint_hex.size(), 64u);
  ASSERT_EQ(fingerprint.keys.size(), 2u);
  EXPECT_EQ(fingerprint.keys[0].info.id, 2);
  EXPECT_TRUE(fingerprint.keys[0].info.signing);
  EXPECT_FALSE(fingerprint.keys[1].info.signing);
  EXPECT_EQ(fingerprint.keys[0].fingerprint_hex.size(), kKeyFingerprintHexDigits);
  EXPECT_NE(fingerprint.keys[0].fingerprint_hex, fingerprint.keys[1].fingerprint_hex);
}

TEST(DecisiondKeysFingerprint, IsEqualExactlyWhenTheKeysAndRolesAre) {
  const auto of = [](std::vector<KeyEntry> entries) { return fingerprint_of(entries).fingerprint_hex; };
  const std::string base = of({test_key(3), test_key(1), test_key(2)});
  // The order of the verifying keys, the creation times: not part of what a node opens.
  EXPECT_EQ(of({test_key(3), test_key(2), test_key(1)}), base);
  KeyEntry dated = test_key(1);
  dated.created_s = kNow;
  EXPECT_EQ(of({test_key(3), dated, test_key(2)}), base);
  // Another signing key, a key more or less, other bytes under one id: different.
  EXPECT_NE(of({test_key(2), test_key(1), test_key(3)}), base);
  EXPECT_NE(of({test_key(3), test_key(1)}), base);
  EXPECT_NE(of({test_key(3), test_key(1), test_key(2), test_key(4)}), base);
  EXPECT_NE(of({test_key(3), test_key(1), other_bytes(2)}), base);
  KeyEntry other_hmac = test_key(2);
  other_hmac.hmac_key[31] ^= 1;
  EXPECT_NE(of({test_key(3), test_key(1), other_hmac}), base);
}

TEST(DecisiondKeysFingerprint, TheTextShowsIdsRolesTimesAndDigestsButNoKeyBytes) {
  KeyEntry dated = test_key(2);
  dated.created_s = kNow;
  const std::vector<KeyEntry> entries = {dated, test_key(1)};
  const KeySetFingerprint fingerprint = fingerprint_of(entries);
  const std::string text = fingerprint_text(fingerprint, false);
  EXPECT_NE(text.find("2      signing    2026-11-21T12:00:00Z   " + fingerprint.keys[0].fingerprint_hex),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1      verifying  -                      "), std::string::npos) << text;
  EXPECT_NE(text.find("key set fingerprint: " + fingerprint.fingerprint_hex + "\n"), std::string::npos) << text;
  const std::string json = fingerprint_text(fingerprint, true);
  EXPECT_EQ(json, "{\"fingerprint\":\"" + fingerprint.fingerprint_hex +
                      "\",\"keys\":[{\"id\":2,\"role\":\"signing\",\"created\":\"2026-11-21T12:00:00Z\","
                      "\"fingerprint\":\"" + fingerprint.keys[0].fingerprint_hex +
                      "\"},{\"id\":1,\"role\":\"verifying\",\"created\":null,\"fingerprint\":\"" +
                      fingerprint.keys[1].fingerprint_hex + "\"}]}\n");
  for (const KeyEntry& entry : entries) {
    for (const tracking::SecretKey* key : {&entry.aes_key, &entry.hmac_key}) {
      const std::string hex = absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(key->data()), 8));
      EXPECT_EQ((text + json).find(hex), std::string::npos) << "key " << entry.id;
    }
  }
}

TEST(DecisiondKeysFingerprint, ReadsTheStateDirectorysFileWithTheServersRules) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(2), test_key(1)});
  const absl::StatusOr<KeySetFingerprint> fingerprint = fingerprint_keys(dir.path());
  ASSERT_TRUE(fingerprint.ok()) << fingerprint.status();
  const std::vector<KeyEntry> entries = {test_key(2), test_key(1)};
  EXPECT_EQ(fingerprint->fingerprint_hex, fingerprint_of(entries).fingerprint_hex);
  ASSERT_EQ(::chmod((dir.path() + "/keys.json").c_str(), 0640), 0);
  EXPECT_EQ(fingerprint_keys(dir.path()).status().code(), absl::StatusCode::kFailedPrecondition);
}

// ---------------------------------------------------------------------------------------
// compare

class DecisiondKeysCompare : public ::testing::Test {
 protected:
  std::string a() const { return node_a_.path() + "/keys.json"; }
  std::string b() const { return node_b_.path() + "/keys.json"; }

  TemporaryDirectory node_a_, node_b_;
};

TEST_F(DecisiondKeysCompare, TheSameFileAgrees) {
  write_keys_with_last_id(node_a_.path(), {test_key(2), test_key(1)});
  copy_keys(node_a_.path(), node_b_.path());
  const absl::StatusOr<KeySetDifference> difference = compare_key_files(a(), b());
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_TRUE(difference->same());
  EXPECT_EQ(difference_text(*difference, "a", "b"), "same keys (1, 2), key 2 signs in both\n");
}

TEST_F(DecisiondKeysCompare, VerifyingKeysInAnotherOrderAndOtherTimesAgree) {
  KeyEntry dated = test_key(1);
  dated.created_s = kNow;
  write_keys_with_last_id(node_a_.path(), {test_key(3), test_key(1), test_key(2)});
  write_keys_with_last_id(node_b_.path(), {test_key(3), test_key(2), dated}, 9);
  EXPECT_TRUE(compare_key_files(a(), b())->same());
}

TEST_F(DecisiondKeysCompare, StateDirectoriesStandForTheirKeysJson) {
  write_keys_with_last_id(node_a_.path(), {test_key(1)});
  copy_keys(node_a_.path(), node_b_.path());
  const absl::StatusOr<KeySetDifference> difference = compare_key_files(node_a_.path(), b());
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_TRUE(difference->same());
}

TEST_F(DecisiondKeysCompare, NamesIdsOnlyOnOneSide) {
  write_keys_with_last_id(node_a_.path(), {test_key(2), test_key(1), test_key(4)});
  write_keys_with_last_id(node_b_.path(), {test_key(2), test_key(3)});
  const absl::StatusOr<KeySetDifference> difference = compare_key_files(a(), b());
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_FALSE(difference->same());
  EXPECT_EQ(difference->only_in_a, (std::vector<uint16_t>{1, 4}));
  EXPECT_EQ(difference->only_in_b, (std::vector<uint16_t>{3}));
  EXPECT_TRUE(difference->different_bytes.empty());
  EXPECT_EQ(difference_text(*difference, "A", "B"),
            "key 1: only in A\nkey 4: only in A\nkey 3: only in B\nthe files differ\n");
}

TEST_F(DecisiondKeysCompare, NamesTheSameIdWithOtherBytes) {
  // What `rotate --no-sign` run on each node instead of once and copied gives.
  write_keys_with_last_id(node_a_.path(), {test_key(1), test_key(2)});
  write_keys_with_last_id(node_b_.path(), {test_key(1), other_bytes(2)});
  const absl::StatusOr<KeySetDifference> difference = compare_key_files(a(), b());
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_EQ(difference->different_bytes, std::vector<uint16_t>{2});
  EXPECT_TRUE(difference->only_in_a.empty() && difference->only_in_b.empty());
  EXPECT_EQ(difference_text(*difference, "A", "B"), "key 2: different key bytes under the same id\nthe files differ\n");
  // Only the hmacKey differs: still other bytes.
  KeyEntry other_hmac = test_key(2);
  other_hmac.hmac_key[0] ^= 0x80;
  write_keys_with_last_id(node_b_.path(), {test_key(1), other_hmac});
  EXPECT_EQ(compare_key_files(a(), b())->different_bytes, std::vector<uint16_t>{2});
}

TEST_F(DecisiondKeysCompare, NamesADifferentSigningKey) {
  // Between the two phases of a rotation: one node promoted, the other not yet.
  write_keys_with_last_id(node_a_.path(), {test_key(2), test_key(1)});
  write_keys_with_last_id(node_b_.path(), {test_key(1), test_key(2)});
  const absl::StatusOr<KeySetDifference> difference = compare_key_files(a(), b());
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_FALSE(difference->same());
  EXPECT_TRUE(difference->only_in_a.empty() && difference->only_in_b.empty() && difference->different_bytes.empty());
  EXPECT_EQ(difference_text(*difference, "A", "B"), "signing key: 2 in A, 1 in B\nthe files differ\n");
}

TEST_F(DecisiondKeysCompare, AFileTheServerWouldRefuseIsAnErrorNamingIt) {
  write_keys_with_last_id(node_a_.path(), {test_key(1)});
  const absl::Status missing = compare_key_files(a(), b()).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), b() + ": no such file");
  write_keys_with_last_id(node_b_.path(), {test_key(1)});
  ASSERT_EQ(::chmod(b().c_str(), 0644), 0);
  const absl::Status readable = compare_key_files(a(), b()).status();
  EXPECT_EQ(readable.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(readable.message().find("run chmod 600 " + b()), std::string_view::npos) << readable;
  const std::string secret = "c2VjcmV0LWJ5dGVzLXRoYXQtbXVzdC1ub3QtbGVhaw==";
  ASSERT_TRUE(tracking::replace_secret_file(b(), "{\"keys\": [{\"id\": 1, \"aesKey\": \"" + secret + "\"}]}").ok());
  const absl::Status broken = compare_key_files(b(), a()).status();
  EXPECT_EQ(broken.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(broken.message().find(b() + ": keys[0].aesKey: must be 32 bytes base64"), std::string_view::npos) << broken;
  EXPECT_EQ(broken.message().find(secret.substr(0, 12)), std::string_view::npos) << broken;
}

// ---------------------------------------------------------------------------------------
// The two phases of a rotation across nodes.

TEST(DecisiondKeysRotateNoSign, AddsAVerifyingKeyAndLeavesTheSigningKeyAlone) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(2), test_key(1)});
  const absl::StatusOr<KeyInfo> key = rotate_keys(dir.path(), kNow, NewKeyRole::kVerifying);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->id, 3);
  EXPECT_FALSE(key->signing);
  EXPECT_EQ(ids_in(dir.path()), (std::vector<uint16_t>{2, 3, 1}));
  const absl::StatusOr<KeyRing> ring = KeyRing::load(dir.path());
  ASSERT_TRUE(ring.ok()) << ring.status();
  EXPECT_EQ(ring->signing_key().aes_key, test_key(2).aes_key);
  EXPECT_EQ(ring->find(1)->hmac_key, test_key(1).hmac_key);
  EXPECT_EQ(ring->find(3)->created_s, kNow);
  EXPECT_NE(read_text(dir.path() + "/keys.json").find("\"lastId\": 3"), std::string::npos);
}

TEST(DecisiondKeysRotateNoSign, KeepsTheBoundsOfRotate) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(3)}, 65535);
  EXPECT_EQ(rotate_keys(dir.path(), kNow, NewKeyRole::kVerifying).status().code(),
            absl::StatusCode::kResourceExhausted);
  std::vector<KeyEntry> full;
  for (uint16_t id = KeyRing::kMaxKeys; id >= 1; --id) full.push_back(test_key(id));
  write_keys_with_last_id(dir.path(), full);
  EXPECT_EQ(rotate_keys(dir.path(), kNow, NewKeyRole::kVerifying).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(DecisiondKeysPromote, MakesTheKeySignAndKeepsThePreviousOneVerifying) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(2), test_key(3), test_key(1)});
  const absl::StatusOr<PromoteResult> promoted = promote_key(dir.path(), 3);
  ASSERT_TRUE(promoted.ok()) << promoted.status();
  EXPECT_TRUE(promoted->changed);
  EXPECT_EQ(promoted->previous_signing_id, 2);
  EXPECT_EQ(ids_in(dir.path()), (std::vector<uint16_t>{3, 2, 1}));
  const absl::StatusOr<KeyRing> ring = KeyRing::load(dir.path());
  ASSERT_TRUE(ring.ok()) << ring.status();
  for (uint16_t id : {1, 2, 3}) {
    EXPECT_EQ(ring->find(id)->aes_key, test_key(id).aes_key) << id;
    EXPECT_EQ(ring->find(id)->hmac_key, test_key(id).hmac_key) << id;
  }
  struct stat info {};
  ASSERT_EQ(::stat((dir.path() + "/keys.json").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
}

TEST(DecisiondKeysPromote, TheSigningKeyAgainChangesNothing) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(2), test_key(1)});
  const std::string before = read_text(dir.path() + "/keys.json");
  const absl::StatusOr<PromoteResult> promoted = promote_key(dir.path(), 2);
  ASSERT_TRUE(promoted.ok()) << promoted.status();
  EXPECT_FALSE(promoted->changed);
  EXPECT_EQ(read_text(dir.path() + "/keys.json"), before);
}

TEST(DecisiondKeysPromote, AnUnknownIdOrARefusedFileChangesNothing) {
  TemporaryDirectory dir;
  write_keys_with_last_id(dir.path(), {test_key(2), test_key(1)});
  const absl::Status unknown = promote_key(dir.path(), 5).status();
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(unknown.message().find("no key 5 (keys: 2, 1)"), std::string_view::npos) << unknown;
  const std::string path = dir.path() + "/keys.json";
  ASSERT_EQ(::chmod(path.c_str(), 0660), 0);
  const std::string before = read_text(path);
  EXPECT_EQ(promote_key(dir.path(), 1).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(read_text(path), before);
}

TEST(DecisiondKeysTwoPhases, NoNodeSignsWithAKeyAnotherNodeCannotOpen) {
  // Three nodes. Each phase is one change on one node, copied to the others; a node that
  // has not taken the copy yet still holds the previous phase's file.
  TemporaryDirectory first, second, third;
  ASSERT_TRUE(create_keys(first.path(), kNow).ok());
  copy_keys(first.path(), second.path());
  copy_keys(first.path(), third.path());
  const auto signing_ids = [&] {
    std::vector<uint16_t> ids;
    for (const TemporaryDirectory* node : {&first, &second, &third}) ids.push_back(ids_in(node->path()).front());
    return ids;
  };
  const auto every_node_opens = [&](uint16_t id) {
    for (const TemporaryDirectory* node : {&first, &second, &third}) {
      const absl::StatusOr<KeyRing> ring = KeyRing::load(node->path());
      if (!ring.ok() || ring->find(id) == nullptr) return false;
    }
    return true;
  };
  // Phase 1: key 2 verifies; the nodes that have it and those that do not all sign with 1.
  const absl::StatusOr<KeyInfo> added = rotate_keys(first.path(), kNow, NewKeyRole::kVerifying);
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_EQ(signing_ids(), (std::vector<uint16_t>{1, 1, 1}));
  EXPECT_FALSE(compare_key_files(first.path(), second.path())->same());
  copy_keys(first.path(), second.path());
  copy_keys(first.path(), third.path());
  EXPECT_TRUE(every_node_opens(2));
  EXPECT_TRUE(compare_key_files(first.path(), third.path())->same());
  // Phase 2: key 2 signs on each node in turn; every node already opens it.
  ASSERT_TRUE(promote_key(first.path(), 2).ok());
  EXPECT_EQ(signing_ids(), (std::vector<uint16_t>{2, 1, 1}));
  EXPECT_TRUE(every_node_opens(2) && every_node_opens(1));
  copy_keys(first.path(), second.path());
  copy_keys(first.path(), third.path());
  EXPECT_EQ(signing_ids(), (std::vector<uint16_t>{2, 2, 2}));
  const absl::StatusOr<KeySetFingerprint> fingerprint = fingerprint_keys(first.path());
  ASSERT_TRUE(fingerprint.ok());
  EXPECT_EQ(fingerprint_keys(third.path())->fingerprint_hex, fingerprint->fingerprint_hex);
}

// ---------------------------------------------------------------------------------------
// The binary on two state directories.

// The line "key set fingerprint: ..." of a fingerprint run.
std::string set_fingerprint_line(const std::string& out) {
  const size_t at = out.find("key set fingerprint: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

TEST(DecisiondKeysNodesTool, TwoStateDirectoriesThroughBothPhases) {
  TemporaryDirectory a, b;
  const std::string state_a = "--state-dir=" + a.path(), state_b = "--state-dir=" + b.path();
  ASSERT_EQ(run(state_a + " create").status, 0);
  copy_keys(a.path(), b.path());
  const std::string compare = "compare " + a.path() + " " + b.path() + "/keys.json";
  EXPECT_EQ(run(compare).status, 0);
  const auto fingerprint_of_node = [](const std::string& state) {
    return set_fingerprint_line(run(state + " fingerprint").out);
  };
  EXPECT_EQ(fingerprint_of_node(state_a), fingerprint_of_node(state_b));

  const ToolRun added = run(state_a + " rotate --no-sign");
  EXPECT_EQ(added.status, 0) << added.out;
  EXPECT_NE(added.out.find("key 2 added; it only verifies"), std::string::npos) << added.out;
  const ToolRun differs = run(compare);
  EXPECT_EQ(differs.status, 1);
  EXPECT_EQ(differs.out, "key 2: only in " + a.path() + "\nthe files differ\n");
  EXPECT_NE(fingerprint_of_node(state_a), fingerprint_of_node(state_b));
  copy_keys(a.path(), b.path());
  EXPECT_EQ(run(compare).out, "same keys (1, 2), key 1 signs in both\n");

  EXPECT_EQ(run(state_b + " promote --id=2").status, 0);
  const ToolRun signing = run(compare);
  EXPECT_EQ(signing.status, 1);
  EXPECT_EQ(signing.out, "signing key: 1 in " + a.path() + ", 2 in " + b.path() + "/keys.json\nthe files differ\n");
  const ToolRun again = run(state_b + " promote --id=2");
  EXPECT_EQ(again.status, 0);
  EXPECT_NE(again.out.find("key 2 already signs"), std::string::npos) << again.out;
  EXPECT_EQ(run(state_b + " promote --id=9").status, 1);

  // Nothing printed holds a key: the fingerprints are digests, not the keys' text.
  const std::string printed = run(state_a + " fingerprint").out + run(state_a + " fingerprint --json").out;
  const std::string file = read_text(a.path() + "/keys.json");
  for (const char* name : {"\"aesKey\": \"", "\"hmacKey\": \""}) {
    for (size_t at = file.find(name); at != std::string::npos; at = file.find(name, at + 1)) {
      EXPECT_EQ(printed.find(file.substr(at + std::string_view(name).size(), 12)), std::string::npos) << printed;
    }
  }
}

TEST(DecisiondKeysNodesTool, CompareExitsWith2OnAnUnreadableFileOrBadArguments) {
  TemporaryDirectory a;
  ASSERT_EQ(run("--state-dir=" + a.path() + " create").status, 0);
  const ToolRun missing = run("compare " + a.path() + " " + a.path() + "/nope.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.out, "decisiond-keys: " + a.path() + "/nope.json: no such file\n");
  ASSERT_EQ(::chmod((a.path() + "/keys.json").c_str(), 0640), 0);
  const ToolRun readable = run("compare " + a.path() + " " + a.path());
  EXPECT_EQ(readable.status, 2);
  EXPECT_NE(readable.out.find("(mode 0640)"), std::string::npos) << readable.out;
  EXPECT_EQ(run("compare " + a.path()).status, 2);
  EXPECT_EQ(run("--state-dir=" + a.path() + " compare a b").status, 2);
  EXPECT_EQ(run("--state-dir=" + a.path() + " list --no-sign").status, 2);
}

TEST(DecisiondKeysNodesTool, HelpGoesToStandardOutputAndExits0) {
  for (const char* help : {"--help", "-h", "compare --help", "--state-dir=/nowhere rotate --help"}) {
    const ToolRun r = run(help, false);
    EXPECT_EQ(r.status, 0) << help;
    EXPECT_TRUE(r.out.starts_with("usage: decisiond-keys")) << help << ": " << r.out;
    EXPECT_NE(r.out.find("promote --id=N"), std::string::npos) << r.out;
  }
  const ToolRun bad = run("shred", false);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");  // the usage after a mistake goes to standard error
}

}  // namespace
}  // namespace tools::decisiond_keys
