#include "tests/integration/nats_cluster/nats_inspector.h"

#include <algorithm>
#include <memory>

#include "tests/integration/redis_cluster/deadline_poll.h"

namespace integration {

namespace {

// After a server dies the client moves to another at once; it waits this long only before
// trying a server again, and gives up on one after this many tries (a minute in all,
// longer than any deadline of a test).
constexpr std::chrono::milliseconds kReconnectWait{100};
constexpr int kReconnectAttempts = 600;
// One publish waits this long for its acknowledgement before it is sent again: an
// election on loopback takes seconds, and an attempt lost to it should not use them all.
constexpr std::chrono::milliseconds kPublishAttemptWait{2000};
constexpr std::chrono::milliseconds kPublishRetryPause{50};
constexpr std::chrono::milliseconds kStreamPollInterval{50};

using StreamInfoPtr = std::unique_ptr<jsStreamInfo, void (*)(jsStreamInfo*)>;
using MessagePtr = std::unique_ptr<natsMsg, void (*)(natsMsg*)>;

std::string describe(natsStatus status, jsErrCode js_error) {
  std::string text = natsStatus_GetText(status);
  if (js_error != 0) text += " (JetStream error " + std::to_string(static_cast<int>(js_error)) + ")";
  // The library's detail for this thread's last error, such as the server's -ERR text;
  // only if it is this error's, not an earlier one's.
  natsStatus last_status = NATS_OK;
  const char* detail = nats_GetLastError(&last_status);
  if (last_status == status && detail != nullptr && *detail != '\0') text += ": " + std::string(detail);
  return text;
}

std::vector<const char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<const char*> out;
  for (const std::string& s : strings) out.push_back(s.c_str());
  return out;
}

}  // namespace

NatsInspector::NatsInspector(const std::vector<std::string>& server_urls, NatsLogin login) {
  natsOptions* options = nullptr;
  natsStatus s = natsOptions_Create(&options);
  std::vector<const char*> urls = c_strings(server_urls);
  if (s == NATS_OK) s = natsOptions_SetServers(options, urls.data(), static_cast<int>(urls.size()));
  if (s == NATS_OK && !(login.user.empty() && login.password.empty())) {
    s = natsOptions_SetUserInfo(options, login.user.c_str(), login.password.c_str());
  }
  if (s == NATS_OK) s = natsOptions_SetTimeout(options, kNatsRequestTimeout.count());
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(options, kReconnectWait.count());
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(options, kReconnectAttempts);
  if (s == NATS_OK) s = natsConnection_Connect(&connection_, options);
  if (options != nullptr) natsOptions_Destroy(options);
  if (s != NATS_OK) {
    std::string servers;
    for (const std::string& url : server_urls) servers += (servers.empty() ? "" : ",") + url;
    fail("connect to " + servers, s);
    return;
  }
  jsOptions js_options;
  jsOptions_Init(&js_options);
  js_options.Wait = kNatsRequestTimeout.count();
  s = natsConnection_JetStream(&js_, connection_, &js_options);
  if (s != NATS_OK) {
    js_ = nullptr;
    fail("JetStream context", s);
  }
}

NatsInspector::~NatsInspector() {
  if (js_ != nullptr) jsCtx_Destroy(js_);
  if (connection_ != nullptr) natsConnection_Destroy(connection_);  // closes it first
}

bool NatsInspector::fail(const std::string& what, natsStatus status, jsErrCode js_error) {
  error_ = what + ": " + describe(status, js_error);
  return false;
}

bool NatsInspector::create_stream(const std::string& name, const std::vector<std::string>& subjects, int replicas,
                                  std::chrono::milliseconds duplicate_window) {
  if (!ok()) return false;
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  std::vector<const char*> subject_list = c_strings(subjects);
  config.Name = name.c_str();
  config.Subjects = subject_list.data();
  config.SubjectsLen = static_cast<int>(subject_list.size());
  config.Storage = js_FileStorage;
  config.Replicas = replicas;
  config.Duplicates = std::chrono::duration_cast<std::chrono::nanoseconds>(duplicate_window).count();
  jsStreamInfo* created = nullptr;
  jsErrCode js_error = static_cast<jsErrCode>(0);
  const natsStatus s = js_AddStream(&created, js_, &config, nullptr, &js_error);
  if (created != nullptr) jsStreamInfo_Destroy(created);
  if (s != NATS_OK) return fail("create stream " + name, s, js_error);
  return true;
}

bool NatsInspector::delete_stream(const std::string& name) {
  if (!ok()) return false;
  jsErrCode js_error = static_cast<jsErrCode>(0);
  const natsStatus s = js_DeleteStream(js_, name.c_str(), nullptr, &js_error);
  if (s != NATS_OK) return fail("delete stream " + name, s, js_error);
  return true;
}

std::optional<StreamEssentials> NatsInspector::stream_info(const std::string& name) {
  if (!ok()) return std::nullopt;
  jsStreamInfo* raw = nullptr;
  jsErrCode js_error = static_cast<jsErrCode>(0);
  const natsStatus s = js_GetStreamInfo(&raw, js_, name.c_str(), nullptr, &js_error);
  StreamInfoPtr info(raw, &jsStreamInfo_Destroy);
  if (s != NATS_OK || !info) {
    fail("stream info of " + name, s, js_error);
    return std::nullopt;
  }
  StreamEssentials out;
  out.replicas = static_cast<int>(info->Config->Replicas);
  out.duplicate_window = std::chrono::nanoseconds(info->Config->Duplicates);
  out.messages = info->State.Msgs;
  out.first_sequence = info->State.FirstSeq;
  out.last_sequence = info->State.LastSeq;
  const jsClusterInfo* cluster = info->Cluster;
  if (cluster == nullptr) return out;
  if (cluster->Leader != nullptr) out.leader = cluster->Leader;
  for (int i = 0; i < cluster->ReplicasLen; ++i) {
    const jsPeerInfo* peer = cluster->Replicas[i];
    out.followers.push_back({peer->Name != nullptr ? peer->Name : "", peer->Current, peer->Offline});
  }
  return out;
}

std::optional<uint64_t> NatsInspector::stream_message_count(const std::string& name) {
  const std::optional<StreamEssentials> info = stream_info(name);
  if (!info) return std::nullopt;
  return info->messages;
}

std::optional<std::vector<StoredMessage>> NatsInspector::all_messages(const std::string& name) {
  return messages_after(name, 0);
}

std::optional<std::vector<StoredMessage>> NatsInspector::messages_after(const std::string& name, uint64_t sequence_read) {
  const std::optional<StreamEssentials> info = stream_info(name);
  if (!info) return std::nullopt;
  std::vector<StoredMessage> out;
  const uint64_t first = std::max(info->first_sequence, sequence_read + 1);
  if (info->messages == 0 || first > info->last_sequence) return out;
  if (info->last_sequence - first >= kNatsInspectMessagesMax) {
    error_ = "stream " + name + " spans more than " + std::to_string(kNatsInspectMessagesMax) + " sequences";
    return std::nullopt;
  }
  for (uint64_t sequence = first; sequence <= info->last_sequence; ++sequence) {
    natsMsg* raw = nullptr;
    jsErrCode js_error = static_cast<jsErrCode>(0);
    const natsStatus s = js_GetMsg(&raw, js_, name.c_str(), sequence, nullptr, &js_error);
    MessagePtr message(raw, &natsMsg_Destroy);
    if (s != NATS_OK && js_error == JSNoMessageFoundErr) continue;  // deleted
    if (s != NATS_OK || !message) {
      fail("message " + std::to_string(sequence) + " of stream " + name, s, js_error);
      return std::nullopt;
    }
    StoredMessage stored;
    stored.sequence = sequence;
    stored.subject = natsMsg_GetSubject(message.get());
    stored.data.assign(natsMsg_GetData(message.get()), static_cast<size_t>(natsMsg_GetDataLength(message.get())));
    const char* msg_id = nullptr;
    if (natsMsgHeader_Get(message.get(), "Nats-Msg-Id", &msg_id) == NATS_OK && msg_id != nullptr) {
      stored.msg_id = msg_id;
    }
    out.push_back(std::move(stored));
  }
  return out;
}

bool NatsInspector::wait_until_stream_whole(const std::string& name, std::chrono::milliseconds timeout) {
  const PollResult waited = poll_until_settled(timeout, kStreamPollInterval, [&](bool*) -> std::string {
    const std::optional<StreamEssentials> info = stream_info(name);
    if (!info) return error_;
    if (info->leader.empty()) return "no leader";
    if (static_cast<int>(info->followers.size()) != info->replicas - 1) {
      return std::to_string(info->followers.size()) + " followers of " + std::to_string(info->replicas) + " replicas";
    }
    std::string behind;
    for (const StreamPeer& peer : info->followers) {
      if (!peer.current || peer.offline) behind += " " + peer.name + (peer.offline ? " offline" : " behind");
    }
    return behind;
  });
  if (waited.settled) return true;
  error_ = "waited " + std::to_string(timeout.count()) + " ms for stream " + name + " to be whole; still: " +
           waited.last_problem;
  return false;
}

PublishAck NatsInspector::publish(const std::string& subject, const std::string& data, const std::string& msg_id,
                                  std::chrono::milliseconds deadline) {
  PublishAck ack;
  if (!ok()) {
    ack.error = "not connected: " + error_;
    return ack;
  }
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = msg_id.c_str();
  options.MaxWait = kPublishAttemptWait.count();
  const PollResult waited = poll_until_settled(deadline, kPublishRetryPause, [&](bool*) -> std::string {
    ++ack.attempts;
    jsPubAck* raw = nullptr;
    jsErrCode js_error = static_cast<jsErrCode>(0);
    const natsStatus s =
        js_Publish(&raw, js_, subject.c_str(), data.data(), static_cast<int>(data.size()), &options, &js_error);
    const std::unique_ptr<jsPubAck, void (*)(jsPubAck*)> reply(raw, &jsPubAck_Destroy);
    if (s != NATS_OK || !reply) return "publish to " + subject + " (id " + msg_id + "): " + describe(s, js_error);
    ack.duplicate = reply->Duplicate;
    ack.sequence = reply->Sequence;
    return {};
  });
  ack.ok = waited.settled;
  if (!ack.ok) ack.error = waited.last_problem;
  return ack;
}

}  // namespace integration
