#include "decision/endpoint/served_formats.h"

namespace decision::endpoint {

catalog::FormatFilter formats_to_serve(const api_versions::VersionFeatures& features,
                                       const request::PlacementRequest& placement) {
  if (!features.video) return catalog::FormatFilter::kNative;
  if (!features.format_filter || !placement.format) return catalog::FormatFilter::kAny;
  return *placement.format == request::AdFormat::kVideo ? catalog::FormatFilter::kVideo
                                                        : catalog::FormatFilter::kNative;
}

}  // namespace decision::endpoint
