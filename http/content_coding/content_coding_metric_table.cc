#include "http/content_coding/content_coding_metric_table.h"

namespace http::content_coding {
namespace {
using M = ContentCodingMetrics;
using runtime::MetricType;

constexpr runtime::MetricRow<M> kReplies[] = {
    {R"(coding="gzip")", &M::gzip_replies},
    {R"(coding="zstd")", &M::zstd_replies},
};
constexpr runtime::MetricRow<M> kReplyBytesIn[] = {
    {R"(coding="gzip")", &M::gzip_reply_bytes_in},
    {R"(coding="zstd")", &M::zstd_reply_bytes_in},
};
constexpr runtime::MetricRow<M> kReplyBytesOut[] = {
    {R"(coding="gzip")", &M::gzip_reply_bytes_out},
    {R"(coding="zstd")", &M::zstd_reply_bytes_out},
};
constexpr runtime::MetricRow<M> kUncompressed[] = {
    {R"(reason="not_smaller")", &M::replies_not_smaller},
    {R"(reason="too_large")", &M::replies_too_large},
};
constexpr runtime::MetricRow<M> kBodies[] = {
    {R"(coding="gzip",outcome="decoded")", &M::gzip_bodies_decoded},
    {R"(coding="zstd",outcome="decoded")", &M::zstd_bodies_decoded},
    {R"(coding="gzip",outcome="too_large")", &M::gzip_bodies_too_large},
    {R"(coding="zstd",outcome="too_large")", &M::zstd_bodies_too_large},
    {R"(coding="gzip",outcome="undecodable")", &M::gzip_bodies_undecodable},
    {R"(coding="zstd",outcome="undecodable")", &M::zstd_bodies_undecodable},
    {R"(coding="other",outcome="unsupported")", &M::bodies_unsupported},
};

constexpr runtime::Metric<M> kFamilies[] = {
    {.name = "decisiond_http_compressed_replies_total", .type = MetricType::kCounter,
     .help = "Replies sent with a Content-Encoding (--compress), by listener, coding and core.", .rows = kReplies},
    {.name = "decisiond_http_compressed_reply_input_bytes_total", .type = MetricType::kCounter,
     .help = "Body bytes of the replies sent compressed, before compression, by listener, coding and core.",
     .rows = kReplyBytesIn},
    {.name = "decisiond_http_compressed_reply_output_bytes_total", .type = MetricType::kCounter,
     .help = "Body bytes of the replies sent compressed, as sent, by listener, coding and core.",
     .rows = kReplyBytesOut},
    {.name = "decisiond_http_uncompressed_replies_total", .type = MetricType::kCounter,
     .help = "Replies a client would have taken compressed that went as they were: not_smaller (coding would not "
             "shrink them), too_large (past 8 MiB), by listener and core.",
     .rows = kUncompressed},
    {.name = "decisiond_http_coded_request_bodies_total", .type = MetricType::kCounter,
     .help = "Request bodies sent with a Content-Encoding, by listener, coding, outcome (decoded, too_large: 413, "
             "undecodable: 400, unsupported: 415) and core.",
     .rows = kBodies},
};
}  // namespace

constinit const runtime::MetricTable<ContentCodingMetrics> kContentCodingMetricTable = kFamilies;

}  // namespace http::content_coding
