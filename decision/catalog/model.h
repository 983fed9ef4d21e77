#pragma once
// The catalog as decisions read it: plain records built once by the loader
// (decision/catalog/loader.h), then shared read-only by every core through a
// CatalogSnapshot. Records refer to each other by index into the snapshot's tables, resolved
// at load, so a decision never looks an id up; ids are kept for responses and tracking.
// Every string is owned here (std::string): loading is off the request path and may
// allocate freely, while a decision only reads.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "caps/cap_store.h"

namespace decision::catalog {

using Id = uint64_t;

enum class Format : uint8_t { kNative = 0, kVideo = 1 };
std::string_view format_name(Format format);

// A tier. Ads of a heavier tier are always chosen before those of a lighter one.
struct Priority {
  std::string key;  // "sponsorship", "standard", ...: the response's metadata.priority
  uint32_t weight = 0;
};

struct Advertiser {
  Id id = 0;
  std::string name;
  std::string legal_name;  // empty when the file gives none
  std::string logo_url;    // empty when the file gives none
};

struct Template {
  Id id = 0;
  std::string key;
  std::string style;  // "default" when the file gives none
};

struct Placement {
  Id id = 0;
  std::string key;  // what requests name
};

struct ContentItem {
  std::string key;
  std::string value;
  std::string type;  // "text" when the file gives none; an open set
};

struct LocalizedContents {
  std::string language;  // BCP 47 tag, case-normalised: "en", "pt-BR", "zh-Hant-TW"
  std::vector<ContentItem> items;
};

// Open Measurement verification resource, one spelling whichever the file used
// (vendorKey/scriptUrl/verificationParameters or vendorKey/url/parameters).
struct VerificationItem {
  std::string vendor_key;
  std::string url;
  std::string parameters;  // empty when the file gives none
  // VAST's browserOptional: the script also runs outside a browser (an app's OM SDK). The
  // file's "browserOptional"; false when absent, VAST's own default.
  bool browser_optional = false;
};

enum class VideoDelivery : uint8_t { kVastXml = 0, kVastTag = 1, kJson = 2 };
std::string_view delivery_name(VideoDelivery delivery);

struct MediaFile {
  std::string url;
  std::string type;  // MIME type, "video/mp4"
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t bitrate_kbps = 0;  // 0: not given
  // VAST's delivery: an adaptive stream (HLS, DASH manifest) rather than a progressive file.
  // The file's "delivery" ("streaming" or "progressive"), else judged from the type.
  bool streaming = false;
};

struct Companion {
  uint32_t width = 0;
  uint32_t height = 0;
  std::string image_url;
  // MIME type of the image (VAST StaticResource creativeType): the file's "type", else
  // judged from the URL's extension, else "image/*".
  std::string image_type;
  std::string click_url;  // empty when the file gives none
};

// "HH:MM:SS" becomes kSeconds, "<n>%" becomes kPercent of the duration.
struct SkipOffset {
  enum class Kind : uint8_t { kNone = 0, kSeconds = 1, kPercent = 2 };
  Kind kind = Kind::kNone;
  uint32_t seconds = 0;  // kSeconds
  uint32_t percent = 0;  // kPercent, 0..100
};

struct Video {
  VideoDelivery delivery = VideoDelivery::kVastXml;
  std::vector<MediaFile> media_files;  // at least one
  double duration_s = 0;               // > 0
  std::string aspect_ratio;            // "<w>:<h>", empty when the file gives none
  SkipOffset skip_offset;
  std::vector<Companion> companions;

  bool skippable() const { return skip_offset.kind != SkipOffset::Kind::kNone; }
  // When the skip control appears, in seconds from the start; nullopt when not skippable.
  std::optional<double> skip_offset_s() const;
};

struct Creative {
  Id id = 0;
  std::vector<LocalizedContents> contents;  // file order; languages unique
  uint32_t default_contents = 0;            // index of the catalog's default language in contents
  std::string click_url;                    // empty when the file gives none
  std::vector<std::string> custom_events;
  std::vector<VerificationItem> verification;
  std::optional<Video> video;  // present exactly when the ad's format is video

  // Exact (case-insensitive) language match, or nullptr. Best-match negotiation belongs to
  // decision/localization.
  const LocalizedContents* contents_for(std::string_view language) const;
  const LocalizedContents& default_language_contents() const { return contents[default_contents]; }
};

// The cap store's own type, so an ad's caps reach it as they are (no copy per decision).
using FrequencyCap = caps::CapRule;

struct GeoCircle {
  double lat = 0;
  double lon = 0;
  double radius_km = 0;
};

// Bit d of Daypart::days is weekday d counted from Monday = 0, the numbering of
// absl::Weekday, so a caller tests `days & (1u << static_cast<int>(weekday))`.
inline constexpr uint8_t kEveryDay = 0x7f;

// A weekly window [start_minute, end_minute) of local time on the listed days. Windows
// never cross midnight: "fri 22:00 to sat 02:00" is two dayparts (fri 22:00-24:00 and
// sat 00:00-02:00), so the day a minute belongs to is never ambiguous.
struct Daypart {
  uint8_t days = kEveryDay;
  uint16_t start_minute = 0;  // 0..1439
  uint16_t end_minute = 0;    // start_minute+1..1440
  // A fixed zone for this daypart ("timezone" in the file), e.g. a broadcast schedule in
  // Europe/Paris. Empty: the user's zone (docs/targeting.md, "Dayparts").
  std::string time_zone_name;
  absl::TimeZone time_zone;  // loaded at catalog load; meaningful when the name is set

  bool has_time_zone() const { return !time_zone_name.empty(); }
  bool contains(int weekday_from_monday, int minute_of_day) const {
    return (days >> weekday_from_monday & 1) != 0 && minute_of_day >= start_minute &&
           minute_of_day < end_minute;
  }
};

// A CEL expression, compiled by cel/; kept with its path so that module's
// errors point into the file.
struct CustomExpression {
  std::string source;
  std::string path;  // "ads[3].targeting.custom"
};

// Each rule applies when present (non-empty); every present rule must hold.
struct Targeting {
  std::vector<Id> geo;  // GeoNames ids, sorted, unique
  std::vector<GeoCircle> locations;
  std::optional<CustomExpression> custom;
  std::vector<Daypart> dayparts;
  std::vector<Id> destination;  // GeoNames ids, sorted, unique

  bool empty() const {
    return geo.empty() && locations.empty() && !custom && dayparts.empty() && destination.empty();
  }
};

inline constexpr int64_t kNoEnd = std::numeric_limits<int64_t>::max();

// How a delivery goal is spread over its flight (docs/pacing.md).
enum class Pacing : uint8_t { kEven = 0, kFrontloaded = 1, kAsap = 2 };
std::string_view pacing_name(Pacing pacing);

// An ad's goal: impressions counted over its flight (start..end, which a goal requires).
struct DeliveryGoal {
  uint64_t impressions = 0;  // > 0
  Pacing pacing = Pacing::kEven;
  // The goal's position among the catalog's goals, in ad order, set by CatalogSnapshot: a
  // core's pacing book keeps its goals at these positions (no hash probe per candidate).
  uint32_t index = 0;
};

struct Ad {
  Id id = 0;
  uint32_t advertiser_index = 0;            // into CatalogData::advertisers
  uint32_t template_index = 0;              // into CatalogData::templates
  uint32_t tier_index = 0;                  // into CatalogData::priorities
  std::vector<uint32_t> placement_indexes;  // into CatalogData::placements, file order
  uint32_t weight = 0;                      // > 0
  Format format = Format::kNative;
  std::string style;       // the template's style when the file gives none
  int64_t start_s = 0;     // unix seconds, inclusive
  int64_t end_s = kNoEnd;  // unix seconds, exclusive; kNoEnd when open-ended
  std::vector<FrequencyCap> frequency_caps;
  std::optional<DeliveryGoal> delivery;  // the file's "delivery"; needs an end
  Targeting targeting;
  std::vector<Creative> creatives;  // at least one

  bool has_end() const { return end_s != kNoEnd; }
  bool active_at(int64_t now_s) const { return start_s <= now_s && now_s < end_s; }
};

// Everything the file says, validated and resolved. CatalogSnapshot adds the indexes.
struct CatalogData {
  std::string revision;
  std::string default_language;
  std::vector<Priority> priorities;  // file order; Ad::tier_index points here
  std::vector<Advertiser> advertisers;
  std::vector<Template> templates;
  std::vector<Placement> placements;
  std::vector<Ad> ads;
};

}  // namespace decision::catalog
