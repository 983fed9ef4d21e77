#include "caps/redis_store/redis_cap_metrics.h"

namespace caps::redis_store {

namespace {

using C = RedisCapCounters;

constexpr runtime::MetricRow<C> kImpressionRows[] = {
    {R"(outcome="counted")", &C::impressions_counted},
    {R"(outcome="repeat")", &C::impressions_repeated},
    {R"(outcome="unapplied")", &C::impressions_unapplied},
};
constexpr runtime::MetricRow<C> kPendRows[] = {
    {R"(outcome="written")", &C::pends},
    {R"(outcome="lost")", &C::pends_lost},
};

constexpr runtime::Metric<C> kMetrics[] = {
    runtime::counter("decisiond_caps_store_reads_total", "user cap states asked of the shared cap store", &C::reads),
    runtime::counter("decisiond_caps_store_reads_answered_total", "user cap states the shared cap store answered in time",
                     &C::reads_answered),
    {.name = "decisiond_caps_store_impressions_total",
     .type = runtime::MetricType::kCounter,
     .help = "impressions sent to the shared cap store, by outcome (unapplied: kept and applied again later)",
     .rows = kImpressionRows},
    {.name = "decisiond_caps_store_pending_serves_total",
     .type = runtime::MetricType::kCounter,
     .help = "pending serves written to the shared cap store, or lost (at the bound or on a store failure)",
     .rows = kPendRows},
};

}  // namespace

const runtime::MetricTable<RedisCapCounters> kRedisCapMetricTable = kMetrics;

}  // namespace caps::redis_store
