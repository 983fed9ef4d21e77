#pragma once
// What a handler fills in: status, content type, extra headers and body. Buffers are
// reused from request to request, so a warm connection allocates nothing.
#include <string>
#include <string_view>

#include "http/reply_ticket.h"

namespace http {

class Response {
 public:
  void reset();

  void set_status(int status) { status_ = status; }
  int status() const { return status_; }
  // The type must outlive the reply (a literal).
  void set_content_type(std::string_view type) { content_type_ = type; }
  std::string_view content_type() const { return content_type_; }
  void add_header(std::string_view name, std::string_view value);
  std::string_view extra_headers() const { return extra_headers_; }
  std::string& body() { return body_; }
  const std::string& body() const { return body_; }
  // Ends the connection after this reply.
  void set_close() { close_ = true; }
  bool close() const { return close_; }

  // The reply will come later (reply_ticket.h): the connection holds its place in the
  // order of replies until the ticket is completed. Nothing else set here is sent.
  ReplyTicket defer() {
    deferred_ = true;
    return ticket_;
  }
  bool deferred() const { return deferred_; }
  // Set by the connection before the handler runs.
  void set_ticket(ReplyTicket ticket) { ticket_ = ticket; }

  // Shorthands.
  void set_json(int status) {
    status_ = status;
    content_type_ = "application/json";
  }
  void set_text(int status, std::string_view text);

 private:
  int status_ = 200;
  bool close_ = false;
  bool deferred_ = false;
  ReplyTicket ticket_;
  std::string_view content_type_;
  std::string extra_headers_;  // "Name: value\r\n"...
  std::string body_;
};

}  // namespace http
