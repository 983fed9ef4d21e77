#include "redis_cluster/command.h"

#include <hiredis/hiredis.h>

#include <array>
#include <utility>
#include <vector>

namespace redis_cluster {

namespace {
// Commands of up to this many arguments (all the client's own, and FCALLs with a few keys
// and arguments) are formatted from arrays on the stack; longer ones pay two allocations
// more.
constexpr size_t kArgsOnStack = 32;

int format(char** target, std::span<const std::string_view> args, const char** argv, size_t* lengths) {
  for (size_t i = 0; i < args.size(); ++i) {
    argv[i] = args[i].data();
    lengths[i] = args[i].size();
  }
  return redisFormatCommandArgv(target, static_cast<int>(args.size()), argv, lengths);
}
}  // namespace

FormattedCommand::FormattedCommand(std::span<const std::string_view> args) {
  if (args.empty()) return;
  int length = -1;
  if (args.size() <= kArgsOnStack) {
    std::array<const char*, kArgsOnStack> argv;
    std::array<size_t, kArgsOnStack> lengths;
    length = format(&bytes_, args, argv.data(), lengths.data());
  } else {
    std::vector<const char*> argv(args.size());
    std::vector<size_t> lengths(args.size());
    length = format(&bytes_, args, argv.data(), lengths.data());
  }
  if (length <= 0) {
    clear();
    return;
  }
  length_ = static_cast<size_t>(length);
}

FormattedCommand::~FormattedCommand() { clear(); }

FormattedCommand::FormattedCommand(FormattedCommand&& other) noexcept
    : bytes_(std::exchange(other.bytes_, nullptr)), length_(std::exchange(other.length_, 0)) {}

FormattedCommand& FormattedCommand::operator=(FormattedCommand&& other) noexcept {
  if (this != &other) {
    clear();
    bytes_ = std::exchange(other.bytes_, nullptr);
    length_ = std::exchange(other.length_, 0);
  }
  return *this;
}

void FormattedCommand::clear() {
  if (bytes_ != nullptr) redisFreeCommand(bytes_);
  bytes_ = nullptr;
  length_ = 0;
}

}  // namespace redis_cluster
