#pragma once

#include "ServiceLoad.h"

#include "store/RowSet.h"

#include <QString>
#include <QtGlobal>

#include <vector>

class TraceStore;

// Offered load and what the service made of it, over time, in bins of equal
// width on the trace's clock: arrivals (client send), completions (last
// token at the client), failures (refused requests the source dates),
// goodput (completions that met both objectives), requests in flight
// (send → last token) and the queue (queue enter → prefill start), each
// time-averaged and at its peak within the bin. Pre-aggregated for plots and
// for the CLI; a bin's rate is its count / binSeconds().
struct LoadTimeline
{
    qint64 startNs = 0; // start of bin 0
    qint64 binNs = 1'000'000'000;
    Slo slo;
    Boundary boundary = Boundary::Client;
    QString arrivalsUnknown; // set when the source has no real send times (nothing else is filled)

    std::vector<qint64> arrivals;
    std::vector<qint64> completions;
    std::vector<qint64> failures;
    std::vector<qint64> good; // completions that met the TTFT and ITL objectives
    std::vector<double> meanInFlight;
    std::vector<qint64> maxInFlight;
    std::vector<double> meanQueueDepth;
    std::vector<qint64> maxQueueDepth;

    qint64 placed = 0;        // requests with a send time (and so an arrival)
    qint64 withoutSend = 0;   // requests without one: not in the series
    qint64 withoutEnd = 0;    // sent but never seen to finish: in flight to the end
    qint64 queueObserved = 0; // requests with both queue stamps
    qint64 failuresPlaced = 0;
    qint64 failuresWithoutTime = 0; // refused records the source did not date

    int binCount() const { return int(arrivals.size()); }
    double binSeconds() const { return double(binNs) / 1e9; }
    qint64 binStart(int bin) const { return startNs + qint64(bin) * binNs; }
    qint64 endNs() const { return startNs + qint64(binCount()) * binNs; }
};

// Peak arrivals in any window of 1 s and of 10 s (the burst envelope an
// objective such as "p95 gap below 80 ms at the expected burst envelope"
// names), beside the mean rate.
struct BurstEnvelope
{
    qint64 arrivals = 0;
    double meanPerSecond = 0.0; // over first .. last arrival
    qint64 peak1s = 0;
    qint64 peak1sStartNs = 0; // the window [start, start + 1 s) that holds the peak
    qint64 peak10s = 0;
    qint64 peak10sStartNs = 0;

    double peakToMean1s() const { return meanPerSecond > 0.0 ? double(peak1s) / meanPerSecond : 0.0; }
};

// Little's law inside one interval [from, to): observed L is the time-averaged
// number in flight there; λ the completions inside per second; W their mean
// time in system. In a steady interval L ≈ λW; a backlog building up (or
// draining) or requests that never finish pull them apart.
struct LittleInWindow
{
    qint64 fromNs = 0;
    qint64 toNs = 0;
    qint64 completions = 0;
    double throughputPerSecond = 0.0; // λ
    double meanTimeInSystemSeconds = 0.0;
    double expectedInFlight = 0.0; // λW
    double observedInFlight = 0.0; // time average inside the interval
    double relativeGap = 0.0;      // (observed − λW) / λW
    bool consistent = false;
    double tolerance = 0.10;
};

namespace LoadAnalysis {

// Bins of `binNs` from the first arrival to the last completion (at most
// `maxBins`, widening the bins when needed). Rows outside `scope` (when
// given) are left out; failures always count (they belong to no slice).
LoadTimeline timeline(const TraceStore &store, const RowSet *scope, qint64 binNs, const Slo &slo, Boundary boundary,
                      int maxBins = 20000);

BurstEnvelope burstEnvelope(const RequestTable &table, const RowSet *scope);

// The default interval is the middle half of the arrival span, away from the
// ramp-up and the drain.
LittleInWindow littleInWindow(const RequestTable &table, const RowSet *scope, qint64 fromNs, qint64 toNs,
                              double tolerance = 0.10);
std::pair<qint64, qint64> middleOfArrivals(const RequestTable &table, const RowSet *scope);

// Requests in flight (sent, last token not yet received) at instant t, and
// in the queue (entered, prefill not started): ends are exclusive, starts
// inclusive. For tests and tooltips; O(n).
qint64 inFlightAt(const RequestTable &table, qint64 t);
qint64 queueDepthAt(const RequestTable &table, qint64 t);

// The rows whose client send falls in [from, to): what picking a time range
// on the load plot makes the shared slice.
RowSet arrivedBetween(const RequestTable &table, qint64 fromNs, qint64 toNs);

} // namespace LoadAnalysis
