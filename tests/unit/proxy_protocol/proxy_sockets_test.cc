// The PROXY layer as the connection above sees it (proxy_protocol/proxy_sockets.h): over a
// scripted socket table, with real loopback sockets so the peer lookup is the real one.
#include "proxy_protocol/proxy_sockets.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/unit/proxy_protocol/proxy_header_bytes.h"

namespace proxy_protocol {
namespace {

// The sockets below: attach records whom to call; the test plays the ring.
class ScriptedSockets final : public runtime::SocketIo {
 public:
  std::optional<runtime::SocketId> attach(int fd, runtime::SocketEvents& events) override {
    events_ = &events;
    fds_.push_back(fd);
    return runtime::SocketId{7, 1};
  }
  void send(runtime::SocketId, const char*, size_t) override {}
  void shutdown_write(runtime::SocketId) override {}
  void close(runtime::SocketId) override { ++closes_; }
  void close_fd(int) override {}
  runtime::SocketEvents& events() { return *events_; }
  ~ScriptedSockets() override {
    for (int fd : fds_) ::close(fd);
  }
  int closes_ = 0;

 private:
  runtime::SocketEvents* events_ = nullptr;
  std::vector<int> fds_;
};

// The connection above: what it was told.
struct Upper final : runtime::SocketEvents {
  void on_receive(std::string_view bytes) override {
    EXPECT_TRUE(told_address) << "the address comes before the first bytes";
    received += bytes;
  }
  void on_peer_closed(int error) override { closed.push_back(error); }
  void on_send_complete(int) override {}
  void on_released() override { released = true; }
  void on_client_address(const runtime::IpAddress& a) override {
    EXPECT_FALSE(told_address) << "told once";
    told_address = true;
    address = a;
  }
  std::string text() const {
    std::array<char, runtime::IpAddress::kMaxTextBytes + 1> out{};
    return std::string(runtime::format_ip(address, out));
  }
  bool told_address = false;
  runtime::IpAddress address;
  std::string received;
  std::vector<int> closed;
  bool released = false;
};

// A connected loopback pair; the server side's fd is handed to the layer (and closed by the
// scripted sockets), the client side kept here.
class LoopbackPair {
 public:
  LoopbackPair() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listener_, 1);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    client_ = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(client_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    server_ = ::accept(listener_, nullptr, nullptr);
  }
  ~LoopbackPair() {
    ::close(client_);
    ::close(listener_);
  }
  int server_fd() const { return server_; }

 private:
  int listener_ = -1;
  int client_ = -1;
  int server_ = -1;
};

std::shared_ptr<const runtime::AddressRanges> ranges(std::string_view text) {
  return std::make_shared<const runtime::AddressRanges>(*runtime::AddressRanges::parse(text));
}

struct Layer {
  explicit Layer(std::string_view trusted) : proxy(below, ranges(trusted)) {
    EXPECT_TRUE(proxy.attach(pair.server_fd(), upper).has_value());
  }
  void receive(std::string_view bytes) { below.events().on_receive(bytes); }
  ScriptedSockets below;
  ProxySockets proxy;
  LoopbackPair pair;
  Upper upper;
};

TEST(ProxySockets, WithoutAHeaderThePeerIsTheClientAndEveryByteGoesUp) {
  Layer layer("");
  layer.receive("GET / HTTP/1.1\r\n");
  layer.receive("Host: x\r\n\r\n");
  EXPECT_EQ(layer.upper.text(), "127.0.0.1");
  EXPECT_EQ(layer.upper.received, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(layer.upper.closed.empty());
}

TEST(ProxySockets, ATrustedPeersHeaderNamesTheClientAndIsTakenOff) {
  Layer layer("127.0.0.0/8");
  layer.receive(v2_inet("89.160.20.112", "127.0.0.1", 5000, 443) + "\x16\x03\x01");
  EXPECT_EQ(layer.upper.text(), "89.160.20.112");
  EXPECT_EQ(layer.upper.received, "\x16\x03\x01");
  EXPECT_EQ(layer.proxy.counters().headers_proxy.get(), 1u);
}

TEST(ProxySockets, AHeaderSplitAcrossReceivesIsPutTogether) {
  Layer layer("127.0.0.1");
  const std::string bytes = v2_inet6("2a02:cfc0::1", "::1", 5000, 443) + "GET /";
  for (char c : bytes) layer.receive(std::string_view(&c, 1));
  EXPECT_EQ(layer.upper.text(), "2a02:cfc0::1");
  EXPECT_EQ(layer.upper.received, "GET /");
}

TEST(ProxySockets, ALocalHeaderLeavesThePeerAsTheClient) {
  Layer layer("127.0.0.1");
  layer.receive(v2_header(0x20, 0x00, "") + "GET /");
  EXPECT_EQ(layer.upper.text(), "127.0.0.1");
  EXPECT_EQ(layer.upper.received, "GET /");
  EXPECT_EQ(layer.proxy.counters().headers_local.get(), 1u);
}

TEST(ProxySockets, AHeaderFromAnUntrustedPeerClosesTheConnectionAtItsSignature) {
  Layer layer("10.0.0.0/8");
  layer.receive(kV2Signature);  // refused before the rest arrives
  EXPECT_EQ(layer.upper.closed, std::vector<int>{-EPROTO});
  EXPECT_FALSE(layer.upper.told_address);
  layer.receive(v2_inet("89.160.20.112", "127.0.0.1", 1, 2).substr(12) + "GET /");
  EXPECT_EQ(layer.upper.received, "") << "nothing after a refusal goes up";
  EXPECT_EQ(layer.proxy.counters().refused_untrusted.get(), 1u);
}

TEST(ProxySockets, AMalformedHeaderFromATrustedPeerClosesAndIsCountedByReason) {
  Layer layer("127.0.0.1");
  layer.receive(v2_header(0x21, 0x71, std::string(12, '\0')));
  EXPECT_EQ(layer.upper.closed, std::vector<int>{-EPROTO});
  EXPECT_EQ(layer.proxy.counters().refused_family.get(), 1u);
  EXPECT_EQ(layer.proxy.counters().refused_untrusted.get(), 0u);
}

TEST(ProxySockets, VersionOneIsRefusedEvenFromATrustedPeer) {
  Layer layer("127.0.0.1");
  layer.receive("PROXY TCP4 89.160.20.112 127.0.0.1 1 2\r\n");
  EXPECT_EQ(layer.upper.closed, std::vector<int>{-EPROTO});
  EXPECT_EQ(layer.proxy.counters().refused_version.get(), 1u);
}

TEST(ProxySockets, APeerThatClosesInTheMiddleOfAHeaderIsCountedAsCut) {
  Layer layer("127.0.0.1");
  layer.receive(v2_inet("89.160.20.112", "127.0.0.1", 1, 2).substr(0, 20));
  layer.below.events().on_peer_closed(0);
  EXPECT_EQ(layer.upper.closed, std::vector<int>{0});
  EXPECT_EQ(layer.proxy.counters().cut.get(), 1u);
}

TEST(ProxySockets, BytesThatOnlyBeganLikeASignatureGoUpAtTheClose) {
  Layer layer("");
  layer.receive("\r\n");
  EXPECT_EQ(layer.upper.received, "");
  layer.below.events().on_peer_closed(0);
  EXPECT_EQ(layer.upper.received, "\r\n");
  EXPECT_EQ(layer.upper.closed, std::vector<int>{0});
}

TEST(ProxySockets, ReleaseReachesTheConnectionAndFreesTheSlot) {
  Layer layer("");
  layer.receive("GET");
  layer.below.events().on_released();
  EXPECT_TRUE(layer.upper.released);
}

}  // namespace
}  // namespace proxy_protocol
