// Inputs for perf/load.sh and perf/cross_core_latency.sh that only decisiond's own code can
// make:
//   decisiond_perf_fixtures tokens --state-dir DIR --count N [--users N] [--ad ID --creative ID --placement ID]
//       N distinct, fresh impression tokens sealed with DIR/keys.json (the running server's
//       keys), one request path "/v1/tracking?t=..." per line, users u1..uN in turn;
//   decisiond_perf_fixtures users --cores N --core C --count K
//       K user ids ("c<C>-<i>") owned by core C of N (caps::owner_core).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "caps/user_key.h"
#include "runtime/clock.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"

namespace {

const char* flag(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return fallback;
}

int usage() {
  std::fputs("usage: decisiond_perf_fixtures tokens --state-dir DIR --count N [--users N] [--ad ID --creative ID --placement ID]\n"
             "       decisiond_perf_fixtures users --cores N --core C --count K\n",
             stderr);
  return 2;
}

int tokens(int argc, char** argv) {
  const char* state_dir = flag(argc, argv, "--state-dir", nullptr);
  if (state_dir == nullptr) return usage();
  const long count = std::atol(flag(argc, argv, "--count", "0"));
  const long users = std::atol(flag(argc, argv, "--users", "100000"));
  absl::StatusOr<tracking::KeyRing> keys = tracking::KeyRing::load_or_create(state_dir);
  if (!keys.ok() || count <= 0 || users <= 0) return usage();
  tracking::TokenCodec codec(*keys);
  tracking::TrackingEvent event;
  event.kind = tracking::EventKind::kImpression;
  event.ad_id = std::strtoull(flag(argc, argv, "--ad", "1004"), nullptr, 10);
  event.creative_id = std::strtoull(flag(argc, argv, "--creative", "2004"), nullptr, 10);
  event.placement_id = std::strtoull(flag(argc, argv, "--placement", "7"), nullptr, 10);
  event.issued_at_s = runtime::SystemClock::instance().wall_s();
  event.expires_at_s = event.issued_at_s + 3600;
  std::string line, user;
  for (long i = 0; i < count; ++i) {
    user = "u" + std::to_string(1 + i % users);
    event.user_id = user;
    for (int b = 0; b < 8; ++b) event.request_id[b] = static_cast<uint8_t>(i >> (8 * b));
    line = "/v1/tracking?t=";
    if (!codec.encode(event, line).ok()) return 1;
    line.push_back('\n');
    std::fwrite(line.data(), 1, line.size(), stdout);
  }
  return 0;
}

int users(int argc, char** argv) {
  const long cores = std::atol(flag(argc, argv, "--cores", "0"));
  const long core = std::atol(flag(argc, argv, "--core", "-1"));
  const long count = std::atol(flag(argc, argv, "--count", "0"));
  if (cores <= 0 || core < 0 || core >= cores || count <= 0) return usage();
  long found = 0;
  for (long i = 0; found < count; ++i) {
    const std::string id = "c" + std::to_string(core) + "-" + std::to_string(i);
    if (caps::owner_core(caps::user_key(id), static_cast<uint32_t>(cores)) != static_cast<uint32_t>(core)) continue;
    std::printf("%s\n", id.c_str());
    ++found;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  if (std::strcmp(argv[1], "tokens") == 0) return tokens(argc, argv);
  if (std::strcmp(argv[1], "users") == 0) return users(argc, argv);
  return usage();
}
