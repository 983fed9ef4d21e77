#pragma once
// One of this machine's own addresses that is not loopback, so a test can reach a listener
// bound to 0.0.0.0 as a non-loopback peer without leaving the machine.
#include <optional>
#include <string>

namespace integration::updates {

// The IPv4 address of the first interface (getifaddrs order) that is up and not loopback;
// nullopt when there is none.
std::optional<std::string> own_non_loopback_ipv4();

}  // namespace integration::updates
