#pragma once
// PROXY protocol v2 headers made byte by byte, as a balancer sends them, for the tests.
#include <arpa/inet.h>

#include <cstdint>
#include <string>

#include "proxy_protocol/proxy_header.h"

namespace proxy_protocol {

// Signature, version/command, family/transport, length, then body.
inline std::string v2_header(uint8_t version_command, uint8_t family_transport, const std::string& body) {
  std::string out(kV2Signature);
  out.push_back(static_cast<char>(version_command));
  out.push_back(static_cast<char>(family_transport));
  out.push_back(static_cast<char>(body.size() >> 8));
  out.push_back(static_cast<char>(body.size() & 0xff));
  return out + body;
}

inline std::string port_bytes(uint16_t port) {
  return {static_cast<char>(port >> 8), static_cast<char>(port & 0xff)};
}

inline std::string address_bytes(int family, const char* text) {
  unsigned char out[16] = {};
  if (inet_pton(family, text, out) != 1) return "<bad test address>";
  return std::string(reinterpret_cast<const char*>(out), family == AF_INET ? 4 : 16);
}

// PROXY, TCP over IPv4.
inline std::string v2_inet(const char* source, const char* destination, uint16_t source_port, uint16_t destination_port,
                           const std::string& tlvs = "") {
  return v2_header(0x21, 0x11,
                   address_bytes(AF_INET, source) + address_bytes(AF_INET, destination) + port_bytes(source_port) +
                       port_bytes(destination_port) + tlvs);
}

// PROXY, TCP over IPv6.
inline std::string v2_inet6(const char* source, const char* destination, uint16_t source_port,
                            uint16_t destination_port, const std::string& tlvs = "") {
  return v2_header(0x21, 0x21,
                   address_bytes(AF_INET6, source) + address_bytes(AF_INET6, destination) + port_bytes(source_port) +
                       port_bytes(destination_port) + tlvs);
}

}  // namespace proxy_protocol
