#pragma once

#include "PooledGaps.h"
#include "StallRule.h"
#include "StreamAlignment.h"

#include "analysis/classes/ClassTable.h"

#include <QString>

#include <array>
#include <vector>

// A per-request stream figure across requests: the seed's percentiles with
// the distribution-free intervals the class table uses (requests are
// independent, so order statistics hold).
struct RequestFigure
{
    QString key; // "mean_itl", "tpot"
    QString label;
    qint64 n = 0; // requests with the figure defined
    double meanMs = std::numeric_limits<double>::quiet_NaN();
    std::array<QuantileEstimate, kClassQuantiles.size()> quantiles{};
};

// What a stream side holds across the requests.
struct StreamSideSummary
{
    StreamSide side = StreamSide::Client;
    qint64 requests = 0; // requests with events on this side
    qint64 events = 0;
    qint64 tokens = 0;                                                // carried by those events (as the source says)
    qint64 multiTokenEvents = 0;                                      // events that carried several tokens
    qint64 chunkedRequests = 0;                                       // fewer events than output tokens
    double tokensPerEvent = std::numeric_limits<double>::quiet_NaN(); // output tokens / events
    PooledGaps gaps;                                                  // every gap pooled
    qint64 requestsWithStalls = 0;
    qint64 stalls = 0;
    double stallMs = 0.0;
    double streamMs = 0.0; // time between first and last event, summed
};

// One request worth looking at first: the longest gaps.
struct WorstStream
{
    qint32 row = -1;
    QString requestId;
    StreamSide side = StreamSide::Client;
    double maxGapMs = 0.0;
    double p95GapMs = 0.0;
    double p50GapMs = 0.0;
    qint64 stalls = 0;
    double stallMs = 0.0;
    qint64 events = 0;
    qint32 outputTokens = 0;
};

// The stream report: gap percentiles of every gap on each side, beside the
// per-request figures other tools call ITL or TPOT (never mixed), stalls,
// chunking and, where both sides exist, coalescing and its mechanism.
struct StreamSummary
{
    StallRule rule;
    qint64 scopeRequests = 0;
    std::vector<StreamSideSummary> sides; // server first, then client; only sides with events
    RequestFigure meanItl;                // the seed profiler's ITL: (last − first token) / (tokens − 1)
    RequestFigure tpot;                   // vLLM / MLPerf TPOT: (E2E − TTFT) / (output tokens − 1)
    CoalescingReport coalescing;
    std::vector<WorstStream> worst;

    const StreamSideSummary *side(StreamSide which) const
    {
        for (const auto &summary : sides) {
            if (summary.side == which)
                return &summary;
        }
        return nullptr;
    }
    bool hasTokenTimes() const { return !sides.empty(); }
};

namespace StreamAnalysis {

// The percentiles every stream figure reports.
inline constexpr std::array<double, 4> kQuantiles = {0.50, 0.90, 0.95, 0.99};

StreamSummary summarise(const RequestTable &table, const RowSet *scope, const StallRule &rule, int worstCount = 10,
                        int threads = 0);

RequestFigure requestFigure(const QString &key, const QString &label, std::vector<double> values);

} // namespace StreamAnalysis
