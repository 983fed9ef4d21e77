#include "tracking/tokens/token_codec.h"

#include <xxhash.h>

#include <cstring>
#include <utility>

namespace tracking {
namespace {

struct AssociatedData {
  uint8_t bytes[TokenCodec::kKeyIdBytes + 1];
};

AssociatedData associated_data(const uint8_t* key_id, uint8_t domain) { return {{key_id[0], key_id[1], domain}}; }

size_t cache_slot(uint16_t key_id, std::span<const uint8_t, kXaesPrefixBytes> prefix, size_t entries) {
  // Prefixes are random: their first bytes spread as well as any hash would.
  uint32_t head;
  std::memcpy(&head, prefix.data(), sizeof(head));
  return (head ^ key_id) % entries;
}

}  // namespace

TokenCodec::TokenCodec(const KeyRing& keys, NonceSequence nonces)
    : signing_key_id_(keys.signing_key().id),
      nonces_(std::move(nonces)),
      open_cache_(std::make_unique<OpenCacheEntry[]>(kOpenCacheEntries)) {
  ring_keys_.reserve(keys.entries().size());
  for (const KeyEntry& entry : keys.entries()) {
    ring_keys_.push_back({entry.id, std::make_unique<XaesKey>(entry.aes_key)});
  }
  key_sealer();
}

void TokenCodec::key_sealer() {
  std::array<uint8_t, kXaesKeyBytes> subkey{};
  ring_keys_.front().derivation->derive(nonces_.prefix(), subkey);
  seal_key_.set_key(subkey);
  wipe_key_bytes(subkey);
}

TokenCodec::~TokenCodec() = default;  // libgcrypt wipes the keys of the handles it closes

absl::Status TokenCodec::encode(const TrackingEvent& event, std::string& out) {
  if (absl::Status encodable = check_encodable(event); !encodable.ok()) return encodable;
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  return seal(kPayloadVersion, write_payload(event, std::span<uint8_t, kMaxPayloadBytes>(payload, kMaxPayloadBytes)), out);
}

absl::Status TokenCodec::encode_any_kind(const TrackingEvent& event, std::string& out) {
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  const size_t size = write_payload_of_any_kind(event, std::span<uint8_t, kMaxPayloadBytes>(payload, kMaxPayloadBytes));
  if (size == 0) return absl::InvalidArgumentError("event breaks a bound of the payload");
  return seal(kPayloadVersion, size, out);
}

absl::Status TokenCodec::seal_bytes(uint8_t domain, std::string_view plaintext, std::string& out) {
  if (domain < kFirstOtherDomain) return absl::InvalidArgumentError("domain: tracking payload versions are reserved");
  if (plaintext.empty() || plaintext.size() > kMaxPayloadBytes) {
    return absl::InvalidArgumentError("plaintext: must be 1..kMaxPayloadBytes bytes");
  }
  std::memcpy(raw_.data() + kKeyIdBytes + kNonceBytes, plaintext.data(), plaintext.size());
  return seal(domain, plaintext.size(), out);
}

absl::Status TokenCodec::seal(uint8_t domain, size_t payload_size, std::string& out) {
  uint8_t* const key_id = raw_.data();
  uint8_t* const nonce = key_id + kKeyIdBytes;
  uint8_t* const payload = nonce + kNonceBytes;
  key_id[0] = static_cast<uint8_t>(signing_key_id_ >> 8);
  key_id[1] = static_cast<uint8_t>(signing_key_id_);
  // The 192-bit nonce: the codec's prefix, then a count that never repeats under it.
  if (nonces_.next(std::span<uint8_t, kNonceBytes>(nonce, kNonceBytes))) key_sealer();
  const uint8_t* const gcm_nonce = nonce + kXaesPrefixBytes;
  uint8_t* const tag = payload + payload_size;

  const AssociatedData aad = associated_data(key_id, domain);
  if (!seal_key_.seal(std::span<const uint8_t, kGcmNonceBytes>(gcm_nonce, kGcmNonceBytes), aad.bytes,
                      std::span<uint8_t>(payload, payload_size), std::span<uint8_t, kGcmTagBytes>(tag, kGcmTagBytes))) {
    return absl::InternalError("AES-256-GCM encryption failed");
  }
  const size_t token_size = kOverheadBytes + payload_size;
  base64url_encode(std::string_view(reinterpret_cast<const char*>(raw_.data()), token_size), out);
  return absl::OkStatus();
}

GcmKey& TokenCodec::open_key(const RingKey& key, std::span<const uint8_t, kXaesPrefixBytes> prefix) {
  OpenCacheEntry& entry = open_cache_[cache_slot(key.id, prefix, kOpenCacheEntries)];
  if (!entry.valid || entry.key_id != key.id || std::memcmp(entry.prefix.data(), prefix.data(), prefix.size()) != 0) {
    std::array<uint8_t, kXaesKeyBytes> subkey{};
    key.derivation->derive(prefix, subkey);
    entry.gcm.set_key(subkey);
    wipe_key_bytes(subkey);
    entry.valid = true;
    entry.key_id = key.id;
    std::memcpy(entry.prefix.data(), prefix.data(), prefix.size());
  }
  return entry.gcm;
}

TokenVerdict TokenCodec::open(uint8_t domain, std::string_view token, std::string_view& plaintext) {
  if (token.size() > kMaxTokenChars) return TokenVerdict::kMalformed;
  const std::optional<size_t> token_size = base64url_decode(token, raw_);
  // Every token has at least the header, the tag and some payload.
  if (!token_size || *token_size <= kOverheadBytes) return TokenVerdict::kMalformed;

  const uint8_t* const key_id = raw_.data();
  const uint16_t id = static_cast<uint16_t>((key_id[0] << 8) | key_id[1]);
  const RingKey* key = nullptr;
  for (const RingKey& k : ring_keys_) {
    if (k.id == id) key = &k;
  }
  if (key == nullptr) return TokenVerdict::kUnknownKey;

  const uint8_t* const nonce = key_id + kKeyIdBytes;
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  const size_t payload_size = *token_size - kOverheadBytes;
  const uint8_t* const tag = payload + payload_size;
  const AssociatedData aad = associated_data(key_id, domain);
  GcmKey& gcm = open_key(*key, std::span<const uint8_t, kXaesPrefixBytes>(nonce, kXaesPrefixBytes));
  // Compares the tag in constant time; fails on any change to the token.
  if (!gcm.open(std::span<const uint8_t, kGcmNonceBytes>(nonce + kXaesPrefixBytes, kGcmNonceBytes), aad.bytes,
                std::span<uint8_t>(payload, payload_size), std::span<const uint8_t, kGcmTagBytes>(tag, kGcmTagBytes))) {
    return TokenVerdict::kUnauthenticated;
  }
  plaintext = std::string_view(reinterpret_cast<const char*>(payload), payload_size);
  return TokenVerdict::kValid;
}

TokenVerdict TokenCodec::open_bytes(uint8_t domain, std::string_view text, std::string& storage) {
  storage.clear();
  if (domain < kFirstOtherDomain) return TokenVerdict::kMalformed;
  std::string_view plaintext;
  const TokenVerdict verdict = open(domain, text, plaintext);
  if (verdict == TokenVerdict::kValid) storage.assign(plaintext);
  return verdict;
}

DecodedToken TokenCodec::decode(std::string_view token, int64_t now_s, std::string& storage) {
  storage.clear();
  DecodedToken decoded;  // kMalformed until proven otherwise
  std::string_view plaintext;
  decoded.verdict = open(kPayloadVersion, token, plaintext);
  if (decoded.verdict != TokenVerdict::kValid) return decoded;

  // The key id and nonce name the token: distinct tokens have distinct (key id, nonce) by
  // construction, so two share an id only by a 64-bit hash collision. XXH3-64 without a
  // seed because the id is persisted (event log, dedup snapshots): its output is frozen
  // since xxHash 0.8.0, the same in every process and build. No 8 bytes of the nonce would
  // do alone: a codec's tokens share its prefix, and every codec counts from 0.
  decoded.token_id = XXH3_64bits(raw_.data(), kKeyIdBytes + kNonceBytes);
  // Only authenticated plaintext reaches the caller's storage.
  storage.assign(plaintext);
  if (!read_payload(storage, decoded.event)) {
    storage.clear();
    decoded.event = TrackingEvent{};
    decoded.verdict = TokenVerdict::kMalformed;
    return decoded;  // authentic but unreadable: a bug of ours, still a 400 for the client
  }
  decoded.verdict =
      now_s >= decoded.event.expires_at_s ? TokenVerdict::kExpired : TokenVerdict::kValid;
  return decoded;
}

}  // namespace tracking
