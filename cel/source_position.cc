#include "cel/source_position.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace cel {

LineColumn line_column(std::string_view source, uint32_t offset) {
  LineColumn at;
  const size_t end = std::min<size_t>(offset, source.size());
  for (size_t i = 0; i < end; ++i) {
    const auto c = static_cast<unsigned char>(source[i]);
    if (c == '\n') {
      ++at.line;
      at.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++at.column;
    }
  }
  return at;
}

std::string position_text(std::string_view source, uint32_t offset) {
  const LineColumn at = line_column(source, offset);
  return absl::StrCat(at.line, ":", at.column);
}

}  // namespace cel
