#include "tests/unit/decision/catalog/catalog_fixtures.h"

#include <gtest/gtest.h>

namespace decision::catalog::testing {

std::string edit(std::string_view text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  if (at == std::string_view::npos || text.find(from, at + 1) != std::string_view::npos) {
    ADD_FAILURE() << "edit: \"" << from << "\" must occur exactly once";
    return std::string(text);
  }
  std::string out(text);
  out.replace(at, from.size(), to);
  return out;
}

std::string design_video_example() {
  const std::string video = edit(kDesignExample, R"("format": "native")", R"("format": "video")");
  return edit(video, R"("video": null)",
              std::string(R"("video": )") + std::string(kDesignVideoObject));
}

std::string with_creative_members(std::string_view members) {
  return edit(kDesignExample, R"("video": null)", members);
}

std::string with_extra_ad(std::string_view ad) {
  return edit(kDesignExample, "    }\n  ]\n}", "    },\n" + std::string(ad) + "\n  ]\n}");
}

std::vector<std::string> errors_of(std::string_view json, const LoadOptions& options) {
  std::vector<std::string> out;
  for (const CatalogError& error : load_catalog(json, options).errors)
    out.push_back(error.to_string());
  return out;
}

std::shared_ptr<const CatalogSnapshot> load_ok(std::string_view json, const LoadOptions& options) {
  LoadResult result = load_catalog(json, options);
  if (!result.ok()) ADD_FAILURE() << "catalog refused:\n" << result.status().message();
  return result.snapshot;
}

}  // namespace decision::catalog::testing
