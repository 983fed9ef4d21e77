#include "proxy_protocol/proxy_header.h"

#include <algorithm>

namespace proxy_protocol {

namespace {

constexpr uint8_t kVersion2 = 0x2;
constexpr uint8_t kCommandLocal = 0x0;
constexpr uint8_t kCommandProxy = 0x1;
constexpr uint8_t kFamilyUnspec = 0x0;
constexpr uint8_t kFamilyInet = 0x1;
constexpr uint8_t kFamilyInet6 = 0x2;
constexpr uint8_t kFamilyUnix = 0x3;
constexpr uint8_t kLastTransport = 0x2;  // DGRAM
constexpr size_t kInetBytes = 12;
constexpr size_t kInet6Bytes = 36;
constexpr size_t kUnixBytes = 216;
constexpr size_t kTlvHeadBytes = 3;

uint8_t byte_at(std::string_view bytes, size_t i) { return static_cast<uint8_t>(bytes[i]); }

HeaderRead malformed(HeaderFault fault) {
  HeaderRead read;
  read.outcome = HeaderRead::Outcome::kMalformed;
  read.fault = fault;
  return read;
}

HeaderRead need(size_t bytes) {
  HeaderRead read;
  read.bytes = bytes;
  return read;
}

size_t address_bytes(uint8_t family) {
  switch (family) {
    case kFamilyInet: return kInetBytes;
    case kFamilyInet6: return kInet6Bytes;
    case kFamilyUnix: return kUnixBytes;
    default: return 0;
  }
}

bool tlvs_framed(std::string_view tlvs) {
  while (!tlvs.empty()) {
    if (tlvs.size() < kTlvHeadBytes) return false;
    const size_t length = size_t{byte_at(tlvs, 1)} << 8 | byte_at(tlvs, 2);
    if (tlvs.size() - kTlvHeadBytes < length) return false;
    tlvs.remove_prefix(kTlvHeadBytes + length);
  }
  return true;
}

runtime::IpAddress source_of(uint8_t family, std::string_view addresses) {
  const auto* octets = reinterpret_cast<const uint8_t*>(addresses.data());
  if (family == kFamilyInet) {
    const uint8_t v4[4] = {octets[0], octets[1], octets[2], octets[3]};
    return runtime::IpAddress::v4(v4);
  }
  if (family == kFamilyInet6) return runtime::IpAddress::v6(octets);
  return {};
}

}  // namespace

Opening classify(std::string_view first) {
  for (const std::string_view signature : {kV2Signature, kV1Signature}) {
    const size_t n = std::min(first.size(), signature.size());
    if (first.substr(0, n) != signature.substr(0, n)) continue;
    if (n < signature.size()) return Opening::kPartial;
    return signature == kV2Signature ? Opening::kV2 : Opening::kV1;
  }
  return Opening::kNotProxy;
}

HeaderRead read_v2(std::string_view bytes) {
  const size_t have = bytes.size();
  if (have > kV2Signature.size()) {
    const uint8_t version_command = byte_at(bytes, 12);
    if ((version_command >> 4) != kVersion2) return malformed(HeaderFault::kVersion);
    const uint8_t command = version_command & 0x0f;
    if (command != kCommandLocal && command != kCommandProxy) return malformed(HeaderFault::kCommand);
  }
  const bool proxy = have > 12 && (byte_at(bytes, 12) & 0x0f) == kCommandProxy;
  // LOCAL: the protocol block is ignored whatever it says (docs/client_address.md).
  if (have > 13 && proxy) {
    const uint8_t family = byte_at(bytes, 13) >> 4;
    const uint8_t transport = byte_at(bytes, 13) & 0x0f;
    if (family > kFamilyUnix || transport > kLastTransport) return malformed(HeaderFault::kFamily);
  }
  if (have < kFixedBytes) return need(kFixedBytes);
  const size_t length = size_t{byte_at(bytes, 14)} << 8 | byte_at(bytes, 15);
  const size_t total = kFixedBytes + length;
  if (total > kMaxHeaderBytes) return malformed(HeaderFault::kOversized);
  const uint8_t family = byte_at(bytes, 13) >> 4;
  const size_t addresses = proxy ? address_bytes(family) : 0;
  if (length < addresses) return malformed(HeaderFault::kAddressLength);
  if (have < total) return need(total);

  HeaderRead read;
  read.outcome = HeaderRead::Outcome::kComplete;
  read.bytes = total;
  read.command = proxy ? Command::kProxy : Command::kLocal;
  if (!proxy) return read;
  if (family != kFamilyUnspec && !tlvs_framed(bytes.substr(kFixedBytes + addresses, length - addresses))) {
    return malformed(HeaderFault::kTlv);
  }
  read.source = source_of(family, bytes.substr(kFixedBytes, addresses));
  return read;
}

}  // namespace proxy_protocol
