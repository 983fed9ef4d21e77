#pragma once
// What one core derives from one key ring (docs/keys.md): its token codec, which seals and
// opens tracking tokens and the sealed d= of VAST tags, and its VAST tag codec, which signs
// and verifies tag URLs with the ring's HMAC keys. Built whole from a ring, never changed:
// a new ring gets new codecs (core_keys.h), so that a core switches every use at once.
//
// Built on any thread (the update loop builds a core's next ones off the reactors) and then
// used by one core only. Keeps no reference to the ring.
#include <cstddef>
#include <cstdint>

#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/vast_tag/vast_tag_codec.h"

namespace tracking {

class RingCodecs {
 public:
  explicit RingCodecs(const KeyRing& ring);
  RingCodecs(const RingCodecs&) = delete;
  RingCodecs& operator=(const RingCodecs&) = delete;

  TokenCodec& tokens() { return tokens_; }
  VastTagCodec& tags() { return tags_; }
  // The key that seals and signs, and how many keys open and verify (it included).
  uint16_t signing_key_id() const { return signing_key_id_; }
  size_t keys() const { return keys_; }

 private:
  const uint16_t signing_key_id_;
  const size_t keys_;
  TokenCodec tokens_;
  VastTagCodec tags_;  // seals its payloads with tokens_
};

}  // namespace tracking
