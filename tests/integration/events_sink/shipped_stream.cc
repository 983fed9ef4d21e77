#include "tests/integration/events_sink/shipped_stream.h"

#include <string_view>
#include <thread>

#include "absl/strings/str_cat.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/metrics_scrape.h"
#include "tracking/event_shipping/log_cursor.h"
#include "tracking/event_shipping/message_id.h"

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

namespace {

// Every message's data split where the shipper joined lines: strictly, so that a line feed
// after the last line shows as an empty line, which is not a logged line.
std::vector<std::string_view> lines_of(const StoredMessage& m) {
  std::vector<std::string_view> lines;
  const std::string_view data = m.data;
  for (size_t start = 0;;) {
    const size_t end = data.find('\n', start);
    lines.push_back(data.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return lines;
    start = end + 1;
  }
}

size_t line_count_of(const std::vector<StoredMessage>& messages) {
  size_t lines = 0;
  for (const StoredMessage& m : messages) lines += lines_of(m).size();
  return lines;
}

std::string begins(std::string_view text) { return std::string(text.substr(0, 80)); }

// What the comparison found wrong, by kind, in the order found.
struct Differences {
  std::map<std::string, size_t> seen;  // line identity -> copies in the stream
  std::vector<std::string> twice, foreign, altered, misnamed;

  void compare_run(const StoredMessage& m, const std::map<std::string, std::string>& logged) {
    const std::optional<tracking::event_shipping::NodeRunId> id =
        tracking::event_shipping::parse_any_message_id(m.msg_id);
    if (!id) {
      misnamed.push_back((m.msg_id.empty() ? "(no id)" : m.msg_id) + " holding " + begins(m.data));
      return;
    }
    if (m.subject != tracking::event_shipping::ship_subject(id->node_id)) {
      misnamed.push_back(m.msg_id + " on subject " + m.subject);
    }
    const std::vector<std::string_view> lines = lines_of(m);
    const std::string core_key = std::string(id->node_id) + ":" + std::to_string(id->run.core) + ":";
    for (size_t i = 0; i < lines.size(); ++i) {
      uint64_t seq = 0;
      int64_t time_ms = 0;
      if (!tracking::event_shipping::parse_line_head(lines[i], seq, time_ms)) {
        altered.push_back(absl::StrCat(m.msg_id, " line ", i, ": ", begins(lines[i])));
        continue;
      }
      const bool first = i == 0;
      const bool last = i + 1 == lines.size();
      const bool named = seq >= id->run.first_seq && seq <= id->run.last_seq && (!first || seq == id->run.first_seq) &&
                         (!last || seq == id->run.last_seq);
      if (!named) misnamed.push_back(absl::StrCat(m.msg_id, " holds seq ", seq, " as line ", i));
      compare_line(core_key + std::to_string(seq), lines[i], logged);
    }
  }

  void compare_line(const std::string& key, std::string_view bytes, const std::map<std::string, std::string>& logged) {
    if (++seen[key] == 2) twice.push_back(key);
    const auto line = logged.find(key);
    if (line == logged.end()) {
      foreign.push_back(key);
    } else if (line->second != bytes) {
      altered.push_back(key);
    }
  }
};

}  // namespace

::testing::AssertionResult StreamHoldsEachLineOnce(const std::vector<StoredMessage>& messages,
                                                   const std::map<std::string, std::string>& logged) {
  Differences found;
  for (const StoredMessage& m : messages) found.compare_run(m, logged);
  std::vector<std::string> missing;
  for (const auto& [id, text] : logged) {
    if (found.seen.find(id) == found.seen.end()) missing.push_back(id);
  }
  const size_t stream_lines = line_count_of(messages);
  if (missing.empty() && found.twice.empty() && found.foreign.empty() && found.altered.empty() &&
      found.misnamed.empty()) {
    return ::testing::AssertionSuccess() << stream_lines << " lines in " << messages.size() << " messages";
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << logged.size() << " lines logged, " << stream_lines << " lines in " << messages.size()
          << " messages: " << missing.size() << " missing, " << found.twice.size() << " twice, "
          << found.foreign.size() << " not logged, " << found.altered.size() << " altered, "
          << found.misnamed.size() << " misnamed";
  const auto examples = [&failure](const char* what, const std::vector<std::string>& ids) {
    for (size_t i = 0; i < ids.size() && i < 5; ++i) failure << "\n  " << what << ": " << ids[i];
  };
  examples("missing", missing);
  examples("twice", found.twice);
  examples("not logged", found.foreign);
  examples("altered", found.altered);
  examples("misnamed", found.misnamed);
  return failure;
}

std::optional<std::vector<StoredMessage>> wait_for_stream_to_hold(NatsInspector& nats,
                                                                  const std::vector<std::string>& state_dirs,
                                                                  std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Each poll reads only the messages stored since the last one: a direct get per message
  // would make reading the whole stream every 200 ms slow.
  uint64_t sequence_read = 0;
  size_t stream_lines = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t lines = 0;
    for (const std::string& dir : state_dirs) lines += read_event_lines(dir).size();
    const std::optional<std::vector<StoredMessage>> stored = nats.messages_after(kEventsStream, sequence_read);
    if (stored && !stored->empty()) {
      stream_lines += line_count_of(*stored);
      sequence_read = stored->back().sequence;
    }
    if (stream_lines >= lines) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return nats.all_messages(kEventsStream);
}

std::optional<uint64_t> stream_line_count(NatsInspector& nats) {
  const std::optional<std::vector<StoredMessage>> messages = nats.all_messages(kEventsStream);
  if (!messages) return std::nullopt;
  return line_count_of(*messages);
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
