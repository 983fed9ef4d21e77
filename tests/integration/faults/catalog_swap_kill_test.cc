// kill -9 during a catalog swap (docs/operations.md "Catalog and GeoIP updates"), with a
// catalog large enough (30,000 ads) that reading and building it takes a while, and
// impressions flowing throughout.
//
// What a restart serves: the --catalog file as it is on disk then. A catalog uploaded by
// POST /admin/catalog lives in the process only: after any restart, clean or kill -9, the
// file is served again, whether or not the upload had been answered 200. (An operator who
// wants an update to outlast the process writes the file and sends SIGHUP.) A catalog file
// that a writer left cut short is refused at start (exit 2), never served in part.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/faults/fault_support.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/updates/admin_calls.h"
#include "tests/support/sanitizers.h"

namespace integration::faults {
namespace {

using updates::served_revision;
using updates::upload_catalog;

// Big enough that a kill lands while it is built; under ASan every step costs several times
// more (an upload of 30,000 ads took over a minute on 2 busy vCPUs), so fewer do.
constexpr size_t kFillerAds = decision::testing::kAddressSanitizer ? 5000 : 30000;

// capped_catalog_json's placement home_top and ads 1 to 3, plus kFillerAds ads on placement
// "filler", under the given revision.
std::string big_catalog(const std::string& revision) {
  std::string capped = capped_catalog_json();
  capped.replace(capped.find("capped-1"), 8, revision);
  const std::string placements = R"([{"id": 7, "key": "home_top"}])";
  capped.replace(capped.find(placements), placements.size(),
                 R"([{"id": 7, "key": "home_top"}, {"id": 8, "key": "filler"}])");
  std::string fillers;
  fillers.reserve(kFillerAds * 260);
  for (size_t i = 0; i < kFillerAds; ++i) {
    const std::string id = std::to_string(100 + i);
    fillers += R"(,
    {"id": )" + id + R"(, "advertiserId": 1, "placementIds": [8], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "native", "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": )" + std::to_string(1000000 + i) + R"(, "contents": {"en": [{"key": "title", "value": "filler )" + id + R"("}]}}]})";
  }
  capped.insert(capped.rfind(']'), fillers);
  return capped;
}

// The revision and native ad count every answering core reports: several scrapes on new
// connections, so both cores answer some. Empty when they disagree or a scrape failed.
std::string served_everywhere(const ServerProcess& server) {
  std::string seen;
  for (int i = 0; i < 8; ++i) {
    const std::string revision = served_revision(server);
    const double ads = updates::metric_value(server, "decisiond_catalog_ads", {{"format", "native"}});
    const std::string here = revision + " with " + std::to_string(static_cast<long long>(ads)) + " ads";
    if (revision.empty() || (!seen.empty() && here != seen)) return {};
    seen = here;
  }
  return seen;
}

std::string complete(const std::string& revision) {
  return revision + " with " + std::to_string(kFillerAds + 3) + " ads";
}

class CatalogSwapKill : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> start() {
    return std::make_unique<ServerProcess>(
        standard_flags({"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms"}));
  }
  // Impressions acknowledged and flushed on this server: they must survive the kill.
  void send_and_flush(ServerProcess& server, const std::string& prefix) {
    const size_t before = sender_.acknowledged().size();
    ASSERT_EQ(sender_.send(server, prefix, 5), 5u);
    ASSERT_TRUE(wait_until_logged(server));
    const std::vector<Acknowledged> now = sender_.acknowledged();
    flushed_.insert(flushed_.end(), now.begin() + static_cast<ptrdiff_t>(before), now.end());
  }
  void expect_log_and_caps_survived(const ServerProcess& server, const std::string& when) {
    const LogCensus census = census_of(state_.path());
    EXPECT_TRUE(EveryOneLoggedOnce(census, flushed_)) << when;
    EXPECT_TRUE(NothingCountedTwice(census)) << when;
    EXPECT_TRUE(CapsAgreeWithTheLog(server, census, sender_.users())) << when;
  }

  TempFile catalog_{"catalog.json", big_catalog("file-1")};
  StateDirWithKeys state_;
  ImpressionSender sender_{state_};
  std::vector<Acknowledged> flushed_;
};

// On kill -9 during POST /admin/catalog, before its reply, while cores adopt, or after its
// 200: the restart serves the whole --catalog file, never the upload nor a part of either;
// impressions acknowledged before the last flush are logged once and counted against caps.
TEST_F(CatalogSwapKill, Kill9DuringAnUploadRestartsOnTheWholeCatalogFileLosingNoFlushedImpression) {
  enum class Point { kWhileBuilding, kWhileCoresAdopt, kAfterTheReply };
  const std::string uploaded = big_catalog("uploaded-2");
  int cycle = 0;
  for (Point point : {Point::kWhileBuilding, Point::kWhileCoresAdopt, Point::kAfterTheReply}) {
    std::unique_ptr<ServerProcess> server = start();
    ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
    EXPECT_EQ(served_everywhere(*server), complete("file-1")) << "restart " << cycle;
    if (cycle > 0) expect_log_and_caps_survived(*server, "after kill " + std::to_string(cycle));
    send_and_flush(*server, "upload-" + std::to_string(cycle) + "-flushed-");
    if (HasFatalFailure()) return;

    std::atomic<bool> stop{false};
    std::thread flow([&] { sender_.send(*server, "upload-" + std::to_string(cycle) + "-flowing-", 100000, &stop); });
    std::atomic<long> reply_status{0};
    std::thread upload([&] { reply_status = upload_catalog(*server, uploaded).status; });
    // What the server showed just before the kill, to assert the kill landed where named.
    std::string served_before_kill;
    if (point == Point::kWhileBuilding) {
      // A kill at a chosen moment, into the build (which says nothing while it runs); where
      // it landed is checked below from what was served then.
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      served_before_kill = served_revision(*server);
    } else if (point == Point::kWhileCoresAdopt) {
      // The first scrape that shows the upload's revision: some core serves it, and the
      // reply may not have left yet.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while ((served_before_kill = served_revision(*server)) != "uploaded-2" && reply_status == 0 &&
             std::chrono::steady_clock::now() < deadline) {
      }
    } else {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (reply_status == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      EXPECT_EQ(reply_status, 200);
    }
    server->send_signal(SIGKILL);
    stop = true;
    flow.join();
    upload.join();
    ASSERT_TRUE(server->wait_for_exit());
    std::printf("kill %d: upload answered %ld before the kill (0: not answered), revision served then %s\n", cycle,
                reply_status.load(), served_before_kill.c_str());
    if (point == Point::kWhileBuilding) {
      // Not answered, and no core served the upload yet: the kill landed in the build.
      EXPECT_EQ(reply_status, 0) << "kill " << cycle << " landed after the upload's reply, not in its build";
      EXPECT_EQ(served_before_kill, "file-1") << "kill " << cycle << " landed after a core adopted the upload";
    } else if (point == Point::kWhileCoresAdopt) {
      EXPECT_EQ(served_before_kill, "uploaded-2") << "kill " << cycle << " landed before any core served the upload";
    }
    ++cycle;
  }
  std::unique_ptr<ServerProcess> server = start();
  ASSERT_TRUE(server->serving()) << server->start_error();
  EXPECT_EQ(served_everywhere(*server), complete("file-1"))
      << "an uploaded catalog is not persisted: the restart serves --catalog";
  expect_log_and_caps_survived(*server, "after the last kill");
}

// On kill -9 during a SIGHUP reload of a --catalog file replaced by a rename (while it is
// read and built, and once it is published): the restart serves that file whole.
TEST_F(CatalogSwapKill, Kill9DuringASighupReloadRestartsOnTheReplacedFileWhole) {
  int cycle = 0;
  for (const char* awaited : {"SIGHUP: reloading the catalog", "published: revision"}) {
    std::unique_ptr<ServerProcess> server = start();
    ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
    if (cycle > 0) {
      EXPECT_EQ(served_everywhere(*server), complete("file-" + std::to_string(cycle + 1)));
      expect_log_and_caps_survived(*server, "after kill " + std::to_string(cycle));
    }
    send_and_flush(*server, "sighup-" + std::to_string(cycle) + "-flushed-");
    if (HasFatalFailure()) return;

    std::atomic<bool> stop{false};
    std::thread flow([&] { sender_.send(*server, "sighup-" + std::to_string(cycle) + "-flowing-", 100000, &stop); });
    updates::replace_file(catalog_.path(), big_catalog("file-" + std::to_string(cycle + 2)));
    server->send_signal(SIGHUP);
    const bool seen = updates::wait_for_stderr(*server, awaited, std::chrono::seconds(60));
    server->send_signal(SIGKILL);
    stop = true;
    flow.join();
    ASSERT_TRUE(server->wait_for_exit());
    ASSERT_TRUE(seen) << "no \"" << awaited << "\" on stderr: " << server->stderr_text();
    ++cycle;
  }
  std::unique_ptr<ServerProcess> server = start();
  ASSERT_TRUE(server->serving()) << server->start_error();
  EXPECT_EQ(served_everywhere(*server), complete("file-3"));
  expect_log_and_caps_survived(*server, "after the last kill");
}

// A --catalog file that a writer left cut short (rewritten in place, and the machine or
// the writer died half-way): the restart refuses it with exit 2 and says where, rather than
// serve the ads it could read.
TEST_F(CatalogSwapKill, CatalogFileCutShortIsRefusedAtRestartNeverServedInPart) {
  const std::string whole = big_catalog("file-cut");
  {
    std::ofstream out(catalog_.path(), std::ios::binary | std::ios::trunc);
    out << whole.substr(0, whole.size() / 2);
  }
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + catalog_.path(), state_.flag()}), {},
                                      std::chrono::seconds(30));
  ASSERT_TRUE(run.exit) << "still running: it served a catalog cut short";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe() << "\n" << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("refused"), std::string::npos) << run.stderr_text;
  EXPECT_EQ(run.stderr_text.find("serving"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace integration::faults
