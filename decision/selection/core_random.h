#pragma once
// Each core's random generator. Seeded from --seed (plus the core index, so cores differ)
// for reproducible tests, or from the OS once at start. Never shared between cores.
#include <cstdint>
#include <random>

namespace decision::selection {

class CoreRandom {
 public:
  CoreRandom(uint64_t seed, uint32_t core_index);
  // A fresh seed from the operating system (start-up only: a system call).
  static uint64_t seed_from_os();

  // Uniform in [0, bound); bound > 0.
  uint64_t below(uint64_t bound);

 private:
  std::mt19937_64 engine_;
};

}  // namespace decision::selection
