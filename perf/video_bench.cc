// Video ads (docs/video.md): one VAST 4.2 document with its sealed tracking tokens, a
// whole POST /v1/decision for each delivery mode, and GET /v1/vast behind a signed tag.
//
// The catalog is perf/video_catalog.json: the demo's video ad (3 media files, 1 companion
// with a click, 2 verification resources, skippable at 5 s) three times, once per delivery
// mode (json 1021, vast_xml 1011, vast_tag 1031), each on a placement of its own
// (video_json, video_vast_xml, video_vast_tag) and all three on video_preroll, which
// perf/load.sh TARGET=video asks for. Its document has 12 tracking URLs: error, impression,
// one verificationNotExecuted per verification, the companion's click, six milestones
// (skip included) and the click.
//
// As BM_Decision (decision_bench.cc), the handlers are driven with parsed http::Requests:
// the figures are the server's own cost without the socket. Bodies rotate over 64 users.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include "caps/cap_partition.h"
#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/vast_tag/vast_tag_handler.h"
#include "decision/video/vast_document.h"
#include "perf/allocation_counter.h"
#include "perf/bench_keys.h"
#include "runtime/clock.h"
#include "tracking/tokens/base64url.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/vast_tag/vast_tag_codec.h"

namespace {

constexpr int kVideoUsers = 64;
constexpr int64_t kNowS = 1'795'737'600;  // 2026-11-27, inside every ad's flight
constexpr std::string_view kBaseUrl = "https://ads.example.com";
constexpr uint64_t kVastXmlAdId = 1011;

std::shared_ptr<const decision::endpoint::ServedCatalog> video_catalog() {
  static const std::shared_ptr<const decision::endpoint::ServedCatalog> served = [] {
    decision::catalog::LoadResult loaded = decision::catalog::load_catalog_file(VIDEO_CATALOG_FIXTURE);
    if (!loaded.snapshot) {
      std::fprintf(stderr, "%s refused: %s\n", VIDEO_CATALOG_FIXTURE,
                   loaded.errors.empty() ? "?" : loaded.errors.front().to_string().c_str());
      std::abort();
    }
    return decision::endpoint::make_served_catalog(loaded.snapshot);
  }();
  return served;
}

std::string user_id(int user) { return "user-" + std::to_string(user * 7919); }

// One document of the vast_xml ad, in the creative's default language, for a recognised
// user: what a vast_xml decision and a tag fetch both build, minus the JSON or HTTP around it.
void BM_VastDocument(benchmark::State& state) {
  const auto served = video_catalog();
  const decision::catalog::CatalogSnapshot& snapshot = *served->snapshot;
  const tracking::KeyRing keys = bench_ring();
  tracking::CoreKeys codecs(keys);
  decision::video::VastDocumentWriter writer(codecs, kBaseUrl, 3600);
  const uint32_t ad_index = *snapshot.ad_index(kVastXmlAdId);
  const decision::catalog::Creative& creative = snapshot.ads()[ad_index].creatives[0];
  const uint32_t placement_index = *snapshot.index().placement_index("video_vast_xml");
  const decision::video::VastAd ad{snapshot, ad_index, 0, placement_index, creative.default_contents};

  std::vector<std::string> users;
  for (int u = 0; u < kVideoUsers; ++u) users.push_back(user_id(u));
  tracking::TokenIssue issue;
  issue.request_id.fill(0x5a);
  issue.now_s = kNowS;
  std::string out;
  for (const std::string& user : users) {  // warm the buffer and the codec
    issue.user_id = user;
    out.clear();
    if (!writer.write(ad, issue, out)) {
      state.SkipWithError("a token could not be sealed");
      return;
    }
  }
  const auto tokens_per_document = static_cast<double>(
      [&] {
        size_t n = 0;
        for (size_t at = out.find("/v1/tracking?t="); at != std::string::npos;
             at = out.find("/v1/tracking?t=", at + 1)) {
          ++n;
        }
        return n;
      }());

  size_t next = 0;
  uint64_t bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    issue.user_id = users[next];
    next = (next + 1) % users.size();
    issue.request_id[0] = static_cast<uint8_t>(next);
    out.clear();
    benchmark::DoNotOptimize(writer.write(ad, issue, out));
    bytes += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  state.counters["tokens"] = tokens_per_document;
  state.counters["doc_bytes"] = static_cast<double>(bytes) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_VastDocument);

// The base64 step of a vast_xml delivery alone, on that document: EVP_EncodeBlock as
// video_fields.cc calls it (/evp), and for scale the tokens' own encoder
// (tracking::base64url_encode, two lookups in a table of 4,096 character pairs per 3 bytes;
// another alphabet and no padding, so not a drop-in) on the same bytes (/token_encoder).
void BM_VastXmlBase64(benchmark::State& state, bool evp) {
  const auto served = video_catalog();
  const decision::catalog::CatalogSnapshot& snapshot = *served->snapshot;
  const tracking::KeyRing keys = bench_ring();
  tracking::CoreKeys codecs(keys);
  decision::video::VastDocumentWriter writer(codecs, kBaseUrl, 3600);
  const uint32_t ad_index = *snapshot.ad_index(kVastXmlAdId);
  const decision::video::VastAd ad{snapshot, ad_index, 0, *snapshot.index().placement_index("video_vast_xml"),
                                   snapshot.ads()[ad_index].creatives[0].default_contents};
  tracking::TokenIssue issue;
  issue.now_s = kNowS;
  issue.user_id = "user-7919";
  std::string document;
  if (!writer.write(ad, issue, document)) {
    state.SkipWithError("a token could not be sealed");
    return;
  }
  std::string out;
  out.reserve(2 * document.size());
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    out.clear();
    if (evp) {
      out.resize(4 * ((document.size() + 2) / 3) + 1);
      const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                          reinterpret_cast<const unsigned char*>(document.data()),
                                          static_cast<int>(document.size()));
      out.resize(static_cast<size_t>(written));
    } else {
      tracking::base64url_encode(document, out);
    }
    benchmark::DoNotOptimize(out.data());
  }
  allocations.report(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(document.size()));
  state.counters["doc_bytes"] = static_cast<double>(document.size());
}
BENCHMARK_CAPTURE(BM_VastXmlBase64, evp, true);
BENCHMARK_CAPTURE(BM_VastXmlBase64, token_encoder, false);

// A whole decision on one placement: version, body read and validated, selection (one
// candidate; its frequency cap looked up in an empty partition), the JSON response with its
// tracking URLs and the delivery's own work (json: none; vast_xml: the document, then
// base64; vast_tag: a sealed payload and an HMAC). count is 1, except on video_preroll
// (the load.sh request): 3, one ad of each mode.
void BM_VideoDecision(benchmark::State& state, const char* placement_key, int count) {
  const auto served = video_catalog();
  const runtime::ManualClock clock(kNowS * 1'000'000'000);
  const api_versions::VersionTable versions = api_versions::VersionTable::built_in();
  const tracking::KeyRing ring = bench_ring();
  tracking::CoreKeys keys(ring);
  decision::endpoint::DecisionSettings settings;
  settings.base_url = std::string(kBaseUrl);
  settings.seed = 1;
  caps::CapPartition cap_partition;
  decision::user_state::OwnerCoreRoute<decision::endpoint::DecisionAsk> route("/v1/decision", cap_partition, 0, nullptr,
                                                                              nullptr, 0);
  decision::endpoint::DecisionHandler handler(clock, 0, versions, keys, settings, served, route, nullptr, nullptr);

  std::vector<std::string> bodies;
  for (int u = 0; u < kVideoUsers; ++u) {
    bodies.push_back(R"({"placements":[{"key":")" + std::string(placement_key) + R"(","count":)" +
                     std::to_string(count) + R"(}],"user":{"id":")" + user_id(u) + R"("}})");
  }
  http::Request request;
  request.method = http::Method::kPost;
  request.path = "/v1/decision";
  request.headers[0] = {"Content-Type", "application/json"};
  request.headers[1] = {"Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"};
  request.headers[2] = {"X-Decision-Version", "2025-11-01"};
  request.header_count = 3;
  http::Response response;
  for (const std::string& body : bodies) {  // warm every buffer
    request.body = body;
    response.reset();
    handler.handle(request, response);
  }
  if (response.status() != 200) {
    state.SkipWithError(response.body().c_str());
    return;
  }
  const uint64_t warm_creatives = handler.counters().creatives.get();
  if (warm_creatives != static_cast<uint64_t>(count) * bodies.size()) {
    state.SkipWithError("a decision served fewer video creatives than asked");
    return;
  }

  size_t next = 0;
  uint64_t body_bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    request.body = bodies[next];
    next = (next + 1) % bodies.size();
    response.reset();
    handler.handle(request, response);
    body_bytes += response.body().size();
    benchmark::DoNotOptimize(response.body().data());
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["creatives"] =
      static_cast<double>(handler.counters().creatives.get() - warm_creatives) / iterations;
  state.counters["body_bytes"] = static_cast<double>(body_bytes) / iterations;
}
BENCHMARK_CAPTURE(BM_VideoDecision, json, "video_json", 1);
BENCHMARK_CAPTURE(BM_VideoDecision, vast_xml, "video_vast_xml", 1);
BENCHMARK_CAPTURE(BM_VideoDecision, vast_tag, "video_vast_tag", 1);
BENCHMARK_CAPTURE(BM_VideoDecision, mixed_count3, "video_preroll", 3);

// GET /v1/vast: the four parameters, the HMAC (constant-time compare), the expiry, the
// sealed payload opened, the served ad looked up, its document written with fresh tokens.
// Tags are minted as a vast_tag decision mints them, one per user, in French.
void BM_VastTagFetch(benchmark::State& state) {
  const auto served = video_catalog();
  const decision::catalog::CatalogSnapshot& snapshot = *served->snapshot;
  const runtime::ManualClock clock(kNowS * 1'000'000'000);
  const tracking::KeyRing keys = bench_ring();
  decision::vast_tag::VastTagSettings settings;
  settings.base_url = std::string(kBaseUrl);
  tracking::CoreKeys serving_keys(keys);
  decision::vast_tag::VastTagHandler handler(clock, serving_keys, settings, served);

  tracking::TokenCodec minting_codec(keys);
  tracking::VastTagCodec minter(minting_codec, keys);
  std::vector<std::string> users;
  std::vector<std::string> queries;
  for (int u = 0; u < kVideoUsers; ++u) users.push_back(user_id(u));
  for (int u = 0; u < kVideoUsers; ++u) {
    tracking::VastTagPayload payload;
    payload.ad_id = kVastXmlAdId;
    payload.creative_id = snapshot.ads()[*snapshot.ad_index(kVastXmlAdId)].creatives[0].id;
    payload.placement_id = snapshot.find_placement("video_vast_xml")->id;
    payload.request_id.fill(static_cast<uint8_t>(u));
    payload.issued_at_s = kNowS;
    payload.language = "fr";
    payload.user_id = users[static_cast<size_t>(u)];
    std::string query;
    if (!minter.append_query(payload, kNowS + 900, query).ok()) {
      state.SkipWithError("a tag could not be minted");
      return;
    }
    queries.push_back(std::move(query));
  }
  http::Request request;
  request.method = http::Method::kGet;
  request.path = "/v1/vast";
  http::Response response;
  for (const std::string& query : queries) {  // warm every buffer
    request.query = query;
    response.reset();
    handler.handle(request, response);
  }
  if (response.status() != 200 || handler.counters().documents.get() != queries.size()) {
    state.SkipWithError("a tag fetch did not answer a document");
    return;
  }

  size_t next = 0;
  uint64_t body_bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    request.query = queries[next];
    next = (next + 1) % queries.size();
    response.reset();
    handler.handle(request, response);
    body_bytes += response.body().size();
    benchmark::DoNotOptimize(response.body().data());
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  state.counters["body_bytes"] = static_cast<double>(body_bytes) / static_cast<double>(state.iterations());
  state.counters["query_chars"] = static_cast<double>(queries.front().size());
}
BENCHMARK(BM_VastTagFetch);

}  // namespace
