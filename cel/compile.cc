#include "cel/compile.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cel/checker.h"
#include "cel/limits.h"
#include "cel/parser.h"
#include "cel/source_position.h"
#include "cel/utf8.h"

namespace cel {

absl::StatusOr<Program> compile(std::string_view source, const CompileOptions& options) {
  if (source.size() > kMaxSourceBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("1:1: expression longer than ", kMaxSourceBytes, " bytes"));
  }
  if (const size_t valid = valid_utf8_prefix(source); valid != source.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        position_text(source, static_cast<uint32_t>(valid)), ": source is not valid UTF-8"));
  }
  absl::StatusOr<Ast> ast = parse(source);
  if (!ast.ok()) return ast.status();
  return check(*ast, source, options);
}

}  // namespace cel
