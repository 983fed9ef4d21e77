// The cheapest way NATS JetStream can take an event log, for perf/events_sink_load.sh's
// floor: the lines of a log directory published in runs of LINES_PER_MESSAGE consecutive
// lines (joined by line feeds, as the shipper's runs) with nothing but the C client's plain
// publish, no acknowledgements, no window, no checkpoints, into a fresh stream, then timed
// until the stream holds them all: with a Nats-Msg-Id header per message (what
// docs/events.md's exactly-once needs: the stream's duplicate window keys on it) or
// without. No shipper can ship runs of that size faster than this on the same machine, or
// spend less of the client's CPU per line (the script measures the server's).
//
//   decisiond_jetstream_floor NATS_URL LOG_DIR with-ids|without-ids [LINES_PER_MESSAGE]
//
// Prints one line: lines, lines/s from the first publish to the last one stored, this
// process's CPU per line (every thread, the client's included), and the lines stored.
#include <nats/nats.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nats_jetstream/stream_setup.h"

namespace {

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Every whole line of the directory's *.jsonl files, in name order.
std::vector<std::string> read_lines(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> lines;
  for (const auto& file : files) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) lines.push_back(std::move(line));
    }
  }
  return lines;
}

uint64_t stored_messages(jsCtx* jetstream, const char* stream) {
  jsStreamInfo* info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  if (js_GetStreamInfo(&info, jetstream, stream, nullptr, &error) != NATS_OK) return 0;
  const uint64_t messages = info->State.Msgs;
  jsStreamInfo_Destroy(info);
  return messages;
}

// Publishes every line to a fresh stream; false when the client or the stream refused.
bool measure(natsConnection* connection, jsCtx* jetstream, const std::vector<std::string>& lines, bool with_ids,
             size_t per_message) {
  const std::string name = std::string(with_ids ? "with-ids-" : "without-ids-") + std::to_string(per_message);
  const std::string stream = "floor-" + name;
  const std::string subject = "floor." + name;
  nats_jetstream::StreamSpec spec;
  spec.name = stream;
  spec.subjects = {subject};
  spec.replicas = 1;
  if (auto made = nats_jetstream::ensure_stream(jetstream, spec); !made.ok()) {
    std::fprintf(stderr, "jetstream_floor: %s\n", std::string(made.status().message()).c_str());
    return false;
  }
  const double client_before = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  char id[64];
  std::string run;
  uint64_t messages = 0;
  for (size_t first = 0; first < lines.size(); first += per_message) {
    const size_t last = std::min(lines.size(), first + per_message) - 1;
    run.clear();
    for (size_t i = first; i <= last; ++i) {
      if (i > first) run.push_back('\n');
      run.append(lines[i]);
    }
    natsStatus s = NATS_OK;
    if (with_ids) {
      natsMsg* message = nullptr;
      s = natsMsg_Create(&message, subject.c_str(), nullptr, run.data(), static_cast<int>(run.size()));
      std::snprintf(id, sizeof(id), "floor:0:%zu-%zu", first, last);
      if (s == NATS_OK) s = natsMsgHeader_Set(message, "Nats-Msg-Id", id);
      if (s == NATS_OK) s = natsConnection_PublishMsg(connection, message);
      natsMsg_Destroy(message);
    } else {
      s = natsConnection_Publish(connection, subject.c_str(), run.data(), static_cast<int>(run.size()));
    }
    if (s != NATS_OK) {
      std::fprintf(stderr, "jetstream_floor: publish: %s\n", natsStatus_GetText(s));
      return false;
    }
    ++messages;
  }
  natsConnection_FlushTimeout(connection, 60'000);
  const double client_cpu = process_cpu_seconds() - client_before;
  // The stream may drop what its leader cannot take in time (no acknowledgement asked):
  // wait while it still grows, and report what it holds.
  uint64_t stored = 0;
  auto last_growth = std::chrono::steady_clock::now();
  auto end = last_growth;
  while (stored < messages && std::chrono::steady_clock::now() - last_growth < std::chrono::seconds(5)) {
    const uint64_t now_stored = stored_messages(jetstream, stream.c_str());
    if (now_stored > stored) {
      stored = now_stored;
      end = last_growth = std::chrono::steady_clock::now();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  const auto n = static_cast<double>(lines.size());
  // Lines stored: every message but a short last one holds per_message.
  const double stored_lines = stored == messages ? n : static_cast<double>(stored * per_message);
  std::printf("%zu lines in %llu messages  %.0f lines/s  client %.2f us/line  stored %llu messages\n", lines.size(),
              static_cast<unsigned long long>(messages), stored_lines / seconds, 1e6 * client_cpu / n,
              static_cast<unsigned long long>(stored));
  return stored == messages;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc == 4 || argc == 5 ? argv[3] : "";
  const long per_message = argc == 5 ? std::strtol(argv[4], nullptr, 10) : 1;
  if ((mode != "with-ids" && mode != "without-ids") || per_message < 1) {
    std::fprintf(stderr, "usage: %s NATS_URL LOG_DIR with-ids|without-ids [LINES_PER_MESSAGE]\n", argv[0]);
    return 2;
  }
  const std::vector<std::string> lines = read_lines(argv[2]);
  if (lines.empty()) {
    std::fprintf(stderr, "jetstream_floor: no lines in %s\n", argv[2]);
    return 2;
  }
  natsConnection* connection = nullptr;
  if (natsStatus s = natsConnection_ConnectTo(&connection, argv[1]); s != NATS_OK) {
    std::fprintf(stderr, "jetstream_floor: connect: %s\n", natsStatus_GetText(s));
    return 1;
  }
  jsCtx* jetstream = nullptr;
  if (natsStatus s = natsConnection_JetStream(&jetstream, connection, nullptr); s != NATS_OK) {
    std::fprintf(stderr, "jetstream_floor: JetStream: %s\n", natsStatus_GetText(s));
    return 1;
  }
  const bool complete = measure(connection, jetstream, lines, mode == "with-ids", static_cast<size_t>(per_message));
  jsCtx_Destroy(jetstream);
  natsConnection_Destroy(connection);
  return complete ? 0 : 1;
}
