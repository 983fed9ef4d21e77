#pragma once
// What a SIGHUP does with keys.json (docs/keys.md, "Reloading keys"): the file read again
// with the start's reader and rules (KeyRing::load: mode 0600 or 0400, size, content,
// ids) is weighed against the keys in force.
//
//   refused    the file cannot be read or breaks a rule, or it holds other bytes under an
//              id in force (an id names one key for all time: the tokens that key sealed
//              would all fail). The keys in force stay.
//   unchanged  the same keys, the same one signing (the order of the others does not count).
//   applied    anything else: the file's ring goes to every core.
//
// A ring that makes a key sign which the cores do not all hold yet goes in two steps, as
// across several nodes: first every core opens the new keys while the key in force still
// signs (opening_first); only once every core holds them does the new key sign. So a token
// sealed on one core never reaches another that cannot open it.
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tracking/tokens/key_ring.h"

namespace tracking {

enum class KeyReloadResult : uint8_t { kRefused, kUnchanged, kApplied };

struct KeyReload {
  KeyReloadResult result = KeyReloadResult::kRefused;
  // kRefused: why, naming the file and the rule, never a key's bytes.
  std::string refusal;
  // kApplied, when the file's signing key is not held in force: the key in force first,
  // then every key of the file. Published, and adopted by every core, before ring.
  std::optional<KeyRing> opening_first;
  // kApplied: the file's ring.
  std::optional<KeyRing> ring;
};

// read: KeyRing::load of the file (its error, which names the file, when it could not be
// read or was refused); file: its path, for the refusals made here.
KeyReload plan_key_reload(const KeyRing& in_force, absl::StatusOr<KeyRing> read, std::string_view file);

// "key 3 signs; keys 3, 2 open" for stderr: ids only.
std::string describe_keys(const KeyRing& ring);

}  // namespace tracking
