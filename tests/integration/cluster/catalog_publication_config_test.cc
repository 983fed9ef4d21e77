// --catalog=nats://... configured badly or started before NATS is there
// (docs/catalog-publication.md): a malformed URL is exit 2 with one line naming the flag;
// servers that do not answer and a name never published leave the node serving, unready,
// saying why, until servers and a revision appear; never a crash.
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/cluster/catalog_publication.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/test_catalog.h"

namespace integration {
namespace {

// The node answers, and still at the end: it never crashed meanwhile; SIGTERM ends it cleanly.
void expect_clean_exit(ServerProcess& node) {
  EXPECT_EQ(readyz_status(node) != 0, true) << node.stderr_text();
  node.send_signal(SIGTERM);
  const std::optional<ExitStatus> status = node.wait_for_exit();
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 0) << status->describe() << node.stderr_text();
}

TEST(CatalogPublicationConfig, AMalformedNatsCatalogIsExitTwoNamingTheFlag) {
  for (const char* url : {"nats://", "nats://127.0.0.1:4222", "nats://127.0.0.1:4222/", "nats://127.0.0.1/main",
                          "nats://127.0.0.1:99999/main", "nats://127.0.0.1:4222/a.b", "nats://127.0.0.1:4222,/main",
                          "nats:/127.0.0.1:4222/main"}) {
    const FinishedRun run = run_to_exit(standard_flags({std::string("--catalog=") + url}));
    ASSERT_TRUE(run.exit) << url;
    EXPECT_EQ(run.exit->code, 2) << url << ": " << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("invalid --catalog: "), std::string::npos) << url << ": " << run.stderr_text;
    EXPECT_EQ(std::count(run.stderr_text.begin(), run.stderr_text.end(), '\n'), 1) << url << ": " << run.stderr_text;
  }
}

// The node is given one server of the three, stopped before the node starts. (A whole
// cluster stopped right after it was made and started again did not become whole here
// within a minute: one server kept counting two JetStream peers; one server restarted into
// a running cluster is what the fixture does reliably.)
TEST(CatalogPublicationConfig, UnreachableServersLeaveTheNodeUnreadyUntilServersAndARevisionAppear) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  ASSERT_TRUE(nats.kill_server(0, SIGTERM)) << nats.error();
  const std::string only_server = nats.server_urls()[0] + "/main";

  ServerProcess node(standard_flags({"--catalog=" + only_server, "--node-id=early"}));
  ASSERT_TRUE(node.serving()) << node.start_error();
  EXPECT_EQ(readyz_status(node), 503);
  EXPECT_TRUE(wait_for_log(node, "no NATS server answers")) << node.stderr_text();
  EXPECT_NE(node.stderr_text().find("serving an empty catalog, unready"), std::string::npos) << node.stderr_text();
  EXPECT_EQ(sum_samples(scrape_metrics(node), "decisiond_catalog_waiting", {}), 1);
  EXPECT_EQ(sum_samples(scrape_metrics(node), "decisiond_catalog_nats_connected", {}), 0);

  ASSERT_TRUE(nats.restart_server(0)) << nats.error();
  // The server answers; nothing is published yet: still unready, and it says so.
  EXPECT_TRUE(wait_for_metric(node, "decisiond_catalog_waiting", {}, 2, kRevisionTimeout)) << node.stderr_text();
  EXPECT_EQ(readyz_status(node), 503);

  TempFile catalog("catalog.json", generated_catalog(100, 1));
  const CommandRun published = run_catalog_tool({"publish", "--to=" + catalog_url(nats, "main"), catalog.path()});
  ASSERT_EQ(published.exit_code, 0) << published.err;
  EXPECT_TRUE(wait_for_readyz(node, 200, kRevisionTimeout)) << node.stderr_text();
  EXPECT_EQ(served_revision(node), 1);
  EXPECT_EQ(sum_samples(scrape_metrics(node), "decisiond_catalog_nats_connected", {}), 1);
  expect_clean_exit(node);
}

TEST(CatalogPublicationConfig, ANameNeverPublishedLeavesTheNodeUnreadyAndWaiting) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  TempFile catalog("catalog.json", generated_catalog(100, 1));
  ASSERT_EQ(run_catalog_tool({"publish", "--to=" + catalog_url(nats, "other"), catalog.path()}).exit_code, 0);

  ServerProcess node(standard_flags({"--catalog=" + catalog_url(nats, "never"), "--node-id=waiting"}));
  ASSERT_TRUE(node.serving()) << node.start_error();
  EXPECT_TRUE(wait_for_log(node, "nothing published under never yet")) << node.stderr_text();
  const CurlReply ready = [&] {
    CurlSession session;
    return session.get(node.admin_url("/readyz"));
  }();
  EXPECT_EQ(ready.status, 503);
  EXPECT_NE(ready.body.find("waiting for a first revision to be published"), std::string::npos) << ready.body;
  const std::string page = scrape_metrics(node);
  EXPECT_EQ(sum_samples(page, "decisiond_catalog_waiting", {}), 2) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_catalog_revision", {}), 0) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_catalog_ads", {}), 0) << page;

  // A publish of another name changes nothing here; status lists the waiting node.
  ASSERT_EQ(run_catalog_tool({"publish", "--to=" + catalog_url(nats, "other"), catalog.path()}).exit_code, 0);
  const CommandRun status = run_catalog_tool({"status", "--to=" + catalog_url(nats, "never")});
  EXPECT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("never: nothing published"), std::string::npos) << status.out;
  EXPECT_EQ(readyz_status(node), 503);
  expect_clean_exit(node);
}

TEST(CatalogPublicationConfig, APasswordFileOthersCanReadIsExitTwoNamingTheFlag) {
  TempFile password("password", "secret\n");
  chmod(password.path().c_str(), 0644);
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=nats://127.0.0.1:4222/main", "--catalog-user=node",
                                                      "--catalog-password-file=" + password.path()}));
  ASSERT_TRUE(run.exit);
  EXPECT_EQ(run.exit->code, 2) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("invalid --catalog-password-file: "), std::string::npos) << run.stderr_text;
  const FinishedRun without = run_to_exit(standard_flags({"--catalog-user=node"}));
  ASSERT_TRUE(without.exit);
  EXPECT_EQ(without.exit->code, 2) << without.stderr_text;
  EXPECT_NE(without.stderr_text.find("invalid --catalog-user: needs --catalog=nats://"), std::string::npos)
      << without.stderr_text;
}

// With a user and password on the servers: the right login serves, a wrong one leaves the
// node unready, saying why.
TEST(CatalogPublicationConfig, ALoginTheServersRefuseLeavesTheNodeUnreadySayingWhy) {
  NatsCluster nats({.servers = 3, .user = "catalog", .password = "right-password"});
  ASSERT_TRUE(nats.ok()) << nats.error();
  TempFile right("right", "right-password\n");
  TempFile wrong("wrong", "wrong-password\n");
  for (const TempFile* file : {&right, &wrong}) chmod(file->path().c_str(), 0600);
  TempFile catalog("catalog.json", generated_catalog(100, 1));
  const CommandRun refused = run_catalog_tool({"publish", "--to=" + catalog_url(nats, "main"), "--user=catalog",
                                               "--password-file=" + wrong.path(), "--timeout=2s", catalog.path()});
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  EXPECT_NE(refused.err.find("closed the connection: NATS connect: Authentication Violation"), std::string::npos)
      << refused.err;
  const CommandRun published = run_catalog_tool({"publish", "--to=" + catalog_url(nats, "main"), "--user=catalog",
                                                 "--password-file=" + right.path(), catalog.path()});
  ASSERT_EQ(published.exit_code, 0) << published.err;

  ServerProcess good(standard_flags({"--catalog=" + catalog_url(nats, "main"), "--catalog-user=catalog",
                                     "--catalog-password-file=" + right.path(), "--node-id=good"}));
  ServerProcess bad(standard_flags({"--catalog=" + catalog_url(nats, "main"), "--catalog-user=catalog",
                                    "--catalog-password-file=" + wrong.path(), "--node-id=bad"}));
  ASSERT_TRUE(good.serving()) << good.start_error();
  ASSERT_TRUE(bad.serving()) << bad.start_error();
  EXPECT_TRUE(wait_for_revision({&good}, 1)) << good.stderr_text();
  EXPECT_EQ(readyz_status(bad), 503);
  EXPECT_TRUE(wait_for_log(bad, "the NATS servers closed the connection (NATS connect: Authentication Violation"))
      << bad.stderr_text();
  expect_clean_exit(good);
  expect_clean_exit(bad);
}

TEST(CatalogPublicationConfig, TheToolSaysUnreachableWithExitOneAndBadArgumentsWithExitTwo) {
  TempFile catalog("catalog.json", generated_catalog(10, 1));
  const CommandRun unreachable =
      run_catalog_tool({"publish", "--to=nats://127.0.0.1:1/main", "--timeout=500ms", catalog.path()});
  EXPECT_EQ(unreachable.exit_code, 1) << unreachable.err;
  EXPECT_NE(unreachable.err.find("no NATS server answered at nats://127.0.0.1:1"), std::string::npos)
      << unreachable.err;
  const CommandRun status = run_catalog_tool({"status", "--to=nats://127.0.0.1:1/main", "--timeout=500ms"});
  EXPECT_EQ(status.exit_code, 1) << status.err;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"publish", "--to=nats://127.0.0.1:1", catalog.path()},
                                             {"publish", "--to=nats://127.0.0.1:1/main"},
                                             {"publish", "--to=nats://127.0.0.1:1/main", "/no/such/file.json"},
                                             {"status"},
                                             {"status", "--to=nats://127.0.0.1:1/main", "--replicas=3"},
                                             {"unpublish", "--to=nats://127.0.0.1:1/main"}}) {
    const CommandRun run = run_catalog_tool(args);
    EXPECT_EQ(run.exit_code, 2) << args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << run.err;
  }
}

}  // namespace
}  // namespace integration
