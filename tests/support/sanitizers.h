#pragma once
// Whether this build runs under AddressSanitizer (make sanitize, docs/testing.md). The test
// binaries and the server are built alike, so a test can ask this of itself and of the
// server it starts. Under ASan freed memory waits in a quarantine instead of going back to
// jemalloc (ASan's allocator replaces it), and every request costs a few times more.
namespace decision::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace decision::testing
