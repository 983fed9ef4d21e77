// decisiond: flags, catalog, listeners, one reactor per core, signals. Exit status: 0
// after a clean shutdown, 2 for a bad flag or a refused catalog, 1 when the server cannot
// start.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "decision/selection/core_random.h"
#include "runtime/clock.h"
#include "runtime/core_group.h"
#include "runtime/open_files_limit.h"
#include "runtime/signals.h"
#include "runtime/socket_address.h"
#include "service/build_info.h"
#include "service/catalog_updates/catalog_build.h"
#include "service/catalog_updates/update_loop.h"
#include "service/core_services.h"
#include "service/flag_loader.h"
#include "service/flags.h"
#include "service/process_view.h"
#include "tracking/state/recovery.h"
#include "tracking/state/snapshot_format.h"
#include "tracking/state/snapshot_writer.h"

extern char** environ;

namespace {

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
    std::fprintf(stderr, "decisiond: open files limit: cannot raise the soft limit %llu to the hard limit %llu: %s\n",
                 static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(got.hard),
                 std::strerror(got.error));
  } else if (got.soft != got.soft_before) {
    std::fprintf(stderr, "decisiond: open files limit %llu (soft limit raised from %llu to the hard limit)\n",
                 static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(got.soft_before));
  } else {
    std::fprintf(stderr, "decisiond: open files limit %llu\n", static_cast<unsigned long long>(got.soft));
  }
  // Connections on both listeners, plus listeners, event logs, snapshots and rings: a few
  // dozen per core is ample for the rest.
  const uint64_t wanted = uint64_t{config.cores} *
                          (uint64_t{config.public_limits.max_connections} + config.admin_limits.max_connections + 64);
  if (got.soft < wanted) {
    std::fprintf(stderr,
                 "decisiond: warning: open files limit %llu is below the %llu descriptors %u core(s) at "
                 "--max-connections-per-core=%u may need; accepts past it fail until descriptors are freed "
                 "(raise the hard limit: LimitNOFILE= in systemd, ulimit -Hn)\n",
                 static_cast<unsigned long long>(got.soft), static_cast<unsigned long long>(wanted), config.cores,
                 config.public_limits.max_connections);
  }
}

int serve(const service::ServiceConfig& config) {
  raise_open_files_limit(config);
  decision::endpoint::PlacementLabels placement_labels;
  service::BuiltCatalog catalog = service::build_catalog_from_file(config.catalog_path, placement_labels);
  if (!catalog.ok()) {
    std::fprintf(stderr, "decisiond: catalog %s refused with %zu error(s):\n", catalog.source.c_str(),
                 catalog.errors.size());
    for (const decision::catalog::CatalogError& error : catalog.errors) {
      std::fprintf(stderr, "  %s\n", error.to_string().c_str());
    }
    return 2;
  }
  absl::StatusOr<api_versions::VersionTable> versions =
      config.versions_path.empty() ? api_versions::VersionTable::built_in()
                                   : api_versions::VersionTable::load_file(config.versions_path);
  if (!versions.ok()) {
    std::fprintf(stderr, "decisiond: --versions %s refused:\n%s\n", config.versions_path.c_str(),
                 std::string(versions.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<tracking::KeyRing> keys = tracking::KeyRing::load_or_create(config.state_dir);
  if (!keys.ok()) {
    std::fprintf(stderr, "decisiond: tracking keys: %s\n", std::string(keys.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<decision::geo::GeoIpDatabase> geoip;
  if (!config.geoip_db_path.empty()) {
    absl::StatusOr<decision::geo::GeoIpDatabase> opened = decision::geo::GeoIpDatabase::open(config.geoip_db_path);
    if (!opened.ok()) {
      std::fprintf(stderr, "decisiond: --geoip-db refused: %s\n", std::string(opened.status().message()).c_str());
      return 2;
    }
    geoip = std::make_unique<decision::geo::GeoIpDatabase>(*std::move(opened));
  }
  std::optional<decision::geo::GeoNamesHierarchy> geonames;
  if (!config.geonames_dir.empty()) {
    absl::StatusOr<decision::geo::GeoNamesHierarchy> loaded =
        decision::geo::GeoNamesHierarchy::load_dir(config.geonames_dir);
    if (!loaded.ok()) {
      std::fprintf(stderr, "decisiond: --geonames-dir refused: %s\n", std::string(loaded.status().message()).c_str());
      return 2;
    }
    geonames.emplace(*std::move(loaded));
  }
  runtime::SocketAddress public_bound;
  runtime::SocketAddress admin_bound;
  auto public_fds = open_listeners(config.listen, config.cores, public_bound);
  if (!public_fds.ok()) {
    std::fprintf(stderr, "decisiond: cannot listen on --listen: %s\n", std::string(public_fds.status().message()).c_str());
    return 1;
  }
  auto admin_fds = open_listeners(config.admin_listen, config.cores, admin_bound);
  if (!admin_fds.ok()) {
    std::fprintf(stderr, "decisiond: cannot listen on --admin-listen: %s\n",
                 std::string(admin_fds.status().message()).c_str());
    return 1;
  }

  const runtime::Clock& clock = runtime::SystemClock::instance();
  service::ProcessView view(config, *versions, *keys);
  view.started_wall_s = clock.wall_s();
  view.started_wall_ns = clock.wall_ns();
  view.geo.geoip = geoip.get();
  view.geo.hierarchy = geonames ? &*geonames : nullptr;
  view.seed = config.seed ? *config.seed : decision::selection::CoreRandom::seed_from_os();
  view.catalog = catalog.served;
  view.catalog_source = catalog.source;
  view.placement_labels = &placement_labels;
  view.updates.catalog_loaded_wall_s.store(clock.wall_s());
  view.updates.catalog_load_ms.store(catalog.duration_ms);
  view.updates.catalogs_published.store(1);
  if (geoip) view.updates.geoip_loaded_wall_s.store(clock.wall_s());

  // Frequency caps and exactly-once impressions survive restarts: each core's partition is
  // rebuilt from its snapshot and the impressions logged after it (docs/events.md).
  std::shared_ptr<const decision::endpoint::ServedCatalog> served_at_start = view.catalog;
  tracking::state::Recovered recovered = tracking::state::recover_state(
      config.state_dir, config.cores, clock.wall_s(), [&served_at_start](uint64_t ad_id) -> std::span<const caps::CapRule> {
        const decision::catalog::Ad* ad = served_at_start->snapshot->find_ad(ad_id);
        return ad == nullptr ? std::span<const caps::CapRule>() : std::span<const caps::CapRule>(ad->frequency_caps);
      });
  const tracking::state::RecoveryReport& report = recovered.report;
  std::fprintf(stderr,
               "decisiond: state recovered in %lld ms: %u snapshot(s), %llu impression(s) replayed from %llu line(s) "
               "in %llu file(s), %llu torn line(s) skipped\n",
               static_cast<long long>(report.duration_ms), report.snapshots_loaded,
               static_cast<unsigned long long>(report.impressions_replayed),
               static_cast<unsigned long long>(report.lines_read), static_cast<unsigned long long>(report.files_read),
               static_cast<unsigned long long>(report.torn_lines));
  for (const std::string& note : report.notes) std::fprintf(stderr, "decisiond: %s\n", note.c_str());
  if (recovered.snapshots_stale) {
    // --cores changed: the snapshots no longer say which core owns what. Fresh ones first,
    // then the old ones of cores that are gone.
    for (uint32_t core = 0; core < config.cores; ++core) {
      if (absl::Status s = tracking::state::write_snapshot_now(config.state_dir, core, config.cores,
                                                              recovered.cores[core], clock.wall_s());
          !s.ok()) {
        std::fprintf(stderr, "decisiond: cannot write snapshot: %s\n", std::string(s.message()).c_str());
        return 1;
      }
    }
    for (uint32_t core = config.cores; ::access(tracking::state::snapshot_path(config.state_dir, core).c_str(), F_OK) == 0;
         ++core) {
      ::unlink(tracking::state::snapshot_path(config.state_dir, core).c_str());
    }
  }
  view.recovered = &recovered.cores;
  std::vector<std::unique_ptr<service::CoreServices>> owned(config.cores);

  runtime::CoreGroupConfig group_config;
  group_config.cores = config.cores;
  group_config.pin = config.pin;
  group_config.reactor.idle_poll_ns = absl::ToInt64Nanoseconds(config.idle_poll);
  group_config.reactor.max_sockets = config.public_limits.max_connections + config.admin_limits.max_connections +
                                     2 * http::Server::kRefusalSlots + 16;
  runtime::CoreGroup group(group_config, clock);
  absl::Status started = group.start(
      [&](runtime::Reactor& reactor) {
        const uint32_t index = reactor.index();
        auto core = std::make_unique<service::CoreServices>(reactor, view, std::move((*view.recovered)[index]));
        if (absl::Status s = core->start(); !s.ok()) return s;
        core->listen((*public_fds)[index], (*admin_fds)[index]);
        view.cores[index] = core.get();
        if (reactor.index() == 0) view.io_uring_mode = std::string(reactor.setup_mode());
        owned[reactor.index()] = std::move(core);
        return absl::OkStatus();
      },
      [&](runtime::Reactor& reactor) { owned[reactor.index()].reset(); });
  if (!started.ok()) {
    std::fprintf(stderr, "decisiond: cannot start: %s\n", std::string(started.message()).c_str());
    return 1;
  }
  std::fprintf(stderr, "decisiond: serving public=%s admin=%s cores=%u io_uring=%s catalog=%s\n",
               public_bound.to_string().c_str(), admin_bound.to_string().c_str(), config.cores,
               view.io_uring_mode.c_str(), view.catalog->snapshot->revision().data());

  // From here on each core holds its own reference to the catalog; only the update loop
  // keeps one besides, so that an update can free the old catalog on this thread.
  service::UpdateLoop updates(config, group, view, std::move(catalog.served), std::move(geoip));
  view.catalog.reset();
  served_at_start.reset();
  updates.run();
  std::fprintf(stderr, "decisiond: shutting down\n");
  runtime::Message stop;
  stop.pointer = &view;
  stop.run = [](runtime::Reactor& here, const runtime::Message& m) {
    static_cast<service::ProcessView*>(m.pointer)->cores[here.index()]->shut_down();
  };
  for (uint32_t core = 0; core < config.cores; ++core) group.post(core, stop);
  group.join();
  std::fprintf(stderr, "decisiond: stopped\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread exists, so every reactor inherits the mask.
  runtime::block_process_signals();
  service::FlagLoadResult loaded;
  if (absl::Status s = service::load_flags(argc, argv, environ, loaded); !s.ok()) {
    std::fprintf(stderr, "decisiond: %s\n", std::string(s.message()).c_str());
    return 2;
  }
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
    std::fprintf(stderr, "decisiond: %s\n", std::string(config.status().message()).c_str());
    return 2;
  }
  return serve(*config);
}
