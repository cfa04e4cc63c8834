#pragma once

#include <nlohmann/json_fwd.hpp>

struct TraceComparison;

// A before/after comparison for scripts: every figure, interval (with the
// ranks and exact coverage of each side's order-statistic interval),
// verdict, warning and the stop rule's reasons. Undefined numbers are null.
namespace ComparisonJson {

nlohmann::json report(const TraceComparison &comparison);

} // namespace ComparisonJson
