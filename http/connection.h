#pragma once
// One client connection: bytes in, parsed requests through the router, replies out in
// request order. Owns the keep-alive, pipelining, 100-continue, backlog and timeout rules.
//
// Life: open() -> requests and replies -> closing (a plain close, or a lingering one when
// the client may still be sending) -> released back to the pool.
#include <cstdint>
#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "http/response.h"
#include "http/router.h"
#include "runtime/after_lines_written.h"
#include "runtime/reactor.h"
#include "runtime/timer_wheel.h"

namespace http {

class Server;

class Connection final : public runtime::SocketEvents, private runtime::Timer, private runtime::LinesWrittenWaiter {
 public:
  explicit Connection(Server& server);

  void open(runtime::SocketId socket);
  // Over the connection limit: answer 503 and close without reading a request.
  void refuse(runtime::SocketId socket);
  // Server shutdown: close when idle, otherwise after the reply being worked on.
  void drain();
  void close_now() { abort(); }
  // Set by the server when it notes peers, before open(); copied into every request.
  void set_peer_loopback(bool loopback) { parser_.set_peer_loopback(loopback); }
  // The transport's address (HttpLimits::note_peers, or the layer below's on_client_address).
  void set_transport_address(const runtime::IpAddress& address) { transport_address_ = address; }
  bool in_use() const { return phase_ != Phase::kFree; }
  // The deferred reply of the request being waited for (reply_ticket.h). False when the
  // ticket is stale: the connection closed or was reused since it was issued.
  bool complete_deferred(uint32_t generation, const Response& reply);

  void on_receive(std::string_view bytes) override;
  void on_peer_closed(int error) override;
  void on_send_complete(int result) override;
  void on_released() override;
  void on_client_address(const runtime::IpAddress& address) override { transport_address_ = address; }

 private:
  enum class Phase : uint8_t { kFree, kOpen, kLingering, kClosing };
  enum class TimerKind : uint8_t { kNone, kIdle, kRequest, kLinger };

  void on_expire() override;
  // The server's reply gate has passed reply_mark_: what is queued may go.
  void lines_written() override;
  // What the request being answered appended on this core since mark_before: its reply
  // waits for those lines' write (Server::set_reply_gate, a route of kAfterItsLines).
  void note_reply_lines(uint64_t mark_before);
  void process(std::string_view bytes);
  void dispatch();
  // Whether an overloaded core sheds a request of this route now (HttpLimits::shed_lag_ns).
  bool should_shed(Shedding shedding, int64_t now_ns) const;
  // Undoes the request body's Content-Encoding, if any (http/content_coding/); false when it
  // is refused, with the refusal in response.
  bool body_decoded(Response& response);
  void reply_error(int status, int code, std::string_view message);
  // Replies are written here: queued_, given a spare buffer if it holds none.
  std::string& reply_buffer();
  // Between requests, with nothing in flight, the connection's buffers go back to the core's
  // spares: an idle kept-alive connection holds none (runtime/spare_buffers.h).
  void give_back_buffers_if_idle();
  void give_back_buffers();
  // Hands a sampled request's facts to the server's observer (request_observer.h).
  void observe(const Request* request, uint32_t route, const Response& reply, size_t request_bytes,
               size_t reply_bytes, int64_t latency_ns);
  void flush();
  bool output_backlogged() const;
  void resume_held_input();
  void begin_close();
  void abort();
  void arm(TimerKind kind, int64_t delay_ms);

  // What a deferred reply needs to be written and counted when it comes.
  struct AwaitedReply {
    uint32_t route = 0;
    int64_t started_ns = 0;
    bool keep_alive = true;
    bool head = false;
    std::string_view route_headers;  // Router::Match::reply_headers
    bool after_lines = false;        // Router::Match::durability is kAfterItsLines
  };

  Server& server_;
  runtime::SocketId socket_;
  uint32_t generation_ = 0;  // bumped on release: tickets of an earlier client go stale
  bool awaiting_reply_ = false;  // a handler deferred; no further request is read meanwhile
  AwaitedReply awaited_;
  Phase phase_ = Phase::kFree;
  TimerKind timer_kind_ = TimerKind::kNone;
  bool send_in_flight_ = false;
  // The reply gate's mark the queued replies wait for, and whether the gate holds this
  // connection (one wait at a time, kept across a release: the gate tells the object).
  uint64_t reply_mark_ = 0;
  bool gate_waiting_ = false;
  bool close_after_flush_ = false;  // no request is read any more
  bool peer_closed_ = false;
  // The client may still be sending (an error cut its request short, or bytes came after
  // the last request): close by half-closing and reading until its EOF, so it reads our
  // reply instead of a reset. Otherwise a plain close sends the FIN after the reply.
  bool linger_on_close_ = false;
  bool sent_since_idle_armed_ = false;  // a reader that takes nothing for a whole idle period is dropped
  RequestParser parser_;
  runtime::IpAddress transport_address_;  // the peer, or its PROXY header's client; per connection
  size_t receiving_bytes_ = 0;  // of the request being read, so far
  size_t request_bytes_ = 0;    // of the last whole request (the one being answered)
  std::string sending_;  // handed to the kernel; stable until the send completes
  size_t sent_ = 0;
  std::string queued_;   // replies made while a send is in flight
  std::string held_input_;     // pipelined bytes held while replies back up
  std::string resumed_input_;  // held_input_ being worked through
};

}  // namespace http
