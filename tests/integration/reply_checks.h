#pragma once
// What every reply must satisfy, as gtest assertions. The error envelope of docs/errors.md is
// checked structurally (parsed, not compared as text), so key order and spacing stay free.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/integration/http_reply.h"

namespace integration {

// {"success":false,"data":null,"errors":[{"code":<code>,"message":"...","details":{}}],
//  "warnings":null}, with exactly one error, a non-empty message and an object as details.
::testing::AssertionResult IsErrorEnvelope(const std::string& body, int64_t code);

// Exactly one Date, an IMF-fixdate, and exactly one Content-Length (which framed the body).
::testing::AssertionResult HasDateAndContentLength(const HttpReply& reply);

}  // namespace integration
