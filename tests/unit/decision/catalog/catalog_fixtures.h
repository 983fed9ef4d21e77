#pragma once
// The catalog of docs/catalog.md, verbatim, and the helpers every catalog test uses: edit
// one spot of a valid catalog, load it, read back the errors as "path: message".
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/loader.h"

namespace decision::catalog::testing {

// docs/catalog.md, "The file": the example with every field.
inline constexpr std::string_view kDesignExample = R"json({
  "revision": "2026-11-21.1",
  "defaultLanguage": "en",
  "priorities": [
    {"key": "sponsorship", "weight": 100},
    {"key": "standard", "weight": 50},
    {"key": "house", "weight": 1}
  ],
  "advertisers": [
    {"id": 42, "name": "Acme Air", "legalName": "Acme Air Ltd",
     "logoUrl": "https://cdn.example.com/acme.png"}
  ],
  "templates": [{"id": 3, "key": "native_card", "style": "default"}],
  "placements": [{"id": 7, "key": "home_top"}],
  "ads": [
    {
      "id": 1001,
      "advertiserId": 42,
      "placementIds": [7],
      "templateId": 3,
      "priority": "standard",
      "weight": 10,
      "format": "native",
      "style": "default",
      "start": "2026-01-01T00:00:00Z",
      "end": null,
      "frequencyCaps": [{"impressions": 3, "windowSeconds": 86400}],
      "targeting": {
        "geo": [2988507, 3017382],
        "location": [{"lat": 48.8566, "lon": 2.3522, "radiusKm": 25}],
        "custom": "custom.tier == 'gold' && custom.age >= 18",
        "dayparts": [{"days": ["mon","tue","wed","thu","fri"], "start": "08:00", "end": "20:00"}],
        "destination": [2267057]
      },
      "creatives": [
        {
          "id": 2002,
          "contents": {
            "en": [{"key": "title", "value": "Fly to Lisbon", "type": "text"}],
            "fr": [{"key": "title", "value": "Envolez-vous pour Lisbonne", "type": "text"}]
          },
          "clickUrl": "https://acme.example.com/lisbon",
          "customEvents": ["add_to_cart"],
          "verification": [
            {"vendorKey": "iabtechlab.com-omid", "scriptUrl": "https://verify.example.com/omid.js",
             "verificationParameters": "campaign=1001"}
          ],
          "video": null
        }
      ]
    }
  ]
})json";

// docs/catalog.md, "The file": the video object.
inline constexpr std::string_view kDesignVideoObject = R"json({
  "delivery": "vast_xml",
  "mediaFiles": [{"url": "https://cdn.example.com/v/1.mp4", "type": "video/mp4",
                  "width": 1280, "height": 720, "bitrate": 2500}],
  "duration": 30, "aspectRatio": "16:9",
  "skipOffset": "00:00:05",
  "companions": [{"width": 300, "height": 250, "imageUrl": "https://cdn.example.com/c.png",
                  "clickUrl": "https://acme.example.com/c"}]
})json";

// text with its only occurrence of from replaced by to; a test failure when from occurs
// other than once (the edit would not say what the test means).
std::string edit(std::string_view text, std::string_view from, std::string_view to);

// The docs/catalog.md example turned into a video ad: "format": "video" and the video object
// above.
std::string design_video_example();

// The docs/catalog.md example with its creative's "video": null replaced by members (no braces).
std::string with_creative_members(std::string_view members);

// The docs/catalog.md example with one more ad (a JSON object) after its own.
std::string with_extra_ad(std::string_view ad);

// The errors of loading json, each as "path: message".
std::vector<std::string> errors_of(std::string_view json, const LoadOptions& options = {});

// The snapshot; a test failure listing the errors when json does not load.
std::shared_ptr<const CatalogSnapshot> load_ok(std::string_view json,
                                               const LoadOptions& options = {});

}  // namespace decision::catalog::testing
