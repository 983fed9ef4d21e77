#pragma once
// POST /admin/explain on one core (docs/explain.md): a decision request in, exactly as a
// client sends it to POST /v1/decision (same body, same X-Decision-Version, Content-Type
// and Accept-Language, read by the same reader and version resolver, answered with the
// same errors), and out the decision it would get plus every candidate ad of each
// placement with the first rule that excluded it.
//
// Checks, in the decision's order: the body limit of the public listener (413 10003, which
// the public parser answers before any handler runs), the version (400 10042, 410 10043),
// the media type (415 10002), the body (400 10001, 422 with every error). Every reply past
// the version echoes it, with the deprecation headers a decision would carry.
//
// An explain reads frequency caps when the decision would, so it runs on the core that owns
// the user, handed over by message as a decision is. It writes neither cap state nor the
// event log, mints no tracking token, and draws from its own generator (explaining_walk.h):
// the decisions served meanwhile are exactly those served without it.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "caps/cap_store.h"
#include "caps/shared_cap_store.h"
#include "decision/capping/frequency_cap_rule.h"
#include "decision/endpoint/cap_read_wait.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/decision_intake.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explain_ask.h"
#include "decision/explain/explaining_walk.h"
#include "decision/explain/explanation.h"
#include "http/router.h"
#include "runtime/clock.h"
#include "runtime/core_channel.h"
#include "runtime/core_counter.h"
#include "runtime/cross_core_asks.h"

namespace decision::explain {

class ExplainHandler;

// What ties one core's explain handler to the others; the peers table is filled before any
// core serves and never changed.
struct ExplainLinks {
  runtime::CoreChannel* channel = nullptr;
  runtime::AskPeers<ExplainAsk>* peers = nullptr;  // every core's explain asks; null: one core
  const caps::CapReader* caps = nullptr;  // this core's partition, read only
  // Cluster mode: the store shared by every node, read from this core (no owner hop).
  caps::SharedCapStore* shared_caps = nullptr;
  const pacing::CorePacing* pacing = nullptr;  // this core's share of the delivery goals
};

// Per core, single writer; read by metrics scrapes.
struct ExplainCounters {
  runtime::CoreCounter explains;            // 200 replies
  runtime::CoreCounter rejected_versions;   // 400 10042 and 410 10043
  runtime::CoreCounter wrong_media_type;    // 415
  runtime::CoreCounter invalid_bodies;      // 400 10001 and 422
  runtime::CoreCounter bodies_too_large;    // 413: past the public listener's body limit
};

class ExplainHandler final : public http::Handler, public endpoint::CapReadWaiter {
 public:
  // Explains a core may have waiting on other cores at once, all peers together. Explains
  // are an operator's tool, not traffic: a handful is plenty.
  static constexpr uint32_t kMaxAsksInFlight = ExplainAsk::kPerPeer;

  // clock and versions must outlive the handler. settings: the decision handler's, read
  // here once (--seed, --geonames-dir and --geoip-db, the public body limit).
  ExplainHandler(const runtime::Clock& clock, uint32_t core_index, const api_versions::VersionTable& versions,
                 const endpoint::DecisionSettings& settings, std::shared_ptr<const endpoint::ServedCatalog> catalog,
                 const ExplainLinks& links);

  void handle(const http::Request& request, http::Response& response) override;

  // Replaced on this core's thread only, between requests.
  void set_catalog(std::shared_ptr<const endpoint::ServedCatalog> catalog) { catalog_ = std::move(catalog); }
  // Null: none. The decoded GeoIP records of the old database are forgotten.
  void set_geoip(const geo::GeoIpDatabase* geoip) { walk_.set_geoip(geoip); }

  const ExplainCounters& counters() const { return counters_; }
  const request::RequestReaderCounters& reader_counters() const { return intake_.reader_counters(); }
  const runtime::AskCounters& ask_counters() const { return asks_.counters(); }
  uint32_t asks_in_flight() const { return asks_.in_flight(); }

  // The two ends of an explain asked of another core (runtime/cross_core_asks.h): on the
  // owner core, explain; back home, reply to the waiting connection.
  void serve_ask(ExplainAsk& ask, uint32_t from_core);
  bool finish_ask(ExplainAsk& ask) { return ask.complete(); }
  // Cluster mode: the user's cap state came back (null: not in time); explain and reply.
  void finish_cap_read(endpoint::CapReadWait& wait, const caps::CapReader* state) override;

 private:
  // forwarded_from: the core that received the request and found this one owns the user.
  void serve(const http::Request& request, http::Response& response, std::optional<uint32_t> forwarded_from);
  void explain(const http::Request& request, int64_t now_s, http::Response& response,
               std::optional<uint32_t> forwarded_from);
  // Asks owner_core to explain; false when no ask can be made (at a bound).
  bool forward(const http::Request& request, http::Response& response, uint32_t owner_core);

  const runtime::Clock& clock_;
  std::shared_ptr<const endpoint::ServedCatalog> catalog_;
  size_t max_body_bytes_;
  endpoint::DecisionIntake intake_;
  ExplainingWalk walk_;
  Explanation explanation_;
  ExplainLinks links_;
  uint32_t core_index_ = 0;
  runtime::CrossCoreAsks<ExplainAsk> asks_;
  endpoint::CapReadWaits cap_reads_;
  // During the replay of a request whose cap state came back (cluster mode).
  bool caps_read_ = false;
  const caps::CapReader* fetched_caps_ = nullptr;
  capping::CapsUnavailable caps_unavailable_;
  ExplainCounters counters_;
};

}  // namespace decision::explain
