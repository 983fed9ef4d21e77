#include "proxy_protocol/proxy_sockets.h"

#include <cerrno>

namespace proxy_protocol {

ProxySockets::ProxySockets(runtime::SocketIo& lower, std::shared_ptr<const runtime::AddressRanges> trusted)
    : lower_(lower), trusted_(std::move(trusted)) {}

ProxySockets::~ProxySockets() = default;

std::optional<runtime::SocketId> ProxySockets::attach(int fd, runtime::SocketEvents& events) {
  if (free_.empty()) {
    starts_.push_back(std::make_unique<ConnectionStart>(*this, static_cast<uint32_t>(starts_.size())));
    free_.push_back(static_cast<uint32_t>(starts_.size() - 1));
  }
  const uint32_t index = free_.back();
  ConnectionStart& start = *starts_[index];
  // One lookup per connection, none per request.
  const runtime::IpAddress peer = runtime::peer_ip(fd);
  start.begin(events, peer, trusted_ != nullptr && trusted_->contains(peer));
  const std::optional<runtime::SocketId> id = lower_.attach(fd, start);
  if (id) free_.pop_back();
  return id;
}

void ProxySockets::ConnectionStart::begin(runtime::SocketEvents& upper, const runtime::IpAddress& peer, bool trusted) {
  upper_ = &upper;
  peer_ = peer;
  trusted_ = trusted;
  phase_ = Phase::kOpening;
  held_.clear();
}

void ProxySockets::ConnectionStart::on_receive(std::string_view bytes) {
  switch (phase_) {
    case Phase::kPassing:
      upper_->on_receive(bytes);
      return;
    case Phase::kRefused:
      return;
    case Phase::kOpening:
      break;
  }
  if (held_.empty()) {
    if (!settle(bytes)) held_.assign(bytes);  // bounded: settle() refuses what outgrows a header
    return;
  }
  held_.append(bytes);
  std::string first;
  first.swap(held_);  // what goes up must outlive whatever the layer above does meanwhile
  if (!settle(first)) held_.swap(first);
}

bool ProxySockets::ConnectionStart::settle(std::string_view first) {
  ProxyCounters& counters = owner_.counters_;
  switch (classify(first)) {
    case Opening::kNotProxy:
      pass(peer_, first);
      return true;
    case Opening::kPartial:
      return false;
    case Opening::kV1:
      refuse(trusted_ ? counters.refused_version : counters.refused_untrusted);
      return true;
    case Opening::kV2:
      break;
  }
  if (!trusted_) {
    refuse(counters.refused_untrusted);
    return true;
  }
  const HeaderRead read = read_v2(first);
  switch (read.outcome) {
    case HeaderRead::Outcome::kNeedMore:
      return false;
    case HeaderRead::Outcome::kMalformed:
      switch (read.fault) {
        case HeaderFault::kVersion: refuse(counters.refused_version); break;
        case HeaderFault::kCommand: refuse(counters.refused_command); break;
        case HeaderFault::kFamily: refuse(counters.refused_family); break;
        case HeaderFault::kAddressLength: refuse(counters.refused_address_length); break;
        case HeaderFault::kOversized: refuse(counters.refused_oversized); break;
        case HeaderFault::kTlv:
        case HeaderFault::kNone: refuse(counters.refused_tlv); break;
      }
      return true;
    case HeaderRead::Outcome::kComplete:
      break;
  }
  (read.command == Command::kProxy ? counters.headers_proxy : counters.headers_local).add();
  pass(read.source.known() ? read.source : peer_, first.substr(read.bytes));
  return true;
}

void ProxySockets::ConnectionStart::pass(const runtime::IpAddress& client, std::string_view rest) {
  phase_ = Phase::kPassing;
  upper_->on_client_address(client);
  if (!rest.empty()) upper_->on_receive(rest);
}

void ProxySockets::ConnectionStart::refuse(runtime::CoreCounter& reason) {
  reason.add();
  phase_ = Phase::kRefused;
  held_.clear();
  upper_->on_peer_closed(-EPROTO);  // the layer above closes; nothing it sent is read
}

void ProxySockets::ConnectionStart::on_peer_closed(int error) {
  if (phase_ == Phase::kOpening && !held_.empty()) {
    if (classify(held_) == Opening::kV2 && trusted_) {
      owner_.counters_.cut.add();
    } else {
      // A few bytes that only began like a signature ("\r\n"): theirs to judge above.
      std::string first;
      first.swap(held_);
      pass(peer_, first);
    }
    held_.clear();
  }
  if (phase_ == Phase::kRefused) return;  // the layer above was told already
  upper_->on_peer_closed(error);
}

void ProxySockets::ConnectionStart::on_released() {
  runtime::SocketEvents* upper = upper_;
  upper_ = nullptr;
  std::string().swap(held_);
  owner_.release(index_);
  upper->on_released();
}

}  // namespace proxy_protocol
