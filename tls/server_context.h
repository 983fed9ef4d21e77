#pragma once
// The OpenSSL server configuration of one core (docs/tls.md): its certificates and keys,
// and the protocol rules every connection follows. TLS 1.2 and 1.3 only, the suites of
// Mozilla's "intermediate" profile (AEAD with forward secrecy), X25519 and P-256, ALPN
// http/1.1, no renegotiation, no TLS compression, no early data.
//
// Certificates come in pairs (a PEM chain and its key). Consecutive pairs for the same
// names share one SSL_CTX, so that an ECDSA and an RSA certificate stand side by side and
// OpenSSL picks the one the client can verify; pairs for other names get their own
// SSL_CTX, chosen by the client's SNI. The first pair's names are the default, also for a
// client that sends no SNI or a name no certificate covers.
//
// Each core loads its own (no SSL_CTX is shared between threads), before it serves.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <openssl/evp.h>
#include <openssl/ssl.h>

#include "absl/status/statusor.h"

namespace tls {

struct CertificateFiles {
  std::string chain;  // PEM: the leaf first, then its intermediates
  std::string key;    // PEM private key; mode 0600 or stricter
};

// One session ticket key (docs/tls.md "Resumption on any node"): the first of a list
// encrypts new tickets, every one decrypts the tickets it made. Wiped when dropped.
struct TicketKey {
  std::array<unsigned char, 16> name{};  // carried in the ticket, to find the key again
  std::array<unsigned char, 32> aes{};   // AES-256-CBC
  std::array<unsigned char, 32> hmac{};  // HMAC-SHA256
};

// How long a ticket resumes a session: an older key must be kept at least this long after
// a newer one began encrypting.
inline constexpr long kTicketLifetimeS = 2 * 3600;

// What an operator watches of a certificate in force (docs/operations.md alerts on it).
struct CertificateFact {
  std::string subject;   // the leaf's subject, RFC 2253 ("CN=ads.example.com")
  int64_t not_after_s;   // its expiry, seconds since the epoch
};

class ServerContext {
 public:
  ~ServerContext();
  ServerContext(const ServerContext&) = delete;
  ServerContext& operator=(const ServerContext&) = delete;

  // Loads every pair. An error names the file: unreadable, not PEM, a key that does not
  // match its certificate, a key file others may read. ticket_keys: empty, no tickets (every
  // connection a full handshake).
  static absl::StatusOr<std::unique_ptr<ServerContext>> load(const std::vector<CertificateFiles>& pairs,
                                                             std::vector<TicketKey> ticket_keys = {});

  // What a new connection starts with: the default names' context.
  SSL_CTX* default_context() const { return identities_.front().context; }
  // Every pair's leaf, in the order given.
  const std::vector<CertificateFact>& certificates() const { return facts_; }

 private:
  struct Identity {
    SSL_CTX* context = nullptr;
    X509* leaf = nullptr;  // of its first pair, to match SNI against (not owned: the context's)
  };

  ServerContext() = default;
  static int on_server_name(SSL* ssl, int* alert, void* arg);
  static int on_ticket_key(SSL* ssl, unsigned char key_name[16], unsigned char iv[EVP_MAX_IV_LENGTH],
                           EVP_CIPHER_CTX* cipher, EVP_MAC_CTX* mac, int encrypt);
  void use_tickets(SSL_CTX* ctx);

  std::vector<Identity> identities_;
  std::vector<CertificateFact> facts_;
  std::vector<TicketKey> ticket_keys_;
};

}  // namespace tls
