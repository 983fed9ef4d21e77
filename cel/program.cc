#include "cel/program.h"

#include <re2/re2.h>

#include "absl/strings/str_cat.h"
#include "cel/source_position.h"
#include "runtime/absl_view.h"

namespace cel {
namespace {

// Constants are bounded by the source size; this only guards the arena's own arithmetic.
constexpr size_t kConstantBytesMax = size_t{64} << 20;

}  // namespace

Program::Program() : constant_arena_(kConstantBytesMax) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

std::optional<size_t> Program::variable_slot(std::string_view name) const {
  for (size_t i = 0; i < variable_names_.size(); ++i) {
    if (variable_names_[i] == name) return i;
  }
  return std::nullopt;
}

std::string Program::error_text(const Value& error) const {
  return absl::StrCat(position_text(source_, error.error_offset()), ": ",
                      runtime::av(error_message(error.error_code())));
}

}  // namespace cel
