#pragma once

#include "DiagnosisRecord.h"

#include <span>

class TraceStore;

// The two coordinates a trace can summarise by itself: how requests arrived
// and what they looked like. Both read the rows in scope (every row when
// `rows` is empty).
namespace WorkloadSummary {

// Rate over the arrival window, burstiness as the coefficient of variation
// of the gaps between consecutive arrivals (about 1 for Poisson arrivals,
// above 1 when they come in bursts), the busiest second, and the requests
// in flight at the client boundary (peak, and the mean by Little's law).
// A request arrives at its first observed stamp.
ArrivalProcess arrivals(const TraceStore &store, std::span<const qint32> rows);

// Prompt and output token spreads (tokens of 0 are "not reported" and left
// out), the mix of each categorical class attribute with at most
// `kMaxMixValues` values shown, and for span traces the workflow shape.
RequestShape shape(const TraceStore &store, std::span<const qint32> rows);

inline constexpr int kMaxMixValues = 4;
inline constexpr int kMaxMixDimensions = 6;

} // namespace WorkloadSummary
