#pragma once

#include "StallRule.h"
#include "StreamSide.h"

#include <QtGlobal>

#include <limits>
#include <vector>

// One request's stream on one side, as gaps between its events. A gap runs
// from one event to the next within a segment (one model call); the time
// between two calls of a workflow is not a gap. An event carrying several
// tokens (a chunk) is one event: its tokens are not counted as zero gaps, so
// a chunked stream is never taken for fast tokens.
struct StreamGap
{
    qint64 startNs = 0; // the earlier event
    qint64 ns = 0;
};

struct RequestStreamStats
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

    qint64 events = 0;
    qint64 tokens = 0; // carried by the events (output_tokens when they say one each)
    qint64 gaps = 0;
    double p50GapMs = kNan; // the seed's percentile over this request's gaps
    double p95GapMs = kNan;
    double maxGapMs = kNan;
    double meanGapMs = kNan;
    double gapCv = kNan; // standard deviation / mean of the gaps
    qint64 stallThresholdNs = 0;
    qint64 stalls = 0;
    double stallMs = 0.0;        // time spent in stalls
    qint64 multiTokenEvents = 0; // events that carried more than one token
    qint32 maxTokensPerEvent = 0;
    // The source gave fewer events than output tokens without saying which
    // carried several: output_tokens / events on average.
    bool chunkingInferred = false;
    double tokensPerEvent = kNan;
};

namespace RequestStream {

// Gaps of `row` in time order (within segments).
std::vector<StreamGap> gaps(const TokenTimeline &timeline, qsizetype row);

// Everything above for `row`; `outputTokens` is the request's token count
// (to notice chunks the source did not mark).
RequestStreamStats analyse(const TokenTimeline &timeline, qsizetype row, qint32 outputTokens, const StallRule &rule);

// The stalls of `row` under `rule`, in time order.
std::vector<StreamGap> stalls(const TokenTimeline &timeline, qsizetype row, const StallRule &rule);

// The request's median gap in ns (the seed's interpolation), NaN without gaps.
double medianGapNs(std::vector<qint64> gapNs);

// One figure of `row` in ms, NaN when it has no gap: the q-quantile of its
// gaps (the seed's interpolation) and its longest gap. What the per-request
// metrics "p95 gap" and "max stall" are.
double gapQuantileMs(const TokenTimeline &timeline, qsizetype row, double q);
double maxGapMs(const TokenTimeline &timeline, qsizetype row);

} // namespace RequestStream
