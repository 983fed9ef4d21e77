#pragma once
// What the update loop (the main thread) tells the metrics page (any core) about catalog
// and GeoIP updates and key reloads. Single writer, so plain atomic stores and loads suffice: no
// read-modify-write anywhere.
#include <atomic>
#include <cstdint>

namespace service {

struct UpdateStats {
  std::atomic<int64_t> catalog_loaded_wall_s{0};    // when the catalog in force was published
  std::atomic<int64_t> catalog_load_ms{0};          // how long it took to build
  std::atomic<uint64_t> catalogs_published{0};      // since start, the first included
  // The NATS revision in force (--catalog=nats://..., docs/catalog-publication.md); 0 for a
  // file, the demo catalog, an upload, or while a node waits for its first revision.
  std::atomic<uint64_t> catalog_revision{0};
  std::atomic<uint64_t> catalogs_refused{0};
  std::atomic<int64_t> last_refusal_wall_s{0};      // 0: none since start
  std::atomic<uint64_t> last_refusal_errors{0};     // errors of the last refused catalog
  std::atomic<uint64_t> geoip_reloads{0};           // GeoIP databases published after start
  std::atomic<uint64_t> geoip_refusals{0};          // files that did not open (the old one stayed)
  std::atomic<int64_t> geoip_loaded_wall_s{0};      // 0: no --geoip-db
  // keys.json re-read on SIGHUP (tracking/core_keys/key_reload.h), by what became of it.
  std::atomic<uint64_t> keys_applied{0};
  std::atomic<uint64_t> keys_unchanged{0};
  std::atomic<uint64_t> keys_refused{0};            // the keys in force stayed
};

}  // namespace service
