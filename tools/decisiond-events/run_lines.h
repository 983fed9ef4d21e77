#pragma once
// A shipped message holds a run (docs/events.md "Shipping to NATS JetStream"): consecutive
// whole lines of one core's log joined by line feeds, none after the last; a message
// shipped before runs holds one line. The tool reads each line as it reads a log's.
#include <string_view>
#include <vector>

namespace decisiond_events {

// The lines of a message's data, views into it. A line feed after the last line is
// tolerated (a file's line carries one); any other empty line is kept, so that the parser
// counts it as unreadable rather than the message losing it silently.
std::vector<std::string_view> run_lines(std::string_view data);

}  // namespace decisiond_events
