#include "LoadTimeline.h"

#include "analysis/requests/Metric.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace LoadAnalysis {

namespace {

template<typename Visit> void forRows(const RequestTable &table, const RowSet *scope, Visit visit)
{
    if (scope) {
        for (const qint32 row : *scope)
            visit(qsizetype(row));
    } else {
        for (qsizetype row = 0; row < table.rowCount(); ++row)
            visit(row);
    }
}

// +1 at a start, −1 at an end; sorted so that at equal times ends come
// first: an interval is [start, end).
using Steps = std::vector<std::pair<qint64, int>>;

void sortSteps(Steps &steps)
{
    std::sort(steps.begin(), steps.end());
}

// Spreads the level of `steps` over the bins: time average and peak.
void sweep(const Steps &steps, qint64 start, qint64 binNs, int bins, std::vector<double> &mean,
           std::vector<qint64> &peak)
{
    mean.assign(size_t(bins), 0.0);
    peak.assign(size_t(bins), 0);
    const qint64 end = start + qint64(bins) * binNs;
    qint64 level = 0;
    qint64 previous = start;
    const auto spread = [&](qint64 from, qint64 to) {
        from = qMax(from, start);
        to = qMin(to, end);
        while (from < to) {
            const qint64 bin = (from - start) / binNs;
            const qint64 binEnd = qMin(to, start + (bin + 1) * binNs);
            mean[size_t(bin)] += double(level) * double(binEnd - from) / double(binNs);
            peak[size_t(bin)] = qMax(peak[size_t(bin)], level);
            from = binEnd;
        }
    };
    for (const auto &[time, delta] : steps) {
        spread(previous, time);
        previous = qMax(previous, time);
        level += delta;
    }
    spread(previous, end);
}

bool metObjectives(const RequestTable &table, qsizetype row, const Slo &slo, Boundary boundary)
{
    const double ttft = metricValueMs(table, row, Metric::Ttft, boundary);
    const double itl = metricValueMs(table, row, Metric::Itl, boundary);
    return !std::isnan(ttft) && ttft <= slo.ttftMs && (std::isnan(itl) || itl <= slo.itlMs);
}

} // namespace

LoadTimeline timeline(const TraceStore &store, const RowSet *scope, qint64 binNs, const Slo &slo, Boundary boundary,
                      int maxBins)
{
    const RequestTable &table = store.requests;
    LoadTimeline result;
    result.slo = slo;
    result.boundary = boundary;
    result.arrivalsUnknown = store.arrivalsUnknown;
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    forRows(table, scope, [&](qsizetype row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send == kNoTime) {
            ++result.withoutSend;
            return;
        }
        ++result.placed;
        first = qMin(first, send);
        last = qMax(last, send);
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        if (end != kNoTime)
            last = qMax(last, end);
        else
            ++result.withoutEnd;
    });
    for (const auto &rejected : store.rejected) {
        if (rejected.atNs == kNoTime) {
            ++result.failuresWithoutTime;
            continue;
        }
        ++result.failuresPlaced;
        first = qMin(first, rejected.atNs);
        last = qMax(last, rejected.atNs);
    }
    if (!result.arrivalsUnknown.isEmpty() || first > last)
        return result;

    binNs = qMax<qint64>(1, binNs);
    const qint64 span = last - first + 1;
    if ((span + binNs - 1) / binNs > maxBins)
        binNs = (span + maxBins - 1) / maxBins;
    const int bins = int((span + binNs - 1) / binNs);
    result.startNs = first;
    result.binNs = binNs;
    const auto binOf = [&](qint64 t) { return size_t(qMin<qint64>(bins - 1, (t - first) / binNs)); };
    result.arrivals.assign(size_t(bins), 0);
    result.completions.assign(size_t(bins), 0);
    result.failures.assign(size_t(bins), 0);
    result.good.assign(size_t(bins), 0);

    Steps inFlight;
    Steps queue;
    forRows(table, scope, [&](qsizetype row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send == kNoTime)
            return;
        ++result.arrivals[binOf(send)];
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        inFlight.emplace_back(send, +1);
        if (end != kNoTime) {
            inFlight.emplace_back(end, -1);
            ++result.completions[binOf(end)];
            if (metObjectives(table, row, slo, boundary))
                ++result.good[binOf(end)];
        }
        const qint64 enter = table.stamp(row, Stamp::QueueEnter);
        const qint64 start = table.stamp(row, Stamp::PrefillStart);
        if (enter != kNoTime && start != kNoTime) {
            ++result.queueObserved;
            queue.emplace_back(enter, +1);
            queue.emplace_back(start, -1);
        }
    });
    for (const auto &rejected : store.rejected) {
        if (rejected.atNs != kNoTime)
            ++result.failures[binOf(rejected.atNs)];
    }
    sortSteps(inFlight);
    sortSteps(queue);
    sweep(inFlight, first, binNs, bins, result.meanInFlight, result.maxInFlight);
    sweep(queue, first, binNs, bins, result.meanQueueDepth, result.maxQueueDepth);
    return result;
}

BurstEnvelope burstEnvelope(const RequestTable &table, const RowSet *scope)
{
    BurstEnvelope envelope;
    std::vector<qint64> sends;
    forRows(table, scope, [&](qsizetype row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send != kNoTime)
            sends.push_back(send);
    });
    std::sort(sends.begin(), sends.end());
    envelope.arrivals = qint64(sends.size());
    if (sends.empty())
        return envelope;
    const double spanSeconds = double(sends.back() - sends.front()) / 1e9;
    envelope.meanPerSecond = spanSeconds > 0.0 ? double(sends.size() - 1) / spanSeconds : 0.0;
    for (const auto &[width, peak, at] :
         {std::tuple{qint64(1'000'000'000), &envelope.peak1s, &envelope.peak1sStartNs},
          std::tuple{qint64(10'000'000'000), &envelope.peak10s, &envelope.peak10sStartNs}}) {
        size_t j = 0;
        for (size_t i = 0; i < sends.size(); ++i) {
            j = std::max(j, i);
            while (j < sends.size() && sends[j] - sends[i] < width)
                ++j;
            if (qint64(j - i) > *peak) {
                *peak = qint64(j - i);
                *at = sends[i];
            }
        }
    }
    return envelope;
}

std::pair<qint64, qint64> middleOfArrivals(const RequestTable &table, const RowSet *scope)
{
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    forRows(table, scope, [&](qsizetype row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send != kNoTime) {
            first = qMin(first, send);
            last = qMax(last, send);
        }
    });
    if (first > last)
        return {0, 0};
    const qint64 quarter = (last - first) / 4;
    return {first + quarter, last - quarter};
}

LittleInWindow littleInWindow(const RequestTable &table, const RowSet *scope, qint64 fromNs, qint64 toNs,
                              double tolerance)
{
    LittleInWindow check;
    check.fromNs = fromNs;
    check.toNs = toNs;
    check.tolerance = tolerance;
    if (toNs <= fromNs)
        return check;
    double busyNs = 0.0; // request-nanoseconds in flight inside the window
    double stayNs = 0.0;
    forRows(table, scope, [&](qsizetype row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send == kNoTime)
            return;
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        const qint64 until = end == kNoTime ? toNs : end;
        busyNs += double(qMax<qint64>(0, qMin(until, toNs) - qMax(send, fromNs)));
        if (end != kNoTime && end >= fromNs && end < toNs) {
            ++check.completions;
            stayNs += double(end - send);
        }
    });
    const double seconds = double(toNs - fromNs) / 1e9;
    check.observedInFlight = busyNs / double(toNs - fromNs);
    if (check.completions > 0) {
        check.throughputPerSecond = double(check.completions) / seconds;
        check.meanTimeInSystemSeconds = stayNs / double(check.completions) / 1e9;
        check.expectedInFlight = check.throughputPerSecond * check.meanTimeInSystemSeconds;
    }
    if (check.expectedInFlight > 0.0) {
        check.relativeGap = (check.observedInFlight - check.expectedInFlight) / check.expectedInFlight;
        check.consistent = std::abs(check.relativeGap) <= tolerance;
    }
    return check;
}

qint64 inFlightAt(const RequestTable &table, qint64 t)
{
    qint64 count = 0;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        count += send != kNoTime && send <= t && (end == kNoTime || t < end) ? 1 : 0;
    }
    return count;
}

qint64 queueDepthAt(const RequestTable &table, qint64 t)
{
    qint64 count = 0;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const qint64 enter = table.stamp(row, Stamp::QueueEnter);
        const qint64 start = table.stamp(row, Stamp::PrefillStart);
        count += enter != kNoTime && start != kNoTime && enter <= t && t < start ? 1 : 0;
    }
    return count;
}

RowSet arrivedBetween(const RequestTable &table, qint64 fromNs, qint64 toNs)
{
    std::vector<qint32> rows;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send != kNoTime && send >= fromNs && send < toNs)
            rows.push_back(qint32(row));
    }
    return RowSet::fromSortedUnique(std::move(rows));
}

} // namespace LoadAnalysis
