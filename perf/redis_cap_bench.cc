// What one decision costs the core in cluster mode besides the round trip: formatting the
// cap read (HGETALL of the user's hash), parsing its reply through the connection's reader
// and arena, decoding the fields into FetchedCaps and one allows(); and formatting the
// impression's FCALL. The project's goal is under 1 µs for the cap read's encode and parse.
#include <benchmark/benchmark.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "caps/cap_windows.h"
#include "caps/redis_store/caps_library.h"
#include "caps/redis_store/fetched_caps.h"
#include "caps/redis_store/redis_keys.h"
#include "perf/allocation_counter.h"
#include "perf/bench_caps.h"
#include "redis_cluster/command.h"
#include "redis_cluster/reply.h"

namespace {

constexpr uint64_t kUserKey = 0x0123456789abcdefULL;
constexpr uint64_t kCappedAds[] = {101, 102, 103};

void append_bulk(std::string& out, std::string_view bytes) {
  out += '$';
  out += std::to_string(bytes.size());
  out += "\r\n";
  out += bytes;
  out += "\r\n";
}

void put_u32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// HGETALL's reply for a user with 3 capped ads (an 8-byte entry key and a 24-byte value
// each: expiry and 5 impression times) and one ad with 2 pending serves ('p' + ad, two
// 4-byte lapse times), as the function library writes them.
std::string user_hash_reply() {
  std::string out = "*8\r\n";
  for (const uint64_t ad : kCappedAds) {
    const std::array<char, 8> field = caps::redis_store::le_bytes(caps::recent_key(kUserKey, ad));
    char value[24] = {};
    put_u32(value, static_cast<uint32_t>(kNow + 86400));
    put_u32(value + 4, static_cast<uint32_t>(kNow - 600));
    put_u32(value + 8, static_cast<uint32_t>(kNow - 7200));
    append_bulk(out, {field.data(), field.size()});
    append_bulk(out, {value, sizeof(value)});
  }
  const std::array<char, 8> ad = caps::redis_store::le_bytes(kCappedAds[1]);
  char pending_field[9] = {'p'};
  for (int i = 0; i < 8; ++i) pending_field[1 + i] = ad[i];
  char lapses[8];
  put_u32(lapses, static_cast<uint32_t>(kNow + 30));
  put_u32(lapses + 4, static_cast<uint32_t>(kNow + 45));
  append_bulk(out, {pending_field, sizeof(pending_field)});
  append_bulk(out, {lapses, sizeof(lapses)});
  return out;
}

// One cap read: the command's bytes, the reply parsed, the user's state decoded, one ad
// checked against its cap.
void BM_CapReadEncodeAndParse(benchmark::State& state) {
  const std::string reply_bytes = user_hash_reply();
  redis_cluster::RespReader reader;
  caps::redis_store::FetchedCaps fetched;
  size_t command_bytes = 0;
  bool allowed = false;
  // As a call slot of the client holds it: reserved once, formatted into again and again.
  redis_cluster::FormattedCommand command;
  command.reserve(256);
  auto one_read = [&] {
    const caps::redis_store::KeyName hash = caps::redis_store::KeyName::user_hash(kUserKey);
    const std::string_view args[] = {"HGETALL", hash.view()};
    command.assign(args);
    command_bytes = command.bytes().size();
    benchmark::DoNotOptimize(command.bytes().data());
    reader.feed(reply_bytes);
    if (reader.next() != redis_cluster::RespReader::Result::kReply) state.SkipWithError("reply not parsed");
    const redis_cluster::Reply reply = reader.reply();
    fetched.clear(kUserKey);
    for (size_t i = 0; i + 1 < reply.size(); i += 2) fetched.add_field(reply.at(i).text(), reply.at(i + 1).text(), kNow);
    allowed = fetched.allows(kUserKey, kCappedAds[1], kCap, kNow);
    benchmark::DoNotOptimize(allowed);
  };
  one_read();  // warm: the arena and the entries reach their size
  if (fetched.entries() != 3) state.SkipWithError("the reply did not decode into 3 entries");
  const perf::AllocationWatch allocations;
  for (auto _ : state) one_read();
  allocations.report(state);
  state.counters["command_bytes"] = static_cast<double>(command_bytes);
  state.counters["reply_bytes"] = static_cast<double>(reply_bytes.size());
  state.counters["allowed"] = allowed ? 1 : 0;
}
BENCHMARK(BM_CapReadEncodeAndParse);

// An impression's step: FCALL decisiond_impression 2 hash identity now until window issued
// ad recent recent_window, formatted as the cap store does (numbers in a stack buffer).
void BM_ImpressionStepEncode(benchmark::State& state) {
  size_t command_bytes = 0;
  redis_cluster::FormattedCommand command;
  command.reserve(256);
  auto one_step = [&] {
    const caps::redis_store::KeyName hash = caps::redis_store::KeyName::user_hash(kUserKey);
    const caps::redis_store::KeyName identity =
        caps::redis_store::KeyName::user_impression(kUserKey, 0xfedcba9876543210ULL);
    const std::array<char, 8> ad = caps::redis_store::le_bytes(kCappedAds[0]);
    const std::array<char, 8> recent = caps::redis_store::le_bytes(caps::recent_key(kUserKey, kCappedAds[0]));
    char numbers[96];
    size_t used = 0;
    auto number = [&](int64_t v) {
      char* begin = numbers + used;
      const auto [end, ec] = std::to_chars(begin, numbers + sizeof(numbers), v);
      used = static_cast<size_t>(end - numbers);
      return std::string_view(begin, static_cast<size_t>(end - begin));
    };
    const std::string_view args[] = {"FCALL",
                                     caps::redis_store::kImpressionFunction,
                                     "2",
                                     hash.view(),
                                     identity.view(),
                                     number(kNow),
                                     number(kNow + 86400 + 3600),
                                     number(60),
                                     number(kNow - 2),
                                     {ad.data(), ad.size()},
                                     {recent.data(), recent.size()},
                                     number(86400)};
    command.assign(args);
    command_bytes = command.bytes().size();
    benchmark::DoNotOptimize(command.bytes().data());
  };
  one_step();
  const perf::AllocationWatch allocations;
  for (auto _ : state) one_step();
  allocations.report(state);
  state.counters["command_bytes"] = static_cast<double>(command_bytes);
}
BENCHMARK(BM_ImpressionStepEncode);

}  // namespace
