#include "tests/integration/redis_cluster/redis_server.h"

#include <filesystem>

#include "tests/integration/redis_cluster/fixture_files.h"

namespace integration {

RedisServer::RedisServer(std::string password) : cli_(RedisCredentials{std::move(password), ""}) {
  root_dir_ = make_temp_dir("decisiond-redis");
  if (root_dir_.empty()) {
    error_ = "mkdtemp failed";
    return;
  }
  node_ = std::make_unique<RedisNode>(
      RedisNodeSettings{root_dir_ + "/server", /*cluster=*/false, 1000, cli_.credentials()});
  ok_ = node_->start(cli_);
  if (!ok_) error_ = node_->error();
}

RedisServer::~RedisServer() { stop(); }

std::string RedisServer::url() const { return "redis://127.0.0.1:" + std::to_string(port()); }

CliReply RedisServer::cli(const std::vector<std::string>& args) const { return cli_.run(port(), args); }

void RedisServer::stop() {
  node_.reset();  // its destructor stops the process
  if (!root_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(root_dir_, ignored);
    root_dir_.clear();
  }
}

}  // namespace integration
