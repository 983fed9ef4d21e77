#pragma once
// Which formats a placement may be served in, by the version's features: the rule that
// decisions and explains both follow (docs/decision-request.md, "format").
#include "api_versions/version_features.h"
#include "decision/catalog/index.h"
#include "decision/request/decision_request.h"

namespace decision::endpoint {

// 2025-01-01 knows native ads only and ignores `format`; from 2025-11-01 video ads are
// served too, and `format` narrows to one of the two.
catalog::FormatFilter formats_to_serve(const api_versions::VersionFeatures& features,
                                       const request::PlacementRequest& placement);

}  // namespace decision::endpoint
