#include "Percentile.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtGlobal>

namespace Percentile {

// The seed's interpolation, low + (high - low) * fraction, except where the
// difference of two finite extremes (-1e308 and 1e308) overflows: then the
// same point is taken as a weighted mean, which cannot.
double interpolate(double low, double high, double fraction)
{
    const double difference = high - low;
    if (std::isfinite(difference) || !std::isfinite(low) || !std::isfinite(high))
        return low + difference * fraction;
    return low * (1.0 - fraction) + high * fraction;
}

Neighbours neighbours(qint64 n, double q)
{
    Neighbours result;
    if (n <= 1)
        return result;
    const double rank = double(n - 1) * q;
    result.lo = qint64(std::floor(rank));
    result.hi = qint64(std::ceil(rank));
    result.fraction = rank - double(result.lo);
    return result;
}

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
    return interpolate(sorted[lo], sorted[hi], rank - double(lo));
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

std::vector<double> finiteValues(std::span<const double> values)
{
    std::vector<double> finite;
    finite.reserve(values.size());
    for (const double value : values) {
        if (!std::isnan(value))
            finite.push_back(value);
    }
    return finite;
}

std::vector<double> selectMany(std::vector<double> &values, std::span<const double> qs)
{
    std::vector<double> results;
    results.reserve(qs.size());
    const size_t n = values.size();
    size_t settled = 0; // values[0, settled) hold the smallest `settled` order statistics
    for (const double q : qs) {
        if (n == 0) {
            results.push_back(std::numeric_limits<double>::quiet_NaN());
            continue;
        }
        if (n == 1) {
            results.push_back(values.front());
            continue;
        }
        const double rank = double(n - 1) * q;
        const auto lo = size_t(std::floor(rank));
        const auto hi = size_t(std::ceil(rank));
        const auto begin = values.begin() + std::ptrdiff_t(qMin(settled, lo));
        std::nth_element(begin, values.begin() + std::ptrdiff_t(lo), values.end());
        const double low = values[lo];
        double high = low;
        if (hi != lo) {
            const auto next = std::min_element(values.begin() + std::ptrdiff_t(lo + 1), values.end());
            std::iter_swap(values.begin() + std::ptrdiff_t(lo + 1), next);
            high = values[lo + 1];
        }
        settled = hi + 1;
        results.push_back(hi == lo ? low : interpolate(low, high, rank - double(lo)));
    }
    return results;
}

double of(std::span<const double> values, double q)
{
    const auto sorted = sortedFinite(values);
    return ofSorted(sorted, q);
}

} // namespace Percentile
