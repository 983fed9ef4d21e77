#pragma once
// The main thread's loop once the cores serve (docs/operations.md): it waits for
// signals and catalog uploads, and does the slow part of every update off the reactors.
//   SIGTERM, SIGINT  returns, so main can shut the cores down;
//   SIGHUP           re-reads --catalog, re-opens --geoip-db (operators refresh GeoLite2
//                    weekly) and re-reads <state-dir>/keys.json (docs/keys.md, "Reloading
//                    keys"); each that fails stays as it was, and says why on stderr and in
//                    metrics;
//   an upload        (POST /admin/catalog, upload_queue.h) is built and, if valid,
//                    published; its request is answered once every core serves it;
//   a NATS revision  (--catalog=nats://..., nats_catalog_source.h), fetched and checked by
//                    the source's thread: built and published the same way, and what
//                    became of it told to the source.
// One update at a time, in arrival order: racing updates are serialised and the newer
// wins. A publication reaches each core as a message (publication.h); no core ever sees a
// half-built catalog or key ring, and none is ever paused to build new codecs or free old
// ones.
#include <cstdint>
#include <memory>
#include <string>

#include "decision/endpoint/served_catalog.h"
#include "decision/geo/geoip_database.h"
#include "runtime/core_group.h"
#include "service/catalog_updates/catalog_build.h"
#include "service/catalog_updates/nats_catalog_source.h"
#include "service/catalog_updates/publication.h"
#include "service/catalog_updates/update_stats.h"
#include "service/catalog_updates/upload_queue.h"
#include "service/flags.h"
#include "tracking/core_keys/key_reload.h"
#include "tracking/tokens/key_ring.h"

namespace service {

struct ProcessView;

class UpdateLoop {
 public:
  // catalog: the one the cores started with; geoip: the open --geoip-db (null without),
  // which the cores already read through view.geo; keys: the ring the cores started with;
  // nats: the source of --catalog=nats://... (null for a file).
  UpdateLoop(const ServiceConfig& config, runtime::CoreGroup& group, ProcessView& view,
             std::shared_ptr<const decision::endpoint::ServedCatalog> catalog,
             std::unique_ptr<decision::geo::GeoIpDatabase> geoip, tracking::KeyRing keys, NatsCatalogSource* nats);
  ~UpdateLoop();
  UpdateLoop(const UpdateLoop&) = delete;
  UpdateLoop& operator=(const UpdateLoop&) = delete;

  // Until SIGTERM or SIGINT.
  void run();

 private:
  void reload_from_files();
  void handle_upload(CatalogUpload* upload);
  void handle_revision(std::unique_ptr<FetchedRevision> fetched);
  // Publishes to every core and returns once each has adopted it.
  void publish(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog,
               std::unique_ptr<decision::geo::GeoIpDatabase> geoip, bool geoip_changed);
  // SIGHUP's part for keys.json (tracking/core_keys/key_reload.h).
  void reload_keys();
  // SIGHUP's part for the TLS certificates and keys (docs/tls.md "Reloading").
  void reload_tls();
  // Builds every core's codecs of ring here and publishes them; the previous ones are
  // freed here once every core has switched.
  void publish_keys(const tracking::KeyRing& ring);
  // Posts the publication to every core and waits until each has adopted it.
  void deliver(Publication& publication);
  void refused(const BuiltCatalog& built);
  // Hands an upload back to the core that holds its request.
  void answer(CatalogUpload* upload);

  const ServiceConfig& config_;
  runtime::CoreGroup& group_;
  ProcessView& view_;
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog_;  // in force on every core
  std::unique_ptr<decision::geo::GeoIpDatabase> geoip_;               // in force on every core
  tracking::KeyRing keys_;  // in force on every core (each holds codecs derived from it)
  NatsCatalogSource* const nats_;
  int done_fd_ = -1;  // written by the last core to adopt a publication
};

}  // namespace service
