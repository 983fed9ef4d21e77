#include "http/connection.h"

#include <algorithm>

#include <span>
#include <string>
#include <string_view>

#include "http/client_address.h"
#include "http/error_body.h"
#include "http/error_codes.h"
#include "http/reply_writer.h"
#include "http/request_observer.h"
#include "http/server.h"
#include "runtime/check.h"

namespace http {
namespace {

// A shed request costs a copy of these bytes, not a JSON writer run: under overload most
// requests are shed, and the cheaper each is, the more the core has left for the rest.
constexpr std::string_view kShedMessage = "overloaded: request shed, retry later";

const std::string& shed_body() {
  static const std::string body = [] {
    std::string text;
    const ErrorItem item{error_code::kOverloaded, kShedMessage, {}};
    append_error_envelope(text, std::span<const ErrorItem>(&item, 1));
    return text;
  }();
  return body;
}

}  // namespace

Connection::Connection(Server& server) : server_(server), parser_(server.limits()) {}

void Connection::open(runtime::SocketId socket) {
  socket_ = socket;
  phase_ = Phase::kOpen;
  send_in_flight_ = false;
  close_after_flush_ = false;
  peer_closed_ = false;
  linger_on_close_ = false;
  awaiting_reply_ = false;
  reply_mark_ = 0;
  sent_ = 0;
  receiving_bytes_ = 0;
  parser_.reset();
  arm(TimerKind::kIdle, server_.limits().idle_timeout_ms);
}

void Connection::refuse(runtime::SocketId socket) {
  open(socket);
  close_after_flush_ = true;
  linger_on_close_ = true;  // its request is unread
  Response& response = server_.response();
  response.reset();
  set_overloaded(response, "overloaded: connection limit reached, retry later");
  append_reply(reply_buffer(), response, server_.date(), /*close_connection=*/true);
  flush();
}

void Connection::drain() {
  if (phase_ != Phase::kOpen) return;
  close_after_flush_ = close_after_flush_ || !parser_.in_message();
  // A request being read (or waited for) is answered first; its reply then carries
  // Connection: close (Server::draining()).
  if (!parser_.in_message() && !send_in_flight_ && queued_.empty() && !awaiting_reply_) begin_close();
}

void Connection::arm(TimerKind kind, int64_t delay_ms) {
  timer_kind_ = kind;
  sent_since_idle_armed_ = false;
  server_.reactor().timers().schedule(*this, delay_ms);
}

void Connection::on_receive(std::string_view bytes) {
  if (phase_ != Phase::kOpen || close_after_flush_) {
    linger_on_close_ = true;  // after the last request: discard, and drain before closing
    return;
  }
  if (!held_input_.empty() || output_backlogged() || awaiting_reply_) {
    if (held_input_.size() + bytes.size() > server_.limits().max_input_backlog_bytes) {
      // A client that pipelines without reading its replies: bounded, then cut off.
      server_.metrics().backlog_overflows.add();
      abort();
      return;
    }
    held_input_.append(bytes);
    return;
  }
  process(bytes);
}

void Connection::process(std::string_view bytes) {
  bool completed_any = false;
  parser_.borrow_storage(server_.reactor().spare_buffers());
  for (;;) {
    const RequestParser::Step step = parser_.feed(bytes);
    bytes.remove_prefix(step.consumed);
    receiving_bytes_ += step.consumed;
    if (step.event == RequestParser::Event::kContinue) {
      append_continue(reply_buffer());
      continue;
    }
    if (step.event == RequestParser::Event::kError) {
      const ParseError& error = parser_.error();
      switch (error.kind) {
        case ParseError::Kind::kHeadersTooLarge: server_.metrics().headers_too_large.add(); break;
        case ParseError::Kind::kBodyTooLarge: server_.metrics().bodies_too_large.add(); break;
        case ParseError::Kind::kMalformed: server_.metrics().malformed_requests.add(); break;
      }
      reply_error(error.status, error.code, error.message);
      break;
    }
    if (step.event == RequestParser::Event::kNeedMore) break;
    // A whole request.
    completed_any = true;
    request_bytes_ = receiving_bytes_;
    receiving_bytes_ = 0;
    dispatch();
    if (awaiting_reply_) {
      // The request's view stays in the parser until the reply comes: hold the rest.
      if (!bytes.empty()) held_input_.append(bytes);
      break;
    }
    if (close_after_flush_) {
      if (!bytes.empty()) linger_on_close_ = true;  // pipelined past a closing request
      break;
    }
    if (output_backlogged() && !bytes.empty()) {
      held_input_.append(bytes);
      break;
    }
  }
  if (!close_after_flush_) {
    if (parser_.in_message()) {
      if (timer_kind_ != TimerKind::kRequest) arm(TimerKind::kRequest, server_.limits().request_timeout_ms);
    } else if (completed_any || timer_kind_ == TimerKind::kRequest) {
      arm(TimerKind::kIdle, server_.limits().idle_timeout_ms);
    }
  }
  flush();
}

bool Connection::should_shed(Shedding shedding, int64_t now_ns) const {
  const int64_t bound = server_.limits().shed_lag_ns;
  if (shedding == Shedding::kNever || bound <= 0) return false;
  const int64_t behind = now_ns - server_.reactor().waiting_since_ns();
  return behind > (shedding == Shedding::kLate ? bound * kShedLateFactor : bound);
}

bool Connection::body_decoded(Response& response) {
  using Outcome = content_coding::RequestBodyDecoder::Outcome;
  content_coding::RequestBodyDecoder& decoder = server_.body_decoder();
  const size_t limit = server_.limits().max_body_bytes;
  const Outcome outcome = decoder.decode(parser_.request(), limit);
  if (outcome == Outcome::kAsSent) return true;
  if (outcome == Outcome::kDecoded) {
    parser_.set_decoded_body(decoder.body());
    return true;
  }
  if (outcome == Outcome::kTooLarge) server_.metrics().decoded_bodies_too_large.add();
  decoder.set_refusal(response, outcome, limit);
  return false;
}

void Connection::dispatch() {
  // One request answered at a time: the parser holds the awaited request's view.
  DECISIOND_CHECK_MSG(!awaiting_reply_, "request dispatched while a deferred reply is awaited");
  parser_.set_client_address(client_address_of(parser_.request(), transport_address_,
                                                server_.limits().trusted_proxies.get(), server_.client_addresses()));
  const Request& request = parser_.request();
  Response& response = server_.response();
  response.reset();
  const int64_t started_ns = server_.reactor().clock().monotonic_ns();
  Router::Match match{nullptr, server_.router().unmatched(), Shedding::kNever, {}};
  if (request.version_major == 1 && request.version_minor >= 1 && !request.has_header("host")) {
    // RFC 9112 3.2: an HTTP/1.1 request without Host is refused.
    set_error(response, 400, error_code::kMalformedRequest, "malformed HTTP request: Host header missing");
  } else {
    match = server_.router().match(request, response);
    if (match.handler != nullptr && should_shed(match.shedding, started_ns)) {
      server_.metrics().shed_requests.add();
      response.add_header("Retry-After", "1");
      response.set_json(503);
      response.body().assign(shed_body());
    } else if (match.handler != nullptr && body_decoded(response)) {
      response.set_ticket(ReplyTicket(this, generation_));
      const uint64_t mark_before = server_.reply_gate() != nullptr ? server_.reply_gate()->mark() : 0;
      match.handler->handle(request, response);
      if (match.durability == ReplyDurability::kAfterItsLines) note_reply_lines(mark_before);
    }
  }
  if (response.deferred()) {
    awaiting_reply_ = true;
    awaited_ = {match.route, started_ns, request.keep_alive, request.method == Method::kHead, match.reply_headers,
                match.durability == ReplyDurability::kAfterItsLines};
    server_.metrics().deferred_replies.add();
    return;
  }
  const size_t queued_before = queued_.size();
  const bool close = !request.keep_alive || response.close() || server_.draining();
  append_reply(reply_buffer(), response, server_.date(), close, request.method == Method::kHead, match.reply_headers,
               server_.reply_compressor().code_for(request, response));
  const int64_t latency_ns = server_.reactor().clock().monotonic_ns() - started_ns;
  server_.metrics().record(match.route, response.status(), latency_ns);
  if (server_.sample()) {
    observe(&request, match.route, response, request_bytes_, queued_.size() - queued_before, latency_ns);
  }
  if (close) close_after_flush_ = true;
}

bool Connection::complete_deferred(uint32_t generation, const Response& reply) {
  if (generation != generation_ || !awaiting_reply_ || phase_ == Phase::kFree) return false;
  awaiting_reply_ = false;
  if (phase_ != Phase::kOpen) return false;  // closing: the client is gone
  // Lines written for it by whatever completed it (a store's answer, say): all so far.
  if (awaited_.after_lines) note_reply_lines(0);
  const size_t queued_before = queued_.size();
  const bool close = !awaited_.keep_alive || reply.close() || server_.draining();
  append_reply(reply_buffer(), reply, server_.date(), close, awaited_.head, awaited_.route_headers,
               server_.reply_compressor().code_for(parser_.request(), reply));
  const int64_t latency_ns = server_.reactor().clock().monotonic_ns() - awaited_.started_ns;
  server_.metrics().record(awaited_.route, reply.status(), latency_ns);
  if (server_.sample()) {
    observe(&parser_.request(), awaited_.route, reply, request_bytes_, queued_.size() - queued_before, latency_ns);
  }
  if (close) {
    close_after_flush_ = true;
    if (!held_input_.empty()) linger_on_close_ = true;  // pipelined past a closing request
  } else if (!held_input_.empty() && !output_backlogged()) {
    resume_held_input();  // flushes
    return true;
  }
  flush();
  return true;
}

void Connection::observe(const Request* request, uint32_t route, const Response& reply, size_t request_bytes,
                         size_t reply_bytes, int64_t latency_ns) {
  CompletedRequest completed;
  completed.request = request;
  completed.route = server_.metrics().route_names()[route];
  completed.reply = &reply;
  completed.status = reply.status();
  completed.request_bytes = request_bytes;
  completed.reply_bytes = reply_bytes;
  completed.latency_ns = latency_ns;
  completed.client_address = request != nullptr ? request->client_address : transport_address_;
  server_.observer()->on_request_completed(completed);
}

bool ReplyTicket::complete(const Response& reply) const {
  return connection_ != nullptr && connection_->complete_deferred(generation_, reply);
}

void Connection::reply_error(int status, int code, std::string_view message) {
  Response& response = server_.response();
  response.reset();
  set_error(response, status, code, message);
  const size_t queued_before = queued_.size();
  append_reply(reply_buffer(), response, server_.date(), /*close_connection=*/true);
  server_.metrics().record(server_.router().unmatched(), status, 0);
  if (server_.sample()) {
    observe(nullptr, server_.router().unmatched(), response, receiving_bytes_, queued_.size() - queued_before, 0);
  }
  close_after_flush_ = true;
  linger_on_close_ = true;
}

bool Connection::output_backlogged() const {
  return queued_.size() + (sending_.size() - sent_) > server_.limits().max_output_backlog_bytes;
}

void Connection::note_reply_lines(uint64_t mark_before) {
  runtime::AfterLinesWritten* gate = server_.reply_gate();
  if (gate == nullptr) return;
  const uint64_t mark = gate->mark();
  if (mark > mark_before) reply_mark_ = std::max(reply_mark_, mark);
}

void Connection::lines_written() {
  gate_waiting_ = false;
  flush();  // a connection released meanwhile has nothing queued, or waits again
}

void Connection::flush() {
  if (phase_ != Phase::kOpen || send_in_flight_) return;
  if (queued_.empty()) {
    if (close_after_flush_ && !awaiting_reply_) begin_close();
    return;
  }
  // A reply leaves once the lines it acknowledges are written: never before, whatever
  // kills the process after it (docs/events.md "Writing").
  if (runtime::AfterLinesWritten* gate = server_.reply_gate(); gate != nullptr && !gate->passed(reply_mark_)) {
    if (!gate_waiting_) {
      gate_waiting_ = true;
      gate->hold_until(reply_mark_, *this);
    }
    return;
  }
  sending_.clear();
  sent_ = 0;
  sending_.swap(queued_);
  send_in_flight_ = true;
  server_.sockets().send(socket_, sending_.data(), sending_.size());
}

void Connection::on_send_complete(int result) {
  DECISIOND_CHECK_MSG(send_in_flight_, "send completed that was never made");
  send_in_flight_ = false;
  if (result <= 0) {
    abort();  // the peer is gone
    return;
  }
  // The kernel sends no more than it was given: more means sent_ belongs to another send.
  DECISIOND_CHECK_MSG(static_cast<size_t>(result) <= sending_.size() - sent_, "sent more bytes than were sending");
  sent_ += static_cast<size_t>(result);
  sent_since_idle_armed_ = true;
  if (sent_ < sending_.size()) {
    send_in_flight_ = true;
    server_.sockets().send(socket_, sending_.data() + sent_, sending_.size() - sent_);
    return;
  }
  if (!held_input_.empty() && !output_backlogged() && !close_after_flush_ && !awaiting_reply_) {
    resume_held_input();
  }
  flush();
  give_back_buffers_if_idle();
}

std::string& Connection::reply_buffer() {
  server_.reactor().spare_buffers().lend(queued_);
  return queued_;
}

void Connection::give_back_buffers_if_idle() {
  if (phase_ != Phase::kOpen || send_in_flight_ || !queued_.empty() || awaiting_reply_ || !held_input_.empty() ||
      !resumed_input_.empty() || parser_.in_message()) {
    return;
  }
  give_back_buffers();
}

void Connection::give_back_buffers() {
  runtime::SpareBuffers& spares = server_.reactor().spare_buffers();
  sent_ = 0;  // of sending_, which goes
  spares.take_back(sending_);
  spares.take_back(queued_);
  spares.take_back(held_input_);
  spares.take_back(resumed_input_);
  parser_.give_back_storage(spares);
}

void Connection::resume_held_input() {
  // process() may hold bytes again, so it must not read from held_input_ itself.
  resumed_input_.clear();
  resumed_input_.swap(held_input_);
  process(resumed_input_);
}

void Connection::begin_close() {
  if (phase_ != Phase::kOpen) return;
  if (peer_closed_ || !linger_on_close_) {
    abort();
    return;
  }
  phase_ = Phase::kLingering;
  server_.sockets().shutdown_write(socket_);
  arm(TimerKind::kLinger, server_.limits().linger_timeout_ms);
}

void Connection::abort() {
  if (phase_ == Phase::kClosing || phase_ == Phase::kFree) return;
  phase_ = Phase::kClosing;
  server_.reactor().timers().cancel(*this);
  timer_kind_ = TimerKind::kNone;
  server_.sockets().close(socket_);
}

void Connection::on_peer_closed(int error) {
  peer_closed_ = true;
  if (error < 0 || phase_ == Phase::kLingering) {
    abort();
    return;
  }
  if (phase_ != Phase::kOpen) return;
  // The client is done sending; replies already owed still go out (a half-close).
  close_after_flush_ = true;
  if (!send_in_flight_) flush();
}

void Connection::on_expire() {
  const TimerKind kind = timer_kind_;
  timer_kind_ = TimerKind::kNone;
  switch (kind) {
    case TimerKind::kIdle:
      if (send_in_flight_ && sent_since_idle_armed_) {
        // Still writing a large reply to a slow reader that does read: not idle.
        arm(TimerKind::kIdle, server_.limits().idle_timeout_ms);
        return;
      }
      server_.metrics().idle_timeouts.add();
      abort();
      return;
    case TimerKind::kRequest:
      server_.metrics().request_timeouts.add();
      if (close_after_flush_) {
        abort();
        return;
      }
      reply_error(408, error_code::kRequestTimeout, "request not received in time");
      flush();
      return;
    case TimerKind::kLinger:
      abort();
      return;
    case TimerKind::kNone:
      return;
  }
}

void Connection::on_released() {
  DECISIOND_CHECK_MSG(phase_ != Phase::kFree, "connection released twice");
  phase_ = Phase::kFree;
  ++generation_;
  awaiting_reply_ = false;
  timer_kind_ = TimerKind::kNone;
  server_.reactor().timers().cancel(*this);
  give_back_buffers();  // a connection in the pool holds none
  transport_address_ = {};
  server_.release(*this);
}

}  // namespace http
