#pragma once
// tools/decisiond-keys as the tests run it (docs/keys.md), and the key ids that tokens and
// signed VAST tags carry: which key sealed what a server issued.
#include <string>
#include <string_view>

#include "tests/support/command_run.h"

namespace integration {

// Standard output and error, and the exit status.
using ToolRun = test_support::CommandRun;

// decisiond-keys with these arguments (a test failure when the binary is missing).
ToolRun run_keys_binary(const std::string& arguments);
// decisiond-keys --state-dir=<state_dir> <arguments>.
ToolRun run_keys_tool(const std::string& state_dir, const std::string& arguments);

// The key id a token was sealed with: its first two bytes (docs/tokens.md); -1 when it has
// none.
int key_id_of_token(std::string_view token);
// The kid= parameter of a tag query; -1 when it has none.
int key_id_of_tag(std::string_view query);

}  // namespace integration
