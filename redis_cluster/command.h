#pragma once
// A command in RESP (an array of bulk strings), formatted by us into a buffer the command
// keeps: formatting again into the same object reuses its capacity, so a call slot that
// has carried a command as long before allocates nothing (STYLE: no allocation on hot
// paths). hiredis's redisFormatCommandArgv, used before, took one malloc and one free per
// call and printed each length with sprintf.
#include <span>
#include <string>
#include <string_view>

namespace redis_cluster {

class FormattedCommand {
 public:
  FormattedCommand() = default;
  explicit FormattedCommand(std::span<const std::string_view> args) { assign(args); }

  // Replaces what is held by args formatted; no arguments leave it empty.
  void assign(std::span<const std::string_view> args);
  // Room for a command of this many bytes without allocating.
  void reserve(size_t bytes) { bytes_.reserve(bytes); }

  std::string_view bytes() const { return bytes_; }
  bool empty() const { return bytes_.empty(); }
  // Keeps the capacity.
  void clear() { bytes_.clear(); }

 private:
  std::string bytes_;
};

}  // namespace redis_cluster
