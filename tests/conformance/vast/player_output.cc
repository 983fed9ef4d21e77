#include "tests/conformance/vast/player_output.h"

#include "tests/conformance/vast/tool_runs.h"

namespace conformance::vast {

std::vector<PlayerOutput> read_with_player(const std::vector<std::string>& files, bool replace_macros) {
  const std::string command =
      "node " + shell_quote(READ_VAST_SCRIPT) + (replace_macros ? " --replace-macros" : "");
  std::vector<PlayerOutput> outputs;
  for (FileRun& run : run_per_file(command, files)) {
    outputs.push_back({run.exit_code, std::move(run.err), integration::JsonBody(run.out)});
  }
  return outputs;
}

std::optional<double> number_member(simdjson::dom::element object, std::string_view key) {
  const std::optional<simdjson::dom::element> value = integration::member(object, key);
  double number = 0;
  if (!value || value->get_double().get(number) != simdjson::SUCCESS) return std::nullopt;
  return number;
}

std::optional<bool> bool_member(simdjson::dom::element object, std::string_view key) {
  const std::optional<simdjson::dom::element> value = integration::member(object, key);
  bool flag = false;
  if (!value || value->get_bool().get(flag) != simdjson::SUCCESS) return std::nullopt;
  return flag;
}

std::vector<std::string> string_items(simdjson::dom::element object, std::string_view key) {
  std::vector<std::string> out;
  for (simdjson::dom::element item : integration::array_member(object, key)) {
    std::string_view text;
    if (item.get_string().get(text) == simdjson::SUCCESS) out.emplace_back(text);
  }
  return out;
}

std::vector<std::string> member_names(simdjson::dom::element object, std::string_view key) {
  std::vector<std::string> out;
  const std::optional<simdjson::dom::element> value = integration::member(object, key);
  simdjson::dom::object members;
  if (!value || value->get_object().get(members) != simdjson::SUCCESS) return out;
  for (auto field : members) out.emplace_back(field.key);
  return out;
}

}  // namespace conformance::vast
