#include "http/head_line_guard.h"

namespace http {

HeadLineGuard::Verdict HeadLineGuard::scan(std::string_view bytes) {
  for (const char c : bytes) {
    switch (state_) {
      case State::kBeforeRequestLine:
        if (c == '\r') {
          state_ = State::kBeforeRequestLineCR;
        } else if (c == '\n') {
          state_ = State::kRefused;
        } else {
          state_ = State::kInLine;
        }
        break;
      case State::kBeforeRequestLineCR:
        state_ = c == '\n' ? State::kBeforeRequestLine : State::kRefused;
        break;
      case State::kInLine:
        if (c == '\r') {
          state_ = State::kInLineCR;
        } else if (c == '\n') {
          state_ = State::kRefused;  // bare LF
        }
        break;
      case State::kInLineCR:
        state_ = c == '\n' ? State::kLineStart : State::kRefused;  // bare CR
        break;
      case State::kLineStart:
        if (c == '\r') {
          state_ = State::kBlankLineCR;
        } else if (c == '\n' || c == ' ' || c == '\t') {
          state_ = State::kRefused;  // bare LF; obs-fold or whitespace before the first field
        } else {
          state_ = State::kInLine;
        }
        break;
      case State::kBlankLineCR:
        if (c != '\n') {
          state_ = State::kRefused;
          break;
        }
        state_ = State::kAfterHead;
        return Verdict::kHeadEnded;
      case State::kAfterHead:
        return Verdict::kHeadEnded;
      case State::kRefused:
        return Verdict::kRefused;
    }
    if (state_ == State::kRefused) return Verdict::kRefused;
  }
  if (state_ == State::kAfterHead) return Verdict::kHeadEnded;
  return state_ == State::kRefused ? Verdict::kRefused : Verdict::kInHead;
}

}  // namespace http
