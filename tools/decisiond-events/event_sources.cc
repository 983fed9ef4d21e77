#include "tools/decisiond-events/event_sources.h"

#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/server_list.h"
#include "nats_jetstream/stream_reader.h"
#include "tools/decisiond-events/run_lines.h"
#include "tracking/events/event_log_reader.h"
#include "tracking/events/log_files.h"

namespace decisiond_events {

namespace {
// A tool waits this long for a first connection: long enough for a server that is
// starting, short enough that a wrong address fails while the operator watches.
constexpr std::chrono::milliseconds kConnectWait{5000};
}  // namespace

SourceStats read_state_dirs(const Options& options, const EventVisitor& visit) {
  SourceStats stats;
  for (const std::string& state_dir : options.state_dirs) {
    for (uint32_t core : tracking::events::list_core_dirs(state_dir)) {
      const tracking::events::ReadStats read =
          tracking::events::read_core_log(tracking::events::core_dir(state_dir, core), 0, visit);
      stats.events += read.lines;
      stats.unreadable += read.torn_lines;
    }
  }
  return stats;
}

absl::StatusOr<SourceStats> read_event_stream(const Options& options, const EventVisitor& visit) {
  absl::StatusOr<nats_jetstream::ServerList> servers = nats_jetstream::parse_server_list(options.from);
  if (!servers.ok()) return absl::InvalidArgumentError(absl::StrCat("--from ", servers.status().message()));
  nats_jetstream::ConnectionSettings settings;
  settings.servers = *std::move(servers);
  settings.credentials.creds_file = options.creds_file;
  settings.client_name = "decisiond-events";
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> connection =
      nats_jetstream::JetStreamConnection::open(settings);
  if (!connection.ok()) return connection.status();
  if (!(*connection)->wait_connected(kConnectWait)) {
    const std::string why = (*connection)->last_error();
    return absl::UnavailableError(absl::StrCat("no NATS server of ", options.from, " answered within ",
                                               kConnectWait.count(), " ms", why.empty() ? "" : ": ", why));
  }
  absl::StatusOr<nats_jetstream::JetStreamPtr> jetstream = (*connection)->jetstream();
  if (!jetstream.ok()) return jetstream.status();

  nats_jetstream::StreamReadOptions read;
  if (!options.node.empty()) read.subject_filter = absl::StrCat("decisiond.events.", options.node);
  tracking::events::EventLineParser parser;
  tracking::events::ParsedEvent event;
  SourceStats stats;
  const absl::Status status =
      nats_jetstream::read_stream(jetstream->get(), options.stream, read, [&](const nats_jetstream::StreamMessage& m) {
        for (std::string_view line : run_lines(m.data)) {
          if (!parser.parse(line, event)) {
            ++stats.unreadable;
            continue;
          }
          ++stats.events;
          visit(event);
        }
      });
  if (!status.ok()) return status;
  return stats;
}

}  // namespace decisiond_events
