#include "tests/integration/state_dir_waits.h"

#include <string>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/metrics_text.h"

namespace integration {

namespace {

// The samples of metric for core="0", "1", ... up to the first core without one.
std::vector<double> by_core(const std::string& page, std::string_view metric) {
  std::vector<double> values;
  for (;;) {
    const std::optional<double> value = sum_samples(page, metric, {{"core", std::to_string(values.size())}});
    if (!value) return values;
    values.push_back(*value);
  }
}

std::string describe(const std::vector<double>& per_core) {
  std::string out;
  for (size_t core = 0; core < per_core.size(); ++core) {
    out += (core == 0 ? "core " : ", core ") + std::to_string(core) + ": " +
           std::to_string(static_cast<long long>(per_core[core]));
  }
  return out.empty() ? "no core" : out;
}

}  // namespace

::testing::AssertionResult wait_until_logged(const ServerProcess& server, std::chrono::milliseconds timeout) {
  double accepted = -1, counted = -1;
  std::vector<double> pending;
  bool all_counted_before = false;
  const std::optional<std::string> page = wait_for_page(
      server,
      [&](const std::string& text) {
        accepted = sum_samples(text, "decisiond_tracking_calls_total", {{"kind", "impression"}}).value_or(-1);
        counted = sum_samples(text, "decisiond_impressions_counted_total", {}).value_or(-1) +
                  sum_samples(text, "decisiond_impressions_duplicate_total", {}).value_or(0);
        pending = by_core(text, "decisiond_events_pending_bytes");
        bool written = !pending.empty();
        for (double bytes : pending) written = written && bytes == 0;
        const bool logged = all_counted_before && written;
        all_counted_before = accepted >= 0 && counted == accepted;
        return logged;
      },
      timeout);
  if (page) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not everything acknowledged was logged within " << timeout.count()
                                       << " ms: impression calls accepted " << accepted << ", counted by their owner "
                                       << counted << "; bytes not yet written: " << describe(pending);
}

std::vector<double> snapshots_written(const ServerProcess& server) {
  return by_core(scrape_metrics(server), "decisiond_snapshots_written_total");
}

::testing::AssertionResult wait_for_snapshots_since(const ServerProcess& server, const std::vector<double>& before,
                                                    std::chrono::milliseconds timeout) {
  if (before.empty()) return ::testing::AssertionFailure() << "no snapshot count to wait from (a failed scrape)";
  std::vector<double> written;
  const std::optional<std::string> page = wait_for_page(
      server,
      [&](const std::string& text) {
        written = by_core(text, "decisiond_snapshots_written_total");
        if (written.size() != before.size()) return false;
        for (size_t core = 0; core < written.size(); ++core) {
          if (written[core] <= before[core]) return false;
        }
        return true;
      },
      timeout);
  if (page) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no snapshot of every core within " << timeout.count()
                                       << " ms: snapshots written before " << describe(before) << "; now "
                                       << describe(written);
}

}  // namespace integration
