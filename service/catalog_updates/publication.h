#pragma once
// What the update loop publishes to every core: a new catalog, a new GeoIP database, both,
// or new keys. Each core adopts it between two requests (a message runs at a safe point of its
// loop), then counts itself off (a catalog once its delivery goals are allotted there:
// swap_allotment_wait.h); the last core to do so wakes the update loop, which only then
// answers the upload and lets the previous catalog and database go.
//
// A core never frees a catalog: the update loop keeps the previous one until every core has
// switched, so the last reference, and with it the freeing of a catalog of 100,000 ads,
// is dropped on the update loop's thread and never stalls a reactor. New keys likewise: the
// update loop builds every core's codecs, a core swaps its own in and leaves its previous
// ones in the same slot, and the update loop frees those.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "decision/endpoint/served_catalog.h"
#include "decision/geo/geoip_database.h"
#include "tls/server_context.h"
#include "tracking/core_keys/ring_codecs.h"

namespace service {

struct Publication {
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog;  // null: unchanged
  bool geoip_changed = false;
  const decision::geo::GeoIpDatabase* geoip = nullptr;  // when changed; null: none
  // New keys: one slot per core (empty: unchanged). Core i adopts codecs[i] and puts its
  // previous codecs there; no core touches another's slot.
  std::vector<std::unique_ptr<tracking::RingCodecs>> codecs;
  // Reloaded certificates: one slot per core (empty: unchanged). Core i takes tls_contexts[i];
  // the one it served before lives on with its open connections.
  std::vector<std::unique_ptr<tls::ServerContext>> tls_contexts;
  std::atomic<uint32_t> pending{0};  // cores yet to adopt it
  int done_fd = -1;                  // eventfd the last core writes
};

// Run by each core once it has adopted the publication.
void publication_adopted(Publication& publication);

}  // namespace service
