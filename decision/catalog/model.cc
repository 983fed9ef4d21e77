#include "decision/catalog/model.h"

#include "absl/strings/match.h"
#include "runtime/absl_view.h"

namespace decision::catalog {

std::string_view format_name(Format format) {
  return format == Format::kVideo ? "video" : "native";
}

std::string_view delivery_name(VideoDelivery delivery) {
  switch (delivery) {
    case VideoDelivery::kVastXml:
      return "vast_xml";
    case VideoDelivery::kVastTag:
      return "vast_tag";
    case VideoDelivery::kJson:
      return "json";
  }
  return "vast_xml";
}

std::string_view pacing_name(Pacing pacing) {
  switch (pacing) {
    case Pacing::kEven:
      return "even";
    case Pacing::kFrontloaded:
      return "frontloaded";
    case Pacing::kAsap:
      return "asap";
  }
  return "even";
}

std::optional<double> Video::skip_offset_s() const {
  switch (skip_offset.kind) {
    case SkipOffset::Kind::kNone:
      return std::nullopt;
    case SkipOffset::Kind::kSeconds:
      return static_cast<double>(skip_offset.seconds);
    case SkipOffset::Kind::kPercent:
      return duration_s * skip_offset.percent / 100.0;
  }
  return std::nullopt;
}

const LocalizedContents* Creative::contents_for(std::string_view language) const {
  for (const LocalizedContents& c : contents) {
    if (absl::EqualsIgnoreCase(runtime::av(c.language), runtime::av(language))) return &c;
  }
  return nullptr;
}

}  // namespace decision::catalog
