#include "MetricMean.h"

#include "analysis/stats/ExactSum.h"

#include <cmath>
#include <limits>

namespace MetricMean {

bool isWholeNs(Metric metric)
{
    return metric != Metric::Itl && !isStreamMetric(metric);
}

qint64 nsOf(double valueMs)
{
    // value = fl(ns / 1e6); fl(value · 1e6) is within one of ns, and below
    // 2^52 ns only one whole number divides back to the same double.
    const auto guess = qint64(std::llround(valueMs * 1e6));
    for (const qint64 candidate : {guess, guess - 1, guess + 1}) {
        if (double(candidate) / 1e6 == valueMs)
            return candidate;
    }
    return guess;
}

double fromNsSum(Int128 sumNs, qint64 n)
{
    return n > 0 ? double(sumNs) / double(n) / 1e6 : std::numeric_limits<double>::quiet_NaN();
}

double ofValues(std::span<const double> values, Metric metric)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    if (isWholeNs(metric)) {
        Int128 sum = 0;
        for (const double value : values)
            sum += nsOf(value);
        return fromNsSum(sum, qint64(values.size()));
    }
    ExactSum sum;
    sum.add(values);
    return sum.mean(qint64(values.size()));
}

} // namespace MetricMean
