#include "MetricSummary.h"

#include "MetricMean.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <limits>

MetricSummary summariseMetric(std::span<const double> valuesMs, Metric metric, Boundary boundary)
{
    MetricSummary summary;
    summary.metric = metric;
    summary.boundary = observedBoundary(metric, boundary);
    auto values = Percentile::finiteValues(valuesMs);
    summary.n = qint64(values.size());
    if (values.empty()) {
        constexpr double nan = std::numeric_limits<double>::quiet_NaN();
        summary.mean = summary.min = summary.max = nan;
        summary.p50 = summary.p90 = summary.p95 = summary.p99 = nan;
        return summary;
    }
    // Exact and order-free: a database's sums give the same (MetricMean).
    summary.mean = MetricMean::ofValues(values, metric);
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    summary.min = *min;
    summary.max = *max;
    static constexpr double quantiles[] = {0.50, 0.90, 0.95, 0.99};
    const auto selected = Percentile::selectMany(values, quantiles);
    summary.p50 = selected[0];
    summary.p90 = selected[1];
    summary.p95 = selected[2];
    summary.p99 = selected[3];
    return summary;
}
