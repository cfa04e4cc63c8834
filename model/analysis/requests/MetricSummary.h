#pragma once

#include "Metric.h"

#include <span>

// Distribution of one metric over a set of requests, with its sample size:
// a percentile without its n is not a finding.
struct MetricSummary
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    qint64 n = 0;
    double mean = 0.0;
    double min = 0.0;
    double max = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
    double p95 = 0.0;
    double p99 = 0.0;
};

// NaN values (undefined for that request) are left out of n.
MetricSummary summariseMetric(std::span<const double> valuesMs, Metric metric, Boundary boundary);
