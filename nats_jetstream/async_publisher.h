#pragma once
// JetStream publishes that do not wait for their acknowledgement, at most max_pending of them
// unacknowledged at once, each with a message id (the Nats-Msg-Id header: the stream drops a
// second message of one id within its duplicate window) and a caller's token that comes back
// with what became of it. Never used from a reactor: publish() may take the library's locks.
//
// A JetStream publish is a NATS request: the message goes out with a reply subject and the
// stream's leader answers there once the message is stored. This publisher keeps one
// subscription of its own for those answers ("<inbox>.<slot>.<generation>"), so the slot is
// read from the answer's subject: no table of messages, and a completion callback tells when
// the library has delivered its last answer, after which the publisher can be freed safely
// (the library's own asynchronous publish gives no such signal to its handler's owner).
//
// Answers come on the library's thread. A slot whose publish was abandoned (abandon_pending:
// a timeout, a reconnection) changes generation, so a late answer to it is dropped unseen.
#include <nats/nats.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nats_jetstream/connection.h"

namespace nats_jetstream {

// What became of a publish, on the library's thread: be quick (queue it), never publish.
class PublishListener {
 public:
  virtual ~PublishListener() = default;
  // The stream stored the message at stream_seq; duplicate: it held that message id already.
  virtual void acknowledged(uint64_t token, uint64_t stream_seq, bool duplicate) = 0;
  // The servers refused it: no stream for the subject or no leader ("no responders"), a
  // limit, a permission. why is for a log line.
  virtual void refused(uint64_t token, std::string_view why) = 0;
};

struct AsyncPublisherSettings {
  uint32_t max_pending = 16384;  // unacknowledged publishes at once
};

class AsyncPublisher {
 public:
  // Subscribes to the answers' inbox; fails only when the library refuses the subscription.
  static absl::StatusOr<std::unique_ptr<AsyncPublisher>> create(JetStreamConnection& connection,
                                                                AsyncPublisherSettings settings,
                                                                PublishListener& listener);
  // Unsubscribes and waits for the library's last answer callback (bounded) before freeing.
  ~AsyncPublisher();
  AsyncPublisher(const AsyncPublisher&) = delete;
  AsyncPublisher& operator=(const AsyncPublisher&) = delete;

  // One message: subject and message_id must end in a NUL (std::string::c_str()), data
  // need not. ResourceExhausted while max_pending are unacknowledged; Unavailable when the
  // library refuses it (closed connection, reconnect buffer full). Either way the listener
  // hears nothing of it.
  absl::Status publish(const char* subject, const char* message_id, std::string_view data, uint64_t token);

  // Publishes neither acknowledged nor refused nor abandoned yet.
  uint32_t pending() const;
  bool has_room() const { return pending() < settings_.max_pending; }
  // Forgets every pending publish: no answer to any of them will reach the listener (the
  // message may still be stored: publish it again under the same id). Returns how many.
  uint32_t abandon_pending();
  // Answers dropped since start: to abandoned publishes, or unreadable.
  uint64_t late_answers() const { return late_answers_.load(std::memory_order_relaxed); }

 private:
  struct Slot {
    uint64_t token = 0;
    uint32_t generation = 0;
    bool in_use = false;
  };

  AsyncPublisher(JetStreamConnection& connection, AsyncPublisherSettings settings, PublishListener& listener);
  static void on_answer(natsConnection* connection, natsSubscription* subscription, natsMsg* message, void* self);
  static void on_complete(void* self);
  void answer(natsMsg* message);

  JetStreamConnection& connection_;
  const AsyncPublisherSettings settings_;
  PublishListener& listener_;
  std::string inbox_;  // "_INBOX.<unique>."; a reply subject appends "<slot>.<generation>"
  natsSubscription* subscription_ = nullptr;

  mutable std::mutex mutex_;  // the owner's thread and the library's answer thread
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // slot indexes
  std::atomic<uint64_t> late_answers_{0};

  std::mutex complete_mutex_;
  std::condition_variable complete_cv_;
  bool complete_ = false;
};

}  // namespace nats_jetstream
