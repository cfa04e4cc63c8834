#pragma once

#include <QtGlobal>

#include <span>

// Ascending sorts of plain numbers (no rows attached) by an LSD radix sort on
// order-preserving 64-bit keys, skipping the bytes every key shares: the
// exponent bytes of similar durations, the high bytes of nanosecond spans.
// A million latencies sort in a few tens of milliseconds, several times
// faster than std::sort, which matters when a comparison sorts a dozen
// columns of two traces before its first answer.
namespace ValueSort {

// `values` must be free of NaN; -0 sorts as +0.
void ascending(std::span<double> values);
void ascending(std::span<qint64> values);

} // namespace ValueSort
