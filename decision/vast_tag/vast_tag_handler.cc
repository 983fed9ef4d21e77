#include "decision/vast_tag/vast_tag_handler.h"

#include <optional>

#include "http/error_body.h"
#include "http/error_codes.h"

namespace decision::vast_tag {
namespace {

constexpr std::string_view kXml = "application/xml";

// The served ad a tag names, if the catalog still serves it so: the ad and its creative
// exist, it is a video ad of that placement, and its flight runs now.
std::optional<video::VastAd> find_served_ad(const catalog::CatalogSnapshot& snapshot,
                                            const tracking::VastTagPayload& tag, int64_t now_s) {
  const std::optional<uint32_t> ad_index = snapshot.ad_index(tag.ad_id);
  const catalog::Placement* placement = snapshot.find_placement(tag.placement_id);
  if (!ad_index || placement == nullptr) return std::nullopt;
  const auto placement_index = static_cast<uint32_t>(placement - snapshot.placements().data());
  const catalog::Ad& ad = snapshot.ads()[*ad_index];
  if (ad.format != catalog::Format::kVideo || !ad.active_at(now_s)) return std::nullopt;
  bool in_placement = false;
  for (uint32_t p : ad.placement_indexes) in_placement |= p == placement_index;
  if (!in_placement) return std::nullopt;
  for (uint32_t c = 0; c < ad.creatives.size(); ++c) {
    const catalog::Creative& creative = ad.creatives[c];
    if (creative.id != tag.creative_id || !creative.video) continue;
    // The language the decision chose, if the creative still has it.
    uint32_t language = creative.default_contents;
    for (uint32_t l = 0; l < creative.contents.size(); ++l) {
      if (creative.contents[l].language == tag.language) language = l;
    }
    return video::VastAd{snapshot, *ad_index, c, placement_index, language};
  }
  return std::nullopt;
}

}  // namespace

VastTagHandler::VastTagHandler(const runtime::Clock& clock, tracking::CoreKeys& keys,
                               const VastTagSettings& settings,
                               std::shared_ptr<const endpoint::ServedCatalog> catalog)
    : clock_(clock),
      catalog_(std::move(catalog)),
      keys_(keys),
      documents_(keys, settings.base_url, settings.tracking_ttl_s) {}

void VastTagHandler::handle(const http::Request& request, http::Response& response) {
  response.add_header("Cache-Control", "no-store");
  const int64_t now_s = clock_.wall_s();
  const tracking::VastTagCheck tag = keys_.tags().check(request.query, now_s);
  switch (tag.verdict) {
    case tracking::VastTagVerdict::kValid: break;
    case tracking::VastTagVerdict::kExpired:
      counters_.expired.add();
      http::set_error(response, 410, http::error_code::kExpiredVastTag, "VAST tag expired", tag.field);
      return;
    case tracking::VastTagVerdict::kBadSignature:
      counters_.bad_signatures.add();
      http::set_error(response, 403, http::error_code::kBadVastTagSignature, "VAST tag signature invalid", tag.field);
      return;
  }

  response.set_status(200);
  response.set_content_type(kXml);
  std::string& body = response.body();
  body.clear();
  const catalog::CatalogSnapshot& snapshot = *catalog_->snapshot;
  const std::optional<video::VastAd> served = find_served_ad(snapshot, tag.payload, now_s);
  if (!served) {
    counters_.no_fills.add();
    video::VastDocumentWriter::write_no_fill(body);
    return;
  }
  tracking::TokenIssue issue;
  issue.request_id = tag.payload.request_id;
  issue.user_id = tag.payload.user_id;
  issue.now_s = now_s;
  if (!documents_.write(*served, issue, body)) {
    counters_.token_failures.add();
    http::set_error(response, 500, http::error_code::kInternalError, "internal error: a tracking token could not be sealed");
    return;
  }
  counters_.documents.add();
}

}  // namespace decision::vast_tag
