#include "decision/selection/core_random.h"

namespace decision::selection {

namespace {
// splitmix64 spreads (seed, core) pairs that differ in one bit into unrelated seeds.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

CoreRandom::CoreRandom(uint64_t seed, uint32_t core_index) : engine_(mix(seed ^ mix(core_index))) {}

uint64_t CoreRandom::seed_from_os() {
  std::random_device device;
  return (uint64_t{device()} << 32) | device();
}

uint64_t CoreRandom::below(uint64_t bound) {
  // Rejection keeps the draw exactly uniform: no modulo bias.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do {
    x = engine_();
  } while (x >= limit);
  return x % bound;
}

}  // namespace decision::selection
