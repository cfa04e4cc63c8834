#include "Percentile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Percentile {

double ofSorted(std::span<const double> sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    if (sorted.size() == 1)
        return sorted.front();
    const double rank = double(sorted.size() - 1) * q;
    const auto lo = size_t(std::floor(rank));
    const auto hi = size_t(std::ceil(rank));
    if (lo == hi)
        return sorted[lo];
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

std::vector<double> sortedFinite(std::span<const double> values)
{
    std::vector<double> sorted;
    sorted.reserve(values.size());
    for (const double value : values) {
        if (!std::isnan(value))
            sorted.push_back(value);
    }
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

double of(std::span<const double> values, double q)
{
    const auto sorted = sortedFinite(values);
    return ofSorted(sorted, q);
}

} // namespace Percentile
