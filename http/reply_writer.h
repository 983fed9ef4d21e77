#pragma once
// Serialises a Response onto a connection's output: status line, Date, Content-Type,
// Content-Length, the handler's headers, Connection: close when ending, then the body.
#include <string>
#include <string_view>

#include "http/response.h"

namespace http {

void append_reply(std::string& out, const Response& response, std::string_view date,
                  bool close_connection);
// "HTTP/1.1 100 Continue\r\n\r\n"
void append_continue(std::string& out);

}  // namespace http
