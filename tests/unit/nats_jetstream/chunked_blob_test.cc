// What chunked_blob.h checks a value against without a server: its SHA-256, as FIPS 180-2
// gives it, and a size recorded larger than the reader accepts refused before any read.
#include "nats_jetstream/chunked_blob.h"

#include "gtest/gtest.h"

namespace nats_jetstream {
namespace {

TEST(ChunkedBlob, Sha256IsTheStandardDigestInLowerCaseHex) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(ChunkedBlob, ABlobLargerThanTheReaderAcceptsIsRefusedUnread) {
  StoredBlob blob;
  blob.bytes = 300u << 20;
  blob.chunks = 600;
  BlobReadOptions options;
  options.max_bytes = 256u << 20;
  const absl::StatusOr<std::string> read = read_blob(nullptr, {"s", "s.1"}, blob, options);
  EXPECT_TRUE(absl::IsOutOfRange(read.status())) << read.status();
}

}  // namespace
}  // namespace nats_jetstream
