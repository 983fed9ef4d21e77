#pragma once
// tests/vast_player/read_vast.mjs (@dailymotion/vast-client over @xmldom/xmldom) run over
// documents, its JSON kept for the test to walk (the output shape is in
// tests/vast_player/README.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/json_body.h"

namespace conformance::vast {

struct PlayerOutput {
  int exit_code = -1;
  std::string stderr_text;
  integration::JsonBody json;
};

std::vector<PlayerOutput> read_with_player(const std::vector<std::string>& files, bool replace_macros);

// Members read as the player's JSON gives them; nullopt when absent, null or another type.
std::optional<double> number_member(simdjson::dom::element object, std::string_view key);
std::optional<bool> bool_member(simdjson::dom::element object, std::string_view key);
// The strings of an array member (non-strings skipped).
std::vector<std::string> string_items(simdjson::dom::element object, std::string_view key);
// Member names of an object member.
std::vector<std::string> member_names(simdjson::dom::element object, std::string_view key);

}  // namespace conformance::vast
