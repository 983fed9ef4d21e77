#include "http/client_address.h"

#include <array>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/absl_view.h"

namespace http {

namespace {

using runtime::IpAddress;

std::string_view trim_ows(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool all_digits(std::string_view text) {
  if (text.empty() || text.size() > 5) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// RFC 9110 5.6.2: 1*tchar.
bool is_token(std::string_view text) {
  constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  if (text.empty()) return false;
  for (char c : text) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && kSymbols.find(c) == std::string_view::npos) return false;
  }
  return true;
}

// A node as both headers write it: an IPv4 address, a bare IPv6 address, either followed by
// ":port" (IPv6 then in brackets), or "[IPv6]". Anything else ("unknown", "_hidden", a host
// name, garbage) is no address.
std::optional<IpAddress> node_address(std::string_view node) {
  if (!node.empty() && node.front() == '[') {
    const size_t close = node.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view after = node.substr(close + 1);
    if (!after.empty() && (after.front() != ':' || !all_digits(after.substr(1)))) return std::nullopt;
    const std::optional<IpAddress> address = IpAddress::parse(node.substr(1, close - 1));
    if (!address || address->family != IpAddress::Family::kV6) return std::nullopt;
    return address;
  }
  const size_t colon = node.find(':');
  if (colon != std::string_view::npos && node.find(':', colon + 1) == std::string_view::npos) {
    // One colon: IPv4 with a port.
    if (!all_digits(node.substr(colon + 1))) return std::nullopt;
    const std::optional<IpAddress> address = IpAddress::parse(node.substr(0, colon));
    if (!address || address->family != IpAddress::Family::kV4) return std::nullopt;
    return address;
  }
  return IpAddress::parse(node);  // IPv4, or a bare IPv6 (X-Forwarded-For writes it so)
}

// The nearest hops of a list, kept as they are read left to right: a ring of the last
// kMaxForwardedHops, nearest last.
class HopRing {
 public:
  void add(std::optional<IpAddress> hop) {
    hops_[count_ % kMaxForwardedHops] = hop;
    ++count_;
  }
  ForwardedClient choose(const runtime::AddressRanges& trusted) const {
    ForwardedClient out;
    if (count_ == 0) return out;
    const size_t kept = count_ < kMaxForwardedHops ? count_ : kMaxForwardedHops;
    for (size_t i = 0; i < kept; ++i) {
      const std::optional<IpAddress>& hop = hops_[(count_ - 1 - i) % kMaxForwardedHops];
      if (!hop) {
        out.outcome = ForwardedClient::Outcome::kUnusable;
        return out;
      }
      out.address = *hop;
      if (!trusted.contains(*hop)) break;  // the nearest untrusted hop: the client
    }
    // All trusted: the farthest one read is the client, unless older hops were not read.
    const bool settled = !trusted.contains(out.address) || count_ <= kMaxForwardedHops;
    out.outcome = settled ? ForwardedClient::Outcome::kAddress : ForwardedClient::Outcome::kTooManyHops;
    return out;
  }

 private:
  std::array<std::optional<IpAddress>, kMaxForwardedHops> hops_{};
  size_t count_ = 0;
};

// The value of an element's for= pair (quotes removed), nullopt when it has none or its
// syntax is broken. Pairs are separated by ';', names are case-insensitive (RFC 7239 4).
std::optional<std::string_view> for_value(std::string_view element) {
  std::optional<std::string_view> found;
  while (true) {
    element = trim_ows(element);
    const size_t equals = element.find('=');
    if (equals == std::string_view::npos) return element.empty() ? found : std::nullopt;
    const std::string_view name = trim_ows(element.substr(0, equals));
    std::string_view rest = element.substr(equals + 1);
    std::string_view value;
    if (!rest.empty() && rest.front() == '"') {
      const size_t close = rest.find('"', 1);
      // A backslash escape has no place in a node; broken quoting is garbage.
      if (close == std::string_view::npos || rest.substr(1, close - 1).find('\\') != std::string_view::npos) {
        return std::nullopt;
      }
      value = rest.substr(1, close - 1);
      rest.remove_prefix(close + 1);
    } else {
      const size_t end = rest.find(';');
      value = trim_ows(rest.substr(0, end));
      // Unquoted, a value is a token: an IPv6 node or a port needs quotes (RFC 7239 6).
      if (!is_token(value)) return std::nullopt;
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    }
    if (absl::EqualsIgnoreCase(runtime::av(name), "for")) found = value;
    rest = trim_ows(rest);
    if (rest.empty()) return found;
    if (rest.front() != ';') return std::nullopt;
    element = rest.substr(1);
  }
}

// Calls each with every element of a comma-separated list (commas inside quotes are
// not separators), empty ones skipped (RFC 9110 5.6.1).
template <typename Each>
void for_each_element(std::string_view list, Each&& each) {
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    if (i < list.size()) {
      if (list[i] == '"') quoted = !quoted;
      if (list[i] != ',' || quoted) continue;
    }
    const std::string_view element = trim_ows(list.substr(start, i - start));
    if (!element.empty()) each(element);
    start = i + 1;
  }
}

template <typename Each>
bool for_each_field(const Request& request, std::string_view name, Each&& each) {
  bool any = false;
  for (size_t i = 0; i < request.header_count; ++i) {
    if (!absl::EqualsIgnoreCase(runtime::av(request.headers[i].name), runtime::av(name))) continue;
    any = true;
    for_each_element(request.headers[i].value, each);
  }
  return any;
}

void count(const ForwardedClient& client, runtime::CoreCounter& address, runtime::CoreCounter& unusable,
           runtime::CoreCounter& too_many) {
  switch (client.outcome) {
    case ForwardedClient::Outcome::kAddress: address.add(); break;
    case ForwardedClient::Outcome::kUnusable: unusable.add(); break;
    case ForwardedClient::Outcome::kTooManyHops: too_many.add(); break;
    case ForwardedClient::Outcome::kNoHeader: break;
  }
}

}  // namespace

ForwardedClient forwarded_client(const Request& request, const runtime::AddressRanges& trusted) {
  HopRing hops;
  const bool any = for_each_field(request, "Forwarded", [&](std::string_view element) {
    const std::optional<std::string_view> node = for_value(element);
    hops.add(node ? node_address(*node) : std::nullopt);
  });
  if (!any) return {};
  ForwardedClient client = hops.choose(trusted);
  if (client.outcome == ForwardedClient::Outcome::kNoHeader) client.outcome = ForwardedClient::Outcome::kUnusable;
  return client;
}

ForwardedClient x_forwarded_for_client(const Request& request, const runtime::AddressRanges& trusted) {
  HopRing hops;
  const bool any = for_each_field(request, "X-Forwarded-For",
                                  [&](std::string_view element) { hops.add(node_address(element)); });
  if (!any) return {};
  ForwardedClient client = hops.choose(trusted);
  if (client.outcome == ForwardedClient::Outcome::kNoHeader) client.outcome = ForwardedClient::Outcome::kUnusable;
  return client;
}

IpAddress client_address_of(const Request& request, const IpAddress& transport, const runtime::AddressRanges* trusted,
                            ClientAddressCounters& counters) {
  if (trusted == nullptr || !trusted->contains(transport)) return transport;
  ForwardedClient client = forwarded_client(request, *trusted);
  if (client.outcome != ForwardedClient::Outcome::kNoHeader) {
    count(client, counters.forwarded_address, counters.forwarded_unusable, counters.forwarded_too_many_hops);
  } else {
    client = x_forwarded_for_client(request, *trusted);
    if (client.outcome == ForwardedClient::Outcome::kNoHeader) return transport;
    count(client, counters.x_forwarded_for_address, counters.x_forwarded_for_unusable,
          counters.x_forwarded_for_too_many_hops);
  }
  return client.outcome == ForwardedClient::Outcome::kAddress ? client.address : IpAddress{};
}

}  // namespace http
