#pragma once
// An ad's "creatives" member: 1..3 creatives with localized contents, click URL, custom
// events and verification on some, and the video object of video ads.
#include <cstdint>
#include <span>
#include <string_view>

#include "http/json_writer.h"
#include "tools/gen-catalog/random_stream.h"

namespace tools::gen_catalog {

struct CreativeOwner {
  uint64_t ad_id = 0;
  uint64_t advertiser_id = 0;
  bool video = false;
  // The languages every creative of the ad has content in, the default language first.
  std::span<const std::string_view> languages;
};

// Creative ids are unique across the catalog: they are taken from next_id on, which is
// advanced. Returns the number of creatives written.
uint32_t write_creatives(http::JsonWriter& out, RandomStream& random, const CreativeOwner& owner,
                         uint64_t& next_id);

}  // namespace tools::gen_catalog
