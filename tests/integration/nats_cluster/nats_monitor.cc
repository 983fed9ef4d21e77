#include "tests/integration/nats_cluster/nats_monitor.h"

#include <curl/curl.h>
#include <simdjson.h>

#include <memory>

namespace integration {

namespace {

size_t append_to_string(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

using CurlHandle = std::unique_ptr<CURL, void (*)(CURL*)>;

}  // namespace

MonitorReply monitor_get(uint16_t monitor_port, const std::string& path_and_query) {
  MonitorReply reply;
  // One handle per request: the fixture polls several servers, some of them just killed,
  // and a kept-alive connection to a dead one would only cost a failed reuse.
  CurlHandle handle(curl_easy_init(), &curl_easy_cleanup);
  if (!handle) {
    reply.error = "curl_easy_init failed";
    return reply;
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(monitor_port) + path_and_query;
  curl_easy_setopt(handle.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(kNatsMonitorRequestTimeout.count()));
  curl_easy_setopt(handle.get(), CURLOPT_WRITEFUNCTION, &append_to_string);
  curl_easy_setopt(handle.get(), CURLOPT_WRITEDATA, &reply.body);
  const CURLcode rc = curl_easy_perform(handle.get());
  if (rc != CURLE_OK) {
    reply.error = "GET " + url + ": " + curl_easy_strerror(rc);
    return reply;
  }
  reply.answered = true;
  curl_easy_getinfo(handle.get(), CURLINFO_RESPONSE_CODE, &reply.status);
  return reply;
}

std::optional<MetaGroupView> parse_meta_group(const std::string& jsz_body, std::string* why) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const auto code = parser.parse(jsz_body).get(root); code != simdjson::SUCCESS) {
    *why = std::string("/jsz is not JSON: ") + simdjson::error_message(code);
    return std::nullopt;
  }
  simdjson::dom::object meta;
  if (root["meta_cluster"].get(meta) != simdjson::SUCCESS) {
    *why = "/jsz has no meta_cluster: " + jsz_body.substr(0, 200);
    return std::nullopt;
  }
  MetaGroupView view;
  std::string_view leader;
  if (meta["leader"].get(leader) == simdjson::SUCCESS) view.leader = std::string(leader);
  int64_t size = 0;
  if (meta["cluster_size"].get(size) == simdjson::SUCCESS) view.cluster_size = static_cast<int>(size);
  simdjson::dom::array replicas;
  if (meta["replicas"].get(replicas) != simdjson::SUCCESS) return view;
  for (simdjson::dom::element replica : replicas) {
    MetaGroupPeer peer;
    std::string_view name;
    if (replica["name"].get(name) == simdjson::SUCCESS) peer.name = std::string(name);
    // nats-server leaves offline out when false (omitempty).
    bool flag = false;
    if (replica["current"].get(flag) == simdjson::SUCCESS) peer.current = flag;
    flag = false;
    if (replica["offline"].get(flag) == simdjson::SUCCESS) peer.offline = flag;
    view.followers.push_back(std::move(peer));
  }
  return view;
}

}  // namespace integration
