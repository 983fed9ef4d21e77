#pragma once
// Invariants that stay checked in Release builds. A broken invariant (a slot count that
// wraps, a loan returned twice, a queue that overflows where a bound promised room) would
// otherwise corrupt state silently and surface far away, much later; stopping at once with
// the condition, file and line is cheaper than that. Use it for cheap comparisons only:
// a check sits on hot paths and costs one predictable branch.
//
//   DECISIOND_CHECK(in_flight > 0);
//   DECISIOND_CHECK_MSG(seq == last_seq + 1, "event log seq out of order");
//
// Unlike assert(), NDEBUG does not remove it. The failure path is out of line and cold, so
// the happy path stays a compare and a not-taken jump.

namespace runtime {

// Writes one log line, msg="check failed: <condition> (<message>) at <file>:<line>", to
// stderr (one write, no allocation) and aborts.
[[noreturn]] void check_failed(const char* condition, const char* message, const char* file, int line) noexcept;

}  // namespace runtime

#define DECISIOND_CHECK_MSG(condition, message)                                   \
  do {                                                                            \
    if (__builtin_expect(!(condition), 0)) {                                      \
      ::runtime::check_failed(#condition, (message), __FILE__, __LINE__);         \
    }                                                                             \
  } while (false)

#define DECISIOND_CHECK(condition) DECISIOND_CHECK_MSG(condition, nullptr)
