#pragma once
// One TLS connection between the ring and the connection above it (tls_sockets.h): the
// bytes the reactor receives go into OpenSSL through a BIO of our own that reads them where
// the ring put them, what OpenSSL makes of them (the handshake's replies, then plaintext)
// comes out to the reactor and to the connection, and the connection's replies go through
// SSL_write straight into the buffer the reactor sends from. Nothing blocks: OpenSSL only
// ever reads and writes memory, and the ring does the I/O.
//
// The first bytes decide what the client speaks: a TLS handshake record, plain HTTP (it
// gets the configured 400 and the connection closes), or neither (closed). Counted.
#include <openssl/ssl.h>

#include <memory>
#include <string>
#include <string_view>

#include "runtime/socket_io.h"
#include "runtime/timer_wheel.h"
#include "tls/server_context.h"
#include "tls/tls_counters.h"

namespace tls {

class TlsSockets;

class TlsSession final : public runtime::SocketEvents, private runtime::Timer {
 public:
  TlsSession(TlsSockets& owner, uint32_t index) : owner_(owner), index_(index) {}
  ~TlsSession() override;

  // Starts the server side of a handshake on fd for upper. False: no socket could be taken.
  bool open(int fd, std::shared_ptr<const ServerContext> context, runtime::SocketEvents& upper);
  uint32_t generation() const { return generation_; }
  uint32_t index() const { return index_; }
  bool in_use() const { return ssl_ != nullptr; }

  // The connection above's calls (runtime::SocketIo).
  void send(const char* data, size_t length);
  void shutdown_write();
  void close();

  // The reactor's callbacks for the TCP socket below.
  void on_receive(std::string_view bytes) override;
  void on_peer_closed(int error) override;
  void on_send_complete(int result) override;
  void on_released() override;
  void on_client_address(const runtime::IpAddress& address) override {
    if (upper_ != nullptr) upper_->on_client_address(address);
  }

  // The BIO's two ends (tls_session.cc): OpenSSL reads what arrived, and writes records out.
  int bio_read(char* out, int length);
  int bio_write(const char* data, int length);
  size_t bio_pending_input() const { return held_input_.size() - held_read_ + arrived_.size(); }

 private:
  enum class Speaks : uint8_t { kUnknown, kTls, kPlainHttp, kNeither, kShed };

  void on_expire() override;  // the handshake's deadline
  Speaks sniff(std::string_view first) const;
  void answer_plain_http();
  // Runs OpenSSL over what has arrived: the handshake, then records into plaintext.
  void advance();
  bool handshake();
  void read_records();
  void write_plaintext(const char* data, size_t length);
  // Hands OpenSSL's output to the reactor, one send at a time; when all of it is out,
  // completes the connection's send and sends a FIN that was asked for.
  void flush();
  // Tells the connection its peer is gone, once.
  void tell_closed(int error);

  TlsSockets& owner_;
  const uint32_t index_;
  runtime::SocketEvents* upper_ = nullptr;
  runtime::SocketId lower_;
  uint32_t generation_ = 0;
  // Kept while the connection lives: its SNI callback reads it, and a reload may have
  // replaced it for new connections meanwhile.
  std::shared_ptr<const ServerContext> context_;
  SSL* ssl_ = nullptr;
  // What the client sent and OpenSSL has not read yet: the bytes of the reactor's current
  // callback, then what is kept of them past it (rarely anything: a record is read whole).
  std::string_view arrived_;
  std::string held_input_;
  size_t held_read_ = 0;
  std::string written_;  // records OpenSSL made since the last send
  Speaks speaks_ = Speaks::kUnknown;
  bool established_ = false;
  bool told_closed_ = false;
  bool closing_ = false;         // close() called: nothing more is read or written
  bool close_after_send_ = false;  // plain HTTP's 400 is on its way; then close
  bool want_fin_ = false;        // shutdown_write() called
  bool fin_sent_ = false;
  bool lower_send_in_flight_ = false;
  // The connection's send, until every record it made is out.
  const char* held_send_ = nullptr;  // made before the handshake finished
  size_t held_length_ = 0;
  size_t upper_send_length_ = 0;
  bool upper_send_outstanding_ = false;
  std::string sending_;  // records handed to the reactor
  size_t sent_ = 0;
};

}  // namespace tls
