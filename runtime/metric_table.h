#pragma once
// A component's metrics as data (docs/architecture.md "Metrics without shared mutable
// state", docs/operations.md "Health and metrics"): one table beside its
// counters says, per family, its name, help, type, labels and where each value is read,
// most often a pointer to a runtime::CoreCounter of the component's counters struct. A
// core registers (table, object) pairs at set-up (metric_source.h); a scrape walks them
// (metric_text.h). A new counter is one row in its table. Nothing here is on the request
// path: tables are read by scrapes only.
//
//   constexpr runtime::Metric<VastTagCounters> kVastTagMetrics[] = {
//       runtime::counter("decisiond_vast_documents_total", "VAST tag fetches ...", &VastTagCounters::documents),
//   };
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core_counter.h"

namespace runtime {

enum class MetricType : uint8_t { kCounter, kGauge, kHistogram };

// Which cores' objects a family reads, and whether its series carry a core label.
enum class MetricScope : uint8_t {
  kByCore,     // a series per core, labelled core="N"
  kAllCores,   // each series summed over every core; no core label
  kAnswering,  // the object of the core answering the scrape only (what every core holds
               // alike, or what only its own thread may read); no core label
};

// The series of a family whose labels the object knows (routes, placement keys, a catalog
// revision): the reader gets back each series' key. Values are escaped here.
class MetricSeriesList {
 public:
  struct Series {
    uint32_t key;
    std::string labels;  // name="value",... as they go between the braces
  };
  using Label = std::pair<std::string_view, std::string_view>;

  void add(uint32_t key, std::initializer_list<Label> labels);
  // labels already in the format (a table's constant ones).
  void add_formatted(uint32_t key, std::string_view labels) { list_.push_back({key, std::string(labels)}); }
  const std::vector<Series>& list() const { return list_; }

 private:
  std::vector<Series> list_;
};

// One series of fixed labels, e.g. {R"(kind="click")", &TrackingCounters::clicks}.
template <typename T>
struct MetricRow {
  std::string_view labels;
  const CoreCounter T::*counter;
};

// Buckets per series, each counted apart (the last is +Inf); the page makes them
// cumulative and sums them over cores.
template <typename T>
struct MetricHistogram {
  std::span<const int64_t> bounds;  // upper bounds in units of bound_unit, +Inf not included
  double bound_unit;                // to the family's unit, e.g. 1e-6 from microseconds to seconds
  uint64_t (*bucket)(const T&, uint32_t key, size_t bucket);
  uint64_t (*sum)(const T&, uint32_t key);
  double sum_unit;
};

// One family. Its value is exactly one of: counter; rows; read (one value, key 0, or one
// per series when series is set); histogram (type kHistogram, series optional).
template <typename T>
struct Metric {
  std::string_view name;
  MetricType type;
  std::string_view help;
  MetricScope scope = MetricScope::kByCore;
  const CoreCounter T::*counter = nullptr;
  std::span<const MetricRow<T>> rows = {};
  void (*series)(const T&, MetricSeriesList&) = nullptr;
  uint64_t (*read)(const T&, uint32_t key) = nullptr;
  const MetricHistogram<T>* histogram = nullptr;
  double unit = 0;         // 0: the value as it is; else its scale to the family's unit
  bool skip_zero = false;  // leave out series (histograms: label sets) with nothing counted
  bool age = false;        // the value is a Unix time in seconds: export the seconds since it
};

template <typename T>
constexpr Metric<T> counter(std::string_view name, std::string_view help, const CoreCounter T::*value,
                            double unit = 0) {
  return {.name = name, .type = MetricType::kCounter, .help = help, .counter = value, .unit = unit};
}

template <typename T>
constexpr Metric<T> gauge(std::string_view name, std::string_view help, const CoreCounter T::*value,
                          double unit = 0) {
  return {.name = name, .type = MetricType::kGauge, .help = help, .counter = value, .unit = unit};
}

}  // namespace runtime
