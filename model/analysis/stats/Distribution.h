#pragma once

#include "Histogram.h"
#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"
#include "store/RowSet.h"

#include <span>
#include <vector>

class RequestTable;

// A point of an empirical CDF: share of requests with a value <= x.
struct CdfPoint
{
    double x = 0.0;
    double share = 0.0;
};

// Everything a distribution plot draws, aggregated here so the widget only
// draws: sample size, percentiles (seed interpolation), a histogram and a
// thinned empirical CDF, with the coordinates the figure must name.
struct Distribution
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client; // as observed for this metric
    qint64 n = 0;
    double min = 0.0;
    double max = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
    double p95 = 0.0;
    double p99 = 0.0;
    Histogram histogram;
    std::vector<CdfPoint> cdf;
};

struct DistributionOptions
{
    int bins = 0;            // 0: automatic
    bool logScale = false;   // log-spaced bins (positive values only)
    int maxCdfPoints = 1024; // the CDF is thinned to about this many steps
};

namespace DistributionAnalysis {

// Metric values (ms) of `rows`; NaN where undefined.
std::vector<double> metricValues(const RequestTable &table, const RowSet &rows, Metric metric, Boundary boundary);

// `valuesMs` may hold NaN (undefined for that request); those are not counted.
Distribution describe(std::span<const double> valuesMs, Metric metric, Boundary boundary,
                      const DistributionOptions &options = {});

} // namespace DistributionAnalysis
