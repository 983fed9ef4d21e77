// Fuzz driver for our side of TLS (tls/tls_session.h, tls/tls_sockets.h): what a client
// sends, cut at arbitrary points, fed to a session over a fake socket layer, with OpenSSL's
// output and the socket's completions carried back in order, and a connection above that
// answers every byte it reads, as http::Connection would. A real handshake's bytes (the
// corpus holds recorded ClientHellos) mutated by the fuzzer reach every branch of the pump:
// sniffing, the handshake, records, alerts, close_notify, plain HTTP, and what is not TLS.
//
// Input: N | N piece lengths | stream, as request_parser_fuzz reads it (N the first byte
// modulo 16; each piece length minus one, 1..256; N = 0: one byte at a time).
//
// Invariants, any break aborts: no memory error or leak (ASan); the connection above gets
// no callback after on_released and exactly one on_released once it closes; a send is
// completed once, with at most what it asked; nothing is sent on a socket after its close.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/socket_io.h"
#include "runtime/timer_wheel.h"
#include "tls/server_context.h"
#include "tls/tls_sockets.h"

namespace {

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "tls_pump_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

// A self-signed ECDSA P-256 certificate and its key, written once to a private folder.
std::shared_ptr<const tls::ServerContext> make_context() {
  char folder[] = "/tmp/tls-pump-fuzz-XXXXXX";
  check(mkdtemp(folder) != nullptr, "a folder for the certificate");
  const std::string cert = std::string(folder) + "/cert.pem";
  const std::string key = std::string(folder) + "/key.pem";
  EVP_PKEY* pkey = EVP_EC_gen("P-256");
  X509* x509 = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(x509), 1);
  X509_gmtime_adj(X509_getm_notBefore(x509), 0);
  X509_gmtime_adj(X509_getm_notAfter(x509), 86400);
  X509_set_pubkey(x509, pkey);
  X509_NAME_add_entry_by_txt(X509_get_subject_name(x509), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(x509, X509_get_subject_name(x509));
  X509_sign(x509, pkey, EVP_sha256());
  FILE* out = std::fopen(cert.c_str(), "w");
  PEM_write_X509(out, x509);
  std::fclose(out);
  out = std::fopen(key.c_str(), "w");
  PEM_write_PrivateKey(out, pkey, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(out);
  chmod(key.c_str(), 0600);
  X509_free(x509);
  EVP_PKEY_free(pkey);
  tls::TicketKey ticket;
  ticket.name.fill(1);
  ticket.aes.fill(2);
  ticket.hmac.fill(3);
  auto loaded = tls::ServerContext::load({{cert, key}}, {ticket});
  check(loaded.ok(), "the certificate loads");
  std::remove(cert.c_str());
  std::remove(key.c_str());
  return std::shared_ptr<const tls::ServerContext>(std::move(*loaded));
}

// The socket layer below: one socket; sends and the release wait for the driver to carry
// their completions, as the ring's come a loop turn later.
class FakeLower final : public runtime::SocketIo {
 public:
  std::optional<runtime::SocketId> attach(int, runtime::SocketEvents& events) override {
    events_ = &events;
    return runtime::SocketId{0, 1};
  }
  void send(runtime::SocketId, const char*, size_t length) override {
    check(!closed_, "no send after close");
    check(!send_pending_, "one send at a time");
    send_pending_ = true;
    pending_length_ = length;
  }
  void shutdown_write(runtime::SocketId) override {}
  void close(runtime::SocketId) override { closed_ = true; }
  void close_fd(int) override {}

  // One loop turn: the send completes (whole, or half when odd says so), then the release.
  void turn(bool short_send) {
    if (send_pending_) {
      send_pending_ = false;
      const size_t done = short_send && pending_length_ > 1 ? pending_length_ / 2 : pending_length_;
      events_->on_send_complete(static_cast<int>(done));
    }
    if (closed_ && !send_pending_ && !released_) {
      released_ = true;
      events_->on_released();
    }
  }
  runtime::SocketEvents* events() const { return events_; }
  bool released() const { return released_; }

 private:
  runtime::SocketEvents* events_ = nullptr;
  bool send_pending_ = false;
  size_t pending_length_ = 0;
  bool closed_ = false;
  bool released_ = false;
};

// The connection above: answers what it reads, closes when its peer is gone.
class Upper final : public runtime::SocketEvents {
 public:
  explicit Upper(tls::TlsSockets& sockets) : sockets_(sockets) {}
  void on_receive(std::string_view bytes) override {
    check(!released_, "no bytes after release");
    received_ += bytes.size();
    if (!sending_ && !closing_) {
      sending_ = true;
      sockets_.send(id, kReply.data(), kReply.size());
    }
  }
  void on_peer_closed(int) override {
    check(!released_, "no close after release");
    close();
  }
  void on_send_complete(int result) override {
    check(sending_, "a completion for a send that was made");
    check(result <= static_cast<int>(kReply.size()), "no more than asked");
    sending_ = false;
  }
  void on_released() override {
    check(!released_, "released once");
    released_ = true;
  }
  void close() {
    if (closing_) return;
    closing_ = true;
    sockets_.close(id);
  }
  bool released() const { return released_; }
  runtime::SocketId id;

 private:
  static constexpr std::string_view kReply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  tls::TlsSockets& sockets_;
  size_t received_ = 0;
  bool sending_ = false;
  bool closing_ = false;
  bool released_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::shared_ptr<const tls::ServerContext> context = make_context();
  if (size == 0) return 0;
  const size_t pieces = data[0] % 16;
  if (size < 1 + pieces) return 0;
  const uint8_t* lengths = data + 1;
  std::string_view stream(reinterpret_cast<const char*>(data + 1 + pieces), size - 1 - pieces);

  runtime::TimerWheel timers(0, 1);
  FakeLower lower;
  runtime::SpareBuffers spares;
  tls::TlsSockets sockets(lower, timers, spares, context,
                          tls::TlsSettings{1000, [] { return std::string("HTTP/1.1 400 Bad Request\r\n\r\n"); }, {}, nullptr});
  Upper upper(sockets);
  const std::optional<runtime::SocketId> id = sockets.attach(3, upper);
  check(id.has_value(), "attached");
  upper.id = *id;
  size_t piece = 0;
  while (!stream.empty() && !lower.released()) {
    const size_t n = std::min<size_t>(stream.size(), pieces == 0 ? 1 : 1 + lengths[piece++ % pieces]);
    lower.events()->on_receive(stream.substr(0, n));
    stream.remove_prefix(n);
    lower.turn(/*short_send=*/(n & 1) != 0);
    lower.turn(false);
  }
  upper.close();
  for (int i = 0; i < 64 && !lower.released(); ++i) lower.turn(false);
  check(upper.released(), "released once closed");
  return 0;
}
