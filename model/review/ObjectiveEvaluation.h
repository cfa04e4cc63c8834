#pragma once

#include "DiagnosisRecord.h"

#include <span>

class RequestTable;

namespace ObjectiveEvaluation {

// The objective's percentile over every request, or over `rows`, with its
// distribution-free 95% interval (QuantileInterval); met when the estimate is
// below the threshold, decided when the whole interval lies on one side.
ObjectiveCheck check(const RequestTable &table, const Objective &objective);
ObjectiveCheck check(const RequestTable &table, std::span<const qint32> rows, const Objective &objective);

// The same from a column of the metric's values sorted ascending (NaN-free).
ObjectiveCheck checkSorted(std::span<const double> sortedMs, const Objective &objective);

} // namespace ObjectiveEvaluation
