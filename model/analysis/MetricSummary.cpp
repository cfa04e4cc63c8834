#include "MetricSummary.h"

#include "Percentile.h"

#include <limits>
#include <numeric>

MetricSummary summariseMetric(std::span<const double> valuesMs, Metric metric, Boundary boundary)
{
    MetricSummary summary;
    summary.metric = metric;
    summary.boundary = observedBoundary(metric, boundary);
    const auto sorted = Percentile::sortedFinite(valuesMs);
    summary.n = qint64(sorted.size());
    if (sorted.empty()) {
        constexpr double nan = std::numeric_limits<double>::quiet_NaN();
        summary.mean = summary.min = summary.max = nan;
        summary.p50 = summary.p90 = summary.p95 = summary.p99 = nan;
        return summary;
    }
    summary.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    summary.min = sorted.front();
    summary.max = sorted.back();
    summary.p50 = Percentile::ofSorted(sorted, 0.50);
    summary.p90 = Percentile::ofSorted(sorted, 0.90);
    summary.p95 = Percentile::ofSorted(sorted, 0.95);
    summary.p99 = Percentile::ofSorted(sorted, 0.99);
    return summary;
}
