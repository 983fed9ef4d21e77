// The layout of a catalog published to NATS (service/catalog_updates/nats_catalog_layout.h):
// names, and the records the tool writes and the nodes read, as they are on the wire.
#include "service/catalog_updates/nats_catalog_layout.h"

#include "gtest/gtest.h"

namespace service {
namespace {

RevisionRecord sample_record() {
  RevisionRecord record;
  record.revision = 7;
  record.blob.id = "0123456789abcdef0123456789abcdef";
  record.blob.first_seq = 41;
  record.blob.last_seq = 45;
  record.blob.chunks = 5;
  record.blob.bytes = 2277807;
  record.blob.sha256_hex = std::string(64, 'a');
  record.published_unix_ms = 1'795'000'000'123;
  record.catalog_revision = "2026-11-21.1";
  record.ads = 2000;
  return record;
}

TEST(NatsCatalogLayout, NamesFollowTheCatalogName) {
  EXPECT_EQ(catalog_stream("main"), "decisiond-catalog-main");
  EXPECT_EQ(catalog_subjects("main"), "decisiond.catalog.main.>");
  EXPECT_EQ(revision_subject("main", 12), "decisiond.catalog.main.12");
  EXPECT_EQ(revision_place("main", 12).stream, "decisiond-catalog-main");
  EXPECT_EQ(node_keys("main"), "main.>");
}

TEST(NatsCatalogLayout, ANodeKeyReplacesWhatAKeyMayNotHold) {
  EXPECT_EQ(node_key("main", "node-1_a"), "main.node-1_a");
  EXPECT_EQ(node_key("main", "web01.example.com"), "main.web01_example_com");
  EXPECT_EQ(node_key("main", "a b:c*>"), "main.a_b_c__");
}

TEST(NatsCatalogLayout, ARevisionRecordReadsBackAsWritten) {
  const RevisionRecord record = sample_record();
  const std::string json = to_json(record);
  EXPECT_NE(json.find("\"published\":\"2026-11-18T"), std::string::npos) << json;
  const absl::StatusOr<RevisionRecord> back = parse_revision_record(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->revision, 7u);
  EXPECT_EQ(back->blob.id, record.blob.id);
  EXPECT_EQ(back->blob.first_seq, 41u);
  EXPECT_EQ(back->blob.last_seq, 45u);
  EXPECT_EQ(back->blob.chunks, 5u);
  EXPECT_EQ(back->blob.bytes, 2277807u);
  EXPECT_EQ(back->blob.sha256_hex, record.blob.sha256_hex);
  EXPECT_EQ(back->published_unix_ms, record.published_unix_ms);
  EXPECT_EQ(back->catalog_revision, "2026-11-21.1");
  EXPECT_EQ(back->ads, 2000u);
}

TEST(NatsCatalogLayout, ARevisionRecordWithoutWhatAReaderNeedsIsRefused) {
  for (const char* json : {"", "[]", "{}", R"({"revision":1,"bytes":1,"chunks":1,"firstSeq":1,"sha256":"a"})",
                           R"({"revision":0,"bytes":1,"chunks":1,"firstSeq":1,"sha256":"a","blob":"b"})",
                           R"({"revision":1,"bytes":1,"chunks":0,"firstSeq":1,"sha256":"a","blob":"b"})",
                           R"({"revision":"1","bytes":1,"chunks":1,"firstSeq":1,"sha256":"a","blob":"b"})",
                           R"({"revision":1,"bytes":1,"chunks":1,"firstSeq":1,"sha256":"a","blob":"b","published":"x"})"}) {
    EXPECT_FALSE(parse_revision_record(json).ok()) << json;
  }
  EXPECT_TRUE(parse_revision_record(R"({"revision":1,"bytes":1,"chunks":1,"firstSeq":1,"sha256":"a","blob":"b"})").ok());
}

TEST(NatsCatalogLayout, ANodeReportReadsBackAsWritten) {
  NodeReport report;
  report.node_id = "web01.example.com";
  report.revision = 7;
  report.sha256 = std::string(64, 'b');
  report.catalog_revision = "r \"quoted\"";
  report.ads = 2000;
  report.loaded_unix_ms = 1'795'000'000'000;
  report.failed_revision = 8;
  report.error = "refused with 1 error(s), the first: ads[0].weight: must be 1 to 1000000";
  report.failed_unix_ms = 1'795'000'001'000;
  report.reported_unix_ms = 1'795'000'002'000;
  const absl::StatusOr<NodeReport> back = parse_node_report(to_json(report));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->node_id, report.node_id);
  EXPECT_EQ(back->revision, 7u);
  EXPECT_EQ(back->sha256, report.sha256);
  EXPECT_EQ(back->catalog_revision, report.catalog_revision);
  EXPECT_EQ(back->ads, 2000u);
  EXPECT_EQ(back->loaded_unix_ms, report.loaded_unix_ms);
  EXPECT_EQ(back->waiting, "");
  EXPECT_EQ(back->failed_revision, 8u);
  EXPECT_EQ(back->error, report.error);
  EXPECT_EQ(back->failed_unix_ms, report.failed_unix_ms);
  EXPECT_EQ(back->reported_unix_ms, report.reported_unix_ms);
  EXPECT_FALSE(parse_node_report(R"({"revision":1})").ok());
}

}  // namespace
}  // namespace service
