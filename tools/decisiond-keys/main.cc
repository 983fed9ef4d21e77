// decisiond-keys: creates, lists, rotates and retires the keys in <state-dir>/keys.json
// (docs/keys.md). Prints ids, roles and times, never key bytes.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "tools/decisiond-keys/command_line.h"
#include "tools/decisiond-keys/key_commands.h"

namespace {

namespace keys = tools::decisiond_keys;

constexpr int kRefusedExit = 1;
constexpr int kUsageExit = 2;

std::string created_text(const keys::KeyInfo& key) {
  if (!key.created_s) return "-";
  return absl::FormatTime("%Y-%m-%d%ET%H:%M:%SZ", absl::FromUnixSeconds(*key.created_s), absl::UTCTimeZone());
}

const char* role_of(const keys::KeyInfo& key) { return key.signing ? "signing" : "verifying"; }

void print_listing(const keys::KeyListing& listing, bool json) {
  if (json) {
    std::string out = absl::StrCat("{\"lastId\":", listing.last_id, ",\"keys\":[");
    for (size_t i = 0; i < listing.keys.size(); ++i) {
      const keys::KeyInfo& key = listing.keys[i];
      absl::StrAppend(&out, i == 0 ? "" : ",", "{\"id\":", key.id, ",\"role\":\"", role_of(key), "\",\"created\":",
                      key.created_s ? absl::StrCat("\"", created_text(key), "\"") : "null", "}");
    }
    out += "]}\n";
    std::fputs(out.c_str(), stdout);
    return;
  }
  std::printf("%-6s %-10s %s\n", "ID", "ROLE", "CREATED");
  for (const keys::KeyInfo& key : listing.keys) {
    std::printf("%-6u %-10s %s\n", static_cast<unsigned>(key.id), role_of(key), created_text(key).c_str());
  }
  std::printf("last id given: %u (the next key gets %u)\n", static_cast<unsigned>(listing.last_id),
              static_cast<unsigned>(listing.last_id) + 1);
}

int refused(const absl::Status& status) {
  std::fprintf(stderr, "decisiond-keys: %s\n", std::string(status.message()).c_str());
  return kRefusedExit;
}

int run(const keys::CommandLine& line) {
  const int64_t now_s = absl::ToUnixSeconds(absl::Now());
  switch (line.command) {
    case keys::Command::kCreate: {
      const absl::StatusOr<keys::KeyInfo> key = keys::create_keys(line.state_dir, now_s);
      if (!key.ok()) return refused(key.status());
      std::printf("created %s/keys.json: key %u signs\n", line.state_dir.c_str(), static_cast<unsigned>(key->id));
      return 0;
    }
    case keys::Command::kList: {
      const absl::StatusOr<keys::KeyListing> listing = keys::list_keys(line.state_dir);
      if (!listing.ok()) return refused(listing.status());
      print_listing(*listing, line.json);
      return 0;
    }
    case keys::Command::kRotate: {
      const absl::StatusOr<keys::KeyInfo> key = keys::rotate_keys(line.state_dir, now_s);
      if (!key.ok()) return refused(key.status());
      std::printf(
          "key %u added and signs from decisiond's next start; the other keys still verify.\n"
          "Restart decisiond, then retire the previous key once --tracking-ttl and --vast-tag-ttl\n"
          "have passed since that restart.\n",
          static_cast<unsigned>(key->id));
      return 0;
    }
    case keys::Command::kRetire: {
      const absl::Status retired = keys::retire_key(line.state_dir, *line.id);
      if (!retired.ok()) return refused(retired);
      std::printf(
          "key %u retired; its id is never given again. Restart decisiond: what it signed is then refused.\n",
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
    std::fputs(std::string(keys::usage()).c_str(), stdout);
    return 0;
  }
  return run(*line);
}
