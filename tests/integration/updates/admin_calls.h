#pragma once
// What the update tests do to a running server besides decisions: catalog uploads to the
// admin plane, the revision it says it serves, waiting for a line on its stderr, and files
// replaced under its feet the way operators replace them (a rename, never a rewrite in place).
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/server_process.h"

namespace integration::updates {

// POST <admin_base>/admin/catalog with the whole catalog as body, Content-Type
// application/json, no "Expect: 100-continue", and the extra header lines ("Name: value").
// admin_base: "http://host:port".
CurlReply upload_catalog(CurlSession& curl, const std::string& admin_base, const std::string& body,
                         const std::vector<std::string>& extra_headers = {});
// The same to the server's admin listener over loopback, on a new connection.
CurlReply upload_catalog(const ServerProcess& server, const std::string& body,
                         const std::vector<std::string>& extra_headers = {});
// "http://127.0.0.1:<admin port>", whatever address the admin listener was bound to.
std::string loopback_admin_base(const ServerProcess& server);

// The revision label of decisiond_catalog_info; empty when the page has none.
std::string served_revision(const ServerProcess& server);
// A metric summed over its samples; -1 when the scrape failed or the page lacks it.
double metric_value(const ServerProcess& server, std::string_view metric, const Labels& labels = {});

// Whether the process's stderr came to hold `text` (at least `times` times) before the deadline.
bool wait_for_stderr(ServerProcess& server, std::string_view text,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10), size_t times = 1);

// Replaces the file at path by renaming a sibling over it: a reader opens the old file or
// the new one, never half of one, and a mapping of the old file stays valid.
void replace_file(const std::string& path, std::string_view text);
void replace_file_with_copy_of(const std::string& path, const std::string& source);

// `catalog` (test_catalog_json's text) with its "revision" member set to `revision`.
std::string with_revision(std::string catalog, std::string_view revision);

}  // namespace integration::updates
