#pragma once

#include "StreamSide.h"

#include "store/RowSet.h"

#include <QtGlobal>

#include <limits>
#include <span>
#include <vector>

// One percentile of all gaps pooled over requests: the seed's interpolated
// value (exact, from the integer gaps), and a 95% interval that respects
// that gaps of one request move together. The order-statistic interval used
// for per-request figures assumes independent observations; pooled gaps are
// not, so the interval here comes from random groups of requests: the
// requests are split into 20 groups, the percentile is taken in each, and
// value ± t(19, 0.975) × sd(group values) / √20 is reported.
struct PooledQuantile
{
    double q = 0.95;
    double valueMs = std::numeric_limits<double>::quiet_NaN();
    bool intervalFormed = false;
    double lowerMs = std::numeric_limits<double>::quiet_NaN();
    double upperMs = std::numeric_limits<double>::quiet_NaN();
};

// "p95 inter-token gap over all gaps", the seed's stream objective, on one
// side. Not the p95 of per-request mean ITL: a stream with one-second stalls
// and a 25 ms average has a tail here that a mean hides.
struct PooledGaps
{
    StreamSide side = StreamSide::Client;
    qint64 requests = 0; // requests with at least one gap
    qint64 gaps = 0;
    double meanMs = std::numeric_limits<double>::quiet_NaN();
    double maxMs = std::numeric_limits<double>::quiet_NaN();
    std::vector<PooledQuantile> quantiles;
    int groups = 0; // random groups behind the intervals (0: too few requests)

    const PooledQuantile *find(double q) const
    {
        for (const auto &quantile : quantiles) {
            if (quantile.q == q)
                return &quantile;
        }
        return nullptr;
    }
};

namespace PooledGapStats {

inline constexpr int kGroups = 20;

// Percentiles `qs` (ascending) of every gap of the rows in `scope` (all rows
// when null) on `side`'s timeline. Exact without holding the gaps: a
// log-linear histogram of the delta-encoded gaps finds the buckets holding
// the wanted ranks, a second pass reads only those (and refines a crowded
// bucket further). `threads` 0 means one per core; `collectCap` is how many
// gaps may be held at once (lowered by tests to exercise the refinement).
PooledGaps compute(const TokenTimeline &timeline, StreamSide side, const RowSet *scope, std::span<const double> qs,
                   int threads = 0, qint64 collectCap = 8'000'000);

} // namespace PooledGapStats
