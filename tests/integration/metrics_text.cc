#include "tests/integration/metrics_text.h"

#include <cstdlib>

namespace integration {

namespace {
bool has_label(std::string_view label_text, const std::pair<std::string, std::string>& label) {
  const std::string wanted = label.first + "=\"" + label.second + "\"";
  for (size_t at = label_text.find(wanted); at != std::string_view::npos; at = label_text.find(wanted, at + 1)) {
    // A whole label, not the tail of another (route="x" inside subroute="x").
    if (at == 0 || label_text[at - 1] == ',' || label_text[at - 1] == '{') return true;
  }
  return false;
}
}  // namespace

std::optional<double> sum_samples(std::string_view page, std::string_view metric, const Labels& labels) {
  std::optional<double> sum;
  size_t start = 0;
  while (start < page.size()) {
    size_t end = page.find('\n', start);
    if (end == std::string_view::npos) end = page.size();
    const std::string_view line = page.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const size_t name_end = line.find_first_of("{ ");
    if (name_end == std::string_view::npos || line.substr(0, name_end) != metric) continue;
    std::string_view label_text;
    size_t value_start = name_end + 1;
    if (line[name_end] == '{') {
      const size_t close = line.find('}', name_end);
      if (close == std::string_view::npos) continue;
      label_text = line.substr(name_end, close - name_end + 1);
      value_start = close + 2;
    }
    bool matches = true;
    for (const auto& label : labels) matches = matches && has_label(label_text, label);
    if (!matches || value_start > line.size()) continue;
    const std::string value(line.substr(value_start));
    sum = sum.value_or(0) + std::strtod(value.c_str(), nullptr);
  }
  return sum;
}

}  // namespace integration
