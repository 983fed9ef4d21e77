// CEL evaluation of typical targeting.custom rules over the request's `custom` map, read
// in place through a host map: a simdjson DOM (json_host.h, as decisiond-cel reads its
// bindings and a decision reads user, device and app), and the decision request's own
// adapter over its parsed targeting.custom members. Every ad with a custom rule pays one
// evaluation per request, so the budget is well under 100 ns each, and no allocation once
// warm.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <array>
#include <string>
#include <string_view>

#include "decision/request/request_reader.h"
#include "cel/arena.h"
#include "cel/compile.h"
#include "cel/evaluator.h"
#include "cel/json_host.h"
#include "cel/limits.h"
#include "decision/targeting/custom/request_variables.h"
#include "perf/allocation_counter.h"

namespace {


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

// As a decision evaluates: the request read by the request reader, `custom` presented by
// the targeting host over its parsed members (decision/targeting/custom).
void BM_CelEvaluateRequestHost(benchmark::State& state) {
  const std::string body =
      std::string(R"({"placements":[{"key":"p","targeting":{"custom":)") + std::string(kCustom) + "}}]}";
  decision::request::RequestReader reader;
  decision::request::DecisionRequest request;
  if (!reader.read(body, {}, request).ok()) {
    state.SkipWithError("request refused");
    return;
  }
  decision::targeting::RequestVariables variables;
  variables.begin_request(request);
  variables.begin_placement(request.placements()[0].targeting);
  evaluate_repeatedly(state, variables.values(0b0001)[0]);
}
BENCHMARK(BM_CelEvaluateRequestHost)->DenseRange(0, kExpressions.size() - 1);

}  // namespace
