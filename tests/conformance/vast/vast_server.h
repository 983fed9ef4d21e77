#pragma once
// decisiond serving a catalog with --base-url naming its own public listener, so the
// tracking and VAST tag URLs inside documents can be called as a player would, and a state
// directory the test reads the event log from.
#include <memory>
#include <string>
#include <vector>

#include "tests/conformance/vast/video_catalog.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"

namespace conformance::vast {

class VastServer {
 public:
  explicit VastServer(const std::string& catalog_json);

  bool serving() const { return process_ != nullptr && process_->serving(); }
  std::string start_error() const { return process_ ? process_->start_error() : "not started"; }
  const std::string& base_url() const { return base_url_; }
  const std::string& state_dir() const { return state_.path(); }
  const integration::ServerProcess& process() const { return *process_; }

 private:
  integration::TempFile catalog_;
  integration::StateDir state_;
  std::string base_url_;
  std::unique_ptr<integration::ServerProcess> process_;
};

// One ad's decision as served: the response's delivery and, for vast_xml and vast_tag, the
// VAST document (decoded xmlBase64, or the body of a GET of tagUrl).
struct ServedAd {
  const VideoAdSpec* ad = nullptr;
  std::string problem;  // why the decision or the tag fetch failed; empty when neither did
  std::string delivery;
  std::vector<std::string> vast_members;  // member names of the response's "vast" object
  std::string tag_url;
  std::string document;
};

// One decision per ad (its own placement, its Accept-Language), under 2025-11-01.
std::vector<ServedAd> serve_every_ad(const VastServer& server, const VideoCatalog& catalog);

}  // namespace conformance::vast
