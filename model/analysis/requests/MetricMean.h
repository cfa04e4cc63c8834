#pragma once

#include "Metric.h"

#include <span>

// The mean of a metric's defined values in ms, exact and the same in any
// order of the rows, so that a database summing in parallel gets it to the
// last bit (model/clickhouse). TTFT, E2E and the phases are whole ns over
// 1e6: their mean is Σ ns / n / 1e6, each value's ns recovered exactly from
// its double (a double of ns / 1e6 names one whole ns below 2^52 ns, 52
// days), which is what a database gets by summing the Int64 ns differences.
// ITL and the stream figures are not whole ns: their mean is the exact sum
// of the doubles (ExactSum), rounded once.
namespace MetricMean {

__extension__ typedef __int128 Int128;

// Whether `metric`'s mean is an integer-ns sum (else ExactSum of doubles).
bool isWholeNs(Metric metric);

// `values` must be free of NaN. NaN when empty.
double ofValues(std::span<const double> values, Metric metric);

// The whole ns a value of ns / 1e6 ms came from.
qint64 nsOf(double valueMs);

// Σ ns / n / 1e6, NaN for n == 0.
double fromNsSum(Int128 sumNs, qint64 n);

} // namespace MetricMean
