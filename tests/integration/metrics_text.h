#pragma once
// Reading samples out of a Prometheus text page.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace integration {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The sum of every sample of that metric whose labels include all of `labels` (other
// labels, such as core, are summed over); nullopt when no sample matches.
std::optional<double> sum_samples(std::string_view page, std::string_view metric, const Labels& labels);

}  // namespace integration
