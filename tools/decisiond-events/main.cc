// decisiond-events: reads the event log (docs/events.md), from state directories or from
// the NATS JetStream stream the nodes of a cluster ship their logs to.
//
//   decisiond-events --state-dir DIR [--state-dir DIR...] (print|summary) [filters] [--json]
//   decisiond-events --from nats://HOST:PORT[,...] [--stream NAME] [--node ID] [--creds FILE]
//                    (print|summary) [filters] [--json]
//
// filters: --kind K, --ad ID, --user U, --since T, --until T (T: unix milliseconds or an
// RFC 3339 time; since inclusive, until exclusive). `print` writes the matching lines as
// stored, merged by time (then core, seq and the line itself, so that the union of several
// nodes' logs and the stream they were shipped to print the same, line for line);
// `summary` counts them by kind, by ad and by hour (UTC). Lines that are not whole events
// (a torn last line) are skipped and counted on stderr. Exit status: 0; 1 when the stream
// cannot be read; 2 for bad arguments.
#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "tools/decisiond-events/command_line.h"
#include "tools/decisiond-events/event_sources.h"
#include "tools/decisiond-events/event_summary.h"

namespace {

using decisiond_events::Options;
using tracking::events::ParsedEvent;

bool matches(const Options& o, const ParsedEvent& e) {
  if (o.kind && e.kind != *o.kind) return false;
  if (o.ad && e.ad != *o.ad) return false;
  if (o.user && (!e.user || *e.user != *o.user)) return false;
  if (o.since_ms && e.time_ms < *o.since_ms) return false;
  if (o.until_ms && e.time_ms >= *o.until_ms) return false;
  return true;
}

struct Line {
  int64_t time_ms;
  uint32_t core;
  uint64_t seq;
  std::string text;
  friend bool operator<(const Line& a, const Line& b) {
    return std::tie(a.time_ms, a.core, a.seq, a.text) < std::tie(b.time_ms, b.core, b.seq, b.text);
  }
};

void print_lines(std::vector<Line>& lines, bool json) {
  std::sort(lines.begin(), lines.end());
  if (json) std::fputs("[", stdout);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (json && i > 0) std::fputs(",", stdout);
    std::fputs(lines[i].text.c_str(), stdout);
    if (!json) std::fputs("\n", stdout);
  }
  if (json) std::fputs("]\n", stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  const std::optional<Options> options = decisiond_events::parse_command_line(argc, argv, &error);
  if (!options) return decisiond_events::usage(error);
  if (options->help) return decisiond_events::help();
  const Options& o = *options;

  std::vector<Line> lines;
  decisiond_events::EventSummary summary;
  const decisiond_events::EventVisitor visit = [&](const ParsedEvent& e) {
    if (!matches(o, e)) return;
    if (o.command == "print") {
      lines.push_back({e.time_ms, e.core, e.seq, std::string(e.line)});
    } else {
      summary.add(e);
    }
  };
  decisiond_events::SourceStats stats;
  if (o.from.empty()) {
    stats = decisiond_events::read_state_dirs(o, visit);
  } else {
    absl::StatusOr<decisiond_events::SourceStats> read = decisiond_events::read_event_stream(o, visit);
    if (!read.ok()) {
      std::fprintf(stderr, "decisiond-events: %s\n", std::string(read.status().message()).c_str());
      return absl::IsInvalidArgument(read.status()) ? 2 : 1;
    }
    stats = *read;
  }
  if (stats.unreadable > 0) {
    std::fprintf(stderr, "decisiond-events: %llu torn or unreadable line(s) skipped\n",
                 static_cast<unsigned long long>(stats.unreadable));
  }
  if (o.command == "summary") {
    summary.print(o.json);
  } else {
    print_lines(lines, o.json);
  }
  return 0;
}
