#pragma once
// Every flag of docs/flags.md, HTTP limits included, as abseil flags, and the typed
// configuration they resolve to.
#include <cstdint>
#include <optional>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "http/limits.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/server_list.h"
#include "runtime/log/level.h"
#include "runtime/socket_address.h"
#include "service/cluster_flags.h"
#include "service/events_sink_flags.h"
#include "service/tls/tls_flags.h"

namespace service {

struct ServiceConfig {
  runtime::SocketAddress listen;
  bool listen_plain = true;  // false: --listen=none, plain HTTP off
  runtime::SocketAddress admin_listen;
  std::string admin_token;
  uint32_t cores = 1;
  bool pin = false;
  std::string catalog_path;      // empty: the demo catalog, or catalog_nats
  // --catalog=nats://host:port[,...]/<name>: the servers and the name published there
  // (docs/catalog-publication.md); catalog_path is then empty. catalog_login: from
  // --catalog-user and --catalog-password-file, or --catalog-creds.
  std::optional<nats_jetstream::ServerList> catalog_nats;
  nats_jetstream::Credentials catalog_login;
  std::string geoip_db_path;     // empty: none
  std::string geonames_dir;      // empty: none
  std::string state_dir;
  std::string base_url;
  bool base_url_default = true;  // --base-url left at its default (with TLS: https on the TLS port)
  absl::Duration tracking_ttl;
  absl::Duration vast_tag_ttl;
  std::string versions_path;     // empty: built-in table
  std::optional<uint64_t> seed;  // empty: random
  absl::Duration drain_timeout;
  absl::Duration events_flush;      // how often event log writes are synced
  uint64_t events_file_bytes = 0;   // size at which an event log file is rotated
  bool events_to_nowhere = false;   // benchmarks only: event lines formatted, never written
  absl::Duration snapshot_interval; // how often each core snapshots its caps and dedup state
  absl::Duration pacing_interval;   // the slice delivery goals are planned for (docs/pacing.md)
  absl::Duration min_impression_delay;  // sooner impressions are invalid traffic (too_fast); 0: off
  uint32_t max_cross_core_asks = 0; // per core: decisions and impressions handed over at once
  absl::Duration idle_poll;         // how long a core polls its mailbox after cross-core traffic
  double access_log_sample = 0;     // fraction of requests written to the access log; 0 = off
  runtime::log::Level log_level = runtime::log::Level::kInfo;  // lines below it are not written
  http::HttpLimits public_limits;
  http::HttpLimits admin_limits;
  ClusterSettings cluster;
  EventsSinkSettings events_sink;
  TlsListenSettings tls;
};

// Reads the flags (already loaded by load_flags) into a checked configuration; the error
// is one line naming the flag.
absl::StatusOr<ServiceConfig> resolve_config();

}  // namespace service
