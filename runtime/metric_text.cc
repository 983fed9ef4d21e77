#include "runtime/metric_text.h"

#include <initializer_list>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/absl_view.h"

namespace runtime {

namespace {

// One family of one registration, as each core holds it at `index` of its list.
struct FamilyAt {
  const MetricRegistry& registry;
  size_t index;  // into every core's list
  size_t f;      // into the table
  const MetricFamilyInfo& info;

  const MetricSource& on(uint32_t core) const { return registry.of(core)[index]; }
};

void header(std::string& out, const MetricFamilyInfo& info) {
  static constexpr std::string_view kTypes[] = {"counter", "gauge", "histogram"};
  absl::StrAppend(&out, "# HELP ", av(info.name), " ", av(info.help), "\n# TYPE ", av(info.name), " ",
                  av(kTypes[static_cast<size_t>(info.type)]), "\n");
}

// name{a,b,...} with the empty parts left out, and no braces when all are.
void series_start(std::string& out, std::string_view name, std::string_view suffix,
                  std::initializer_list<std::string_view> labels) {
  absl::StrAppend(&out, av(name), av(suffix));
  bool first = true;
  for (std::string_view part : labels) {
    if (part.empty()) continue;
    out += first ? '{' : ',';
    out += part;
    first = false;
  }
  if (!first) out += '}';
  out += ' ';
}

void append_value(std::string& out, const MetricFamilyInfo& info, uint64_t value, int64_t now_wall_s) {
  if (info.age) {
    absl::StrAppend(&out, now_wall_s - static_cast<int64_t>(value));
  } else if (info.unit == 0) {
    absl::StrAppend(&out, value);
  } else {
    absl::StrAppend(&out, absl::StrFormat("%.9g", static_cast<double>(value) * info.unit));
  }
  out += '\n';
}

void by_core(const FamilyAt& family, int64_t now_wall_s, std::string& out) {
  for (uint32_t core = 0; core < family.registry.cores(); ++core) {
    const MetricSource& source = family.on(core);
    MetricSeriesList series;
    source.series(family.f, series);
    const std::string core_label = absl::StrCat("core=\"", core, "\"");
    for (const MetricSeriesList::Series& s : series.list()) {
      const uint64_t value = source.value(family.f, s.key);
      if (family.info.skip_zero && value == 0) continue;
      series_start(out, family.info.name, "", {source.labels(), s.labels, core_label});
      append_value(out, family.info, value, now_wall_s);
    }
  }
}

// The series are those core 0 lists: every core lists the same (what differs, e.g. a
// placement key a catalog build adds meanwhile, waits for the next scrape).
void all_cores(const FamilyAt& family, int64_t now_wall_s, std::string& out) {
  MetricSeriesList series;
  family.on(0).series(family.f, series);
  for (const MetricSeriesList::Series& s : series.list()) {
    uint64_t value = 0;
    for (uint32_t core = 0; core < family.registry.cores(); ++core) value += family.on(core).value(family.f, s.key);
    if (family.info.skip_zero && value == 0) continue;
    series_start(out, family.info.name, "", {family.on(0).labels(), s.labels});
    append_value(out, family.info, value, now_wall_s);
  }
}

void answering_core(const FamilyAt& family, uint32_t answering, int64_t now_wall_s, std::string& out) {
  const MetricSource& source = family.on(answering);
  MetricSeriesList series;
  source.series(family.f, series);
  for (const MetricSeriesList::Series& s : series.list()) {
    const uint64_t value = source.value(family.f, s.key);
    if (family.info.skip_zero && value == 0) continue;
    series_start(out, family.info.name, "", {source.labels(), s.labels});
    append_value(out, family.info, value, now_wall_s);
  }
}

// Buckets cumulative over bounds and summed over cores; _sum and _count after them.
void histogram(const FamilyAt& family, std::string& out) {
  const MetricFamilyInfo& info = family.info;
  MetricSeriesList series;
  family.on(0).series(family.f, series);
  for (const MetricSeriesList::Series& s : series.list()) {
    const std::string_view instance = family.on(0).labels();
    uint64_t cumulative = 0;
    std::string lines;
    for (size_t b = 0; b <= info.bounds.size(); ++b) {
      for (uint32_t core = 0; core < family.registry.cores(); ++core) cumulative += family.on(core).bucket(family.f, s.key, b);
      const std::string le = absl::StrCat(
          "le=\"", b < info.bounds.size() ? absl::StrFormat("%g", info.bounds[b] * info.bound_unit) : "+Inf", "\"");
      series_start(lines, info.name, "_bucket", {instance, s.labels, le});
      absl::StrAppend(&lines, cumulative, "\n");
    }
    if (info.skip_zero && cumulative == 0) continue;
    uint64_t sum = 0;
    for (uint32_t core = 0; core < family.registry.cores(); ++core) sum += family.on(core).sum(family.f, s.key);
    out += lines;
    series_start(out, info.name, "_sum", {instance, s.labels});
    absl::StrAppend(&out, absl::StrFormat("%.9f", static_cast<double>(sum) * info.sum_unit), "\n");
    series_start(out, info.name, "_count", {instance, s.labels});
    absl::StrAppend(&out, cumulative, "\n");
  }
}

void render_family(const FamilyAt& family, uint32_t answering, int64_t now_wall_s, std::string& out) {
  if (family.info.type == MetricType::kHistogram) return histogram(family, out);
  switch (family.info.scope) {
    case MetricScope::kByCore: return by_core(family, now_wall_s, out);
    case MetricScope::kAllCores: return all_cores(family, now_wall_s, out);
    case MetricScope::kAnswering: return answering_core(family, answering, now_wall_s, out);
  }
}

// Every core registers the same tables in the same order (CoreServices does it in one place).
void check_alike(const MetricRegistry& registry) {
  const std::vector<MetricSource>& first = registry.of(0);
  for (uint32_t core = 1; core < registry.cores(); ++core) {
    const std::vector<MetricSource>& list = registry.of(core);
    DECISIOND_CHECK_MSG(list.size() == first.size(), "every core registers the same metric tables");
    for (size_t i = 0; i < list.size(); ++i) DECISIOND_CHECK(list[i].same_table(first[i]));
  }
}

}  // namespace

void render_metrics(const MetricRegistry& registry, uint32_t answering, int64_t now_wall_s, std::string& out) {
  out.clear();
  DECISIOND_CHECK(registry.cores() > 0 && answering < registry.cores());
  check_alike(registry);
  const std::vector<MetricSource>& sources = registry.of(0);
  for (size_t group = 0; group < sources.size();) {
    size_t end = group + 1;  // a table registered several times in a row is one set of families
    while (end < sources.size() && sources[end].same_table(sources[group])) ++end;
    for (size_t f = 0; f < sources[group].families(); ++f) {
      const MetricFamilyInfo info = sources[group].family(f);
      header(out, info);
      for (size_t index = group; index < end; ++index) render_family({registry, index, f, info}, answering, now_wall_s, out);
    }
    group = end;
  }
}

void append_label_value(std::string& out, std::string_view value) {
  for (const char c : value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c; break;
    }
  }
}

void MetricSeriesList::add(uint32_t key, std::initializer_list<Label> labels) {
  std::string formatted;
  for (const Label& label : labels) {
    if (!formatted.empty()) formatted += ',';
    absl::StrAppend(&formatted, av(label.first), "=\"");
    append_label_value(formatted, label.second);
    formatted += '"';
  }
  list_.push_back({key, std::move(formatted)});
}

}  // namespace runtime
