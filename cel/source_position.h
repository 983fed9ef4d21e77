#pragma once
// Where in an expression something happened, as people count: "line:column", both from 1,
// columns in code points (cel-go's convention, so messages match what authors see in
// other CEL tools).
#include <cstdint>
#include <string>
#include <string_view>

namespace cel {

struct LineColumn {
  uint32_t line = 1;
  uint32_t column = 1;
};

LineColumn line_column(std::string_view source, uint32_t offset);
// "3:14"
std::string position_text(std::string_view source, uint32_t offset);

}  // namespace cel
