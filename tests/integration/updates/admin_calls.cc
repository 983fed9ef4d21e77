#include "tests/integration/updates/admin_calls.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/integration/metrics_scrape.h"

namespace integration::updates {

CurlReply upload_catalog(CurlSession& curl, const std::string& admin_base, const std::string& body,
                         const std::vector<std::string>& extra_headers) {
  // "Expect:" with no value: curl would otherwise wait for 100 Continue before a large body.
  std::vector<std::string> lines = {"Content-Type: application/json", "Expect:"};
  lines.insert(lines.end(), extra_headers.begin(), extra_headers.end());
  return curl.post_with_headers(admin_base + "/admin/catalog", body, lines);
}

CurlReply upload_catalog(const ServerProcess& server, const std::string& body,
                         const std::vector<std::string>& extra_headers) {
  CurlSession curl;
  return upload_catalog(curl, loopback_admin_base(server), body, extra_headers);
}

std::string loopback_admin_base(const ServerProcess& server) {
  return "http://127.0.0.1:" + std::to_string(server.admin_port());
}

std::string served_revision(const ServerProcess& server) {
  static const std::regex kInfo(R"re(\ndecisiond_catalog_info\{revision="([^"]*)"\} 1\n)re");
  const std::string page = scrape_metrics(server);
  std::smatch match;
  return std::regex_search(page, match, kInfo) ? match[1].str() : std::string();
}

double metric_value(const ServerProcess& server, std::string_view metric, const Labels& labels) {
  const std::string page = scrape_metrics(server);
  return sum_samples(page, metric, labels).value_or(-1);
}

bool wait_for_stderr(ServerProcess& server, std::string_view text, std::chrono::milliseconds timeout, size_t times) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    size_t found = 0;
    const std::string& seen = server.stderr_text();
    for (size_t at = seen.find(text); at != std::string::npos && found < times; at = seen.find(text, at + 1)) ++found;
    if (found >= times) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void replace_file(const std::string& path, std::string_view text) {
  const std::string staged = path + ".staged";
  {
    std::ofstream out(staged, std::ios::binary | std::ios::trunc);
    out << text;
  }
  std::filesystem::rename(staged, path);
}

void replace_file_with_copy_of(const std::string& path, const std::string& source) {
  std::ifstream in(source, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  replace_file(path, bytes.str());
}

std::string with_revision(std::string catalog, std::string_view revision) {
  static const std::regex kRevision(R"re("revision":"[^"]*")re");
  return std::regex_replace(catalog, kRevision, "\"revision\":\"" + std::string(revision) + "\"",
                            std::regex_constants::format_first_only);
}

}  // namespace integration::updates
