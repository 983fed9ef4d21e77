#pragma once
// The --base-url the tests give the server, and the tracking URLs it then issues.
namespace integration {

inline constexpr char kTestBaseUrl[] = "https://ads.example.test";
inline constexpr char kTestBaseUrlFlag[] = "--base-url=https://ads.example.test";
inline constexpr char kTestTrackingPrefix[] = "https://ads.example.test/v1/tracking?t=";

}  // namespace integration
