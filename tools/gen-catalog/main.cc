// gen-catalog: a synthetic catalog (catalog_generator.h) on standard output or in --out,
// and a one-line summary on standard error, so `gen-catalog > x.json` stays clean.
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/limits.h"
#include "tools/gen-catalog/catalog_generator.h"
#include "tools/gen-catalog/command_line.h"

namespace {

using tools::gen_catalog::CatalogStats;

constexpr int kUsageExit = 2;
constexpr int kWriteExit = 1;

bool write_all(const std::string& text, const std::string& path) {
  FILE* file = path.empty() ? stdout : std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  // fclose/fflush report what a buffered fwrite could not (a full disk, a closed pipe).
  const bool closed = path.empty() ? std::fflush(file) == 0 : std::fclose(file) == 0;
  return written && closed;
}

void print_summary(const CatalogStats& s, double elapsed_ms) {
  std::fprintf(stderr,
               "gen-catalog: %u ads, %u placements, %.1f candidates per placement (mean), "
               "%llu bytes; %u targeted, %u capped, %u video, %u ended, %llu creatives; %.0f ms\n",
               s.ads, s.placements, s.mean_candidates_per_placement(),
               static_cast<unsigned long long>(s.bytes), s.targeted_ads, s.capped_ads, s.video_ads,
               s.ended_ads, static_cast<unsigned long long>(s.creatives), elapsed_ms);
  if (s.bytes > decision::catalog::kMaxCatalogBytes) {
    std::fprintf(stderr, "gen-catalog: warning: larger than the %zu bytes the loader accepts\n",
                 decision::catalog::kMaxCatalogBytes);
  }
}

}  // namespace

int main(int argc, char** argv) {
  namespace gen = tools::gen_catalog;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  const absl::StatusOr<gen::CommandLine> line = gen::parse_command_line(args);
  if (!line.ok()) {
    std::fprintf(stderr, "gen-catalog: %s\n\n%s", std::string(line.status().message()).c_str(),
                 std::string(gen::usage()).c_str());
    return kUsageExit;
  }
  if (line->help) {
    std::fputs(std::string(gen::usage()).c_str(), stdout);
    return 0;
  }
  const auto started = std::chrono::steady_clock::now();
  CatalogStats stats;
  const std::string json = gen::generate_catalog(line->options, stats);
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - started;
  if (!write_all(json, line->out_path)) {
    std::perror(line->out_path.empty() ? "gen-catalog: standard output"
                                       : ("gen-catalog: " + line->out_path).c_str());
    return kWriteExit;
  }
  print_summary(stats, elapsed.count());
  return 0;
}
