// The hot-path rule: once warm, encode (and decode into warm storage) allocate nothing, on
// the C++ heap, in libgcrypt (the cipher) or in OpenSSL (the prefix's random bytes). Counted
// by replacing operator new in this test binary and both libraries' allocators (which must
// be set before they allocate anything, hence static initializers).
#include <gcrypt.h>
#include <gtest/gtest.h>
#include <openssl/crypto.h>

#include <cstdlib>
#include <new>
#include <string>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/token_codec.h"

namespace {

bool counting = false;
long allocations = 0;
long crypto_allocations = 0;  // the subset made by libcrypto

void* counted_malloc(size_t size) {
  if (counting) ++allocations;
  return std::malloc(size);
}

void* crypto_malloc(size_t size, const char*, int) {
  if (counting) ++crypto_allocations;
  return counted_malloc(size);
}
void* crypto_realloc(void* p, size_t size, const char*, int) {
  if (counting) {
    ++allocations;
    ++crypto_allocations;
  }
  return std::realloc(p, size);
}
void crypto_free(void* p, const char*, int) { std::free(p); }

void* gcrypt_malloc(size_t size) { return crypto_malloc(size, nullptr, 0); }
void* gcrypt_realloc(void* p, size_t size) { return crypto_realloc(p, size, nullptr, 0); }
void gcrypt_free(void* p) { std::free(p); }
int gcrypt_is_secure(const void*) { return 0; }

bool count_crypto_allocations() {
  gcry_set_allocation_handler(gcrypt_malloc, gcrypt_malloc, gcrypt_is_secure, gcrypt_realloc, gcrypt_free);
  return CRYPTO_set_mem_functions(crypto_malloc, crypto_realloc, crypto_free) == 1;
}
const bool crypto_allocator_counted = count_crypto_allocations();

// Counts the allocations made while it lives.
class AllocationCounter {
 public:
  AllocationCounter() {
    allocations = crypto_allocations = 0;
    counting = true;
  }
  ~AllocationCounter() { counting = false; }
  long count() const { return allocations; }
  long crypto_count() const { return crypto_allocations; }
};

}  // namespace

// Every unaligned form, so that no allocation pairs ours with the library's (or a
// sanitizer's) own; the aligned forms keep theirs, in pairs.
void* operator new(size_t size) {
  if (void* p = counted_malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return counted_malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return counted_malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace tracking {
namespace {

using testing::ring_of;
using testing::sample_event;

TEST(TokenCodecHotPath, CounterSeesTheCryptoLibrariesAllocations) {
  // The control: building a codec allocates libgcrypt handles, and the counter must see them,
  // or the zero counts below would prove nothing.
  if (!crypto_allocator_counted) GTEST_SKIP() << "libcrypto allocated before the test could count";
  const KeyRing ring = ring_of({1});
  AllocationCounter counter;
  TokenCodec codec(ring);
  EXPECT_GT(counter.crypto_count(), 0);
}

TEST(TokenCodecHotPath, EncodeAllocatesNothingOnceWarm) {
  if (!crypto_allocator_counted) GTEST_SKIP() << "libcrypto allocated before the test could count";
  const KeyRing ring = ring_of({2, 1});
  TokenCodec codec(ring);
  TrackingEvent click = sample_event(EventKind::kClick);
  click.user_id = "user-4711";
  const TrackingEvent custom = sample_event(EventKind::kCustom);
  std::string out;
  ASSERT_TRUE(codec.encode(click, out).ok());  // warms the DRBG and out
  out.reserve(4096);

  AllocationCounter counter;
  for (int i = 0; i < 1000; ++i) {
    out.clear();
    if (!codec.encode(i % 2 ? click : custom, out).ok()) break;
  }
  EXPECT_EQ(counter.count(), 0);
}

TEST(TokenCodecHotPath, DecodeAllocatesNothingOnceStorageIsWarm) {
  if (!crypto_allocator_counted) GTEST_SKIP() << "libcrypto allocated before the test could count";
  const KeyRing ring = ring_of({2, 1});
  TokenCodec codec(ring);
  TrackingEvent click = sample_event(EventKind::kClick);
  click.user_id = "user-4711";
  std::string token;
  ASSERT_TRUE(codec.encode(click, token).ok());
  std::string tampered = token;
  tampered[30] = tampered[30] == 'A' ? 'B' : 'A';
  std::string storage;
  storage.reserve(4096);

  AllocationCounter counter;
  int valid = 0;
  for (int i = 0; i < 1000; ++i) {
    valid += codec.decode(i % 2 ? token : tampered, testing::kIssuedAtS, storage).ok();
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(valid, 500);
}

}  // namespace
}  // namespace tracking
