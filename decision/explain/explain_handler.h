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
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explaining_walk.h"
#include "decision/explain/explanation.h"
#include "decision/explain/forwarded_explain.h"
#include "decision/request/request_reader.h"
#include "api_versions/version_resolver.h"
#include "http/router.h"
#include "runtime/clock.h"
#include "runtime/core_channel.h"
#include "runtime/core_counter.h"
#include "runtime/loan_pool.h"

namespace decision::explain {

class ExplainHandler;

// What ties one core's explain handler to the others; the peers table is filled before any
// core serves and never changed.
struct ExplainLinks {
  runtime::CoreChannel* channel = nullptr;
  const std::vector<ExplainHandler*>* peers = nullptr;  // indexed by core
  const caps::CapStore* caps = nullptr;  // this core's partition, read only
};

// Per core, single writer; read by metrics scrapes.
struct ExplainCounters {
  runtime::CoreCounter explains;            // 200 replies
  runtime::CoreCounter rejected_versions;   // 400 10042 and 410 10043
  runtime::CoreCounter wrong_media_type;    // 415
  runtime::CoreCounter invalid_bodies;      // 400 10001 and 422
  runtime::CoreCounter bodies_too_large;    // 413: past the public listener's body limit
  runtime::CoreCounter forwarded;           // explains handed to the user's owner core
  runtime::CoreCounter served_for_peers;    // explains run here for another core
  runtime::CoreCounter asks_refused;        // 503 10098: kMaxAsksInFlight reached, or a full queue
  runtime::CoreCounter asks_abandoned;      // the client left before the owner answered
  runtime::CoreCounter answers_delayed;     // an answer found the queue home full and waited
};

class ExplainHandler final : public http::Handler {
 public:
  // Explains a core may have waiting on other cores at once, all peers together. Explains
  // are an operator's tool, not traffic: a handful is plenty, and it keeps the messages
  // they add to each pair of cores' queue (asks and answers) to 2 x this bound.
  static constexpr uint32_t kMaxAsksInFlight = 8;

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
  const request::RequestReaderCounters& reader_counters() const { return reader_.counters(); }
  uint32_t asks_in_flight() const { return asks_.on_loan(); }

  // The two ends of a forwarded explain: on the owner core, explain and send home; back
  // home, reply to the waiting connection.
  void explain_for_peer(ForwardedExplain& ask);
  void finish_forwarded(ForwardedExplain& ask);
  // What the messages explain handlers post run (on the core of the handler they name):
  // an ask or its answer. Public so that a test can carry messages without a reactor.
  static void deliver(const runtime::Message& message);

 private:
  // forwarded_from: the core that received the request and found this one owns the user.
  void serve(const http::Request& request, http::Response& response, std::optional<uint32_t> forwarded_from);
  void explain(const api_versions::Resolution& version, const http::Request& request, int64_t now_s,
               http::Response& response, std::optional<uint32_t> forwarded_from);
  // Lends the request to owner_core; false when no ask can be made (at a bound).
  bool forward(const http::Request& request, http::Response& response, uint32_t owner_core);
  // The answer home; an answer the queue refuses waits in unsent_ (see explain_handler.cc).
  void send_home(ForwardedExplain& ask);
  void retry_unsent();

  const runtime::Clock& clock_;
  std::shared_ptr<const endpoint::ServedCatalog> catalog_;
  api_versions::VersionResolver versions_;
  size_t max_body_bytes_;
  request::RequestReader reader_;
  request::DecisionRequest request_;
  ExplainingWalk walk_;
  Explanation explanation_;
  ExplainLinks links_;
  uint32_t core_index_ = 0;
  runtime::LoanPool<ForwardedExplain> asks_;
  std::vector<ForwardedExplain*> unsent_;
  ExplainCounters counters_;
};

}  // namespace decision::explain
