#include "service/catalog_updates/nats_catalog_layout.h"

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "http/json_writer.h"
#include "runtime/absl_view.h"
#include "simdjson.h"

namespace service {

namespace {

using runtime::av;

absl::Status malformed(std::string_view what, std::string_view why) {
  return absl::DataLossError(absl::StrCat(av(what), " is not valid: ", av(why)));
}

// "" stays 0; anything else must be an RFC 3339 time.
bool parse_time_ms(std::string_view text, int64_t& unix_ms) {
  if (text.empty()) {
    unix_ms = 0;
    return true;
  }
  absl::Time time;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, av(text), &time, &error)) return false;
  unix_ms = absl::ToUnixMillis(time);
  return true;
}

// The members of one flat JSON object, each read when present; the first error named.
class MemberReader {
 public:
  MemberReader(std::string_view what, std::string_view json) : what_(what) {
    if (const auto error = parser_.parse(json.data(), json.size()).get_object().get(object_);
        error != simdjson::SUCCESS) {
      status_ = malformed(what_, simdjson::error_message(error));
    }
  }
  void text(std::string_view name, std::string& out) {
    read(name, [&](simdjson::dom::element e) {
      std::string_view value;
      if (e.get_string().get(value) != simdjson::SUCCESS) return false;
      out = std::string(value);
      return true;
    });
  }
  void number(std::string_view name, uint64_t& out) {
    read(name, [&](simdjson::dom::element e) { return e.get_uint64().get(out) == simdjson::SUCCESS; });
  }
  void time(std::string_view name, int64_t& out) {
    read(name, [&](simdjson::dom::element e) {
      std::string_view value;
      return e.get_string().get(value) == simdjson::SUCCESS && parse_time_ms(value, out);
    });
  }
  void required(std::string_view name) {
    if (status_.ok() && object_[name].error() != simdjson::SUCCESS) {
      status_ = malformed(what_, absl::StrCat("no \"", av(name), "\""));
    }
  }
  const absl::Status& status() const { return status_; }

 private:
  template <typename Read>
  void read(std::string_view name, Read&& read_value) {
    if (!status_.ok()) return;
    simdjson::dom::element e;
    if (object_[name].get(e) != simdjson::SUCCESS || e.is_null()) return;
    if (!read_value(e)) status_ = malformed(what_, absl::StrCat("\"", av(name), "\" has the wrong type"));
  }

  std::string_view what_;
  simdjson::dom::parser parser_;
  simdjson::dom::object object_;
  absl::Status status_;
};

}  // namespace

std::string catalog_stream(std::string_view name) { return absl::StrCat("decisiond-catalog-", av(name)); }

std::string catalog_subjects(std::string_view name) { return absl::StrCat("decisiond.catalog.", av(name), ".>"); }

std::string revision_subject(std::string_view name, uint64_t revision) {
  return absl::StrCat("decisiond.catalog.", av(name), ".", revision);
}

nats_jetstream::BlobPlace revision_place(std::string_view name, uint64_t revision) {
  return {catalog_stream(name), revision_subject(name, revision)};
}

std::string node_key(std::string_view name, std::string_view node_id) {
  std::string key = absl::StrCat(av(name), ".");
  for (char c : node_id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '=';
    key.push_back(ok ? c : '_');
  }
  return key;
}

std::string node_keys(std::string_view name) { return absl::StrCat(av(name), ".>"); }

std::string rfc3339_ms(int64_t unix_ms) {
  if (unix_ms == 0) return "";
  return absl::FormatTime("%Y-%m-%d%ET%H:%M:%E3SZ", absl::FromUnixMillis(unix_ms), absl::UTCTimeZone());
}

std::string to_json(const RevisionRecord& record) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_object();
  json.literal_key("revision").number(record.revision);
  json.literal_key("bytes").number(record.blob.bytes);
  json.literal_key("chunks").number(static_cast<uint64_t>(record.blob.chunks));
  json.literal_key("firstSeq").number(record.blob.first_seq);
  json.literal_key("lastSeq").number(record.blob.last_seq);
  json.literal_key("sha256").string(record.blob.sha256_hex);
  json.literal_key("blob").string(record.blob.id);
  json.literal_key("published").string(rfc3339_ms(record.published_unix_ms));
  json.literal_key("catalogRevision").string(record.catalog_revision);
  json.literal_key("ads").number(record.ads);
  json.end_object();
  return out;
}

absl::StatusOr<RevisionRecord> parse_revision_record(std::string_view json) {
  RevisionRecord record;
  MemberReader reader("the revision record", json);
  for (std::string_view name : {"revision", "bytes", "chunks", "firstSeq", "sha256", "blob"}) reader.required(name);
  uint64_t chunks = 0;
  reader.number("revision", record.revision);
  reader.number("bytes", record.blob.bytes);
  reader.number("chunks", chunks);
  reader.number("firstSeq", record.blob.first_seq);
  reader.number("lastSeq", record.blob.last_seq);
  reader.text("sha256", record.blob.sha256_hex);
  reader.text("blob", record.blob.id);
  reader.time("published", record.published_unix_ms);
  reader.text("catalogRevision", record.catalog_revision);
  reader.number("ads", record.ads);
  if (!reader.status().ok()) return reader.status();
  if (record.revision == 0 || chunks == 0 || chunks > UINT32_MAX || record.blob.first_seq == 0) {
    return malformed("the revision record", "revision, chunks and firstSeq must be positive");
  }
  record.blob.chunks = static_cast<uint32_t>(chunks);
  return record;
}

std::string to_json(const NodeReport& report) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_object();
  json.literal_key("node").string(report.node_id);
  json.literal_key("revision").number(report.revision);
  json.literal_key("sha256").string(report.sha256);
  json.literal_key("catalogRevision").string(report.catalog_revision);
  json.literal_key("ads").number(report.ads);
  json.literal_key("loaded").string(rfc3339_ms(report.loaded_unix_ms));
  json.literal_key("waiting").string(report.waiting);
  json.literal_key("failedRevision").number(report.failed_revision);
  json.literal_key("error").string(report.error);
  json.literal_key("failed").string(rfc3339_ms(report.failed_unix_ms));
  json.literal_key("reported").string(rfc3339_ms(report.reported_unix_ms));
  json.end_object();
  return out;
}

absl::StatusOr<NodeReport> parse_node_report(std::string_view json) {
  NodeReport report;
  MemberReader reader("the node report", json);
  reader.required("node");
  reader.text("node", report.node_id);
  reader.number("revision", report.revision);
  reader.text("sha256", report.sha256);
  reader.text("catalogRevision", report.catalog_revision);
  reader.number("ads", report.ads);
  reader.time("loaded", report.loaded_unix_ms);
  reader.text("waiting", report.waiting);
  reader.number("failedRevision", report.failed_revision);
  reader.text("error", report.error);
  reader.time("failed", report.failed_unix_ms);
  reader.time("reported", report.reported_unix_ms);
  if (!reader.status().ok()) return reader.status();
  return report;
}

}  // namespace service
