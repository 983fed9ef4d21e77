// decisiond: flags, catalog, listeners, one reactor per core, signals. Exit status: 0
// after a clean shutdown, 2 for a bad flag or a refused catalog, 1 when the server cannot
// start.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "api_versions/schedule_minimums.h"
#include "decision/selection/core_random.h"
#include "runtime/clock.h"
#include "invalid_traffic/robot_matcher.h"
#include "runtime/core_group.h"
#include "runtime/cpu_affinity.h"
#include "runtime/cpu_plan.h"
#include "runtime/log/core_lines.h"
#include "runtime/log/logger.h"
#include "runtime/log/repeat_limit.h"
#include "runtime/log/writer_thread.h"
#include "runtime/open_files_limit.h"
#include "runtime/signals.h"
#include "runtime/socket_address.h"
#include "service/build_info.h"
#include "service/catalog_updates/catalog_build.h"
#include "service/catalog_updates/update_loop.h"
#include "service/tls/core_tls_contexts.h"
#include "tls/server_context.h"
#include "service/core_services.h"
#include "service/events_sink.h"
#include "service/flag_loader.h"
#include "service/flags.h"
#include "service/process_view.h"
#include "tracking/state/recovery.h"
#include "tracking/state/snapshot_format.h"
#include "tracking/state/snapshot_writer.h"

extern char** environ;

namespace {

constexpr runtime::log::Logger kLog("main");
constexpr runtime::log::Logger kCatalogLog("catalog");
constexpr runtime::log::Logger kGeoLog("geo");
constexpr runtime::log::Logger kVersionsLog("versions");
constexpr runtime::log::Logger kKeysLog("keys");
constexpr runtime::log::Logger kStateLog("state");
constexpr runtime::log::Logger kTlsLog("tls");

// One SO_REUSEPORT socket per core. Port 0 binds the first and reuses its port for the
// rest, so tests can ask for any free port.
absl::StatusOr<std::vector<int>> open_listeners(runtime::SocketAddress address, uint32_t cores,
                                                runtime::SocketAddress& bound) {
  if (address.port() != 0) {
    if (absl::Status free = runtime::check_port_unclaimed(address); !free.ok()) return free;
  }
  std::vector<int> fds;
  for (uint32_t i = 0; i < cores; ++i) {
    absl::StatusOr<int> fd = runtime::open_listener(address);
    if (!fd.ok()) {
      for (int f : fds) ::close(f);
      return fd.status();
    }
    fds.push_back(*fd);
    if (i == 0) {
      absl::StatusOr<runtime::SocketAddress> actual = runtime::bound_address(*fd);
      if (!actual.ok()) return actual.status();
      address = *actual;
      bound = *actual;
    }
  }
  return fds;
}

// Every connection is a descriptor: the soft limit goes up to the hard one, and an
// operator is told once what the process got, and when it is below what the cores may hold.
void raise_open_files_limit(const service::ServiceConfig& config) {
  const runtime::OpenFilesLimit got = runtime::raise_open_files_limit();
  if (got.error != 0) {
    kLog.warn("open files limit: cannot raise the soft limit %llu to the hard limit %llu: %s",
              static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(got.hard),
              std::strerror(got.error));
  } else if (got.soft != got.soft_before) {
    kLog.info("open files limit %llu (soft limit raised from %llu to the hard limit)",
              static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(got.soft_before));
  } else {
    kLog.info("open files limit %llu", static_cast<unsigned long long>(got.soft));
  }
  // Connections on both listeners, plus listeners, event logs, snapshots and rings: a few
  // dozen per core is ample for the rest.
  const uint64_t wanted = uint64_t{config.cores} *
                          (uint64_t{config.public_limits.max_connections} + config.admin_limits.max_connections + 64);
  if (got.soft < wanted) {
    kLog.warn("open files limit %llu is below the %llu descriptors %u core(s) at --max-connections-per-core=%u may "
              "need; accepts past it fail until descriptors are freed (raise the hard limit: LimitNOFILE= in systemd, "
              "ulimit -Hn)",
              static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(wanted), config.cores,
              config.public_limits.max_connections);
  }
}

// What the server reads before it listens.
struct Inputs {
  decision::endpoint::PlacementLabels placement_labels;
  service::BuiltCatalog catalog;
  // --catalog=nats://...: the source, and the revision the node starts with (0: none yet).
  std::unique_ptr<service::NatsCatalogSource> nats_catalog;
  uint64_t first_revision = 0;
  bool first_revision_refused = false;
  std::optional<api_versions::VersionTable> versions;
  std::optional<tracking::KeyRing> keys;
  std::unique_ptr<decision::geo::GeoIpDatabase> geoip;
  std::optional<decision::geo::GeoNamesHierarchy> geonames;
};

// The GeoIP database and the GeoNames hierarchy, each when its flag names one. 0, or the
// exit status: 2 when one is refused.
int load_geo(const service::ServiceConfig& config, Inputs& inputs) {
  if (!config.geoip_db_path.empty()) {
    absl::StatusOr<decision::geo::GeoIpDatabase> opened = decision::geo::GeoIpDatabase::open(config.geoip_db_path);
    if (!opened.ok()) {
      kGeoLog.error("--geoip-db refused: %s", std::string(opened.status().message()).c_str());
      return 2;
    }
    inputs.geoip = std::make_unique<decision::geo::GeoIpDatabase>(*std::move(opened));
  }
  if (!config.geonames_dir.empty()) {
    absl::StatusOr<decision::geo::GeoNamesHierarchy> loaded =
        decision::geo::GeoNamesHierarchy::load_dir(config.geonames_dir);
    if (!loaded.ok()) {
      kGeoLog.error("--geonames-dir refused: %s", std::string(loaded.status().message()).c_str());
      return 2;
    }
    inputs.geonames.emplace(*std::move(loaded));
  }
  return 0;
}

// One line, every error in it (service::listed_errors).
void print_refusal(runtime::log::Level level, const service::BuiltCatalog& built, const char* after) {
  kCatalogLog.say(level, "catalog %s refused with %zu error(s)%s:%s", built.source.c_str(), built.errors.size(), after,
                  service::listed_errors(built).c_str());
}

// --catalog=nats://...: the latest revision when it is fetched within kFirstRevisionWait;
// else (servers away, nothing published, a revision this node refuses) an empty catalog,
// the node unready until the source hands the update loop a revision that builds. Never an
// exit for what NATS holds: the node cannot mend it by starting again.
void load_nats_catalog(const service::ServiceConfig& config, Inputs& inputs) {
  service::NatsCatalogSource& source = *inputs.nats_catalog;
  if (std::unique_ptr<service::FetchedRevision> first = source.wait_first(service::kFirstRevisionWait)) {
    inputs.catalog = service::build_catalog_from_text(
        first->bytes, absl::StrCat(source.describe(), " revision ", first->record.revision), inputs.placement_labels);
    if (inputs.catalog.ok()) {
      const decision::catalog::CatalogSnapshot& snapshot = *inputs.catalog.served->snapshot;
      source.served(first->record, std::string(snapshot.revision()), snapshot.ads().size(),
                    runtime::SystemClock::instance().wall_ns() / 1'000'000);
      inputs.first_revision = first->record.revision;
      return;
    }
    print_refusal(runtime::log::Level::kWarn, inputs.catalog, ", waiting for another revision");
    source.failed(first->record, service::refusal_summary(inputs.catalog));
    inputs.first_revision_refused = true;
  }
  inputs.catalog =
      service::build_empty_catalog(absl::StrCat("empty (waiting for ", source.describe(), ")"), inputs.placement_labels);
  kCatalogLog.warn("catalog %s: no revision yet (%s): serving an empty catalog, unready, until one is built",
                   source.describe().c_str(), service::wait_text(source.wait()));
}

// The catalog, the version table, the tracking keys and the geo data. 0, or the exit
// status: 2 for a refused file or NATS settings, 1 when the keys can be neither read nor made.
int load_inputs(const service::ServiceConfig& config, Inputs& inputs) {
  if (config.catalog_nats) {
    absl::StatusOr<std::unique_ptr<service::NatsCatalogSource>> source =
        service::NatsCatalogSource::start({*config.catalog_nats, config.catalog_login, config.cluster.node_id});
    if (!source.ok()) {
      kCatalogLog.error("invalid --catalog: %s", std::string(source.status().message()).c_str());
      return 2;
    }
    inputs.nats_catalog = *std::move(source);
    load_nats_catalog(config, inputs);
  } else {
    inputs.catalog = service::build_catalog_from_file(config.catalog_path, inputs.placement_labels);
    if (!inputs.catalog.ok()) {
      print_refusal(runtime::log::Level::kError, inputs.catalog, "");
      return 2;
    }
  }
  absl::StatusOr<api_versions::VersionTable> versions =
      config.versions_path.empty() ? api_versions::VersionTable::built_in()
                                   : api_versions::VersionTable::load_file(config.versions_path);
  if (!versions.ok()) {
    kVersionsLog.error("--versions %s refused:\n%s", config.versions_path.c_str(),
                       std::string(versions.status().message()).c_str());
    return 2;
  }
  for (const std::string& shortfall : api_versions::schedule_shortfalls(*versions)) {
    kVersionsLog.warn("--versions: %s", shortfall.c_str());
  }
  inputs.versions.emplace(*std::move(versions));
  absl::StatusOr<tracking::KeyRing> keys = tracking::KeyRing::load_or_create(config.state_dir);
  if (!keys.ok()) {
    kKeysLog.error("tracking keys: %s", std::string(keys.status().message()).c_str());
    return 1;
  }
  inputs.keys.emplace(*std::move(keys));
  return load_geo(config, inputs);
}

struct Listeners {
  std::vector<int> public_fds;  // one per core; empty with --listen=none
  std::vector<int> admin_fds;
  std::vector<int> tls_fds;     // one per core; empty without --tls-listen
  runtime::SocketAddress public_bound;
  runtime::SocketAddress admin_bound;
  runtime::SocketAddress tls_bound;
};

// Every listener, one socket per core each; false (and said why) when one cannot be had.
bool open_all_listeners(const service::ServiceConfig& config, Listeners& listeners) {
  absl::StatusOr<std::vector<int>> public_fds = std::vector<int>();
  if (config.listen_plain) public_fds = open_listeners(config.listen, config.cores, listeners.public_bound);
  if (!public_fds.ok()) {
    kLog.error("cannot listen on --listen: %s", std::string(public_fds.status().message()).c_str());
    return false;
  }
  if (config.tls.on()) {
    absl::StatusOr<std::vector<int>> tls_fds = open_listeners(*config.tls.listen, config.cores, listeners.tls_bound);
    if (!tls_fds.ok()) {
      kLog.error("cannot listen on --tls-listen: %s", std::string(tls_fds.status().message()).c_str());
      return false;
    }
    listeners.tls_fds = *std::move(tls_fds);
  }
  absl::StatusOr<std::vector<int>> admin_fds = open_listeners(config.admin_listen, config.cores, listeners.admin_bound);
  if (!admin_fds.ok()) {
    kLog.error("cannot listen on --admin-listen: %s", std::string(admin_fds.status().message()).c_str());
    return false;
  }
  listeners.public_fds = *std::move(public_fds);
  listeners.admin_fds = *std::move(admin_fds);
  return true;
}

// What every core reads of the process: the inputs, the start time, the first catalog.
void fill_view(service::ProcessView& view, const service::ServiceConfig& config, const runtime::Clock& clock,
               Inputs& inputs) {
  view.started_wall_s = clock.wall_s();
  view.started_wall_ns = clock.wall_ns();
  view.geo.geoip = inputs.geoip.get();
  view.geo.hierarchy = inputs.geonames ? &*inputs.geonames : nullptr;
  view.seed = config.seed ? *config.seed : decision::selection::CoreRandom::seed_from_os();
  view.catalog = inputs.catalog.served;
  view.catalog_source = inputs.catalog.source;
  view.keys = &*inputs.keys;
  view.placement_labels = &inputs.placement_labels;
  view.updates.catalog_loaded_wall_s.store(clock.wall_s());
  view.updates.catalog_load_ms.store(inputs.catalog.duration_ms);
  view.updates.catalogs_published.store(1);
  view.nats_catalog = inputs.nats_catalog.get();
  view.updates.catalog_revision.store(inputs.first_revision);
  if (inputs.first_revision_refused) {
    view.updates.catalogs_refused.store(1);
    view.updates.last_refusal_wall_s.store(clock.wall_s());
    view.updates.last_refusal_errors.store(inputs.catalog.errors.size());
  }
  if (inputs.geoip) view.updates.geoip_loaded_wall_s.store(clock.wall_s());
}

void print_recovery_report(const tracking::state::RecoveryReport& report) {
  kStateLog.info("state recovered in %lld ms: %u snapshot(s), %llu impression(s) replayed from %llu line(s) in %llu "
                 "file(s), %llu torn line(s) skipped",
                 static_cast<long long>(report.duration_ms), report.snapshots_loaded,
                 static_cast<unsigned long long>(report.impressions_replayed),
                 static_cast<unsigned long long>(report.lines_read), static_cast<unsigned long long>(report.files_read),
                 static_cast<unsigned long long>(report.torn_lines));
  for (const std::string& note : report.notes) kStateLog.warn("%s", note.c_str());
}

// --cores changed: the snapshots no longer say which core owns what. Fresh ones first,
// then the old ones of cores that are gone. False (and said why) when one cannot be written.
bool rewrite_stale_snapshots(const service::ServiceConfig& config, const tracking::state::Recovered& recovered,
                             int64_t now_s) {
  for (uint32_t core = 0; core < config.cores; ++core) {
    if (absl::Status s =
            tracking::state::write_snapshot_now(config.state_dir, core, config.cores, recovered.cores[core], now_s);
        !s.ok()) {
      kStateLog.error("cannot write snapshot: %s", std::string(s.message()).c_str());
      return false;
    }
  }
  for (uint32_t core = config.cores; ::access(tracking::state::snapshot_path(config.state_dir, core).c_str(), F_OK) == 0;
       ++core) {
    ::unlink(tracking::state::snapshot_path(config.state_dir, core).c_str());
  }
  return true;
}

// Frequency caps and exactly-once impressions survive restarts: each core's partition is
// rebuilt from its snapshot and the impressions logged after it (docs/events.md "Snapshots
// and start-up"). False when the state cannot be put back in order.
bool recover(const service::ServiceConfig& config, const runtime::Clock& clock,
             const decision::endpoint::ServedCatalog& served, tracking::state::Recovered& recovered) {
  recovered = tracking::state::recover_state(
      config.state_dir, config.cores, clock.wall_s(), [&served](uint64_t ad_id) -> std::span<const caps::CapRule> {
        const decision::catalog::Ad* ad = served.snapshot->find_ad(ad_id);
        return ad == nullptr ? std::span<const caps::CapRule>() : std::span<const caps::CapRule>(ad->frequency_caps);
      });
  print_recovery_report(recovered.report);
  return !recovered.snapshots_stale || rewrite_stale_snapshots(config, recovered, clock.wall_s());
}

runtime::CoreGroupConfig core_group_config(const service::ServiceConfig& config, const runtime::CpuPlan& cpus) {
  runtime::CoreGroupConfig group_config;
  group_config.cores = config.cores;
  group_config.cpus = cpus.reactors;
  group_config.reactor.worker_cpus = cpus.others;
  group_config.reactor.idle_poll_ns = absl::ToInt64Nanoseconds(config.idle_poll);
  group_config.reactor.max_sockets = config.public_limits.max_connections + config.admin_limits.max_connections +
                                     2 * http::Server::kRefusalSlots + 16;
  return group_config;
}

// Starts every core with its services, listening on its own sockets.
absl::Status start_cores(runtime::CoreGroup& group, service::ProcessView& view, const Listeners& listeners,
                         std::vector<std::unique_ptr<service::CoreServices>>& owned) {
  return group.start(
      [&](runtime::Reactor& reactor) {
        const uint32_t index = reactor.index();
        auto core = std::make_unique<service::CoreServices>(reactor, view, std::move((*view.recovered)[index]));
        if (absl::Status s = core->start(); !s.ok()) return s;
        core->listen(listeners.public_fds.empty() ? -1 : listeners.public_fds[index], listeners.admin_fds[index],
                     listeners.tls_fds.empty() ? -1 : listeners.tls_fds[index]);
        view.cores[index] = core.get();
        if (reactor.index() == 0) view.io_uring_mode = std::string(reactor.setup_mode());
        owned[reactor.index()] = std::move(core);
        return absl::OkStatus();
      },
      [&](runtime::Reactor& reactor) { owned[reactor.index()].reset(); });
}

// Each core shuts its services down on its own thread; then the threads are joined.
void stop_cores(runtime::CoreGroup& group, service::ProcessView& view, uint32_t cores) {
  runtime::Message stop;
  stop.pointer = &view;
  stop.run = [](runtime::Reactor& here, const runtime::Message& m) {
    static_cast<service::ProcessView*>(m.pointer)->cores[here.index()]->shut_down();
  };
  for (uint32_t core = 0; core < cores; ++core) group.post_one_way(core, stop);
  group.join();
}

// With --pin, this thread (and so every thread it starts: the catalog builds, the update
// loop, the shipper, client libraries' threads) keeps off the reactors' CPUs when some
// allowed CPU is left for it (runtime/cpu_plan.h).
runtime::CpuPlan place_threads(const service::ServiceConfig& config) {
  runtime::CpuPlan cpus = runtime::plan_cpus(runtime::allowed_cpus(), config.cores, config.pin);
  if (cpus.others.empty()) {
    if (config.pin) {
      kLog.info("reactors pinned to CPUs %s; no CPU left: other threads share them",
                runtime::cpu_list(cpus.reactors).c_str());
    }
    return cpus;
  }
  if (absl::Status s = runtime::restrict_current_thread(cpus.others); !s.ok()) {
    kLog.warn("%s; other threads share the reactors' CPUs", std::string(s.message()).c_str());
    cpus.others.clear();
    return cpus;
  }
  kLog.info("reactors pinned to CPUs %s; other threads and io_uring workers on CPUs %s",
            runtime::cpu_list(cpus.reactors).c_str(), runtime::cpu_list(cpus.others).c_str());
  return cpus;
}

// By value: the issued URLs' default base follows the TLS listener's bound port.
int serve(service::ServiceConfig config) {
  const runtime::CpuPlan cpus = place_threads(config);
  // The robot matcher compiles its RE2 set here, once, rather than on a core's first request.
  invalid_traffic::RobotMatcher::instance();
  if (config.events_to_nowhere) {
    kLog.warn("--benchmark-events-to-nowhere: event lines are thrown away, nothing is logged, billed or replayed "
              "after a restart");
  }
  raise_open_files_limit(config);
  Inputs inputs;
  if (const int refused = load_inputs(config, inputs); refused != 0) return refused;
  // Each core's own OpenSSL contexts: a file that does not load stops the start naming it.
  std::vector<std::unique_ptr<tls::ServerContext>> tls_contexts;
  if (config.tls.any()) {
    auto loaded = service::load_core_tls_contexts(config.tls, config.state_dir, config.cores, /*first_start=*/true);
    if (!loaded.ok()) {
      kTlsLog.error("%s", std::string(loaded.status().message()).c_str());
      return 2;
    }
    tls_contexts = *std::move(loaded);
  }
  if (!config.admin_listen.is_loopback() && !config.tls.admin_tls) {
    kLog.warn("--admin-listen=%s is not a loopback address and --admin-tls is off: the admin bearer token crosses "
              "the network in clear",
              config.admin_listen.to_string().c_str());
  }
  Listeners listeners;
  if (!open_all_listeners(config, listeners)) return 1;
  if (config.tls.on() && config.base_url_default) {
    // Issued URLs point at the TLS listener (docs/tls.md), as a client on the open network reaches it.
    std::string where = listeners.tls_bound.to_string();
    if (absl::StartsWith(where, "0.0.0.0:")) where = "127.0.0.1:" + std::to_string(listeners.tls_bound.port());
    if (absl::StartsWith(where, "[::]:")) where = "[::1]:" + std::to_string(listeners.tls_bound.port());
    config.base_url = "https://" + where;
  }

  const runtime::Clock& clock = runtime::SystemClock::instance();
  service::ProcessView view(config, *inputs.versions);
  fill_view(view, config, clock, inputs);
  if (!tls_contexts.empty()) view.tls_certificates.set(tls_contexts.front()->certificates());
  view.tls_contexts = std::move(tls_contexts);
  tracking::state::Recovered recovered;
  if (!recover(config, clock, *inputs.catalog.served, recovered)) return 1;
  view.recovered = &recovered.cores;
  view.recovered_counted_by_ad = &recovered.counted_by_ad_on_node;

  // Made before the cores, which register its metrics; started once they have made their logs.
  std::unique_ptr<tracking::event_shipping::EventShipper> shipper = service::make_event_shipper(config);
  view.shipper = shipper.get();
  std::vector<std::unique_ptr<service::CoreServices>> owned(config.cores);
  runtime::CoreGroup group(core_group_config(config, cpus), clock);
  if (absl::Status started = start_cores(group, view, listeners, owned); !started.ok()) {
    kLog.error("cannot start: %s", std::string(started.message()).c_str());
    return 1;
  }
  if (shipper) shipper->start();
  kLog.info("serving public=%s admin=%s cores=%u io_uring=%s catalog=%s%s",
            config.listen_plain ? listeners.public_bound.to_string().c_str() : "none",
            listeners.admin_bound.to_string().c_str(), config.cores, view.io_uring_mode.c_str(),
            view.catalog->snapshot->revision().data(),
            config.tls.on() ? (" tls=" + listeners.tls_bound.to_string()).c_str() : "");

  // From here on each core holds its own reference to the catalog and its own codecs; only
  // the update loop keeps the catalog and the key ring besides, so that an update can free
  // the old ones on this thread.
  view.keys = nullptr;
  service::UpdateLoop updates(config, group, view, std::move(inputs.catalog.served), std::move(inputs.geoip),
                              *std::move(inputs.keys), inputs.nats_catalog.get());
  view.catalog.reset();
  updates.run();
  kLog.info("shutting down");
  if (inputs.nats_catalog) inputs.nats_catalog->stop();
  stop_cores(group, view, config.cores);
  // The cores have written and synced every line: a last effort ships them, bounded.
  if (shipper) shipper->stop(std::chrono::milliseconds(absl::ToInt64Milliseconds(config.drain_timeout)));
  kLog.info("stopped");
  return 0;
}

// The lines every level hides but debug: what bounds the log itself.
void say_log_bounds() {
  kLog.debug("log lines: level %s; a core queues at most %u (more are dropped and counted); lines alike past %u in "
             "%lld s are held back and summed up",
             std::string(runtime::log::level_name(runtime::log::level())).c_str(), runtime::log::kQueuedLinesPerCore,
             runtime::log::kLinesPerWindow, static_cast<long long>(runtime::log::kRepeatWindowMs / 1000));
}

// From the command line to the exit status; main() adds the log's last lines.
int run(int argc, char** argv) {
  constexpr runtime::log::Logger kFlagsLog("flags");
  service::FlagLoadResult loaded;
  if (absl::Status s = service::load_flags(argc, argv, environ, loaded); !s.ok()) {
    kFlagsLog.error("%s", std::string(s.message()).c_str());
    return 2;
  }
  // --version and --help are what a person asked for, on stdout: not log lines.
  if (loaded.version_requested) {
    std::fputs(service::version_text().c_str(), stdout);
    return 0;
  }
  if (loaded.help_requested) {
    std::fputs(service::flags_usage(argv[0]).c_str(), stdout);
    return 0;
  }
  absl::StatusOr<service::ServiceConfig> config = service::resolve_config();
  if (!config.ok()) {
    kFlagsLog.error("%s", std::string(config.status().message()).c_str());
    return 2;
  }
  runtime::log::set_level(config->log_level);
  say_log_bounds();
  return serve(*config);
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread exists, so every reactor inherits the mask.
  runtime::block_process_signals();
  const int status = run(argc, argv);
  // What the cores queued last, and the summary of every rate-limit window still open.
  runtime::log::finish_logging();
  return status;
}
