// Creatives: localized contents, click URL, custom events, verification resources, and the
// video object of video ads (validate_video.cc).
#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "decision/catalog/text_formats.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {
namespace {

std::vector<ContentItem> read_content_items(element value, const std::string& path,
                                            ErrorList& errors) {
  std::vector<ContentItem> items;
  const std::optional<array> list = read_array(value, path, errors);
  if (!list) return items;
  if (list->size() == 0) errors.add(path, "must hold at least one content item");
  size_t i = 0;
  for (element entry : *list) {
    const std::string item_at = item_path(path, i++);
    const std::optional<object> members = read_object(entry, item_at, errors);
    if (!members) continue;
    const ObjectReader in(*members, item_at, errors);
    ContentItem item;
    item.key = std::string(in.text("key", kRequired).value_or(""));
    item.value = std::string(in.string("value", kRequired).value_or(""));
    item.type = std::string(in.text("type", kOptional).value_or("text"));
    items.push_back(std::move(item));
  }
  return items;
}

// Language keys are BCP 47 tags, stored case-normalised; the catalog's default language
// must be among them, so every creative has the content the content language falls back to
// (docs/versions-and-languages.md, "Content language").
void read_contents(const ObjectReader& in, LoadContext& context, Creative& creative) {
  const std::optional<object> contents = in.object_of("contents", kRequired);
  if (!contents) return;
  const std::string path = in.path_of("contents");
  absl::flat_hash_set<std::string> seen;
  bool has_default = false;
  for (auto [key, value] : *contents) {
    const std::string key_at = member_path(path, key);
    const std::optional<std::string> language = normalize_language_tag(key);
    if (!language) {
      context.errors.add(key_at, "is not a language tag (such as en or pt-BR)");
      continue;
    }
    if (!seen.insert(*language).second) {
      context.errors.add(key_at, absl::StrCat("duplicate language ", *language));
      continue;
    }
    if (*language == context.data.default_language) {
      has_default = true;
      creative.default_contents = static_cast<uint32_t>(creative.contents.size());
    }
    creative.contents.push_back({*language, read_content_items(value, key_at, context.errors)});
  }
  if (!has_default && !context.data.default_language.empty()) {
    context.errors.add(path, absl::StrCat("has no content in the default language \"",
                                          context.data.default_language, "\""));
  }
}

void read_custom_events(const ObjectReader& in, LoadContext& context, Creative& creative) {
  const std::optional<array> events = in.array_of("customEvents", kOptional);
  if (!events) return;
  const std::string path = in.path_of("customEvents");
  size_t i = 0;
  for (element item : *events) {
    const std::string item_at = item_path(path, i++);
    const std::optional<std::string_view> name = read_string(item, item_at, context.errors);
    if (!name) continue;
    if (!is_custom_event_name(*name)) {
      context.errors.add(item_at, absl::StrCat("must be 1..", kMaxCustomEventNameBytes,
                                               " of [A-Za-z0-9_.-], not impression or click"));
    } else if (std::find(creative.custom_events.begin(), creative.custom_events.end(), *name) !=
               creative.custom_events.end()) {
      context.errors.add(item_at, absl::StrCat("duplicate custom event ", runtime::av(*name)));
    } else {
      creative.custom_events.emplace_back(*name);
    }
  }
}

// Either spelling (docs/catalog.md, "Verification items"), normalised to vendorKey/url/parameters.
void read_verification(const ObjectReader& in, Creative& creative) {
  for_each_object(in, "verification", kOptional, [&](const ObjectReader& item, size_t) {
    VerificationItem verification;
    verification.vendor_key = std::string(item.text("vendorKey", kRequired).value_or(""));
    if (verification.vendor_key.size() > kMaxVendorKeyBytes) {
      item.error("vendorKey", absl::StrCat("must be at most ", kMaxVendorKeyBytes, " bytes"));
    }
    verification.browser_optional = item.boolean("browserOptional", kOptional).value_or(false);
    if (const std::optional<std::string_view> key = item.spelling({"url", "scriptUrl"})) {
      verification.url = read_url(item, *key, kRequired);
    } else {
      item.error("url", "is required (url or scriptUrl)");
    }
    if (const std::optional<std::string_view> key =
            item.spelling({"parameters", "verificationParameters"})) {
      verification.parameters = std::string(item.string(*key, kRequired).value_or(""));
    }
    creative.verification.push_back(std::move(verification));
  });
}

void read_creative_video(const ObjectReader& in, Format format, LoadContext& context,
                         Creative& creative) {
  if (format == Format::kNative) {
    if (in.has("video")) in.error("video", "is only for video ads (the ad's format is native)");
    return;
  }
  const std::optional<object> video = in.object_of("video", kRequired);
  if (video) creative.video = read_video(ObjectReader(*video, in.path_of("video"), context.errors));
}

}  // namespace

void read_creatives(const ObjectReader& ad, Format format, LoadContext& context,
                    std::vector<Creative>& out) {
  const auto ad_index = static_cast<uint32_t>(context.data.ads.size());
  const std::optional<size_t> count =
      for_each_object(ad, "creatives", kRequired, [&](const ObjectReader& in, size_t) {
        Creative creative;
        if (const std::optional<Id> id = in.id("id", kRequired)) {
          claim_id(context.creative_by_id, *id, ad_index, in.path_of("id"), "creative",
                   context.errors);
          creative.id = *id;
        }
        read_contents(in, context, creative);
        creative.click_url = read_url(in, "clickUrl", kOptional);
        if (creative.click_url.size() > kMaxClickUrlBytes) {
          in.error("clickUrl", absl::StrCat("must be at most ", kMaxClickUrlBytes, " bytes"));
        }
        read_custom_events(in, context, creative);
        read_verification(in, creative);
        read_creative_video(in, format, context, creative);
        out.push_back(std::move(creative));
      });
  if (count && (*count == 0 || *count > kMaxCreativesPerAd)) {
    ad.error("creatives", absl::StrCat("must hold 1..", kMaxCreativesPerAd, " creatives"));
  }
}

}  // namespace decision::catalog::detail
