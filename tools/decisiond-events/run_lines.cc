#include "tools/decisiond-events/run_lines.h"

namespace decisiond_events {

std::vector<std::string_view> run_lines(std::string_view data) {
  if (data.ends_with('\n')) data.remove_suffix(1);
  std::vector<std::string_view> lines;
  for (size_t start = 0;;) {
    const size_t end = data.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(data.substr(start));
      return lines;
    }
    lines.push_back(data.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace decisiond_events
