#include "service/flags.h"

#include <sys/stat.h>
#include <unistd.h>

#include <optional>
#include <string_view>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "runtime/cpu_affinity.h"
#include "service/client_address/client_address_flags.h"
#include "service/compression_flags.h"
#include "service/byte_size.h"
#include "service/flag_error.h"
#include "service/nats_login.h"

ABSL_FLAG(std::string, listen, "0.0.0.0:8080",
          "public listener (decision, tracking, VAST tag), host:port; none: no plain HTTP (with --tls-listen)");
ABSL_FLAG(std::string, admin_listen, "127.0.0.1:9090", "admin plane listener: metrics, health, catalog reload, explain");
ABSL_FLAG(std::string, admin_token, "", "bearer token required on admin writes; empty = loopback only");
ABSL_FLAG(int32_t, cores, 0, "number of reactors; 0 = every CPU this process may run on");
ABSL_FLAG(bool, pin, false, "pin reactor i to the i-th allowed CPU");
ABSL_FLAG(std::string, catalog, "",
          "catalog file, or nats://host:port[,host:port...]/<name>: the catalog published under <name> with "
          "decisiond-catalog, each new revision swapped in; empty = the demo catalog");
ABSL_FLAG(std::string, catalog_user, "", "NATS user of --catalog=nats://... (with --catalog-password-file)");
ABSL_FLAG(std::string, catalog_password_file, "",
          "file holding the password of --catalog-user (mode 0600 or stricter; never on the command line)");
ABSL_FLAG(std::string, catalog_creds, "",
          "NATS credentials file (JWT and NKey seed) of --catalog=nats://..., mode 0600 or stricter, instead of a user");
ABSL_FLAG(std::string, geoip_db, "", "MaxMind DB (GeoIP2/GeoLite2-City layout) for IP -> geo");
ABSL_FLAG(std::string, geonames_dir, "", "GeoNames dumps for the city -> division -> country hierarchy");
ABSL_FLAG(std::string, state_dir, "./var", "keys, event logs, frequency-cap snapshots");
ABSL_FLAG(std::string, base_url, "http://127.0.0.1:8080", "prefix of tracking and VAST tag URLs");
ABSL_FLAG(absl::Duration, tracking_ttl, absl::Seconds(3600), "tracking token lifetime");
ABSL_FLAG(absl::Duration, vast_tag_ttl, absl::Seconds(900), "signed VAST tag URL lifetime");
ABSL_FLAG(std::string, versions, "", "API version lifecycle file (JSON); empty = built-in table");
ABSL_FLAG(std::string, seed, "random", "seed of the per-core random generators (an unsigned integer)");
ABSL_FLAG(int64_t, max_body_bytes, 64 * 1024, "largest request body accepted; larger is 413");
ABSL_FLAG(absl::Duration, shed_lag, absl::Milliseconds(20),
          "overload: a decision that has waited this long since its bytes reached the socket is answered "
          "503 10098 at once (tracking calls at 4 times as long, TLS handshakes at a quarter once they take a quarter "
          "of the core); 0 never sheds");
ABSL_FLAG(std::string, max_catalog_bytes, "256MiB",
          "largest catalog accepted by POST /admin/catalog (bytes, KiB, MiB, GiB); larger is 413");
ABSL_FLAG(absl::Duration, request_timeout, absl::Seconds(10), "time allowed from a request's first byte to its last");
ABSL_FLAG(absl::Duration, idle_timeout, absl::Seconds(60), "keep-alive connection idle time before it is closed");
ABSL_FLAG(int32_t, max_connections_per_core, 10000, "connections one core holds; more are answered 503");
ABSL_FLAG(absl::Duration, events_flush, absl::Seconds(1),
          "how often event log writes are synced to disk (the most a crash loses)");
ABSL_FLAG(std::string, events_file_bytes, "256MiB", "size at which an event log file is rotated (bytes, KiB, MiB, GiB)");
ABSL_FLAG(bool, benchmark_events_to_nowhere, false,
          "benchmarks only: event lines are formatted and counted but never written, so nothing is logged, "
          "billed or replayed after a restart (what the log's writes cost is the difference)");
ABSL_FLAG(absl::Duration, snapshot_interval, absl::Seconds(60),
          "how often each core snapshots its frequency caps and impression dedup state (bounds start-up replay)");
ABSL_FLAG(absl::Duration, min_impression_delay, absl::ZeroDuration(),
          "an impression called sooner than this after its decision is invalid traffic (too_fast): answered, "
          "logged, counted toward nothing; 0 is off");
ABSL_FLAG(absl::Duration, pacing_interval, absl::Seconds(60),
          "the slice delivery goals are planned for: each slice's budget and throttle are set at its start "
          "(whole seconds, 1s to 1h)");
ABSL_FLAG(int32_t, max_cross_core_asks, 1024,
          "per core and kind: decisions or impressions handed to another core at once; more are answered 503");
ABSL_FLAG(absl::Duration, idle_poll, absl::Microseconds(50),
          "after a message to or from another core, how long a core polls for the next before sleeping (0 = never)");
ABSL_FLAG(double, access_log_sample, 0,
          "fraction of requests written to the access log (<state-dir>/access/core-N/), 0 to 1; 0 = off");
ABSL_FLAG(absl::Duration, drain_timeout, absl::Seconds(5), "on SIGTERM, time given to in-flight requests");
ABSL_FLAG(std::string, log_level, "info",
          "the least severe log line written on stderr: error, warn, info or debug (docs/operations.md \"Logs\")");

namespace service {

namespace {
absl::Status check_readable(absl::string_view flag, const std::string& path, bool directory) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || ::access(path.c_str(), R_OK) != 0) {
    return invalid_flag(flag, absl::StrCat("cannot read '", path, "'"));
  }
  if (directory != S_ISDIR(st.st_mode)) {
    return invalid_flag(flag, absl::StrCat("'", path, "' is not a ", directory ? "directory" : "file"));
  }
  return absl::OkStatus();
}

absl::Status check_positive(absl::string_view flag, absl::Duration d) {
  if (d <= absl::ZeroDuration()) return invalid_flag(flag, "must be a positive duration such as 30s or 5m");
  return absl::OkStatus();
}

// Lifetimes sealed into tokens and tags count whole seconds: anything else would be cut
// to a lifetime the flag did not ask for (below a second: none at all).
absl::Status check_whole_seconds(absl::string_view flag, absl::Duration d) {
  if (d < absl::Seconds(1) || d != absl::Seconds(absl::ToInt64Seconds(d))) {
    return invalid_flag(flag, "must be a whole number of seconds, at least 1s, such as 3600s or 15m");
  }
  return absl::OkStatus();
}

// --listen, --admin-listen, --admin-token.
absl::Status resolve_listeners(ServiceConfig& c) {
  const std::string plain = absl::GetFlag(FLAGS_listen);
  c.listen_plain = plain != "none";
  if (c.listen_plain) {
    auto listen = runtime::SocketAddress::parse(plain);
    if (!listen.ok()) return invalid_flag("listen", listen.status().message());
    c.listen = *listen;
  }
  auto admin = runtime::SocketAddress::parse(absl::GetFlag(FLAGS_admin_listen));
  if (!admin.ok()) return invalid_flag("admin-listen", admin.status().message());
  c.admin_listen = *admin;
  c.admin_token = absl::GetFlag(FLAGS_admin_token);
  return absl::OkStatus();
}

// How the cores run: --cores, --pin, --seed, --max-cross-core-asks, --idle-poll.
absl::Status resolve_cores(ServiceConfig& c) {
  const int32_t cores = absl::GetFlag(FLAGS_cores);
  const size_t allowed = runtime::allowed_cpus().size();
  if (cores < 0 || cores > 1024) return invalid_flag("cores", "must be 0 (all) to 1024");
  c.cores = cores == 0 ? static_cast<uint32_t>(allowed == 0 ? 1 : allowed) : static_cast<uint32_t>(cores);
  c.pin = absl::GetFlag(FLAGS_pin);
  if (c.pin && c.cores > allowed) {
    return invalid_flag("pin", absl::StrCat(c.cores, " cores asked but only ", allowed, " CPUs allowed"));
  }

  const std::string seed = absl::GetFlag(FLAGS_seed);
  if (seed != "random") {
    uint64_t value = 0;
    if (!absl::SimpleAtoi(seed, &value)) return invalid_flag("seed", "must be 'random' or an unsigned integer");
    c.seed = value;
  }
  const int32_t asks = absl::GetFlag(FLAGS_max_cross_core_asks);
  if (asks < 0 || asks > 1'000'000) return invalid_flag("max-cross-core-asks", "must be 0 to 1000000");
  c.max_cross_core_asks = static_cast<uint32_t>(asks);
  c.idle_poll = absl::GetFlag(FLAGS_idle_poll);
  if (c.idle_poll < absl::ZeroDuration() || c.idle_poll > absl::Milliseconds(10)) {
    return invalid_flag("idle-poll", "must be 0 to 10ms, such as 50us");
  }
  return absl::OkStatus();
}

// The files read at start: each must be readable now, not at first use.
absl::Status resolve_input_files(ServiceConfig& c) {
  c.catalog_path = absl::GetFlag(FLAGS_catalog);
  if (absl::StartsWith(c.catalog_path, "nats:")) {
    absl::StatusOr<nats_jetstream::ServerList> servers = nats_jetstream::parse_named_server_list(c.catalog_path);
    if (!servers.ok()) return invalid_flag("catalog", servers.status().message());
    c.catalog_nats = *std::move(servers);
    c.catalog_path.clear();
  } else if (!c.catalog_path.empty()) {
    if (absl::Status s = check_readable("catalog", c.catalog_path, false); !s.ok()) return s;
  }
  absl::StatusOr<nats_jetstream::Credentials> login = resolve_nats_login(
      {"catalog-user", "catalog-password-file", "catalog-creds", "catalog"},
      {c.catalog_nats.has_value(), absl::GetFlag(FLAGS_catalog_user), absl::GetFlag(FLAGS_catalog_password_file),
       absl::GetFlag(FLAGS_catalog_creds)});
  if (!login.ok()) return login.status();
  c.catalog_login = *std::move(login);
  c.geoip_db_path = absl::GetFlag(FLAGS_geoip_db);
  if (!c.geoip_db_path.empty()) {
    if (absl::Status s = check_readable("geoip-db", c.geoip_db_path, false); !s.ok()) return s;
  }
  c.geonames_dir = absl::GetFlag(FLAGS_geonames_dir);
  if (!c.geonames_dir.empty()) {
    if (absl::Status s = check_readable("geonames-dir", c.geonames_dir, true); !s.ok()) return s;
  }
  c.versions_path = absl::GetFlag(FLAGS_versions);
  if (!c.versions_path.empty()) {
    if (absl::Status s = check_readable("versions", c.versions_path, false); !s.ok()) return s;
  }
  c.state_dir = absl::GetFlag(FLAGS_state_dir);
  if (c.state_dir.empty()) return invalid_flag("state-dir", "must not be empty");
  return absl::OkStatus();
}

// What tracking URLs and tokens carry: --base-url, --tracking-ttl, --vast-tag-ttl.
absl::Status resolve_tracking(ServiceConfig& c) {
  c.base_url = absl::GetFlag(FLAGS_base_url);
  c.base_url_default = c.base_url == absl::GetFlagReflectionHandle(FLAGS_base_url).DefaultValue();
  if (!absl::StartsWith(c.base_url, "http://") && !absl::StartsWith(c.base_url, "https://")) {
    return invalid_flag("base-url", "must start with http:// or https://");
  }
  while (absl::EndsWith(c.base_url, "/")) c.base_url.pop_back();

  c.tracking_ttl = absl::GetFlag(FLAGS_tracking_ttl);
  if (absl::Status s = check_whole_seconds("tracking-ttl", c.tracking_ttl); !s.ok()) return s;
  c.vast_tag_ttl = absl::GetFlag(FLAGS_vast_tag_ttl);
  if (absl::Status s = check_whole_seconds("vast-tag-ttl", c.vast_tag_ttl); !s.ok()) return s;
  return absl::OkStatus();
}

// Both listeners' HTTP bounds; the admin plane's differ where its requests do.
absl::Status resolve_http_limits(ServiceConfig& c) {
  http::HttpLimits limits;
  const int64_t max_body = absl::GetFlag(FLAGS_max_body_bytes);
  if (max_body < 0 || max_body > (int64_t{1} << 30)) return invalid_flag("max-body-bytes", "must be 0 to 1 GiB");
  limits.max_body_bytes = static_cast<size_t>(max_body);
  const absl::Duration request_timeout = absl::GetFlag(FLAGS_request_timeout);
  if (absl::Status s = check_positive("request-timeout", request_timeout); !s.ok()) return s;
  limits.request_timeout_ms = absl::ToInt64Milliseconds(request_timeout);
  const absl::Duration idle_timeout = absl::GetFlag(FLAGS_idle_timeout);
  if (absl::Status s = check_positive("idle-timeout", idle_timeout); !s.ok()) return s;
  limits.idle_timeout_ms = absl::ToInt64Milliseconds(idle_timeout);
  const int32_t max_connections = absl::GetFlag(FLAGS_max_connections_per_core);
  if (max_connections < 1 || max_connections > 1'000'000) {
    return invalid_flag("max-connections-per-core", "must be 1 to 1000000");
  }
  limits.max_connections = static_cast<uint32_t>(max_connections);
  const absl::Duration shed_lag = absl::GetFlag(FLAGS_shed_lag);
  if (shed_lag < absl::ZeroDuration()) return invalid_flag("shed-lag", "must be 0 or a positive duration such as 20ms");
  c.public_limits = limits;
  c.public_limits.shed_lag_ns = absl::ToInt64Nanoseconds(shed_lag);
  // The admin plane serves operators and scrapers: a few connections, same timeouts.
  c.admin_limits = limits;
  c.admin_limits.max_connections = 256;
  const std::optional<uint64_t> catalog_bytes = parse_bytes(absl::GetFlag(FLAGS_max_catalog_bytes));
  if (!catalog_bytes || *catalog_bytes < 1024 || *catalog_bytes > decision::catalog::kMaxCatalogBytes) {
    return invalid_flag("max-catalog-bytes", "must be a size from 1KiB to 256MiB, such as 256MiB");
  }
  // Catalog uploads are the admin plane's large bodies (a 100,000-ad catalog is about
  // 115 MB); explain requests are decision requests.
  c.admin_limits.max_body_bytes = static_cast<size_t>(*catalog_bytes);
  c.admin_limits.note_peers = true;  // loopback-only without --admin-token
  c.drain_timeout = absl::GetFlag(FLAGS_drain_timeout);
  if (absl::Status s = check_positive("drain-timeout", c.drain_timeout); !s.ok()) return s;
  return absl::OkStatus();
}

// The event log, snapshots and the access log sample.
absl::Status resolve_event_log(ServiceConfig& c) {
  c.events_flush = absl::GetFlag(FLAGS_events_flush);
  if (absl::Status s = check_positive("events-flush", c.events_flush); !s.ok()) return s;
  const std::optional<uint64_t> file_bytes = parse_bytes(absl::GetFlag(FLAGS_events_file_bytes));
  // A file must hold at least a few lines; a line is at most a few KiB.
  if (!file_bytes || *file_bytes < (64u << 10)) {
    return invalid_flag("events-file-bytes", "must be a size of at least 64KiB, such as 256MiB");
  }
  c.events_file_bytes = *file_bytes;
  c.events_to_nowhere = absl::GetFlag(FLAGS_benchmark_events_to_nowhere);
  c.snapshot_interval = absl::GetFlag(FLAGS_snapshot_interval);
  if (absl::Status s = check_positive("snapshot-interval", c.snapshot_interval); !s.ok()) return s;
  c.min_impression_delay = absl::GetFlag(FLAGS_min_impression_delay);
  if (c.min_impression_delay < absl::ZeroDuration() || c.min_impression_delay > absl::Hours(1)) {
    return invalid_flag("min-impression-delay", "must be a duration from 0 (off) to 1h, such as 1s");
  }
  c.pacing_interval = absl::GetFlag(FLAGS_pacing_interval);
  if (c.pacing_interval < absl::Seconds(1) || c.pacing_interval > absl::Hours(1) ||
      c.pacing_interval != absl::Seconds(absl::ToInt64Seconds(c.pacing_interval))) {
    return invalid_flag("pacing-interval", "must be whole seconds from 1s to 1h, such as 60s");
  }
  c.access_log_sample = absl::GetFlag(FLAGS_access_log_sample);
  if (!(c.access_log_sample >= 0 && c.access_log_sample <= 1)) {
    return invalid_flag("access-log-sample", "must be a fraction from 0 (off) to 1 (every request), such as 0.01");
  }
  return absl::OkStatus();
}

absl::Status resolve_log_level(ServiceConfig& c) {
  const std::optional<runtime::log::Level> level = runtime::log::parse_level(absl::GetFlag(FLAGS_log_level));
  if (!level) return invalid_flag("log-level", "must be error, warn, info or debug");
  c.log_level = *level;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ServiceConfig> resolve_config() {
  ServiceConfig c;
  for (absl::Status (*resolve)(ServiceConfig&) : {resolve_listeners, resolve_cores, resolve_input_files,
                                                  resolve_tracking, resolve_http_limits, resolve_event_log,
                                                  resolve_log_level}) {
    if (absl::Status s = resolve(c); !s.ok()) return s;
  }
  if (absl::Status s = resolve_cluster_flags(c.cluster); !s.ok()) return s;
  if (absl::Status s = resolve_events_sink_flags(c.cluster.node_id, c.events_sink); !s.ok()) return s;
  if (absl::Status s = resolve_tls_flags(c.tls); !s.ok()) return s;
  if (absl::Status s = resolve_compression_flags(c.public_limits, c.admin_limits); !s.ok()) return s;
  if (absl::Status s = resolve_client_address_flags(c.public_limits); !s.ok()) return s;
  if (!c.listen_plain && !c.tls.on()) return invalid_flag("listen", "none needs --tls-listen: no public listener left");
  return c;
}

}  // namespace service
