#pragma once
// RESP replies, parsed by hiredis's redisReader into a per-connection arena of our own:
// the reader only tokenizes, and our object functions place every element in two vectors
// (nodes and bytes) that are cleared, not freed, from one reply to the next, so a warm
// connection allocates nothing per reply. A Reply is a view into that arena, valid until
// the connection reads its next reply (callers see it only during their callback).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct redisReader;
struct redisReadTask;

namespace redis_cluster {

class ReplyArena;

class Reply {
 public:
  enum class Kind : uint8_t { kString, kStatus, kError, kInteger, kNil, kArray };

  Kind kind() const;
  std::string_view text() const;  // string, status, error; empty otherwise
  int64_t integer() const;        // integer; 0 otherwise
  size_t size() const;            // array elements; 0 otherwise
  Reply at(size_t i) const;       // i < size()

  bool is_error() const { return kind() == Kind::kError; }
  // An error reply whose text starts with prefix (e.g. "MOVED ", "ERR Function not found").
  bool is_error_starting(std::string_view prefix) const { return is_error() && text().starts_with(prefix); }

 private:
  friend class ReplyArena;
  Reply(const ReplyArena* arena, uint32_t node) : arena_(arena), node_(node) {}
  const ReplyArena* arena_;
  uint32_t node_;
};

class ReplyArena {
 public:
  // A reply of more elements than this (all levels together) is refused as a protocol
  // error: the arena's growth is bounded even against a hostile or broken server.
  static constexpr uint32_t kMaxNodes = 1u << 20;

  Reply root() const { return Reply(this, 0); }

  // The object functions redisReaderCreateWithFunctions takes. Objects handed back to the
  // reader are node indexes plus one (never null, which the reader takes for "out of
  // memory"); the reader's privdata is the arena.
  static void* create_string(const redisReadTask* task, char* bytes, size_t length);
  static void* create_array(const redisReadTask* task, int elements);
  static void* create_integer(const redisReadTask* task, long long value);
  static void* create_nil(const redisReadTask* task);
  static void free_object(void* object);

 private:
  friend class Reply;
  struct Node {
    Reply::Kind kind = Reply::Kind::kNil;
    uint32_t count = 0;  // array elements, or text bytes
    uint64_t first = 0;  // first child's node, or the text's offset in bytes_
    int64_t integer = 0;
  };
  // Where the reader's next element goes: a root clears the arena (the last reply has been
  // handled by then), an element takes the slot its parent array reserved for it, so the
  // children of every array are contiguous whatever nesting comes between them.
  static Node* place(const redisReadTask* task, uint32_t& index);

  std::vector<Node> nodes_;
  std::string bytes_;
};

// One connection's reader: bytes in, whole replies out, in order.
class RespReader {
 public:
  RespReader();
  ~RespReader();
  RespReader(const RespReader&) = delete;
  RespReader& operator=(const RespReader&) = delete;

  enum class Result : uint8_t { kReply, kNeedMore, kProtocolError };
  // False when the reader could not take the bytes (out of memory).
  bool feed(std::string_view bytes);
  // Whether the bytes fed so far hold the next complete reply; if so, reply() views it
  // until the next call of next() or reset().
  Result next();
  Reply reply() const { return arena_.root(); }
  std::string_view error() const;
  // Forgets everything fed: a new connection starts a new stream.
  void reset();

 private:
  redisReader* reader_ = nullptr;
  ReplyArena arena_;
};

}  // namespace redis_cluster
