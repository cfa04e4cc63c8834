#pragma once

#include "SpanKey.h"

#include <limits>
#include <span>
#include <vector>

class TraceStore;

// How unusual each span of one workflow is: its duration's percentile rank
// (mid-rank, 0-100) among the spans with the same key in the rest of the
// population, so a tool call that took longer than 97% of that tool's calls
// elsewhere stands out in the Gantt even when its workflow is not slow.
struct UnusualSpans
{
    static constexpr double kNoRank = std::numeric_limits<double>::quiet_NaN();

    // Per span row of the workflow (index = row - firstSpan): rank, and how
    // many spans of its key the rest holds (0: no rank).
    std::vector<double> rank;
    std::vector<qint64> restSamples;
    SpanKeyKind keyKind = SpanKeyKind::Name;

    // `restRows` are request rows (workflows) to compare with; the
    // workflow's own row is left out of them.
    static UnusualSpans compute(const TraceStore &store, const SpanKeys &keys, qint32 workflow,
                                std::span<const qint32> restRows);
};
