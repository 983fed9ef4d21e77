#include "tls/server_context.h"

#include <sys/stat.h>

#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace tls {

namespace {

// Mozilla's "intermediate" profile (version 5.7) without the finite-field DHE suites,
// since only X25519 and P-256 are offered for key exchange.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kTls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";
constexpr const char* kGroups = "X25519:P-256";
constexpr unsigned char kHttp11[] = {'h', 't', 't', 'p', '/', '1', '.', '1'};

// The last OpenSSL error, for a message.
std::string openssl_error() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

absl::Status key_mode_ok(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", std::strerror(errno)));
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": a private key others may read (mode ", absl::Hex(st.st_mode & 0777), "): chmod 600 it"));
  }
  return absl::OkStatus();
}

// ALPN: http/1.1 when the client offers it; a client offering only other protocols gets
// the no_application_protocol alert (RFC 7301 3.2).
int select_alpn(SSL*, const unsigned char** out, unsigned char* out_length, const unsigned char* in,
                unsigned int in_length, void*) {
  for (unsigned int i = 0; i < in_length;) {
    const unsigned int n = in[i];
    if (i + 1 + n <= in_length && n == sizeof(kHttp11) && std::memcmp(in + i + 1, kHttp11, n) == 0) {
      *out = in + i + 1;
      *out_length = static_cast<unsigned char>(n);
      return SSL_TLSEXT_ERR_OK;
    }
    i += 1 + n;
  }
  return SSL_TLSEXT_ERR_ALERT_FATAL;
}

absl::StatusOr<SSL_CTX*> new_context() {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr) return absl::InternalError("SSL_CTX_new: " + openssl_error());
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_NO_TICKET);
  // No server-side session cache: resumption is by tickets only (use_tickets), whose keys
  // every node can share; without ticket keys, none.
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_num_tickets(ctx, 0);
  SSL_CTX_set_max_early_data(ctx, 0);
  // An idle kept-alive connection gives its record buffers back.
  SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
  // The chain sent is the certificate file's, as the operator wrote it (leaf, then
  // intermediates). Without this OpenSSL builds a chain from its store on every full
  // handshake when the file holds the leaf alone: an X509_verify_cert per handshake that
  // found nothing to add, measured at about 10% of the full-handshake rate.
  SSL_CTX_set_mode(ctx, SSL_MODE_NO_AUTO_CHAIN);
  // Records are read whole in one pull from the BIO (header and body together, and any that
  // follow), not a 5-byte header and then its body: half the BIO calls per request.
  SSL_CTX_set_read_ahead(ctx, 1);
  if (SSL_CTX_set_cipher_list(ctx, kTls12Ciphers) != 1 || SSL_CTX_set_ciphersuites(ctx, kTls13Suites) != 1 ||
      SSL_CTX_set1_groups_list(ctx, kGroups) != 1) {
    const std::string why = openssl_error();
    SSL_CTX_free(ctx);
    return absl::InternalError("TLS settings: " + why);
  }
  SSL_CTX_set_alpn_select_cb(ctx, select_alpn, nullptr);
  return ctx;
}

absl::Status add_pair(SSL_CTX* ctx, const CertificateFiles& pair) {
  if (absl::Status mode = key_mode_ok(pair.key); !mode.ok()) return mode;
  if (SSL_CTX_use_certificate_chain_file(ctx, pair.chain.c_str()) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(pair.chain, ": not a PEM certificate chain: ", openssl_error()));
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, pair.key.c_str(), SSL_FILETYPE_PEM) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(pair.key, ": not a PEM private key: ", openssl_error()));
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(pair.key, ": does not match the certificate of ", pair.chain, ": ", openssl_error()));
  }
  return absl::OkStatus();
}

// The leaf certificate of a chain file, for its names (caller frees).
absl::StatusOr<X509*> read_leaf(const std::string& chain) {
  FILE* file = std::fopen(chain.c_str(), "r");
  if (file == nullptr) return absl::InvalidArgumentError(absl::StrCat(chain, ": ", std::strerror(errno)));
  X509* leaf = PEM_read_X509(file, nullptr, nullptr, nullptr);
  std::fclose(file);
  if (leaf == nullptr) return absl::InvalidArgumentError(absl::StrCat(chain, ": not a PEM certificate: ", openssl_error()));
  return leaf;
}

// Whether two leaves cover the same names (their subject alternative names, else subjects).
bool same_names(X509* a, X509* b) {
  auto names = [](X509* cert) {
    std::vector<std::string> out;
    GENERAL_NAMES* sans = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; sans != nullptr && i < sk_GENERAL_NAME_num(sans); ++i) {
      const GENERAL_NAME* name = sk_GENERAL_NAME_value(sans, i);
      if (name->type != GEN_DNS) continue;
      const ASN1_STRING* dns = name->d.dNSName;
      out.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)), ASN1_STRING_length(dns));
    }
    GENERAL_NAMES_free(sans);
    if (out.empty()) {
      char subject[512];
      X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof(subject));
      out.emplace_back(subject);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  return names(a) == names(b);
}

CertificateFact fact_of(X509* leaf) {
  CertificateFact fact;
  BIO* out = BIO_new(BIO_s_mem());
  X509_NAME_print_ex(out, X509_get_subject_name(leaf), 0, XN_FLAG_RFC2253);
  char* text = nullptr;
  const long length = BIO_get_mem_data(out, &text);
  fact.subject.assign(text, static_cast<size_t>(length));
  BIO_free(out);
  std::tm expiry{};
  fact.not_after_s = ASN1_TIME_to_tm(X509_get0_notAfter(leaf), &expiry) == 1 ? timegm(&expiry) : 0;
  return fact;
}

}  // namespace

ServerContext::~ServerContext() {
  for (TicketKey& key : ticket_keys_) {
    OPENSSL_cleanse(key.aes.data(), key.aes.size());
    OPENSSL_cleanse(key.hmac.data(), key.hmac.size());
  }
  for (Identity& identity : identities_) {
    X509_free(identity.leaf);
    SSL_CTX_free(identity.context);
  }
}

absl::StatusOr<std::unique_ptr<ServerContext>> ServerContext::load(const std::vector<CertificateFiles>& pairs,
                                                                   std::vector<TicketKey> ticket_keys) {
  if (pairs.empty()) return absl::InvalidArgumentError("no certificate");
  std::unique_ptr<ServerContext> loaded(new ServerContext());
  loaded->ticket_keys_ = std::move(ticket_keys);
  for (const CertificateFiles& pair : pairs) {
    absl::StatusOr<X509*> leaf = read_leaf(pair.chain);
    if (!leaf.ok()) return leaf.status();
    loaded->facts_.push_back(fact_of(*leaf));
    const bool joins_last = !loaded->identities_.empty() && same_names(loaded->identities_.back().leaf, *leaf);
    if (!joins_last) {
      absl::StatusOr<SSL_CTX*> ctx = new_context();
      if (!ctx.ok()) {
        X509_free(*leaf);
        return ctx.status();
      }
      loaded->identities_.push_back({*ctx, *leaf});
    } else {
      X509_free(*leaf);
    }
    if (absl::Status added = add_pair(loaded->identities_.back().context, pair); !added.ok()) return added;
  }
  SSL_CTX_set_tlsext_servername_callback(loaded->default_context(), on_server_name);
  SSL_CTX_set_tlsext_servername_arg(loaded->default_context(), loaded.get());
  if (!loaded->ticket_keys_.empty()) {
    for (Identity& identity : loaded->identities_) loaded->use_tickets(identity.context);
  }
  return loaded;
}

void ServerContext::use_tickets(SSL_CTX* ctx) {
  SSL_CTX_clear_options(ctx, SSL_OP_NO_TICKET);
  SSL_CTX_set_num_tickets(ctx, 1);
  SSL_CTX_set_timeout(ctx, kTicketLifetimeS);
  SSL_CTX_set_app_data(ctx, this);
  SSL_CTX_set_tlsext_ticket_key_evp_cb(ctx, on_ticket_key);
}

// RFC 5077's construction as OpenSSL runs it: the ticket is encrypted with AES-256-CBC and
// authenticated with HMAC-SHA256 under the key the name points to.
int ServerContext::on_ticket_key(SSL* ssl, unsigned char key_name[16], unsigned char iv[EVP_MAX_IV_LENGTH],
                                 EVP_CIPHER_CTX* cipher, EVP_MAC_CTX* mac, int encrypt) {
  const auto* self = static_cast<const ServerContext*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
  if (self == nullptr || self->ticket_keys_.empty()) return 0;
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
  if (encrypt == 1) {
    const TicketKey& key = self->ticket_keys_.front();
    std::memcpy(key_name, key.name.data(), key.name.size());
    if (RAND_bytes(iv, 16) != 1) return -1;
    if (EVP_EncryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, key.aes.data(), iv) != 1) return -1;
    if (EVP_MAC_init(mac, key.hmac.data(), key.hmac.size(), params) != 1) return -1;
    return 1;
  }
  for (size_t i = 0; i < self->ticket_keys_.size(); ++i) {
    const TicketKey& key = self->ticket_keys_[i];
    if (std::memcmp(key_name, key.name.data(), key.name.size()) != 0) continue;
    if (EVP_MAC_init(mac, key.hmac.data(), key.hmac.size(), params) != 1) return -1;
    if (EVP_DecryptInit_ex(cipher, EVP_aes_256_cbc(), nullptr, key.aes.data(), iv) != 1) return -1;
    return i == 0 ? 1 : 2;  // 2: resumed, and a new ticket under the encrypting key
  }
  return 0;  // a key no longer held (or never): a full handshake
}

int ServerContext::on_server_name(SSL* ssl, int*, void* arg) {
  const auto* self = static_cast<const ServerContext*>(arg);
  const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
  if (name == nullptr || self->identities_.size() == 1) return SSL_TLSEXT_ERR_OK;
  for (const Identity& identity : self->identities_) {
    if (X509_check_host(identity.leaf, name, 0, 0, nullptr) == 1) {
      if (identity.context != SSL_get_SSL_CTX(ssl)) SSL_set_SSL_CTX(ssl, identity.context);
      return SSL_TLSEXT_ERR_OK;
    }
  }
  return SSL_TLSEXT_ERR_OK;  // the default's certificate: the client decides whether it will do
}

}  // namespace tls
