#include "tls/tls_session.h"

#include <openssl/err.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/check.h"
#include "tls/tls_sockets.h"

namespace tls {

namespace {

constexpr uint8_t kHandshakeRecord = 0x16;

// The one BIO of every session: reads come from the ring's bytes, writes go to the buffer the
// ring sends (TlsSession::bio_read, bio_write). Made once, shared by every thread (a
// BIO_METHOD is read-only once made).
int session_write(BIO* bio, const char* data, int length) {
  return static_cast<TlsSession*>(BIO_get_data(bio))->bio_write(data, length);
}
int session_read(BIO* bio, char* out, int length) {
  BIO_clear_retry_flags(bio);
  const int n = static_cast<TlsSession*>(BIO_get_data(bio))->bio_read(out, length);
  if (n <= 0) BIO_set_retry_read(bio);
  return n;
}
long session_ctrl(BIO* bio, int command, long, void*) {
  switch (command) {
    case BIO_CTRL_FLUSH:
      return 1;
    case BIO_CTRL_PENDING:
      return static_cast<long>(static_cast<TlsSession*>(BIO_get_data(bio))->bio_pending_input());
    default:
      return 0;
  }
}
const BIO_METHOD* session_method() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "decisiond ring");
    BIO_meth_set_write(m, session_write);
    BIO_meth_set_read(m, session_read);
    BIO_meth_set_ctrl(m, session_ctrl);
    return m;
  }();
  return method;
}

// "GET /", "POST /", "OPTIONS *"...: upper-case letters, then a space, within a method's length.
bool looks_like_http(std::string_view first) {
  constexpr size_t kLongestMethod = 8;  // OPTIONS, CONNECT
  for (size_t i = 0; i < first.size() && i <= kLongestMethod; ++i) {
    const char c = first[i];
    if (c == ' ') return i > 0;
    if (c < 'A' || c > 'Z') return false;
  }
  return first.size() <= kLongestMethod;  // too few bytes yet to tell: HTTP so far
}

}  // namespace

TlsSession::~TlsSession() {
  if (ssl_ != nullptr) SSL_free(ssl_);
}

bool TlsSession::open(int fd, std::shared_ptr<const ServerContext> context, runtime::SocketEvents& upper) {
  ssl_ = SSL_new(context->default_context());
  if (ssl_ == nullptr) {
    owner_.lower().close_fd(fd);
    ERR_clear_error();
    return false;
  }
  BIO* bio = BIO_new(session_method());
  BIO_set_data(bio, this);
  BIO_set_init(bio, 1);
  SSL_set_bio(ssl_, bio, bio);  // one BIO both ways; the SSL owns it
  SSL_set_accept_state(ssl_);
  const std::optional<runtime::SocketId> lower = owner_.lower().attach(fd, *this);
  if (!lower) {
    SSL_free(ssl_);
    ssl_ = nullptr;
    return false;
  }
  lower_ = *lower;
  upper_ = &upper;
  context_ = std::move(context);
  speaks_ = Speaks::kUnknown;
  established_ = told_closed_ = closing_ = close_after_send_ = false;
  want_fin_ = fin_sent_ = lower_send_in_flight_ = upper_send_outstanding_ = false;
  held_send_ = nullptr;
  held_length_ = upper_send_length_ = sent_ = 0;
  sending_.clear();
  owner_.timers().schedule(*this, owner_.settings().handshake_timeout_ms);
  return true;
}

TlsSession::Speaks TlsSession::sniff(std::string_view first) const {
  if (static_cast<uint8_t>(first[0]) == kHandshakeRecord) return Speaks::kTls;
  return looks_like_http(first) ? Speaks::kPlainHttp : Speaks::kNeither;
}

void TlsSession::on_receive(std::string_view bytes) {
  if (closing_ || told_closed_ || bytes.empty()) return;
  if (speaks_ == Speaks::kUnknown) {
    speaks_ = sniff(bytes);
    if (speaks_ == Speaks::kPlainHttp) {
      answer_plain_http();
      return;
    }
    if (speaks_ == Speaks::kNeither) {
      owner_.counters().not_tls.add();
      tell_closed(-EPROTO);
      return;
    }
    if (owner_.settings().overloaded && owner_.settings().overloaded()) {
      owner_.counters().handshakes_shed.add();
      speaks_ = Speaks::kShed;
      tell_closed(-EBUSY);
      return;
    }
  }
  if (speaks_ != Speaks::kTls) return;  // the plain HTTP answer is on its way; the rest is not read
  arrived_ = bytes;
  advance();
  // What OpenSSL did not read (it stopped: an error, a close) outlives this callback.
  if (!arrived_.empty() && ssl_ != nullptr && !closing_ && !told_closed_) held_input_.append(arrived_);
  arrived_ = {};
}

int TlsSession::bio_read(char* out, int length) {
  size_t wanted = static_cast<size_t>(length);
  size_t n = 0;
  if (held_read_ < held_input_.size()) {
    n = std::min(wanted, held_input_.size() - held_read_);
    std::memcpy(out, held_input_.data() + held_read_, n);
    held_read_ += n;
    if (held_read_ == held_input_.size()) {
      held_input_.clear();
      held_read_ = 0;
    }
    return static_cast<int>(n);
  }
  n = std::min(wanted, arrived_.size());
  std::memcpy(out, arrived_.data(), n);
  arrived_.remove_prefix(n);
  return static_cast<int>(n);
}

int TlsSession::bio_write(const char* data, int length) {
  if (written_.empty()) owner_.spares().lend(written_);
  written_.append(data, static_cast<size_t>(length));
  return length;
}

void TlsSession::answer_plain_http() {
  owner_.counters().plain_http.add();
  close_after_send_ = true;
  sending_ = owner_.settings().plain_http_reply();
  sent_ = 0;
  lower_send_in_flight_ = true;
  owner_.lower().send(lower_, sending_.data(), sending_.size());
  tell_closed(-EPROTO);  // the connection above closes; the close waits for the 400 to leave
}

void TlsSession::advance() {
  if (!established_ && !handshake()) return;
  read_records();
  if (ssl_ != nullptr && !closing_) flush();
}

bool TlsSession::handshake() {
  const runtime::Clock* clock = owner_.settings().clock;
  const int64_t began_ns = clock != nullptr ? clock->monotonic_ns() : 0;
  const int result = SSL_do_handshake(ssl_);
  if (clock != nullptr) owner_.counters().handshake_ns.add(static_cast<uint64_t>(clock->monotonic_ns() - began_ns));
  if (result == 1) {
    established_ = true;
    owner_.timers().cancel(*this);
    (SSL_version(ssl_) == TLS1_3_VERSION ? owner_.counters().handshakes_tls13 : owner_.counters().handshakes_tls12)
        .add();
    if (held_send_ != nullptr) {
      const char* data = held_send_;
      held_send_ = nullptr;
      write_plaintext(data, held_length_);
    }
    return true;
  }
  const int error = SSL_get_error(ssl_, result);
  ERR_clear_error();
  if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
    flush();  // the handshake's next flight
    return false;
  }
  owner_.counters().handshakes_failed.add();
  flush();  // the alert, if OpenSSL wrote one: the close waits for it
  if (lower_send_in_flight_) close_after_send_ = true;
  tell_closed(-EPROTO);
  return false;
}

void TlsSession::read_records() {
  auto& buffer = owner_.plaintext();
  while (!closing_ && !told_closed_ && ssl_ != nullptr) {
    const int n = SSL_read(ssl_, buffer.data(), static_cast<int>(buffer.size()));
    if (n > 0) {
      upper_->on_receive(std::string_view(buffer.data(), static_cast<size_t>(n)));
      // Nothing left to decrypt, in OpenSSL or from the ring: the next SSL_read could only
      // say it wants more, at the cost of an error queue round (one per request).
      if (ssl_ == nullptr || (!SSL_has_pending(ssl_) && bio_pending_input() == 0)) return;
      continue;
    }
    const int error = SSL_get_error(ssl_, n);
    ERR_clear_error();
    if (error == SSL_ERROR_WANT_READ) return;
    if (error == SSL_ERROR_ZERO_RETURN) {
      tell_closed(0);  // close_notify: the client is done sending
      return;
    }
    owner_.counters().record_errors.add();
    tell_closed(-EPROTO);
    return;
  }
}

void TlsSession::send(const char* data, size_t length) {
  DECISIOND_CHECK_MSG(!upper_send_outstanding_ && held_send_ == nullptr, "two sends at once on a TLS connection");
  if (closing_ || close_after_send_) return;
  if (!established_) {
    // A reply before the handshake finished (a refusal at the connection limit): it goes
    // once the handshake does.
    held_send_ = data;
    held_length_ = length;
    return;
  }
  write_plaintext(data, length);
}

void TlsSession::write_plaintext(const char* data, size_t length) {
  upper_send_length_ = length;
  upper_send_outstanding_ = true;
  // Our BIO takes everything: SSL_write writes the whole buffer as records.
  if (length > 0 && SSL_write(ssl_, data, static_cast<int>(length)) <= 0) {
    ERR_clear_error();
    upper_send_outstanding_ = false;
    upper_->on_send_complete(-EPROTO);
    return;
  }
  flush();
}

void TlsSession::flush() {
  if (lower_send_in_flight_ || closing_) return;
  if (!written_.empty()) {
    sending_.swap(written_);
    written_.clear();
    sent_ = 0;
    lower_send_in_flight_ = true;
    owner_.lower().send(lower_, sending_.data(), sending_.size());
    return;
  }
  // Everything is out: the buffers go back to the core's spares, so an idle connection holds
  // none (OpenSSL's own record buffers go with SSL_MODE_RELEASE_BUFFERS).
  owner_.spares().take_back(sending_);
  owner_.spares().take_back(written_);
  if (held_input_.empty()) owner_.spares().take_back(held_input_);
  if (upper_send_outstanding_) {
    upper_send_outstanding_ = false;
    upper_->on_send_complete(static_cast<int>(upper_send_length_));  // may send again
    return;
  }
  if (want_fin_ && !fin_sent_) {
    fin_sent_ = true;
    owner_.lower().shutdown_write(lower_);
  }
}

void TlsSession::on_send_complete(int result) {
  lower_send_in_flight_ = false;
  if (result < 0) {
    if (upper_send_outstanding_) {
      upper_send_outstanding_ = false;
      upper_->on_send_complete(result);
    }
    return;
  }
  sent_ += static_cast<size_t>(result);
  if (sent_ < sending_.size()) {
    lower_send_in_flight_ = true;
    owner_.lower().send(lower_, sending_.data() + sent_, sending_.size() - sent_);
    return;
  }
  if (close_after_send_) {
    if (!closing_) {
      closing_ = true;
      owner_.lower().shutdown_write(lower_);
      owner_.lower().close(lower_);
    }
    return;
  }
  flush();
}

void TlsSession::shutdown_write() {
  if (closing_ || want_fin_) return;
  want_fin_ = true;
  if (established_) SSL_shutdown(ssl_);  // close_notify before the FIN
  ERR_clear_error();
  flush();
}

void TlsSession::close() {
  if (closing_) return;
  owner_.timers().cancel(*this);
  if (close_after_send_ && lower_send_in_flight_) return;  // the 400 first; closed after it
  closing_ = true;
  owner_.lower().close(lower_);
}

void TlsSession::on_peer_closed(int error) {
  if (!established_ && speaks_ == Speaks::kTls && !told_closed_) owner_.counters().handshakes_cut.add();
  tell_closed(error);
}

void TlsSession::tell_closed(int error) {
  if (told_closed_) return;
  told_closed_ = true;
  upper_->on_peer_closed(error);
}

void TlsSession::on_expire() {
  if (established_ || closing_) return;
  owner_.counters().handshakes_timed_out.add();
  tell_closed(-ETIMEDOUT);
}

void TlsSession::on_released() {
  owner_.timers().cancel(*this);
  runtime::SocketEvents* upper = upper_;
  SSL_free(ssl_);  // and its BIO
  ssl_ = nullptr;
  arrived_ = {};
  held_read_ = 0;
  owner_.spares().take_back(held_input_);
  owner_.spares().take_back(written_);
  owner_.spares().take_back(sending_);
  upper_ = nullptr;
  context_.reset();
  ++generation_;
  owner_.release(*this);
  upper->on_released();
}

}  // namespace tls
