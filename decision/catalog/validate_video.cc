// The video object of a video ad's creative: what the VAST 4.2 document (or the json
// delivery) is made of.
#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "decision/catalog/text_formats.h"

namespace decision::catalog::detail {
namespace {

constexpr uint64_t kMaxBitrateKbps = 1'000'000;

std::optional<VideoDelivery> read_delivery(const ObjectReader& in) {
  const std::optional<std::string_view> delivery = in.string("delivery", kRequired);
  if (!delivery) return std::nullopt;
  if (*delivery == "vast_xml") return VideoDelivery::kVastXml;
  if (*delivery == "vast_tag") return VideoDelivery::kVastTag;
  if (*delivery == "json") return VideoDelivery::kJson;
  in.error("delivery", "must be vast_xml, vast_tag or json");
  return std::nullopt;
}

uint32_t read_dimension(const ObjectReader& in, std::string_view key) {
  return static_cast<uint32_t>(in.integer(key, kRequired, 1, kMaxVideoDimension).value_or(0));
}

std::vector<MediaFile> read_media_files(const ObjectReader& in) {
  std::vector<MediaFile> files;
  const std::optional<size_t> count =
      for_each_object(in, "mediaFiles", kRequired, [&](const ObjectReader& item, size_t) {
        MediaFile file;
        file.url = read_url(item, "url", kRequired);
        if (const std::optional<std::string_view> type = item.string("type", kRequired)) {
          if (!is_mime_type(*type)) item.error("type", "must be a MIME type such as video/mp4");
          file.type = std::string(*type);
        }
        file.width = read_dimension(item, "width");
        file.height = read_dimension(item, "height");
        file.bitrate_kbps = static_cast<uint32_t>(
            item.integer("bitrate", kOptional, 1, kMaxBitrateKbps).value_or(0));
        if (const std::optional<std::string_view> delivery = item.string("delivery", kOptional)) {
          if (*delivery != "progressive" && *delivery != "streaming") {
            item.error("delivery", "must be progressive or streaming");
          }
          file.streaming = *delivery == "streaming";
        } else {
          file.streaming = is_streaming_media_type(file.type);
        }
        files.push_back(std::move(file));
      });
  if (count && *count == 0) in.error("mediaFiles", "must hold at least one media file");
  return files;
}

std::vector<Companion> read_companions(const ObjectReader& in) {
  std::vector<Companion> companions;
  for_each_object(in, "companions", kOptional, [&](const ObjectReader& item, size_t) {
    Companion companion;
    companion.width = read_dimension(item, "width");
    companion.height = read_dimension(item, "height");
    companion.image_url = read_url(item, "imageUrl", kRequired);
    if (const std::optional<std::string_view> type = item.string("type", kOptional)) {
      if (!is_mime_type(*type) || !type->starts_with("image/")) {
        item.error("type", "must be an image MIME type such as image/png");
      }
      companion.image_type = std::string(*type);
    } else {
      companion.image_type = std::string(image_type_of_url(companion.image_url));
    }
    companion.click_url = read_url(item, "clickUrl", kOptional);
    companions.push_back(std::move(companion));
  });
  return companions;
}

// Seconds, > 0: VAST requires a Duration, and a percent skip offset is a share of it.
std::optional<double> read_duration(const ObjectReader& in) {
  const std::optional<double> duration =
      in.number("duration", kRequired, 0, kMaxVideoDurationSeconds);
  if (duration && *duration <= 0) {
    in.error("duration", "must be greater than 0");
    return std::nullopt;
  }
  return duration;
}

void read_skip_offset(const ObjectReader& in, std::optional<double> duration_s, Video& video) {
  const std::optional<std::string_view> text = in.string("skipOffset", kOptional);
  if (!text) return;
  const std::optional<SkipOffset> offset = parse_skip_offset(*text);
  if (!offset) {
    in.error("skipOffset", "must be HH:MM:SS or <n>%");
    return;
  }
  if (offset->kind == SkipOffset::Kind::kSeconds && duration_s && offset->seconds > *duration_s) {
    in.error("skipOffset",
             absl::StrCat("is after the end of the video (duration ", *duration_s, " s)"));
  }
  video.skip_offset = *offset;
}

}  // namespace

Video read_video(const ObjectReader& in) {
  Video video;
  video.delivery = read_delivery(in).value_or(VideoDelivery::kVastXml);
  video.media_files = read_media_files(in);
  const std::optional<double> duration_s = read_duration(in);
  video.duration_s = duration_s.value_or(0);
  if (const std::optional<std::string_view> ratio = in.string("aspectRatio", kOptional)) {
    if (!is_aspect_ratio(*ratio)) in.error("aspectRatio", "must be <w>:<h> such as 16:9");
    video.aspect_ratio = std::string(*ratio);
  }
  read_skip_offset(in, duration_s, video);
  video.companions = read_companions(in);
  return video;
}

}  // namespace decision::catalog::detail
