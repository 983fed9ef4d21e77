#include "nats_jetstream/stream_setup.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/nats_handles.h"
#include "runtime/check.h"

namespace nats_jetstream {

namespace {
constexpr int64_t kNanosPerSecond = 1'000'000'000;

std::string differences_from(const jsStreamConfig& have, const StreamSpec& want) {
  std::string out;
  const auto add = [&out](const std::string& what) { absl::StrAppend(&out, out.empty() ? "" : ", ", what); };
  if (have.Replicas != want.replicas) add(absl::StrCat("replicas ", have.Replicas, " (wanted ", want.replicas, ")"));
  const int64_t window_s = have.Duplicates / kNanosPerSecond;
  if (window_s != want.duplicate_window.count()) {
    add(absl::StrCat("duplicate window ", window_s, "s (wanted ", want.duplicate_window.count(), "s)"));
  }
  DECISIOND_CHECK(have.SubjectsLen == 0 || have.Subjects != nullptr);
  for (const std::string& subject : want.subjects) {
    const bool listed = std::any_of(have.Subjects, have.Subjects + have.SubjectsLen,
                                    [&](const char* s) { return s != nullptr && subject == s; });
    if (!listed) add(absl::StrCat("subject ", subject, " not among the stream's subjects"));
  }
  if (have.Storage != js_FileStorage) add("memory storage (wanted file)");
  return out;
}

std::string describe_api_error(const char* what, const StreamSpec& spec, natsStatus status, jsErrCode code) {
  std::string text = describe_status(absl::StrCat(what, " stream ", spec.name).c_str(), status);
  if (code != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(code), ")");
  return text;
}
}  // namespace

absl::StatusOr<StreamSetup> ensure_stream(jsCtx* jetstream, const StreamSpec& spec) {
  // The spec comes from flags checked at start; these are what the library's types hold.
  DECISIOND_CHECK(jetstream != nullptr && !spec.name.empty() && spec.replicas >= 1);
  DECISIOND_CHECK(spec.max_message_bytes <= INT32_MAX && spec.subjects.size() <= INT32_MAX);
  jsStreamInfo* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  natsStatus s = js_GetStreamInfo(&raw, jetstream, spec.name.c_str(), nullptr, &code);
  StreamInfoPtr info(raw);
  if (s == NATS_OK && info != nullptr && info->Config != nullptr) {
    const int64_t max_bytes = info->Config->MaxMsgSize > 0 ? info->Config->MaxMsgSize : -1;
    return StreamSetup{false, differences_from(*info->Config, spec), max_bytes};
  }
  if (s != NATS_NOT_FOUND && code != JSStreamNotFoundErr) {
    return absl::UnavailableError(describe_api_error("looking up", spec, s, code));
  }

  std::vector<const char*> subjects;
  for (const std::string& subject : spec.subjects) subjects.push_back(subject.c_str());
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = spec.name.c_str();
  config.Subjects = subjects.data();
  config.SubjectsLen = static_cast<int>(subjects.size());
  config.Storage = js_FileStorage;
  config.Replicas = spec.replicas;
  config.Duplicates = spec.duplicate_window.count() * kNanosPerSecond;
  if (spec.max_message_bytes > 0) config.MaxMsgSize = static_cast<int32_t>(spec.max_message_bytes);
  raw = nullptr;
  code = static_cast<jsErrCode>(0);
  s = js_AddStream(&raw, jetstream, &config, nullptr, &code);
  info.reset(raw);
  if (s == NATS_OK) return StreamSetup{true, "", spec.max_message_bytes > 0 ? spec.max_message_bytes : -1};
  if (code == JSStreamNameExistErr) {  // another node created it between the two requests
    return ensure_stream(jetstream, spec);
  }
  return absl::UnavailableError(describe_api_error("creating", spec, s, code));
}

}  // namespace nats_jetstream
