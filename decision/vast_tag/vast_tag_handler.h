#pragma once
// GET /v1/vast on one core (docs/video.md): the document behind a signed VAST tag URL.
//   1. d, exp, kid and sig, each once: a missing, repeated or altered one, or a signature
//      that does not match (compared in constant time), is 403 10052;
//   2. authentic but past exp: 410 10053;
//   3. the ad, creative and placement the tag names, looked up in the catalog this core
//      serves now: gone (or no longer a video of that placement, or its flight over) is
//      the no-fill document with 200, as a player expects of an ad server with nothing to
//      show;
//   4. else 200 application/xml, the VAST 4.2 document, its tracking URLs sealed now for
//      the decision the tag came from (its request id and user), in the content language
//      that decision chose.
// No version header is read: players fetch tags as given, and the document is VAST 4.2
// whatever the version that minted the tag. Replies carry Cache-Control: no-store (every
// fetch seals fresh tokens); the route adds Access-Control-Allow-Origin: * (web players
// fetch VAST across origins; service/cross_origin.h). HEAD is served by the router as GET
// without the body.
#include <memory>
#include <string>

#include "decision/endpoint/served_catalog.h"
#include "decision/video/vast_document.h"
#include "http/router.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "tracking/core_keys/core_keys.h"

namespace decision::vast_tag {

struct VastTagSettings {
  std::string base_url;           // --base-url, no trailing slash
  int64_t tracking_ttl_s = 3600;  // --tracking-ttl: the document's tokens
};

// Per core, single writer; read by metrics scrapes.
struct VastTagCounters {
  runtime::CoreCounter documents;       // 200 with an ad
  runtime::CoreCounter no_fills;        // 200 without: the ad has left
  runtime::CoreCounter bad_signatures;  // 403 10052
  runtime::CoreCounter expired;         // 410 10053
  runtime::CoreCounter token_failures;  // 500: a tracking token could not be sealed
};

class VastTagHandler final : public http::Handler {
 public:
  // keys: the core's keys in force (they check the tag and seal the document); they outlive
  // the handler.
  VastTagHandler(const runtime::Clock& clock, tracking::CoreKeys& keys, const VastTagSettings& settings,
                 std::shared_ptr<const endpoint::ServedCatalog> catalog);

  void handle(const http::Request& request, http::Response& response) override;

  // The core's catalog: replaced on this core's thread only.
  void set_catalog(std::shared_ptr<const endpoint::ServedCatalog> catalog) { catalog_ = std::move(catalog); }
  const VastTagCounters& counters() const { return counters_; }

 private:
  const runtime::Clock& clock_;
  std::shared_ptr<const endpoint::ServedCatalog> catalog_;
  tracking::CoreKeys& keys_;
  video::VastDocumentWriter documents_;
  VastTagCounters counters_;
};

}  // namespace decision::vast_tag
