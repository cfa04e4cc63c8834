#pragma once

#include "analysis/requests/Boundary.h"

#include <QtGlobal>

#include <cmath>
#include <vector>

class RequestSlice;
class RequestTable;
class RowSet;

// Service-level objectives a request must meet to count as goodput.
struct Slo
{
    double ttftMs = 1200.0; // at the chosen boundary
    double itlMs = 80.0;    // the request's mean inter-token latency
};

// Goodput beside raw throughput and the rejected load: how much of the work
// done was work users could use.
struct Goodput
{
    Slo slo;
    Boundary boundary = Boundary::Client;
    double windowSeconds = 0.0; // first client send .. last client token
    qint64 completed = 0;       // requests with observed TTFT and end
    qint64 good = 0;            // met both objectives
    qint64 missedTtftOnly = 0;
    qint64 missedItlOnly = 0;
    qint64 missedBoth = 0;
    qint64 notJudged = 0; // TTFT or end not observed
    qint64 rejected = 0;  // records the loader refused (failed or broken)
    double throughputPerSecond = 0.0;
    double goodputPerSecond = 0.0;
    double outputTokensPerSecond = 0.0;
    double goodOutputTokensPerSecond = 0.0;

    double goodShare() const { return completed > 0 ? double(good) / double(completed) : 0.0; }
};

// Little's law (L = λW) as a consistency check. Over the observation window
// (first client send .. last client token) the trace itself gives λ (completed
// requests per second) and W (mean time in system, client boundary), so
// L = λW is how many requests must have been in flight on average. Two things
// can make a story inconsistent: a concurrency figure from elsewhere (a
// dashboard gauge) that disagrees with λW — mismatched boundaries or dropped
// observations — and an interval that is not steady, where arrivals outpace
// completions and a backlog builds.
struct LittlesLawCheck
{
    double windowSeconds = 0.0;
    qint64 completed = 0;
    double throughputPerSecond = 0.0;     // λ
    double meanTimeInSystemSeconds = 0.0; // W
    double expectedInFlight = 0.0;        // λW, the time-averaged number in flight
    qint64 peakInFlight = 0;

    // Steadiness over the arrival window (first .. last client send).
    double arrivalWindowSeconds = 0.0;
    double arrivalRatePerSecond = 0.0;
    double completionRatePerSecond = 0.0;  // completions inside the arrival window
    double earlyTimeInSystemSeconds = 0.0; // mean W of the first quarter of arrivals
    double lateTimeInSystemSeconds = 0.0;  // mean W of the last quarter
    bool steadinessJudged = false;         // arrivals span at least 2W, 8+ requests per quarter
    // Steady when the late quarter's W is at most 1 + 5 × tolerance (1.5×) the early one's.
    bool steady = false;

    // Against an observed concurrency (NaN when none was given).
    double observedInFlight = std::nan("");
    double relativeGap = 0.0; // (observed − λW) / λW
    bool consistent = true;
    double tolerance = 0.10;
};

// What goodput() counts, from which its rates follow: a loaded trace's rows
// or a database's aggregates (ServerGoodput).
struct GoodputCounts
{
    qint64 completed = 0; // TTFT, client send and last client token observed
    qint64 notJudged = 0;
    qint64 good = 0;
    qint64 missedTtftOnly = 0;
    qint64 missedItlOnly = 0;
    qint64 missedBoth = 0;
    qint64 firstSend = 0; // of the completed
    qint64 lastEnd = 0;
    qint64 outputTokens = 0;
    qint64 goodOutputTokens = 0;
};

// What littlesLaw() sums over the stays (client send to last client token,
// both observed, the end not before the send), exactly.
struct StaySums
{
    __extension__ typedef __int128 Int128;

    qint64 stays = 0;
    qint64 firstSend = 0;
    qint64 lastSend = 0;
    qint64 lastEnd = 0;
    Int128 stayNs = 0;
    qint64 peakInFlight = 0; // ends before sends at equal times
    // Over the arrival window, split by quarters() once firstSend and
    // lastSend are known: completions inside it, and the first and the last
    // quarter's arrivals and their stays.
    qint64 completedInside = 0;
    qint64 early = 0;
    Int128 earlyNs = 0;
    qint64 late = 0;
    Int128 lateNs = 0;

    // The last send of the first quarter of the arrival window, and the
    // first send of the last (a stay in neither when in the first).
    qint64 earlyUntil() const { return firstSend + (lastSend - firstSend) / 4; }
    qint64 lateFrom() const { return lastSend - (lastSend - firstSend) / 4; }
};

// Arrivals and requests in flight over time, pre-binned for plots.
struct ConcurrencyTimeline
{
    qint64 startNs = 0;
    qint64 binNs = 0;
    std::vector<qint64> arrivals;     // per bin
    std::vector<double> meanInFlight; // time-averaged per bin
    std::vector<qint64> maxInFlight;  // peak per bin
};

namespace ServiceLoad {

// `rows` (when given) limits the count to a slice of the table, e.g. one
// side of a before/after comparison of a single file.
Goodput goodput(const RequestTable &table, const Slo &slo, Boundary boundary, qint64 rejectedRecords,
                const RequestSlice *rows = nullptr);
// `scope` (all rows when null) limits the check to a slice of the requests.
LittlesLawCheck littlesLaw(const RequestTable &table, double observedInFlight = std::nan(""), double tolerance = 0.10,
                           const RowSet *scope = nullptr);
ConcurrencyTimeline concurrency(const RequestTable &table, int bins);

// The figures from their counts and sums, in one arithmetic for a loaded
// trace and for a database's aggregates.
Goodput goodputOf(const GoodputCounts &counts, const Slo &slo, Boundary boundary, qint64 rejectedRecords);
LittlesLawCheck littlesLawOf(const StaySums &sums, double observedInFlight, double tolerance = 0.10);

} // namespace ServiceLoad
