#include "tests/conformance/vast/vast_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstdint>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"

namespace conformance::vast {
namespace {

constexpr int kStartAttempts = 3;

// A port the kernel just handed out: the listener must be known before start, since
// --base-url names it. Another process may take it first: the caller retries.
uint16_t unused_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

std::string base64_decode(std::string_view text, bool& ok) {
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  ok = text.size() % 4 == 0;
  for (char c : text) {
    if (c == '=') break;
    const size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) {
      ok = false;
      return out;
    }
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

void read_reply(const integration::CurlReply& reply, ServedAd& served, integration::CurlSession& tags) {
  if (!reply.ok || reply.status != 200) {
    served.problem = "decision: " + (reply.ok ? "status " + std::to_string(reply.status) + " " + reply.body : reply.error);
    return;
  }
  const integration::JsonBody body(reply.body);
  const std::vector<simdjson::dom::element> placements = integration::array_member(body.root(), "data");
  const std::vector<simdjson::dom::element> creatives =
      placements.size() == 1 ? integration::array_member(placements[0], "creatives") : std::vector<simdjson::dom::element>{};
  if (creatives.size() != 1) {
    served.problem = "decision: not one placement with one creative: " + reply.body;
    return;
  }
  served.delivery = integration::string_member(creatives[0], "delivery").value_or("");
  const std::optional<simdjson::dom::element> vast = integration::member(creatives[0], "vast");
  simdjson::dom::object members;
  if (!vast || vast->get_object().get(members) != simdjson::SUCCESS) {
    served.problem = "decision: no vast object";
    return;
  }
  for (auto field : members) served.vast_members.emplace_back(field.key);
  if (const std::optional<std::string> encoded = integration::string_member(*vast, "xmlBase64")) {
    bool ok = false;
    served.document = base64_decode(*encoded, ok);
    if (!ok) served.problem = "xmlBase64 is not base64";
  }
  if (const std::optional<std::string> url = integration::string_member(*vast, "tagUrl")) {
    served.tag_url = *url;
    const integration::CurlReply tag = tags.get(*url);
    if (!tag.ok || tag.status != 200 || tag.header("Content-Type").rfind("application/xml", 0) != 0) {
      served.problem = "GET tagUrl: " + (tag.ok ? "status " + std::to_string(tag.status) + " " + tag.header("Content-Type") : tag.error);
      return;
    }
    served.document = tag.body;
  }
}

}  // namespace

VastServer::VastServer(const std::string& catalog_json) : catalog_("catalog.json", catalog_json) {
  for (int attempt = 0; attempt < kStartAttempts && !serving(); ++attempt) {
    const uint16_t port = unused_loopback_port();
    base_url_ = "http://127.0.0.1:" + std::to_string(port);
    process_.reset();
    process_ = std::make_unique<integration::ServerProcess>(integration::standard_flags({
        "--listen=127.0.0.1:" + std::to_string(port),
        "--base-url=" + base_url_,
        "--catalog=" + catalog_.path(),
        state_.flag(),
        "--seed=7",
    }));
  }
}

std::vector<ServedAd> serve_every_ad(const VastServer& server, const VideoCatalog& catalog) {
  integration::DecisionClient decisions(server.process());
  integration::CurlSession tags;
  std::vector<ServedAd> served;
  for (const VideoAdSpec& ad : catalog.ads) {
    ServedAd one;
    one.ad = &ad;
    integration::DecisionHeaders headers;
    headers.version = "2025-11-01";
    headers.accept_language = ad.accept_language;
    read_reply(decisions.decide(decision_request_json(ad), headers), one, tags);
    served.push_back(std::move(one));
  }
  return served;
}

}  // namespace conformance::vast
