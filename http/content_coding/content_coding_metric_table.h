#pragma once
// What /metrics exports of a server's content codings (content_coding_metrics.h). A core
// registers it once per listener, labelled like the server's own table.
#include "http/content_coding/content_coding_metrics.h"
#include "runtime/metric_source.h"

namespace http::content_coding {

extern const runtime::MetricTable<ContentCodingMetrics> kContentCodingMetricTable;

}  // namespace http::content_coding
