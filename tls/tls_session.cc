#include "tls/tls_session.h"

#include <openssl/err.h>

#include <cerrno>

#include "runtime/check.h"
#include "tls/tls_sockets.h"

namespace tls {

namespace {

constexpr uint8_t kHandshakeRecord = 0x16;

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
    owner_.reactor().close_fd(fd);
    ERR_clear_error();
    return false;
  }
  in_ = BIO_new(BIO_s_mem());
  out_ = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl_, in_, out_);
  SSL_set_accept_state(ssl_);
  const std::optional<runtime::SocketId> lower = owner_.reactor().attach(fd, *this);
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
  owner_.reactor().timers().schedule(*this, owner_.settings().handshake_timeout_ms);
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
  }
  if (speaks_ != Speaks::kTls) return;  // the plain HTTP answer is on its way; the rest is not read
  BIO_write(in_, bytes.data(), static_cast<int>(bytes.size()));
  advance();
}

void TlsSession::answer_plain_http() {
  owner_.counters().plain_http.add();
  close_after_send_ = true;
  sending_ = owner_.settings().plain_http_reply();
  sent_ = 0;
  lower_send_in_flight_ = true;
  owner_.reactor().send(lower_, sending_.data(), sending_.size());
  tell_closed(-EPROTO);  // the connection above closes; the close waits for the 400 to leave
}

void TlsSession::advance() {
  if (!established_ && !handshake()) return;
  read_records();
  if (ssl_ != nullptr && !closing_) flush();
}

bool TlsSession::handshake() {
  const int result = SSL_do_handshake(ssl_);
  if (result == 1) {
    established_ = true;
    owner_.reactor().timers().cancel(*this);
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
  // A memory BIO takes everything: SSL_write writes the whole buffer as records.
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
  const size_t pending = BIO_ctrl_pending(out_);
  if (pending > 0) {
    sending_.resize(pending);
    BIO_read(out_, sending_.data(), static_cast<int>(pending));
    sent_ = 0;
    lower_send_in_flight_ = true;
    owner_.reactor().send(lower_, sending_.data(), sending_.size());
    return;
  }
  if (upper_send_outstanding_) {
    upper_send_outstanding_ = false;
    upper_->on_send_complete(static_cast<int>(upper_send_length_));  // may send again
    return;
  }
  if (want_fin_ && !fin_sent_) {
    fin_sent_ = true;
    owner_.reactor().shutdown_write(lower_);
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
    owner_.reactor().send(lower_, sending_.data() + sent_, sending_.size() - sent_);
    return;
  }
  if (close_after_send_) {
    if (!closing_) {
      closing_ = true;
      owner_.reactor().shutdown_write(lower_);
      owner_.reactor().close(lower_);
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
  owner_.reactor().timers().cancel(*this);
  if (close_after_send_ && lower_send_in_flight_) return;  // the 400 first; closed after it
  closing_ = true;
  owner_.reactor().close(lower_);
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
  owner_.reactor().timers().cancel(*this);
  runtime::SocketEvents* upper = upper_;
  SSL_free(ssl_);  // and its BIOs
  ssl_ = nullptr;
  in_ = out_ = nullptr;
  upper_ = nullptr;
  context_.reset();
  ++generation_;
  sending_.clear();
  sending_.shrink_to_fit();
  owner_.release(*this);
  upper->on_released();
}

}  // namespace tls
