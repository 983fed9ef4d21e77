#pragma once
// The body of POST /admin/explain (docs/explain.md has the shape, member by member):
//
//   {"success":true,"data":{"decision":{...},"request":{...},"placements":[...]},
//    "errors":null,"warnings":null}
//
// `decision` is what the decision would serve, without tracking URLs (an explain must not
// mint callable impression URLs), with the warnings the decision body would carry;
// `request` the facts the rules read; `placements` every candidate ad and its outcome.
#include <string>

#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explanation.h"
#include "decision/localization/accept_language.h"
#include "decision/request/decision_request.h"
#include "api_versions/version_resolver.h"

namespace decision::explain {

struct ExplainedRequest {
  const endpoint::ServedCatalog& served;
  const request::DecisionRequest& request;
  const api_versions::Resolution& version;
  const localization::LanguagePreferences& languages;
  const Explanation& explanation;
};

// Appends the body to out.
void write_explanation(const ExplainedRequest& input, std::string& out);

}  // namespace decision::explain
