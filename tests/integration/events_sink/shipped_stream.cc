#include "tests/integration/events_sink/shipped_stream.h"

#include <set>
#include <thread>

#include "tests/integration/event_log_lines.h"
#include "tests/integration/metrics_scrape.h"

namespace integration {

std::map<std::string, std::string> logged_lines(const std::string& node_id, const std::string& state_dir) {
  std::map<std::string, std::string> lines;
  for (const EventLine& line : read_event_lines(state_dir)) {
    if (!line.seq) continue;
    lines[node_id + ":" + std::to_string(line.file_core) + ":" + std::to_string(*line.seq)] = line.text;
  }
  return lines;
}

std::map<std::string, std::string> logged_lines_of(const std::vector<std::string>& state_dirs) {
  std::map<std::string, std::string> all;
  for (size_t i = 0; i < state_dirs.size(); ++i) all.merge(logged_lines("node" + std::to_string(i), state_dirs[i]));
  return all;
}

::testing::AssertionResult StreamHoldsEachLineOnce(const std::vector<StoredMessage>& messages,
                                                   const std::map<std::string, std::string>& logged) {
  std::map<std::string, size_t> seen;
  std::vector<std::string> twice, foreign, altered;
  for (const StoredMessage& m : messages) {
    if (++seen[m.msg_id] == 2) twice.push_back(m.msg_id);
    const auto line = logged.find(m.msg_id);
    if (line == logged.end()) {
      foreign.push_back(m.msg_id.empty() ? "(no id) " + m.data.substr(0, 80) : m.msg_id);
    } else if (line->second != m.data) {
      altered.push_back(m.msg_id);
    }
    const std::string node = m.msg_id.substr(0, m.msg_id.find(':'));
    if (m.subject != "decisiond.events." + node) altered.push_back(m.msg_id + " on subject " + m.subject);
  }
  std::vector<std::string> missing;
  for (const auto& [id, text] : logged) {
    if (seen.find(id) == seen.end()) missing.push_back(id);
  }
  if (missing.empty() && twice.empty() && foreign.empty() && altered.empty()) {
    return ::testing::AssertionSuccess() << messages.size() << " messages";
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << logged.size() << " lines logged, " << messages.size() << " messages: " << missing.size()
          << " missing, " << twice.size() << " twice, " << foreign.size() << " not logged, " << altered.size()
          << " altered";
  const auto examples = [&failure](const char* what, const std::vector<std::string>& ids) {
    for (size_t i = 0; i < ids.size() && i < 5; ++i) failure << "\n  " << what << ": " << ids[i];
  };
  examples("missing", missing);
  examples("twice", twice);
  examples("not logged", foreign);
  examples("altered", altered);
  return failure;
}

std::optional<std::vector<StoredMessage>> wait_for_stream_to_hold(NatsInspector& nats,
                                                                  const std::vector<std::string>& state_dirs,
                                                                  std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t lines = 0;
    for (const std::string& dir : state_dirs) lines += read_event_lines(dir).size();
    const std::optional<uint64_t> count = nats.stream_message_count(kEventsStream);
    if (count && *count >= lines) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return nats.all_messages(kEventsStream);
}

std::optional<double> node_metric(const ServerProcess& node, std::string_view metric) {
  return sum_samples(scrape_metrics(node), metric, {});
}

bool wait_until_caught_up(const ServerProcess& node, std::chrono::milliseconds timeout) {
  return wait_for_page(node, [](const std::string& page) {
           for (const char* behind : {"decisiond_events_ship_lag_seconds", "decisiond_events_ship_lines_behind",
                                      "decisiond_events_ship_bytes_behind"}) {
             if (sum_samples(page, behind, {}) != 0) return false;
           }
           return true;
         }, timeout).has_value();
}

bool wait_for_more(const ServerProcess& node, std::string_view metric, double floor,
                   std::chrono::milliseconds timeout) {
  return wait_for_page(node, [&](const std::string& page) { return sum_samples(page, metric, {}).value_or(0) > floor; },
                       timeout).has_value();
}

bool wait_for_value(const ServerProcess& node, std::string_view metric, double value,
                    std::chrono::milliseconds timeout) {
  return wait_for_page(node, [&](const std::string& page) { return sum_samples(page, metric, {}) == value; },
                       timeout).has_value();
}

}  // namespace integration
