#pragma once
// One plain redis-server (cluster support disabled) on a free loopback port, for the tests
// of a misconfigured cluster URL. Stopped, and its directory removed, when it dies.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/redis_cluster/redis_node.h"

namespace integration {

class RedisServer {
 public:
  explicit RedisServer(std::string password = {});
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  ~RedisServer();

  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  uint16_t port() const { return node_ ? node_->port() : 0; }
  std::string url() const;  // "redis://127.0.0.1:P"; no credentials
  CliReply cli(const std::vector<std::string>& args) const;
  void stop();

 private:
  RedisCli cli_;
  std::string root_dir_;
  std::unique_ptr<RedisNode> node_;
  bool ok_ = false;
  std::string error_;
};

}  // namespace integration
