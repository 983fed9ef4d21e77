#include "redis_cluster/reply.h"

#include <hiredis/read.h>

#include <cstdint>

#include "runtime/check.h"

namespace redis_cluster {

namespace {
// The reader keeps its input buffer between replies unless it is empty and holds more than
// this unused: ordinary replies reuse one buffer, a huge one (a big CLUSTER SHARDS) gives
// its memory back once read.
constexpr size_t kReaderBufferKeptBytes = 1 << 20;

void* encode(uint32_t index) { return reinterpret_cast<void*>(uintptr_t{index} + 1); }
uint32_t decode(void* object) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(object) - 1); }

redisReplyObjectFunctions kArenaFunctions = {
    &ReplyArena::create_string, &ReplyArena::create_array, &ReplyArena::create_integer,
    &ReplyArena::create_nil,    &ReplyArena::free_object,
};
}  // namespace

Reply::Kind Reply::kind() const { return arena_->nodes_[node_].kind; }

std::string_view Reply::text() const {
  const ReplyArena::Node& n = arena_->nodes_[node_];
  if (n.kind != Kind::kString && n.kind != Kind::kStatus && n.kind != Kind::kError) return {};
  return std::string_view(arena_->bytes_).substr(n.first, n.count);
}

int64_t Reply::integer() const {
  const ReplyArena::Node& n = arena_->nodes_[node_];
  return n.kind == Kind::kInteger ? n.integer : 0;
}

size_t Reply::size() const {
  const ReplyArena::Node& n = arena_->nodes_[node_];
  return n.kind == Kind::kArray ? n.count : 0;
}

Reply Reply::at(size_t i) const {
  const ReplyArena::Node& n = arena_->nodes_[node_];
  DECISIOND_CHECK_MSG(n.kind == Kind::kArray && i < n.count, "reply element out of range");
  return Reply(arena_, static_cast<uint32_t>(n.first + i));
}

ReplyArena::Node* ReplyArena::place(const redisReadTask* task, uint32_t& index) {
  auto* arena = static_cast<ReplyArena*>(task->privdata);
  if (task->parent == nullptr) {
    arena->nodes_.clear();
    arena->bytes_.clear();
    arena->nodes_.emplace_back();
    index = 0;
  } else {
    const Node& parent = arena->nodes_[decode(task->parent->obj)];
    DECISIOND_CHECK_MSG(static_cast<uint64_t>(task->idx) < parent.count, "reply element beyond its array");
    index = static_cast<uint32_t>(parent.first + static_cast<uint64_t>(task->idx));
  }
  return &arena->nodes_[index];
}

void* ReplyArena::create_string(const redisReadTask* task, char* bytes, size_t length) {
  uint32_t index = 0;
  Node* node = place(task, index);
  auto* arena = static_cast<ReplyArena*>(task->privdata);
  node->kind = task->type == REDIS_REPLY_ERROR    ? Reply::Kind::kError
               : task->type == REDIS_REPLY_STATUS ? Reply::Kind::kStatus
                                                  : Reply::Kind::kString;
  node->first = arena->bytes_.size();
  node->count = static_cast<uint32_t>(length);
  // Copied: the reader may move its buffer before the reply is complete.
  arena->bytes_.append(bytes, length);
  return encode(index);
}

void* ReplyArena::create_array(const redisReadTask* task, int elements) {
  auto* arena = static_cast<ReplyArena*>(task->privdata);
  // A root clears the arena first: the last reply's size does not count against this one.
  const size_t in_use = task->parent == nullptr ? 1 : arena->nodes_.size();
  if (elements < 0 || in_use + static_cast<size_t>(elements) > kMaxNodes) return nullptr;
  uint32_t index = 0;
  Node* node = place(task, index);
  node->kind = Reply::Kind::kArray;
  node->count = static_cast<uint32_t>(elements);
  node->first = arena->nodes_.size();
  arena->nodes_.resize(arena->nodes_.size() + static_cast<size_t>(elements));  // node is stale from here
  return encode(index);
}

void* ReplyArena::create_integer(const redisReadTask* task, long long value) {
  uint32_t index = 0;
  Node* node = place(task, index);
  node->kind = Reply::Kind::kInteger;
  node->integer = value;
  return encode(index);
}

void* ReplyArena::create_nil(const redisReadTask* task) {
  uint32_t index = 0;
  place(task, index)->kind = Reply::Kind::kNil;
  return encode(index);
}

// The arena owns every element and is cleared by the next reply's root.
void ReplyArena::free_object(void*) {}

RespReader::RespReader() { reset(); }

RespReader::~RespReader() {
  if (reader_ != nullptr) redisReaderFree(reader_);
}

void RespReader::reset() {
  if (reader_ != nullptr) redisReaderFree(reader_);
  reader_ = redisReaderCreateWithFunctions(&kArenaFunctions);
  DECISIOND_CHECK_MSG(reader_ != nullptr, "out of memory creating a RESP reader");
  reader_->privdata = &arena_;
  reader_->maxbuf = kReaderBufferKeptBytes;
}

bool RespReader::feed(std::string_view bytes) { return redisReaderFeed(reader_, bytes.data(), bytes.size()) == REDIS_OK; }

RespReader::Result RespReader::next() {
  void* object = nullptr;
  if (redisReaderGetReply(reader_, &object) != REDIS_OK) return Result::kProtocolError;
  if (object == nullptr) return Result::kNeedMore;
  return Result::kReply;
}

std::string_view RespReader::error() const { return reader_->errstr; }

}  // namespace redis_cluster
