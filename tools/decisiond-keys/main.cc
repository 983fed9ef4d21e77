// decisiond-keys: creates, lists, fingerprints, compares, rotates, promotes and retires the
// keys in <state-dir>/keys.json (docs/keys.md). Prints ids, roles, times and digests, never
// key bytes.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "tools/decisiond-keys/command_line.h"
#include "tools/decisiond-keys/command_output.h"
#include "tools/decisiond-keys/key_commands.h"
#include "tools/decisiond-keys/key_set.h"

namespace {

namespace keys = tools::decisiond_keys;

constexpr int kRefusedExit = 1;
constexpr int kDifferExit = 1;  // compare: both files read, and they differ
constexpr int kUsageExit = 2;   // also compare's exit when a file cannot be read

int refused(const absl::Status& status, int exit = kRefusedExit) {
  std::fprintf(stderr, "decisiond-keys: %s\n", std::string(status.message()).c_str());
  return exit;
}

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

keys::KeyPlace place_of(const keys::CommandLine& line) { return keys::key_place(line.state_dir, line.key_file); }

int run_rotate(const keys::CommandLine& line, int64_t now_s) {
  const keys::NewKeyRole role = line.no_sign ? keys::NewKeyRole::kVerifying : keys::NewKeyRole::kSigning;
  const absl::StatusOr<keys::KeyInfo> key = keys::rotate_keys(place_of(line), now_s, role);
  if (!key.ok()) return refused(key.status());
  const unsigned id = key->id;
  if (line.no_sign) {
    std::printf(
        "key %u added; it only verifies, the signing key is unchanged.\n"
        "Copy this keys.json to every node and reload each (SIGHUP); once every node holds key %u\n"
        "(decisiond-keys fingerprint agrees everywhere), run promote --id=%u.\n",
        id, id, id);
    return 0;
  }
  std::printf(
      "key %u added and signs once decisiond re-reads keys.json (SIGHUP, or its next start);\n"
      "the other keys still verify. Reload decisiond, then retire the previous key once\n"
      "--tracking-ttl and --vast-tag-ttl have passed since that reload.\n",
      id);
  return 0;
}

int run_promote(const keys::CommandLine& line) {
  const absl::StatusOr<keys::PromoteResult> promoted = keys::promote_key(place_of(line), *line.id);
  if (!promoted.ok()) return refused(promoted.status());
  const unsigned id = *line.id;
  if (!promoted->changed) {
    std::printf("key %u already signs; keys.json is unchanged.\n", id);
    return 0;
  }
  std::printf(
      "key %u signs once decisiond re-reads keys.json (SIGHUP, or its next start); key %u now\n"
      "only verifies. Copy this keys.json to every node and reload each; retire key %u once\n"
      "--tracking-ttl and --vast-tag-ttl have passed since the last node was reloaded.\n",
      id, static_cast<unsigned>(promoted->previous_signing_id), static_cast<unsigned>(promoted->previous_signing_id));
  return 0;
}

int run_compare(const keys::CommandLine& line) {
  const absl::StatusOr<keys::KeySetDifference> difference = keys::compare_key_files(line.files[0], line.files[1]);
  if (!difference.ok()) return refused(difference.status(), kUsageExit);
  print(keys::difference_text(*difference, line.files[0], line.files[1]));
  return difference->same() ? 0 : kDifferExit;
}

int run(const keys::CommandLine& line) {
  const int64_t now_s = absl::ToUnixSeconds(absl::Now());
  switch (line.command) {
    case keys::Command::kCreate: {
      const absl::StatusOr<keys::KeyInfo> key = keys::create_keys(place_of(line), now_s);
      if (!key.ok()) return refused(key.status());
      std::printf("created %s: key %u signs\n", place_of(line).path.c_str(), static_cast<unsigned>(key->id));
      return 0;
    }
    case keys::Command::kList: {
      const absl::StatusOr<keys::KeyListing> listing = keys::list_keys(place_of(line));
      if (!listing.ok()) return refused(listing.status());
      print(keys::listing_text(*listing, line.json));
      return 0;
    }
    case keys::Command::kFingerprint: {
      const absl::StatusOr<keys::KeySetFingerprint> fingerprint = keys::fingerprint_keys(place_of(line));
      if (!fingerprint.ok()) return refused(fingerprint.status());
      print(keys::fingerprint_text(*fingerprint, line.json));
      return 0;
    }
    case keys::Command::kCompare:
      return run_compare(line);
    case keys::Command::kRotate:
      return run_rotate(line, now_s);
    case keys::Command::kPromote:
      return run_promote(line);
    case keys::Command::kRetire: {
      const absl::Status retired = keys::retire_key(place_of(line), *line.id);
      if (!retired.ok()) return refused(retired);
      std::printf(
          "key %u retired; its id is never given again. Reload decisiond (SIGHUP): what it signed is then "
          "refused.\n",
          static_cast<unsigned>(*line.id));
      return 0;
    }
  }
  return kRefusedExit;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  const char* env = std::getenv("DECISIOND_STATE_DIR");
  const absl::StatusOr<keys::CommandLine> line =
      keys::parse_command_line(args, env ? std::optional<std::string_view>(env) : std::nullopt);
  if (!line.ok()) {
    std::fprintf(stderr, "decisiond-keys: %s\n\n%s", std::string(line.status().message()).c_str(),
                 std::string(keys::usage()).c_str());
    return kUsageExit;
  }
  if (line->help) {
    print(std::string(keys::usage()));
    return 0;
  }
  return run(*line);
}
