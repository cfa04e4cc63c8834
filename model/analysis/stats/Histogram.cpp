#include "Histogram.h"

#include <algorithm>
#include <cmath>

namespace HistogramBinning {

int autoBinCount(qint64 n)
{
    return std::clamp(int(std::lround(std::sqrt(double(n)))), 10, 80);
}

Histogram ofSorted(std::span<const double> sorted, int bins, bool logScale)
{
    Histogram histogram;
    if (sorted.empty())
        return histogram;
    auto first = sorted.begin();
    if (logScale) {
        first = std::upper_bound(sorted.begin(), sorted.end(), 0.0);
        histogram.outOfRange = first - sorted.begin();
        if (first == sorted.end())
            return histogram;
    }
    const std::span<const double> values(first, sorted.end());
    if (bins <= 0)
        bins = autoBinCount(qint64(values.size()));
    const double lo = values.front();
    const double hi = values.back();
    if (lo == hi) {
        histogram.edges = {lo, hi};
        histogram.counts = {qint64(values.size())};
        return histogram;
    }
    // Edges are computed in the axis' own space so bins look equal on it.
    const double a = logScale ? std::log10(lo) : lo;
    const double b = logScale ? std::log10(hi) : hi;
    histogram.edges.resize(size_t(bins) + 1);
    for (int i = 0; i <= bins; ++i) {
        const double t = a + (b - a) * double(i) / double(bins);
        histogram.edges[size_t(i)] = logScale ? std::pow(10.0, t) : t;
    }
    histogram.edges.front() = lo;
    histogram.edges.back() = hi;
    // Values are sorted: each bin's count is the distance between the
    // positions of its edges; the last bin is closed on the right.
    histogram.counts.resize(size_t(bins));
    auto previous = values.begin();
    for (int i = 0; i < bins; ++i) {
        const auto next
            = i + 1 == bins ? values.end() : std::lower_bound(previous, values.end(), histogram.edges[size_t(i) + 1]);
        histogram.counts[size_t(i)] = next - previous;
        previous = next;
    }
    return histogram;
}

} // namespace HistogramBinning
