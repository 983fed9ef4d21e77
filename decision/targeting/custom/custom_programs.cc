#include "decision/targeting/custom/custom_programs.h"

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "cel/compile.h"
#include "cel/compile_options.h"

namespace decision::targeting {

namespace {
VariableSet variables_read(const cel::Program& program) {
  VariableSet read = 0;
  for (uint32_t id = 0; id < program.node_count(); ++id) {
    const cel::Node& node = program.node(id);
    if (node.op == cel::Op::kVariable && node.operand[0] < cel::kRequestVariables.size()) {
      read |= static_cast<VariableSet>(1u << node.operand[0]);
    }
  }
  return read;
}
}  // namespace

CustomPrograms::CustomPrograms(std::span<const catalog::Ad> ads) {
  program_of_ad_.assign(ads.size(), kNone);
  absl::flat_hash_map<std::string_view, uint32_t> by_source;  // views into ads
  for (size_t i = 0; i < ads.size(); ++i) {
    const std::optional<catalog::CustomExpression>& custom = ads[i].targeting.custom;
    if (!custom) continue;
    const auto [found, inserted] = by_source.try_emplace(custom->source, kUncompiled);
    if (inserted) {
      absl::StatusOr<cel::Program> program = cel::compile(custom->source);
      if (program.ok()) {
        found->second = static_cast<uint32_t>(programs_.size());
        variables_.push_back(variables_read(*program));
        programs_.push_back(std::move(*program));
      }
    }
    program_of_ad_[i] = found->second;
  }
}

}  // namespace decision::targeting
