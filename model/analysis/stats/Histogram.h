#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

// Counts of values in consecutive bins, ready for a plot. Bins are equally
// wide on a linear axis, or equally wide in log10 for a log axis (then only
// positive values are binned and the rest counted as `outOfRange`).
struct Histogram
{
    std::vector<double> edges; // bins + 1 ascending edges
    std::vector<qint64> counts;
    qint64 outOfRange = 0;

    int binCount() const { return int(counts.size()); }
    double centre(int bin) const { return (edges[size_t(bin)] + edges[size_t(bin) + 1]) / 2.0; }
};

namespace HistogramBinning {

// A bin count for `n` observations: about sqrt(n), between 10 and 80.
int autoBinCount(qint64 n);

// `sorted` ascending and finite. Zero bins means autoBinCount(). An empty
// input gives an empty histogram; identical values give one bin.
Histogram ofSorted(std::span<const double> sorted, int bins, bool logScale);

} // namespace HistogramBinning
