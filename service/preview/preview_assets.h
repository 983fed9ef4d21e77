#pragma once
// The preview page's files (service/preview/assets/, and the browser client from
// clients/js/), compiled into the binary by embed_assets.cmake.
#include <span>
#include <string_view>

namespace service::preview {

struct PreviewAsset {
  std::string_view path;          // "/ui", "/ui/app.js", ...
  std::string_view content_type;  // with its charset
  std::string_view body;
};

std::span<const PreviewAsset> preview_assets();

}  // namespace service::preview
