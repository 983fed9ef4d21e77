#pragma once
// A small catalog whose text exercises escaping (quotes, backslashes, control characters,
// non-ASCII), with two languages, custom events, verification with and without parameters
// and a creative without a click URL; video ads of each delivery on "preroll"; plus the
// helpers the response tests share.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/loader.h"
#include "tracking/tokens/key_ring.h"

namespace decision::response::testing {

// When the tests decide, how long their tokens and tags live, and the tracking base URL.
inline constexpr int64_t kNow = 1'795'000'000;  // 2026-11-18
inline constexpr int64_t kTtl = 3600;
inline constexpr int64_t kTagTtl = 900;
inline constexpr std::string_view kBaseUrl = "https://ads.example.test";

inline constexpr std::string_view kResponseCatalog = R"json({
  "revision": "response-test.1",
  "defaultLanguage": "en",
  "priorities": [{"key": "sponsorship", "weight": 100}, {"key": "standard", "weight": 50}],
  "advertisers": [
    {"id": 42, "name": "Acme \"Air\" \\ Co", "legalName": "Acme Air Ltd",
     "logoUrl": "https://cdn.example.com/acme.png"},
    {"id": 43, "name": "Lumière Café"}
  ],
  "templates": [{"id": 3, "key": "native_card"}, {"id": 4, "key": "story", "style": "dark"}],
  "placements": [{"id": 7, "key": "home_top"}, {"id": 8, "key": "sidebar"}, {"id": 9, "key": "preroll"}],
  "ads": [
    {
      "id": 1001, "advertiserId": 42, "placementIds": [7, 8], "templateId": 3,
      "priority": "standard", "weight": 10, "format": "native",
      "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 2001,
        "contents": {
          "en": [{"key": "title", "value": "Say \"hi\" \\ now\n\u0001 😀"},
                 {"key": "image", "value": "https://cdn.example.com/a.jpg", "type": "image"}],
          "fr": [{"key": "title", "value": "Dites « bonjour »"},
                 {"key": "image", "value": "https://cdn.example.com/a.jpg", "type": "image"}]
        },
        "clickUrl": "https://acme.example.com/landing?a=1&b=\"2\"",
        "customEvents": ["add_to_cart", "share"],
        "verification": [{"vendorKey": "iabtechlab.com-omid", "scriptUrl": "https://verify.example.com/omid.js",
                          "verificationParameters": "campaign=1001"}]
      }]
    },
    {
      "id": 1002, "advertiserId": 43, "placementIds": [7], "templateId": 4,
      "priority": "sponsorship", "weight": 5, "format": "native", "style": "highlight",
      "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 2002,
        "contents": {"en": [{"key": "title", "value": "Breakfast </script> & more"}]},
        "verification": [{"vendorKey": "vendor.example", "url": "https://v.example.com/s.js"}]
      }]
    },
    {
      "id": 1003, "advertiserId": 42, "placementIds": [9], "templateId": 4,
      "priority": "standard", "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 2003,
        "contents": {"en": [{"key": "title", "value": "Lisbon <in> \"4K\""}],
                     "fr": [{"key": "title", "value": "Lisbonne ]]> en 4K"}]},
        "clickUrl": "https://acme.example.com/v?x=1&y=]]>",
        "customEvents": ["replay"],
        "verification": [{"vendorKey": "iabtechlab.com-omid", "url": "https://verify.example.com/omid.js",
                          "parameters": "a=1&b=<2>", "browserOptional": true}],
        "video": {
          "delivery": "json",
          "mediaFiles": [{"url": "https://cdn.example.com/v.mp4", "type": "video/mp4", "width": 1280,
                          "height": 720, "bitrate": 2500},
                         {"url": "https://cdn.example.com/v.m3u8", "type": "application/x-mpegURL",
                          "width": 1920, "height": 1080}],
          "duration": 30.5, "aspectRatio": "16:9", "skipOffset": "25%",
          "companions": [{"width": 300, "height": 250, "imageUrl": "https://cdn.example.com/c.jpg",
                          "clickUrl": "https://acme.example.com/c"}]
        }
      }]
    },
    {
      "id": 1004, "advertiserId": 43, "placementIds": [9], "templateId": 4,
      "priority": "standard", "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 2004,
        "contents": {"en": [{"key": "title", "value": "Short"}]},
        "verification": [{"vendorKey": "vendor.example", "url": "https://v.example.com/s.js"}],
        "video": {
          "delivery": "vast_xml",
          "mediaFiles": [{"url": "https://cdn.example.com/s.webm", "type": "video/webm", "width": 640,
                          "height": 360}],
          "duration": 6
        }
      }]
    },
    {
      "id": 1005, "advertiserId": 42, "placementIds": [9], "templateId": 4,
      "priority": "standard", "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 2005,
        "contents": {"en": [{"key": "title", "value": "Tagged"}], "fr": [{"key": "title", "value": "Balisé"}]},
        "clickUrl": "https://acme.example.com/t",
        "video": {
          "delivery": "vast_tag",
          "mediaFiles": [{"url": "https://cdn.example.com/t.mp4", "type": "video/mp4", "width": 1280,
                          "height": 720}],
          "duration": 15, "skipOffset": "00:00:05"
        }
      }]
    }
  ]
})json";

inline std::shared_ptr<const catalog::CatalogSnapshot> response_catalog() {
  catalog::LoadResult loaded = catalog::load_catalog(kResponseCatalog);
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
  return loaded.snapshot;
}

inline tracking::KeyRing response_keys() {
  tracking::KeyEntry entry;
  entry.id = 9;
  for (size_t i = 0; i < tracking::kSecretKeyBytes; ++i) {
    entry.aes_key[i] = static_cast<uint8_t>(i * 7 + 1);
    entry.hmac_key[i] = static_cast<uint8_t>(i * 5 + 2);
  }
  std::vector<tracking::KeyEntry> entries;
  entries.push_back(entry);
  return *tracking::KeyRing::from_entries(std::move(entries));
}

inline bool is_base64url(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Every token of the tracking URLs in body ("...?t=<token>"), in order.
inline std::vector<std::string> tokens_in(std::string_view body) {
  std::vector<std::string> tokens;
  for (size_t at = body.find("?t="); at != std::string_view::npos; at = body.find("?t=", at)) {
    at += 3;
    size_t end = at;
    while (end < body.size() && is_base64url(body[end])) ++end;
    tokens.emplace_back(body.substr(at, end - at));
  }
  return tokens;
}

// body with every token replaced by "<token>", so a golden file can hold it.
inline std::string without_tokens(std::string_view body) {
  std::string out;
  size_t copied = 0;
  for (size_t at = body.find("?t="); at != std::string_view::npos; at = body.find("?t=", at)) {
    at += 3;
    out.append(body.substr(copied, at - copied));
    out.append("<token>");
    while (at < body.size() && is_base64url(body[at])) ++at;
    copied = at;
  }
  out.append(body.substr(copied));
  return out;
}

}  // namespace decision::response::testing
