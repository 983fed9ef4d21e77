#include "tests/conformance/cel/textproto.h"

#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cel/utf8.h"
#include "runtime/absl_view.h"

namespace conformance {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '+' || c == '-';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  absl::StatusOr<TextMessage> document() {
    TextMessage message;
    if (!fields(message, '\0')) return error_;
    return message;
  }

 private:
  bool fail(std::string_view message) {
    size_t line = 1;
    for (size_t i = 0; i < at_ && i < text_.size(); ++i) line += text_[i] == '\n';
    error_ = absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", runtime::av(message)));
    return false;
  }

  void skip_space() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '#') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++at_;
      } else {
        return;
      }
    }
  }

  char peek() {
    skip_space();
    return at_ < text_.size() ? text_[at_] : '\0';
  }

  // Fields until `close` ('}' or '>'), or the end for the document.
  bool fields(TextMessage& message, char close) {
    while (true) {
      const char c = peek();
      if (c == close) {
        if (close != '\0') ++at_;
        return true;
      }
      if (c == '\0') return fail("unexpected end of text");
      if (!field(message)) return false;
      const char separator = peek();
      if (separator == ',' || separator == ';') ++at_;
    }
  }

  bool field(TextMessage& message) {
    std::string name;
    if (peek() == '[') {  // [type.googleapis.com/...]: an expanded Any or an extension
      const size_t end = text_.find(']', at_);
      if (end == std::string_view::npos) return fail("unterminated [name]");
      name = std::string(text_.substr(at_, end + 1 - at_));
      at_ = end + 1;
    } else {
      name = word();
      if (name.empty()) return fail("expected a field name");
    }
    bool colon = false;
    if (peek() == ':') {
      colon = true;
      ++at_;
    }
    if (peek() == '[') {  // repeated values
      ++at_;
      while (peek() != ']') {
        if (!value(name, colon, message)) return false;
        if (peek() == ',') ++at_;
      }
      ++at_;
      return true;
    }
    return value(name, colon, message);
  }

  bool value(const std::string& name, bool colon, TextMessage& message) {
    TextField field;
    field.name = name;
    const char c = peek();
    if (c == '{' || c == '<') {
      ++at_;
      field.is_message = true;
      if (!fields(field.message, c == '{' ? '}' : '>')) return false;
    } else if (c == '"' || c == '\'') {
      field.is_quoted = true;
      while (peek() == '"' || peek() == '\'') {  // adjacent literals concatenate
        if (!quoted(field.scalar)) return false;
      }
    } else {
      if (!colon) return fail(absl::StrCat("expected ':' after ", name));
      field.scalar = word();
      if (field.scalar.empty()) return fail(absl::StrCat("expected a value for ", name));
    }
    message.fields.push_back(std::move(field));
    return true;
  }

  std::string word() {
    skip_space();
    const size_t start = at_;
    while (at_ < text_.size() && is_word_char(text_[at_])) ++at_;
    return std::string(text_.substr(start, at_ - start));
  }

  bool quoted(std::string& out) {
    const char quote = text_[at_++];
    while (at_ < text_.size() && text_[at_] != quote) {
      const char c = text_[at_++];
      if (c == '\n') return fail("newline in a string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (!escape(out)) return false;
    }
    if (at_ >= text_.size()) return fail("unterminated string");
    ++at_;
    return true;
  }

  // After a backslash: C escapes, as protobuf's text format reads them.
  bool escape(std::string& out) {
    if (at_ >= text_.size()) return fail("escape at the end of the text");
    const char c = text_[at_++];
    switch (c) {
      case 'a': out.push_back('\a'); return true;
      case 'b': out.push_back('\b'); return true;
      case 'f': out.push_back('\f'); return true;
      case 'n': out.push_back('\n'); return true;
      case 'r': out.push_back('\r'); return true;
      case 't': out.push_back('\t'); return true;
      case 'v': out.push_back('\v'); return true;
      case '\\':
      case '\'':
      case '"':
      case '?': out.push_back(c); return true;
      default: break;
    }
    if (c >= '0' && c <= '7') {
      int value = c - '0';
      for (int i = 0; i < 2 && at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '7'; ++i) {
        value = value * 8 + (text_[at_++] - '0');
      }
      out.push_back(static_cast<char>(value));
      return true;
    }
    if (c == 'x' || c == 'X') {
      int value = 0;
      int digits = 0;
      while (digits < 2 && at_ < text_.size() && hex_value(text_[at_]) >= 0) {
        value = value * 16 + hex_value(text_[at_++]);
        ++digits;
      }
      if (digits == 0) return fail("malformed \\x escape");
      out.push_back(static_cast<char>(value));
      return true;
    }
    if (c == 'u' || c == 'U') {
      const int digits = c == 'u' ? 4 : 8;
      uint32_t code_point = 0;
      for (int i = 0; i < digits; ++i) {
        if (at_ >= text_.size() || hex_value(text_[at_]) < 0) {
          return fail("malformed unicode escape");
        }
        code_point = code_point * 16 + static_cast<uint32_t>(hex_value(text_[at_++]));
      }
      cel::append_utf8(code_point, out);
      return true;
    }
    return fail(absl::StrCat("unknown escape \\", std::string(1, c)));
  }

  std::string_view text_;
  size_t at_ = 0;
  absl::Status error_;
};

}  // namespace

const TextField* TextMessage::find(std::string_view name) const {
  for (const TextField& field : fields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

std::vector<const TextField*> TextMessage::find_all(std::string_view name) const {
  std::vector<const TextField*> found;
  for (const TextField& field : fields) {
    if (field.name == name) found.push_back(&field);
  }
  return found;
}

std::string_view TextMessage::scalar(std::string_view name) const {
  const TextField* field = find(name);
  return field == nullptr ? std::string_view() : std::string_view(field->scalar);
}

absl::StatusOr<TextMessage> parse_textproto(std::string_view text) {
  return Reader(text).document();
}

}  // namespace conformance
