// decisiond-events: reads the event log of a state directory (docs/events.md).
//
//   decisiond-events --state-dir DIR print   [filters] [--json]
//   decisiond-events --state-dir DIR summary [filters] [--json]
//
// filters: --kind K, --ad ID, --user U, --since T, --until T (T: unix milliseconds or an
// RFC 3339 time; since inclusive, until exclusive). `print` writes the matching lines as
// stored, every core's files (rotated and live) merged by time; `summary` counts them by
// kind, by ad and by hour (UTC). Lines that are not whole events (a torn last line) are
// skipped and counted on stderr. Exit status: 0, or 2 for bad arguments.
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/time/time.h"
#include "tracking/events/event_log_reader.h"
#include "tracking/events/log_files.h"

namespace {

using tracking::events::ParsedEvent;

struct Options {
  std::string state_dir;
  std::string command;
  std::optional<std::string> kind;
  std::optional<uint64_t> ad;
  std::optional<std::string> user;
  std::optional<int64_t> since_ms;
  std::optional<int64_t> until_ms;
  bool json = false;
};

int usage(const char* why) {
  std::fprintf(stderr,
               "decisiond-events: %s\n"
               "usage: decisiond-events --state-dir DIR (print|summary) [--kind K] [--ad ID] [--user U]\n"
               "                        [--since T] [--until T] [--json]\n"
               "       T: unix milliseconds or RFC 3339 (2026-11-24T10:00:00Z)\n",
               why);
  return 2;
}

std::optional<int64_t> parse_time_ms(const std::string& text) {
  int64_t ms = 0;
  if (absl::SimpleAtoi(text, &ms)) return ms;
  absl::Time t;
  std::string error;
  if (absl::ParseTime(absl::RFC3339_full, text, &t, &error)) return absl::ToUnixMillis(t);
  return std::nullopt;
}

std::optional<Options> parse(int argc, char** argv, const char** error) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    const size_t equals = arg.find('=');
    const bool takes_value = arg != "--json" && arg.rfind("--", 0) == 0;
    if (takes_value) {
      if (equals != std::string::npos) {
        value = arg.substr(equals + 1);
        arg = arg.substr(0, equals);
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        *error = "a flag lacks its value";
        return std::nullopt;
      }
    }
    if (arg == "--state-dir") {
      o.state_dir = value;
    } else if (arg == "--kind") {
      o.kind = value;
    } else if (arg == "--ad") {
      uint64_t ad = 0;
      if (!absl::SimpleAtoi(value, &ad)) {
        *error = "--ad must be an ad id";
        return std::nullopt;
      }
      o.ad = ad;
    } else if (arg == "--user") {
      o.user = value;
    } else if (arg == "--since" || arg == "--until") {
      const std::optional<int64_t> ms = parse_time_ms(value);
      if (!ms) {
        *error = "--since and --until take unix milliseconds or an RFC 3339 time";
        return std::nullopt;
      }
      (arg == "--since" ? o.since_ms : o.until_ms) = ms;
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "print" || arg == "summary") {
      if (!o.command.empty()) {
        *error = "one command only";
        return std::nullopt;
      }
      o.command = arg;
    } else {
      *error = "unknown argument";
      return std::nullopt;
    }
  }
  if (o.state_dir.empty()) {
    *error = "--state-dir is required";
    return std::nullopt;
  }
  if (o.command.empty()) {
    *error = "say print or summary";
    return std::nullopt;
  }
  return o;
}

bool matches(const Options& o, const ParsedEvent& e) {
  if (o.kind && e.kind != *o.kind) return false;
  if (o.ad && e.ad != *o.ad) return false;
  if (o.user && (!e.user || *e.user != *o.user)) return false;
  if (o.since_ms && e.time_ms < *o.since_ms) return false;
  if (o.until_ms && e.time_ms >= *o.until_ms) return false;
  return true;
}

std::string hour_of(int64_t time_ms) {
  return absl::FormatTime("%Y-%m-%dT%H:00Z", absl::FromUnixMillis(time_ms), absl::UTCTimeZone());
}

void json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

struct Summary {
  uint64_t events = 0;
  uint64_t duplicates = 0;  // impression calls of a token already counted
  // Impressions that count, across the logs of every node of a cluster: neither repeats nor
  // lines the shared cap store has not settled yet (docs/events.md "store").
  uint64_t counted = 0;
  uint64_t unapplied = 0;  // cluster mode: lines not yet settled by the store
  uint64_t reapplied = 0;  // cluster mode: lines that settled an unapplied one later
  std::map<std::string, uint64_t> kinds;
  std::map<uint64_t, uint64_t> ads;
  std::map<std::string, uint64_t> hours;
};

void print_summary(const Summary& s, bool json) {
  if (!json) {
    std::printf("events %llu (duplicate impressions %llu)\n", static_cast<unsigned long long>(s.events),
                static_cast<unsigned long long>(s.duplicates));
    std::printf("impressions counted %llu (unapplied %llu, reapplied %llu)\nby kind:\n",
                static_cast<unsigned long long>(s.counted), static_cast<unsigned long long>(s.unapplied),
                static_cast<unsigned long long>(s.reapplied));
    for (const auto& [k, n] : s.kinds) std::printf("  %-28s %llu\n", k.c_str(), static_cast<unsigned long long>(n));
    std::printf("by ad:\n");
    for (const auto& [ad, n] : s.ads) std::printf("  %-28llu %llu\n", static_cast<unsigned long long>(ad), static_cast<unsigned long long>(n));
    std::printf("by hour (UTC):\n");
    for (const auto& [h, n] : s.hours) std::printf("  %-28s %llu\n", h.c_str(), static_cast<unsigned long long>(n));
    return;
  }
  std::string out = "{\"events\":" + std::to_string(s.events) + ",\"duplicate_impressions\":" + std::to_string(s.duplicates) +
                    ",\"counted_impressions\":" + std::to_string(s.counted) + ",\"unapplied_impressions\":" +
                    std::to_string(s.unapplied) + ",\"reapplied_impressions\":" + std::to_string(s.reapplied) +
                    ",\"kinds\":{";
  bool first = true;
  for (const auto& [k, n] : s.kinds) {
    if (!first) out += ",";
    first = false;
    json_string(out, k);
    out += ":" + std::to_string(n);
  }
  out += "},\"ads\":{";
  first = true;
  for (const auto& [ad, n] : s.ads) {
    if (!first) out += ",";
    first = false;
    out += "\"" + std::to_string(ad) + "\":" + std::to_string(n);
  }
  out += "},\"hours\":{";
  first = true;
  for (const auto& [h, n] : s.hours) {
    if (!first) out += ",";
    first = false;
    json_string(out, h);
    out += ":" + std::to_string(n);
  }
  out += "}}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const char* error = "";
  const std::optional<Options> options = parse(argc, argv, &error);
  if (!options) return usage(error);
  const Options& o = *options;

  struct Line {
    int64_t time_ms;
    uint32_t core;
    uint64_t seq;
    std::string text;
  };
  std::vector<Line> lines;
  Summary summary;
  uint64_t torn = 0;
  const std::vector<uint32_t> cores = tracking::events::list_core_dirs(o.state_dir);
  for (uint32_t core : cores) {
    const tracking::events::ReadStats stats =
        tracking::events::read_core_log(tracking::events::core_dir(o.state_dir, core), 0, [&](const ParsedEvent& e) {
          if (!matches(o, e)) return;
          if (o.command == "print") {
            lines.push_back({e.time_ms, core, e.seq, std::string(e.line)});
            return;
          }
          ++summary.events;
          ++summary.kinds[std::string(e.kind)];
          if (e.kind == "impression") {
            if (e.duplicate) ++summary.duplicates;
            if (!e.duplicate && e.store != "unapplied") ++summary.counted;
            if (e.store == "unapplied") ++summary.unapplied;
            if (e.store == "reapplied") ++summary.reapplied;
          }
          ++summary.ads[e.ad];
          ++summary.hours[hour_of(e.time_ms)];
        });
    torn += stats.torn_lines;
  }
  if (torn > 0) std::fprintf(stderr, "decisiond-events: %llu torn or unreadable line(s) skipped\n", static_cast<unsigned long long>(torn));
  if (o.command == "summary") {
    print_summary(summary, o.json);
    return 0;
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
    if (a.core != b.core) return a.core < b.core;
    return a.seq < b.seq;
  });
  if (o.json) std::fputs("[", stdout);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (o.json && i > 0) std::fputs(",", stdout);
    std::fputs(lines[i].text.c_str(), stdout);
    if (!o.json) std::fputs("\n", stdout);
  }
  if (o.json) std::fputs("]\n", stdout);
  return 0;
}
