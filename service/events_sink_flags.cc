#include "service/events_sink_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "service/byte_size.h"
#include "service/flag_error.h"
#include "service/secret_file.h"
#include "tracking/event_shipping/message_id.h"

ABSL_FLAG(std::string, events_sink, "",
          "nats://host:port[,host:port...]: NATS JetStream servers every line of the event log is shipped to "
          "(empty: not shipped)");
ABSL_FLAG(std::string, events_sink_user, "", "NATS user of --events-sink (with --events-sink-password-file)");
ABSL_FLAG(std::string, events_sink_password_file, "",
          "file holding the password of --events-sink-user (mode 0600 or stricter; never on the command line)");
ABSL_FLAG(std::string, events_sink_creds, "",
          "NATS credentials file (JWT and NKey seed) of --events-sink, mode 0600 or stricter, instead of a user");
ABSL_FLAG(std::string, events_stream, "decisiond-events",
          "JetStream stream of --events-sink; each node publishes on subject decisiond.events.<node id>");
ABSL_FLAG(int32_t, events_replicas, 3, "replicas of --events-stream when decisiond creates it (1 to 5)");
ABSL_FLAG(int32_t, events_run_lines, 1024,
          "with --events-sink: at most this many lines of one core's log in one message (a run; 1 to 65536)");
ABSL_FLAG(std::string, events_run_bytes, "256KiB",
          "with --events-sink: at most this many bytes of lines in one message (1KiB to 64MiB; the servers' "
          "max_payload bounds it too)");
ABSL_FLAG(absl::Duration, events_run_wait, absl::Milliseconds(100),
          "with --events-sink: once every line on disk is shipped, how long new lines gather before the next run "
          "(1ms to 1s)");
ABSL_FLAG(absl::Duration, events_retain, absl::Hours(7 * 24),
          "with --events-sink: a log file is removed once shipped and last written longer ago than this");

namespace service {

namespace {
// NATS stream names: no '.', '*', '>', path separators or whitespace; ours are simpler still.
bool stream_name_ok(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

// --events-sink-user, --events-sink-password-file, --events-sink-creds: one way or none.
absl::Status resolve_credentials(EventsSinkSettings& sink) {
  sink.user = absl::GetFlag(FLAGS_events_sink_user);
  const std::string password_file = absl::GetFlag(FLAGS_events_sink_password_file);
  sink.creds_file = absl::GetFlag(FLAGS_events_sink_creds);
  if (!sink.enabled()) {
    if (!sink.user.empty()) return invalid_flag("events-sink-user", "needs --events-sink=nats://...");
    if (!password_file.empty()) return invalid_flag("events-sink-password-file", "needs --events-sink=nats://...");
    if (!sink.creds_file.empty()) return invalid_flag("events-sink-creds", "needs --events-sink=nats://...");
    return absl::OkStatus();
  }
  if (!sink.creds_file.empty() && (!sink.user.empty() || !password_file.empty())) {
    return invalid_flag("events-sink-creds", "a credentials file or a user and password, not both");
  }
  if (sink.user.empty() != password_file.empty()) {
    return sink.user.empty() ? invalid_flag("events-sink-password-file", "needs --events-sink-user")
                             : invalid_flag("events-sink-user", "needs --events-sink-password-file");
  }
  if (!password_file.empty()) {
    absl::StatusOr<std::string> password = read_secret_file("events-sink-password-file", password_file);
    if (!password.ok()) return password.status();
    sink.password = *std::move(password);
  }
  if (!sink.creds_file.empty()) return check_secret_file("events-sink-creds", sink.creds_file);
  return absl::OkStatus();
}
}  // namespace

absl::Status resolve_events_sink_flags(const std::string& node_id, EventsSinkSettings& sink) {
  sink.url = absl::GetFlag(FLAGS_events_sink);
  if (sink.enabled()) {
    absl::StatusOr<nats_jetstream::ServerList> servers = nats_jetstream::parse_server_list(sink.url);
    if (!servers.ok()) return invalid_flag("events-sink", servers.status().message());
    sink.servers = *std::move(servers);
    if (absl::Status id = tracking::event_shipping::check_subject_node_id(node_id); !id.ok()) {
      return invalid_flag("node-id", absl::StrCat(id.message(), " (with --events-sink it ends the subject "
                                                           "decisiond.events.<node id>)"));
    }
  }
  if (absl::Status s = resolve_credentials(sink); !s.ok()) return s;
  sink.stream = absl::GetFlag(FLAGS_events_stream);
  if (!stream_name_ok(sink.stream)) {
    return invalid_flag("events-stream", "must be 1 to 64 letters, digits, '-' or '_', such as decisiond-events");
  }
  const int32_t replicas = absl::GetFlag(FLAGS_events_replicas);
  if (replicas < 1 || replicas > 5) return invalid_flag("events-replicas", "must be 1 to 5 (JetStream's range)");
  sink.replicas = replicas;
  const int32_t run_lines = absl::GetFlag(FLAGS_events_run_lines);
  if (run_lines < 1 || run_lines > 65536) return invalid_flag("events-run-lines", "must be 1 to 65536, such as 1024");
  sink.run_lines = static_cast<uint32_t>(run_lines);
  const std::optional<uint64_t> run_bytes = parse_bytes(absl::GetFlag(FLAGS_events_run_bytes));
  if (!run_bytes || *run_bytes < (1u << 10) || *run_bytes > (64u << 20)) {
    return invalid_flag("events-run-bytes", "must be a size from 1KiB to 64MiB, such as 256KiB");
  }
  sink.run_bytes = static_cast<uint32_t>(*run_bytes);
  sink.run_wait = absl::GetFlag(FLAGS_events_run_wait);
  if (sink.run_wait < absl::Milliseconds(1) || sink.run_wait > absl::Seconds(1) ||
      absl::Trunc(sink.run_wait, absl::Milliseconds(1)) != sink.run_wait) {
    return invalid_flag("events-run-wait", "must be whole milliseconds from 1ms to 1s, such as 100ms");
  }
  sink.retain = absl::GetFlag(FLAGS_events_retain);
  if (sink.retain < absl::ZeroDuration() || absl::Trunc(sink.retain, absl::Seconds(1)) != sink.retain) {
    return invalid_flag("events-retain", "must be whole seconds from 0, such as 168h");
  }
  return absl::OkStatus();
}

}  // namespace service
