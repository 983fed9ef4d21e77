#include "tests/integration/keys_tool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/integration/tracking_client.h"

namespace integration {

ToolRun run_keys_binary(const std::string& arguments) {
  ToolRun result;
  const std::string binary = DECISIOND_KEYS_BINARY;
  if (!std::filesystem::exists(binary)) {
    ADD_FAILURE() << binary << " is missing: build the decisiond-keys target";
    return result;
  }
  return test_support::run_command(binary + " " + arguments + " 2>&1");
}

ToolRun run_keys_tool(const std::string& state_dir, const std::string& arguments) {
  return run_keys_binary("--state-dir=" + state_dir + " " + arguments);
}

int key_id_of_token(std::string_view token) {
  const std::string bytes = token_bytes(token);
  if (bytes.size() < 2) return -1;
  return (static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1]);
}

int key_id_of_tag(std::string_view query) {
  const size_t at = query.find("&kid=");
  if (at == std::string_view::npos) return -1;
  return std::atoi(std::string(query.substr(at + 5)).c_str());
}

}  // namespace integration
