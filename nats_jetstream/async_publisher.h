#pragma once
// JetStream publishes that do not wait for their acknowledgement, at most max_pending of them
// unacknowledged at once, each with a message id (the Nats-Msg-Id header: the stream drops a
// second message of one id within its duplicate window) and a caller's token that comes back
// with what became of it. Used from one thread, never a reactor: publish() may take the
// library's locks.
//
// A JetStream publish is a NATS request: the message goes out with a reply subject and the
// stream's leader answers there once the message is stored. This publisher keeps one
// synchronous subscription of its own for those answers ("<inbox>.<slot>.<generation>"), and
// its owner takes them when it chooses (take_answers), on its own thread: the slot is read
// from the answer's subject (no table of messages), answers come in batches rather than one
// wake-up of a delivery thread and of the owner each, no lock is shared with the library's
// threads, and no callback of the library can outlive the publisher. (The library's own
// asynchronous publish has none of these.)
//
// A slot whose publish was abandoned (abandon_pending: a timeout, a reconnection) changes
// generation, so a late answer to it is dropped unseen.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nats_jetstream/connection.h"

namespace nats_jetstream {

// What became of publishes, told during take_answers on the owner's thread.
class PublishListener {
 public:
  virtual ~PublishListener() = default;
  // The stream stored the message at stream_seq; duplicate: it held that message id already.
  virtual void acknowledged(uint64_t token, uint64_t stream_seq, bool duplicate) = 0;
  // The servers refused it: a limit, a permission, a stream that is not there. why is for
  // a log line.
  virtual void refused(uint64_t token, std::string_view why) = 0;
  // A publish was refused with "no responders" (no stream stores the subject, or it has no
  // leader): the library hands that status to a synchronous subscription without the
  // answer, so which publish is not known.
  virtual void refused_one(std::string_view why) = 0;
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
  ~AsyncPublisher();
  AsyncPublisher(const AsyncPublisher&) = delete;
  AsyncPublisher& operator=(const AsyncPublisher&) = delete;

  // One message: subject and message_id must end in a NUL (std::string::c_str()), data
  // need not. ResourceExhausted while max_pending are unacknowledged; Unavailable when the
  // library refuses it (closed connection, reconnect buffer full). Either way the listener
  // hears nothing of it.
  absl::Status publish(const char* subject, const char* message_id, std::string_view data, uint64_t token);

  // The answers that have come, at most max, told to the listener; waits up to wait for the
  // first when none is there. How many.
  size_t take_answers(std::chrono::milliseconds wait, size_t max);
  // Answers come and not taken yet.
  size_t answers_waiting() const;

  // Publishes neither acknowledged nor refused nor abandoned yet.
  uint32_t pending() const { return static_cast<uint32_t>(slots_.size() - free_.size()); }
  bool has_room() const { return !free_.empty(); }
  // Forgets every pending publish: no answer to any of them will reach the listener (the
  // message may still be stored: publish it again under the same id). Returns how many.
  uint32_t abandon_pending();
  // Answers dropped since start: to abandoned publishes, or unreadable.
  uint64_t late_answers() const { return late_answers_; }

 private:
  struct Slot {
    uint64_t token = 0;
    uint32_t generation = 0;
    bool in_use = false;
  };

  AsyncPublisher(JetStreamConnection& connection, AsyncPublisherSettings settings, PublishListener& listener);
  void answer(natsMsg* message);

  JetStreamConnection& connection_;
  const AsyncPublisherSettings settings_;
  PublishListener& listener_;
  std::string inbox_;  // "_INBOX.<unique>."; a reply subject appends "<slot>.<generation>"
  natsSubscription* subscription_ = nullptr;

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // slot indexes
  uint64_t late_answers_ = 0;
};

}  // namespace nats_jetstream
