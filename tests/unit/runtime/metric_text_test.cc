// The metrics page as rendered from components' tables (runtime/metric_text.h): one test
// per rule of the Prometheus text the tables produce.
#include "runtime/metric_text.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace runtime {
namespace {

struct Counts {
  CoreCounter served;
  CoreCounter refused;
  CoreCounter busy_us;
  std::array<CoreCounter, 3> buckets;  // two bounds, then +Inf
  CoreCounter sum_us;
  std::array<CoreCounter, 2> by_key;
  CoreCounter started_s;
};

std::string render(const MetricRegistry& registry, uint32_t answering = 0, int64_t now_wall_s = 0) {
  std::string out;
  render_metrics(registry, answering, now_wall_s, out);
  return out;
}

constexpr Metric<Counts> kServed[] = {counter("t_served_total", "Served, by core.", &Counts::served)};

TEST(MetricText, ACounterHasOneSeriesPerCoreLabelledWithTheCore) {
  Counts core0, core1;
  core0.served.add(3);
  core1.served.add(5);
  MetricRegistry registry(2);
  registry.add(0, kServed, core0);
  registry.add(1, kServed, core1);
  EXPECT_EQ(render(registry),
            "# HELP t_served_total Served, by core.\n# TYPE t_served_total counter\n"
            "t_served_total{core=\"0\"} 3\nt_served_total{core=\"1\"} 5\n");
}

TEST(MetricText, AFamilyOfZerosIsListedWithItsZeros) {
  Counts core0;
  MetricRegistry registry(1);
  registry.add(0, kServed, core0);
  EXPECT_EQ(render(registry), "# HELP t_served_total Served, by core.\n# TYPE t_served_total counter\n"
                              "t_served_total{core=\"0\"} 0\n");
}

uint64_t bucket(const Counts& c, uint32_t, size_t b) { return c.buckets[b].get(); }
uint64_t sum_us(const Counts& c, uint32_t) { return c.sum_us.get(); }
constexpr std::array<int64_t, 2> kBoundsUs = {100, 1'000};
constexpr MetricHistogram<Counts> kLatency{kBoundsUs, 1e-6, &bucket, &sum_us, 1e-6};
constexpr Metric<Counts> kHistogram[] = {{.name = "t_latency_seconds", .type = MetricType::kHistogram,
                                          .help = "Latency.", .scope = MetricScope::kAllCores,
                                          .histogram = &kLatency}};

TEST(MetricText, AHistogramsBucketsAreCumulativeAndSummedOverCores) {
  Counts core0, core1;
  core0.buckets[0].add(1);
  core1.buckets[0].add(2);
  core1.buckets[1].add(4);
  core0.buckets[2].add(1);
  core0.sum_us.add(500);
  core1.sum_us.add(2'000);
  MetricRegistry registry(2);
  registry.add(0, kHistogram, core0);
  registry.add(1, kHistogram, core1);
  EXPECT_EQ(render(registry),
            "# HELP t_latency_seconds Latency.\n# TYPE t_latency_seconds histogram\n"
            "t_latency_seconds_bucket{le=\"0.0001\"} 3\n"
            "t_latency_seconds_bucket{le=\"0.001\"} 7\n"
            "t_latency_seconds_bucket{le=\"+Inf\"} 8\n"
            "t_latency_seconds_sum 0.002500000\n"
            "t_latency_seconds_count 8\n");
}

void two_keys(const Counts&, MetricSeriesList& out) {
  out.add(0, {{"key", "home"}});
  out.add(1, {{"key", "say \"hi\""}});
}
uint64_t by_key(const Counts& c, uint32_t key) { return c.by_key[key].get(); }
constexpr Metric<Counts> kByKey[] = {{.name = "t_keys_total", .type = MetricType::kCounter, .help = "By key.",
                                      .scope = MetricScope::kAllCores, .series = &two_keys, .read = &by_key}};

TEST(MetricText, ALabelFamilySumsEachLabelOverCoresWithItsValueEscaped) {
  Counts core0, core1;
  core0.by_key[0].add(1);
  core1.by_key[0].add(2);
  core1.by_key[1].add(7);
  MetricRegistry registry(2);
  registry.add(0, kByKey, core0);
  registry.add(1, kByKey, core1);
  EXPECT_EQ(render(registry), "# HELP t_keys_total By key.\n# TYPE t_keys_total counter\n"
                              "t_keys_total{key=\"home\"} 3\nt_keys_total{key=\"say \\\"hi\\\"\"} 7\n");
}

constexpr MetricRow<Counts> kOutcomes[] = {{R"(outcome="served")", &Counts::served},
                                           {R"(outcome="refused")", &Counts::refused}};
constexpr Metric<Counts> kRows[] = {
    {.name = "t_calls_total", .type = MetricType::kCounter, .help = "Calls.", .rows = kOutcomes}};

TEST(MetricText, RowsAreOneFamilyWithTheirLabelsThenTheCore) {
  Counts core0, core1;
  core0.refused.add(2);
  core1.served.add(1);
  MetricRegistry registry(2);
  registry.add(0, kRows, core0);
  registry.add(1, kRows, core1);
  EXPECT_EQ(render(registry), "# HELP t_calls_total Calls.\n# TYPE t_calls_total counter\n"
                              "t_calls_total{outcome=\"served\",core=\"0\"} 0\n"
                              "t_calls_total{outcome=\"refused\",core=\"0\"} 2\n"
                              "t_calls_total{outcome=\"served\",core=\"1\"} 1\n"
                              "t_calls_total{outcome=\"refused\",core=\"1\"} 0\n");
}

TEST(MetricText, HelpAndTypeComeOncePerFamilyForATableRegisteredTwice) {
  Counts public0, admin0, public1, admin1;
  public0.served.add(1);
  admin1.served.add(2);
  MetricRegistry registry(2);
  registry.add(0, kServed, public0, R"(listener="public")");
  registry.add(0, kServed, admin0, R"(listener="admin")");
  registry.add(1, kServed, public1, R"(listener="public")");
  registry.add(1, kServed, admin1, R"(listener="admin")");
  EXPECT_EQ(render(registry), "# HELP t_served_total Served, by core.\n# TYPE t_served_total counter\n"
                              "t_served_total{listener=\"public\",core=\"0\"} 1\n"
                              "t_served_total{listener=\"public\",core=\"1\"} 0\n"
                              "t_served_total{listener=\"admin\",core=\"0\"} 0\n"
                              "t_served_total{listener=\"admin\",core=\"1\"} 2\n");
}

constexpr Metric<Counts> kSkipZero[] = {{.name = "t_refused_total", .type = MetricType::kCounter,
                                         .help = "Refused.", .counter = &Counts::refused, .skip_zero = true}};

TEST(MetricText, SkipZeroLeavesOutEmptySeriesButKeepsTheHeader) {
  Counts core0, core1;
  core1.refused.add(4);
  MetricRegistry registry(2);
  registry.add(0, kSkipZero, core0);
  registry.add(1, kSkipZero, core1);
  EXPECT_EQ(render(registry), "# HELP t_refused_total Refused.\n# TYPE t_refused_total counter\n"
                              "t_refused_total{core=\"1\"} 4\n");
  core1.refused.set(0);
  EXPECT_EQ(render(registry), "# HELP t_refused_total Refused.\n# TYPE t_refused_total counter\n");
}

constexpr Metric<Counts> kAnswering[] = {
    {.name = "t_served", .type = MetricType::kGauge, .help = "Served here.", .scope = MetricScope::kAnswering,
     .counter = &Counts::served},
    {.name = "t_age_seconds", .type = MetricType::kGauge, .help = "Since start.", .scope = MetricScope::kAnswering,
     .counter = &Counts::started_s, .age = true},
    gauge("t_busy_seconds", "Busy.", &Counts::busy_us, 1e-6),
};

TEST(MetricText, AnsweringCoreFamiliesReadThatCoreAloneWithoutACoreLabel) {
  Counts core0, core1;
  core0.served.add(1);
  core1.served.add(9);
  core1.started_s.set(1'000);
  core1.busy_us.set(1'500);
  MetricRegistry registry(2);
  registry.add(0, kAnswering, core0);
  registry.add(1, kAnswering, core1);
  const std::string page = render(registry, /*answering=*/1, /*now_wall_s=*/1'042);
  EXPECT_NE(page.find("\nt_served 9\n"), std::string::npos) << page;
  EXPECT_NE(page.find("\nt_age_seconds 42\n"), std::string::npos) << page;       // an age: now - the time read
  EXPECT_NE(page.find("t_busy_seconds{core=\"1\"} 0.0015\n"), std::string::npos) << page;  // a unit: scaled
}

TEST(MetricText, FamiliesFollowTheOrderTablesWereRegisteredIn) {
  Counts core0;
  MetricRegistry registry(1);
  registry.add(0, kSkipZero, core0);
  registry.add(0, kServed, core0);
  const std::string page = render(registry);
  EXPECT_LT(page.find("t_refused_total"), page.find("t_served_total"));
}

constexpr Metric<Counts> kTwoWays[] = {{.name = "t_bad", .type = MetricType::kCounter, .help = "Bad.",
                                        .counter = &Counts::served, .read = &by_key}};

TEST(MetricTextDeathTest, ATableReadingAValueTwoWaysFailsWhenRegistered) {
  Counts core0;
  MetricRegistry registry(1);
  EXPECT_DEATH(registry.add(0, kTwoWays, core0), "one way");
}

TEST(MetricTextDeathTest, CoresRegisteringDifferentTablesFailAtTheScrape) {
  Counts core0, core1;
  MetricRegistry registry(2);
  registry.add(0, kServed, core0);
  registry.add(1, kRows, core1);
  EXPECT_DEATH(render(registry), "check failed");
}

}  // namespace
}  // namespace runtime
