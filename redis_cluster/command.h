#pragma once
// A command in RESP, formatted by hiredis's redisFormatCommandArgv: one malloc for the
// bytes (and its free when the command is done), the only allocation a call costs; the
// formatter needs no hiredis context or event loop, so the ring stays the only I/O path.
#include <span>
#include <string_view>

namespace redis_cluster {

class FormattedCommand {
 public:
  FormattedCommand() = default;
  explicit FormattedCommand(std::span<const std::string_view> args);
  ~FormattedCommand();
  FormattedCommand(FormattedCommand&& other) noexcept;
  FormattedCommand& operator=(FormattedCommand&& other) noexcept;
  FormattedCommand(const FormattedCommand&) = delete;
  FormattedCommand& operator=(const FormattedCommand&) = delete;

  // Empty when there was nothing to format (no arguments) or the allocation failed.
  std::string_view bytes() const { return {bytes_, length_}; }
  bool empty() const { return length_ == 0; }
  void clear();

 private:
  char* bytes_ = nullptr;
  size_t length_ = 0;
};

}  // namespace redis_cluster
