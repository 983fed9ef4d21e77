#include "tools/gen-catalog/creative_writer.h"

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"
#include "tools/gen-catalog/vocabulary.h"

namespace tools::gen_catalog {
namespace {

// An ad with 1, 2 or 3 creatives.
constexpr uint32_t kCreativeCountShares[] = {60, 30, 10};
// vast_xml, vast_tag, json: most players take VAST inline.
constexpr std::string_view kDeliveries[] = {"vast_xml", "vast_tag", "json"};
constexpr uint32_t kDeliveryShares[] = {70, 20, 10};

constexpr double kBodyShare = 0.8;
constexpr double kImageShare = 0.5;
constexpr double kCallToActionShare = 0.7;
// Items without "type", which the loader reads as "text".
constexpr double kUntypedShare = 0.2;
constexpr double kClickUrlShare = 0.95;
constexpr double kCustomEventsShare = 0.2;
constexpr double kVerificationShare = 0.1;
// Native creatives with an explicit "video": null, which the loader reads as absent.
constexpr double kNullVideoShare = 0.05;
constexpr double kAspectRatioShare = 0.9;
constexpr double kCompanionShare = 0.3;
constexpr uint32_t kSkipAfter_s = 5;

// Which items a creative has: the same in every language, as translations are.
struct ItemChoice {
  size_t message = 0;
  bool body = false;
  bool image = false;
  bool call_to_action = false;
  bool typed = true;
};

void write_item(http::JsonWriter& out, std::string_view key, std::string_view value,
                std::string_view type) {
  out.begin_object().key("key").string(key).key("value").string(value);
  if (!type.empty()) out.key("type").string(type);
  out.end_object();
}

void write_contents(http::JsonWriter& out, const CreativeOwner& owner, const ItemChoice& choice,
                    std::string_view image_url) {
  const std::string_view text_type = choice.typed ? "text" : "";
  out.key("contents").begin_object();
  for (std::string_view language : owner.languages) {
    const vocabulary::AdCopy& copy = vocabulary::ad_copy(language);
    out.key(language).begin_array();
    write_item(out, "title", copy.offers[choice.message], text_type);
    if (choice.body) write_item(out, "body", copy.bodies[choice.message], text_type);
    if (choice.image) write_item(out, "image", image_url, "image");
    if (choice.call_to_action) {
      write_item(out, "cta", copy.calls_to_action[choice.message], text_type);
    }
    out.end_array();
  }
  out.end_object();
}

void write_custom_events(http::JsonWriter& out, RandomStream& random) {
  const std::span<const std::string_view> names = vocabulary::custom_events();
  const auto count = static_cast<uint32_t>(random.between(1, 2));
  out.key("customEvents").begin_array();
  for (uint32_t i : random.distinct(count, static_cast<uint32_t>(names.size()))) {
    out.string(names[i]);
  }
  out.end_array();
}

// Both spellings the format accepts, half each.
void write_verification(http::JsonWriter& out, RandomStream& random, uint64_t ad_id) {
  const bool script_spelling = random.chance(0.5);
  out.key("verification").begin_array().begin_object();
  out.key("vendorKey").string("iabtechlab.com-omid");
  out.key(script_spelling ? "scriptUrl" : "url").string("https://verify.example.com/omid.js");
  out.key(script_spelling ? "verificationParameters" : "parameters")
      .string(absl::StrCat("campaign=", ad_id));
  out.end_object().end_array();
}

void write_video(http::JsonWriter& out, RandomStream& random, uint64_t ad_id,
                 uint64_t creative_id) {
  const std::string asset = absl::StrCat("https://cdn.example.com/video/", ad_id, "/", creative_id);
  out.key("video").begin_object();
  out.key("delivery").string(kDeliveries[random.weighted(kDeliveryShares)]);
  const std::span<const vocabulary::Rendition> renditions = vocabulary::renditions();
  const auto files = static_cast<uint32_t>(random.between(1, 3));
  out.key("mediaFiles").begin_array();
  for (uint32_t i : random.distinct(files, static_cast<uint32_t>(renditions.size()))) {
    const vocabulary::Rendition& r = renditions[i];
    out.begin_object();
    out.key("url").string(
        absl::StrCat(asset, "-", r.width, "x", r.height, ".", runtime::av(r.extension)));
    out.key("type").string(r.mime_type);
    out.key("width").number(uint64_t{r.width}).key("height").number(uint64_t{r.height});
    out.key("bitrate").number(uint64_t{r.bitrate_kbps});
    out.end_object();
  }
  out.end_array();
  const uint32_t duration_s = random.pick(vocabulary::video_durations_s());
  out.key("duration").number(uint64_t{duration_s});
  if (random.chance(kAspectRatioShare)) out.key("aspectRatio").string("16:9");
  // Skippable after 5 s, after a quarter, or not at all. The loader refuses an HH:MM:SS
  // offset past the end, hence the duration check.
  const double skip = random.unit();
  if (skip < 0.45 && duration_s > kSkipAfter_s) {
    out.key("skipOffset").string("00:00:05");
  } else if (skip < 0.6) {
    out.key("skipOffset").string("25%");
  }
  if (random.chance(kCompanionShare)) {
    out.key("companions").begin_array().begin_object();
    out.key("width").number(uint64_t{300}).key("height").number(uint64_t{250});
    out.key("imageUrl").string(absl::StrCat(asset, "-300x250.png"));
    out.key("clickUrl").string(absl::StrCat("https://ads.example.com/companion/", creative_id));
    out.end_object().end_array();
  }
  out.end_object();
}

void write_creative(http::JsonWriter& out, RandomStream& random, const CreativeOwner& owner,
                    uint64_t id) {
  ItemChoice choice;
  choice.message = random.below(vocabulary::kMessages);
  choice.body = random.chance(kBodyShare);
  choice.image = random.chance(kImageShare);
  choice.call_to_action = random.chance(kCallToActionShare);
  choice.typed = !random.chance(kUntypedShare);
  const std::string image_url =
      absl::StrCat("https://cdn.example.com/ads/", owner.ad_id, "/", id, "-1200x628.jpg");

  out.begin_object();
  out.key("id").number(id);
  write_contents(out, owner, choice, image_url);
  if (random.chance(kClickUrlShare)) {
    out.key("clickUrl")
        .string(absl::StrCat("https://advertiser-", owner.advertiser_id, ".example.com/campaigns/",
                             owner.ad_id, "?creative=", id, "&utm_source=decisiond"));
  }
  if (random.chance(kCustomEventsShare)) write_custom_events(out, random);
  if (random.chance(kVerificationShare)) write_verification(out, random, owner.ad_id);
  if (owner.video) {
    write_video(out, random, owner.ad_id, id);
  } else if (random.chance(kNullVideoShare)) {
    out.key("video").null();
  }
  out.end_object();
}

}  // namespace

uint32_t write_creatives(http::JsonWriter& out, RandomStream& random, const CreativeOwner& owner,
                         uint64_t& next_id) {
  const auto count = static_cast<uint32_t>(1 + random.weighted(kCreativeCountShares));
  out.key("creatives").begin_array();
  for (uint32_t i = 0; i < count; ++i) write_creative(out, random, owner, next_id++);
  out.end_array();
  return count;
}

}  // namespace tools::gen_catalog
