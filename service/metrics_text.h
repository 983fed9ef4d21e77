#pragma once
// The label escaping of the metrics page lives with the page's rendering, which every
// component's metric table shares (runtime/metric_text.h); service code names it here.
#include "runtime/metric_text.h"

namespace service {

using runtime::append_label_value;

}  // namespace service
