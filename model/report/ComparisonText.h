#pragma once

#include <QString>

struct PercentileDifference;
struct TraceComparison;

// A before/after comparison for the terminal: coordinates and sides, the
// stop-rule verdict with its reasons, the per-class difference table, the
// misses, the phase shift, the workload check, the prediction and, for
// workflows, the critical-path shares.
namespace ComparisonText {

QString report(const TraceComparison &comparison);

// "-82.2 [-101.2, -63.2]" (ms, signed), or "too few requests".
QString change(const PercentileDifference &difference, int decimals = 1);

} // namespace ComparisonText
