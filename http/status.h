#pragma once
#include <string_view>

namespace http {

// The reason phrase of a status code ("Not Found"); "Unknown" for codes we never send.
std::string_view reason_phrase(int status);

}  // namespace http
