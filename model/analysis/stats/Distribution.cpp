#include "Distribution.h"

#include "Percentile.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <limits>

namespace DistributionAnalysis {

std::vector<double> metricValues(const RequestTable &table, const RowSet &rows, Metric metric, Boundary boundary)
{
    std::vector<double> values;
    values.reserve(size_t(rows.size()));
    for (const qint32 row : rows)
        values.push_back(metricValueMs(table, row, metric, boundary));
    return values;
}

Distribution describe(std::span<const double> valuesMs, Metric metric, Boundary boundary,
                      const DistributionOptions &options)
{
    Distribution distribution;
    distribution.metric = metric;
    distribution.boundary = observedBoundary(metric, boundary);
    const std::vector<double> sorted = Percentile::sortedFinite(valuesMs);
    distribution.n = qint64(sorted.size());
    if (sorted.empty()) {
        constexpr double nan = std::numeric_limits<double>::quiet_NaN();
        distribution.min = distribution.max = nan;
        distribution.p50 = distribution.p90 = distribution.p95 = distribution.p99 = nan;
        return distribution;
    }
    distribution.min = sorted.front();
    distribution.max = sorted.back();
    distribution.p50 = Percentile::ofSorted(sorted, 0.50);
    distribution.p90 = Percentile::ofSorted(sorted, 0.90);
    distribution.p95 = Percentile::ofSorted(sorted, 0.95);
    distribution.p99 = Percentile::ofSorted(sorted, 0.99);
    distribution.histogram = HistogramBinning::ofSorted(sorted, options.bins, options.logScale);

    // Empirical CDF: share(x_i) = (i + 1) / n at the last of equal values.
    // Thinned by taking every k-th order statistic plus the last, so the
    // curve never claims a share that no value reaches.
    const size_t n = sorted.size();
    const size_t stride = std::max<size_t>(1, n / size_t(std::max(2, options.maxCdfPoints)));
    for (size_t i = 0; i < n;) {
        const size_t last
            = size_t(std::upper_bound(sorted.begin() + qsizetype(i), sorted.end(), sorted[i]) - sorted.begin()) - 1;
        distribution.cdf.push_back({sorted[i], double(last + 1) / double(n)});
        i = std::max(last + 1, i + stride);
    }
    if (distribution.cdf.empty() || distribution.cdf.back().share < 1.0)
        distribution.cdf.push_back({sorted.back(), 1.0});
    return distribution;
}

} // namespace DistributionAnalysis
