// CEL evaluation of typical targeting.custom rules over the request's `custom` map, read
// in place through a host map: a simdjson DOM (json_host.h, as decisiond-cel reads its
// bindings), and a flat array of entries scanned by key (the shape of the decision
// request's targeting.custom, and so of its adapter). Every ad with a custom rule pays one
// evaluation per request, so the budget is well under 100 ns each, and no allocation once
// warm.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <array>
#include <optional>
#include <string_view>
#include <utility>

#include "decision/targeting/cel/arena.h"
#include "decision/targeting/cel/arena_collections.h"
#include "decision/targeting/cel/collections.h"
#include "decision/targeting/cel/compile.h"
#include "decision/targeting/cel/evaluator.h"
#include "decision/targeting/cel/json_host.h"
#include "decision/targeting/cel/limits.h"
#include "perf/allocation_counter.h"

namespace {

namespace cel = decision::cel;

constexpr std::string_view kCustom = R"({
  "section": "sports", "age": 27, "member": true, "country": "DE",
  "tags": ["news", "premium", "sports", "video"], "name": "alice-in-wonderland-z",
  "device_class": "mobile", "visits": 12, "score": 0.82
})";

// The expressions, by benchmark argument. The last two compare the two ways a literal
// regex runs: "^a.*z$" is literal text and ".*" (literal_regex.h), the other needs RE2.
constexpr std::array<std::string_view, 8> kExpressions = {
    R"(custom.section == "sports")",
    R"(custom.age >= 18 && custom.age < 35)",
    R"("premium" in custom.tags)",
    R"(has(custom.member) && custom.member)",
    R"(custom.tags.exists(t, t.startsWith("sp")))",
    R"(custom.country in ["FR","DE","ES"])",
    R"(custom.name.matches("^a.*z$"))",
    R"(custom.name.matches("^[a-z-]+z$"))",
};

// The decision request's shape: members in an array, found by scanning keys.
class FlatMap final : public cel::MapValue {
 public:
  static constexpr size_t kSize = 9;
  using Entries = std::array<std::pair<std::string_view, cel::Value>, kSize>;
  explicit FlatMap(const Entries& entries) : entries_(entries) {}
  size_t size() const override { return kSize; }
  std::optional<cel::Value> find(const cel::Value& key, cel::Arena&) const override {
    if (key.kind() != cel::Kind::kString) return std::nullopt;
    for (const auto& [name, value] : entries_) {
      if (name == key.as_text()) return value;
    }
    return std::nullopt;
  }
  void for_each_key(cel::Visitor visit, cel::Arena&) const override {
    for (const auto& entry : entries_) {
      if (!visit(cel::Value::string(entry.first))) return;
    }
  }

 private:
  const Entries& entries_;
};

void evaluate_repeatedly(benchmark::State& state, const cel::Value& custom) {
  const std::string_view source = kExpressions[static_cast<size_t>(state.range(0))];
  state.SetLabel(std::string(source));
  const absl::StatusOr<cel::Program> program = cel::compile(source);
  if (!program.ok()) {
    state.SkipWithError(std::string(program.status().message()).c_str());
    return;
  }
  const std::array<cel::Value, 4> variables = {custom};
  cel::Evaluator evaluator;
  if (!cel::holds(evaluator.evaluate(*program, variables))) {
    state.SkipWithError("expression does not hold on the sample request");
    return;
  }
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    benchmark::DoNotOptimize(evaluator.evaluate(*program, variables));
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
}

void BM_CelEvaluateJsonHost(benchmark::State& state) {
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  if (parser.parse(kCustom.data(), kCustom.size()).get(document) != simdjson::SUCCESS) {
    state.SkipWithError("bad JSON");
    return;
  }
  cel::Arena bindings(cel::kDefaultArenaBytesMax);
  evaluate_repeatedly(state, cel::json_value(document, bindings));
}
BENCHMARK(BM_CelEvaluateJsonHost)->DenseRange(0, kExpressions.size() - 1);

void BM_CelEvaluateFlatHost(benchmark::State& state) {
  cel::Arena bindings(cel::kDefaultArenaBytesMax);
  const std::array<cel::Value, 4> tags = {cel::Value::string("news"), cel::Value::string("premium"),
                                          cel::Value::string("sports"),
                                          cel::Value::string("video")};
  const FlatMap::Entries entries = {{
      {"section", cel::Value::string("sports")},
      {"age", cel::Value::integer(27)},
      {"member", cel::Value::boolean(true)},
      {"country", cel::Value::string("DE")},
      {"tags", cel::make_list(tags, bindings, 0)},
      {"name", cel::Value::string("alice-in-wonderland-z")},
      {"device_class", cel::Value::string("mobile")},
      {"visits", cel::Value::integer(12)},
      {"score", cel::Value::floating(0.82)},
  }};
  const FlatMap custom(entries);
  evaluate_repeatedly(state, cel::Value::map(&custom));
}
BENCHMARK(BM_CelEvaluateFlatHost)->DenseRange(0, kExpressions.size() - 1);

}  // namespace
