#include "decision/explain/explanation_writer.h"

#include "decision/explain/explanation_parts.h"

namespace decision::explain {

void write_explanation(const ExplainedRequest& input, std::string& out) {
  const Context context{input, *input.served.snapshot, input.explanation.facts};
  JsonWriter json(out);
  json.begin_object().literal_key("success").boolean(true).literal_key("data").begin_object();
  write_decision(json, context);
  write_facts(json, context);
  json.literal_key("placements").begin_array();
  for (size_t i = 0; i < input.explanation.placements.size(); ++i) {
    write_placement(json, context, i, input.explanation.placements[i]);
  }
  json.end_array().end_object();
  json.literal_key("errors").null().literal_key("warnings").null().end_object();
}

}  // namespace decision::explain
