#pragma once
// What a core exports: (table, object) pairs, the table's object type erased, in page
// order. Each core fills its own list at set-up, before any core serves, and never after;
// scrapes on any core read every list then (the values are single-writer CoreCounters or
// atomics of the object's core).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/check.h"
#include "runtime/metric_table.h"

namespace runtime {

template <typename T>
using MetricTable = std::span<const Metric<T>>;

// A family as the page needs it, whatever its object's type.
struct MetricFamilyInfo {
  std::string_view name;
  MetricType type;
  std::string_view help;
  MetricScope scope;
  double unit;
  bool skip_zero;
  bool age;
  std::span<const int64_t> bounds;  // histograms only
  double bound_unit;
  double sum_unit;
};

class MetricSource {
 public:
  // table and object outlive the source. labels, e.g. listener="public" (a table registered
  // once per listener), go first on every series of the table.
  template <typename T>
  MetricSource(MetricTable<T> table, const T& object, std::string_view labels = {});

  size_t families() const { return size_; }
  bool same_table(const MetricSource& other) const { return table_ == other.table_; }
  std::string_view labels() const { return labels_; }
  MetricFamilyInfo family(size_t f) const { return ops_->family(table_, f); }
  void series(size_t f, MetricSeriesList& out) const { ops_->series(table_, f, object_, out); }
  uint64_t value(size_t f, uint32_t key) const { return ops_->value(table_, f, object_, key); }
  uint64_t bucket(size_t f, uint32_t key, size_t b) const { return ops_->bucket(table_, f, object_, key, b); }
  uint64_t sum(size_t f, uint32_t key) const { return ops_->sum(table_, f, object_, key); }

 private:
  struct Ops {
    MetricFamilyInfo (*family)(const void* table, size_t f);
    void (*series)(const void* table, size_t f, const void* object, MetricSeriesList& out);
    uint64_t (*value)(const void* table, size_t f, const void* object, uint32_t key);
    uint64_t (*bucket)(const void* table, size_t f, const void* object, uint32_t key, size_t b);
    uint64_t (*sum)(const void* table, size_t f, const void* object, uint32_t key);
  };
  template <typename T>
  struct TypedOps;

  const void* table_;
  size_t size_;
  const void* object_;
  std::string_view labels_;
  const Ops* ops_;
};

// Every core's list.
class MetricRegistry {
 public:
  explicit MetricRegistry(uint32_t cores) : cores_(cores) {}

  // On core's thread at its set-up. Every core adds the same tables in the same order.
  template <typename T>
  void add(uint32_t core, MetricTable<T> table, const T& object, std::string_view labels = {}) {
    cores_.at(core).emplace_back(table, object, labels);
  }
  template <typename T, size_t N>
  void add(uint32_t core, const Metric<T> (&table)[N], const T& object, std::string_view labels = {}) {
    add(core, MetricTable<T>(table), object, labels);
  }
  uint32_t cores() const { return static_cast<uint32_t>(cores_.size()); }
  const std::vector<MetricSource>& of(uint32_t core) const { return cores_[core]; }

 private:
  std::vector<std::vector<MetricSource>> cores_;
};

// The erasure: each function casts back to the types the source was made with.
template <typename T>
struct MetricSource::TypedOps {
  static const Metric<T>& at(const void* table, size_t f) { return static_cast<const Metric<T>*>(table)[f]; }
  static const T& of(const void* object) { return *static_cast<const T*>(object); }

  static MetricFamilyInfo family(const void* table, size_t f) {
    const Metric<T>& m = at(table, f);
    MetricFamilyInfo info{m.name, m.type, m.help, m.scope, m.unit, m.skip_zero, m.age, {}, 0, 0};
    if (m.histogram != nullptr) {
      info.bounds = m.histogram->bounds;
      info.bound_unit = m.histogram->bound_unit;
      info.sum_unit = m.histogram->sum_unit;
    }
    return info;
  }
  static void series(const void* table, size_t f, const void* object, MetricSeriesList& out) {
    const Metric<T>& m = at(table, f);
    if (m.series != nullptr) {
      m.series(of(object), out);
    } else if (!m.rows.empty()) {
      for (size_t r = 0; r < m.rows.size(); ++r) out.add_formatted(static_cast<uint32_t>(r), m.rows[r].labels);
    } else {
      out.add_formatted(0, {});
    }
  }
  static uint64_t value(const void* table, size_t f, const void* object, uint32_t key) {
    const Metric<T>& m = at(table, f);
    if (m.counter != nullptr) return (of(object).*m.counter).get();
    if (!m.rows.empty()) return (of(object).*m.rows[key].counter).get();
    return m.read(of(object), key);
  }
  static uint64_t bucket(const void* table, size_t f, const void* object, uint32_t key, size_t b) {
    return at(table, f).histogram->bucket(of(object), key, b);
  }
  static uint64_t sum(const void* table, size_t f, const void* object, uint32_t key) {
    return at(table, f).histogram->sum(of(object), key);
  }
  static constexpr Ops kOps{&family, &series, &value, &bucket, &sum};
};

// One way to read each family's value, and histograms summed over cores only: a table
// that breaks these fails at the core's set-up, not at a scrape.
template <typename T>
void check_metric(const Metric<T>& m) {
  const int sources = (m.counter != nullptr) + !m.rows.empty() + (m.read != nullptr) + (m.histogram != nullptr);
  DECISIOND_CHECK_MSG(sources == 1, "a metric reads its value one way");
  DECISIOND_CHECK_MSG((m.type == MetricType::kHistogram) == (m.histogram != nullptr), "histogram type and buckets");
  DECISIOND_CHECK_MSG(m.histogram == nullptr || m.scope == MetricScope::kAllCores, "histograms sum all cores");
  DECISIOND_CHECK_MSG(m.series == nullptr || m.read != nullptr || m.histogram != nullptr, "series need a reader");
}

template <typename T>
MetricSource::MetricSource(MetricTable<T> table, const T& object, std::string_view labels)
    : table_(table.data()), size_(table.size()), object_(&object), labels_(labels), ops_(&TypedOps<T>::kOps) {
  for (const Metric<T>& m : table) check_metric(m);
}

}  // namespace runtime
