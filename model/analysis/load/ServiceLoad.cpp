#include "ServiceLoad.h"

#include "analysis/requests/Metric.h"
#include "analysis/requests/RequestSlice.h"
#include "store/RequestTable.h"
#include "store/RowSet.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServiceLoad {

namespace {

// One request's stay in the system at the client boundary, in ns.
struct Stay
{
    qint64 begin = 0;
    qint64 end = 0;
};

std::vector<Stay> stays(const RequestTable &table, const RowSet *scope = nullptr)
{
    std::vector<Stay> result;
    result.reserve(size_t(scope ? scope->size() : table.rowCount()));
    const auto visit = [&](qsizetype row) {
        const qint64 begin = table.stamp(row, Stamp::ClientSend);
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        if (begin != kNoTime && end != kNoTime && end >= begin)
            result.push_back({begin, end});
    };
    if (scope) {
        for (const qint32 row : *scope)
            visit(row);
    } else {
        for (qsizetype row = 0; row < table.rowCount(); ++row)
            visit(row);
    }
    return result;
}

} // namespace

Goodput goodput(const RequestTable &table, const Slo &slo, Boundary boundary, qint64 rejectedRecords,
                const RequestSlice *rows)
{
    Goodput result;
    result.slo = slo;
    result.boundary = boundary;
    result.rejected = rejectedRecords;
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    double tokens = 0.0;
    double goodTokens = 0.0;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (rows && !rows->contains(row))
            continue;
        const double ttft = metricValueMs(table, row, Metric::Ttft, boundary);
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        if (std::isnan(ttft) || send == kNoTime || end == kNoTime) {
            ++result.notJudged;
            continue;
        }
        ++result.completed;
        first = qMin(first, send);
        last = qMax(last, end);
        tokens += table.outputTokens(row);
        const double itl = metricValueMs(table, row, Metric::Itl, boundary);
        const bool ttftOk = ttft <= slo.ttftMs;
        const bool itlOk = std::isnan(itl) || itl <= slo.itlMs; // one token: no gap to miss
        if (ttftOk && itlOk) {
            ++result.good;
            goodTokens += table.outputTokens(row);
        } else if (!ttftOk && !itlOk) {
            ++result.missedBoth;
        } else if (!ttftOk) {
            ++result.missedTtftOnly;
        } else {
            ++result.missedItlOnly;
        }
    }
    if (result.completed > 0 && last > first) {
        result.windowSeconds = double(last - first) / 1e9;
        result.throughputPerSecond = double(result.completed) / result.windowSeconds;
        result.goodputPerSecond = double(result.good) / result.windowSeconds;
        result.outputTokensPerSecond = tokens / result.windowSeconds;
        result.goodOutputTokensPerSecond = goodTokens / result.windowSeconds;
    }
    return result;
}

LittlesLawCheck littlesLaw(const RequestTable &table, double observedInFlight, double tolerance, const RowSet *scope)
{
    LittlesLawCheck check;
    check.tolerance = tolerance;
    check.observedInFlight = observedInFlight;
    const auto all = stays(table, scope);
    if (all.empty())
        return check;
    qint64 firstSend = std::numeric_limits<qint64>::max();
    qint64 lastSend = std::numeric_limits<qint64>::min();
    qint64 lastEnd = std::numeric_limits<qint64>::min();
    double stayNs = 0.0;
    for (const Stay &stay : all) {
        firstSend = qMin(firstSend, stay.begin);
        lastSend = qMax(lastSend, stay.begin);
        lastEnd = qMax(lastEnd, stay.end);
        stayNs += double(stay.end - stay.begin);
    }
    check.completed = qint64(all.size());
    if (lastEnd <= firstSend)
        return check;
    check.windowSeconds = double(lastEnd - firstSend) / 1e9;
    check.throughputPerSecond = double(check.completed) / check.windowSeconds;
    check.meanTimeInSystemSeconds = stayNs / double(check.completed) / 1e9;
    check.expectedInFlight = check.throughputPerSecond * check.meanTimeInSystemSeconds;

    std::vector<std::pair<qint64, int>> events;
    events.reserve(all.size() * 2);
    for (const Stay &stay : all) {
        events.emplace_back(stay.begin, +1);
        events.emplace_back(stay.end, -1);
    }
    std::sort(events.begin(), events.end()); // ends before starts at equal times
    qint64 inFlight = 0;
    for (const auto &event : events) {
        inFlight += event.second;
        check.peakInFlight = qMax(check.peakInFlight, inFlight);
    }

    // A backlog shows as time in system growing across the interval: compare
    // the requests that arrived in the first and the last quarter of it.
    // Only judged when arrivals span at least twice the time in system.
    if (lastSend > firstSend) {
        check.arrivalWindowSeconds = double(lastSend - firstSend) / 1e9;
        qint64 completedInside = 0;
        for (const Stay &stay : all)
            completedInside += stay.end <= lastSend ? 1 : 0;
        check.arrivalRatePerSecond = double(check.completed) / check.arrivalWindowSeconds;
        check.completionRatePerSecond = double(completedInside) / check.arrivalWindowSeconds;
        const qint64 quarter = (lastSend - firstSend) / 4;
        double early = 0.0;
        double late = 0.0;
        qint64 earlyN = 0;
        qint64 lateN = 0;
        for (const Stay &stay : all) {
            if (stay.begin <= firstSend + quarter) {
                early += double(stay.end - stay.begin);
                ++earlyN;
            } else if (stay.begin >= lastSend - quarter) {
                late += double(stay.end - stay.begin);
                ++lateN;
            }
        }
        check.earlyTimeInSystemSeconds = earlyN > 0 ? early / double(earlyN) / 1e9 : 0.0;
        check.lateTimeInSystemSeconds = lateN > 0 ? late / double(lateN) / 1e9 : 0.0;
        check.steadinessJudged
            = check.arrivalWindowSeconds >= 2.0 * check.meanTimeInSystemSeconds && earlyN >= 8 && lateN >= 8;
        check.steady = check.steadinessJudged
            && check.lateTimeInSystemSeconds <= (1.0 + 5.0 * tolerance) * check.earlyTimeInSystemSeconds;
    }
    if (!std::isnan(observedInFlight) && check.expectedInFlight > 0.0) {
        check.relativeGap = (observedInFlight - check.expectedInFlight) / check.expectedInFlight;
        check.consistent = std::abs(check.relativeGap) <= tolerance;
    }
    return check;
}

ConcurrencyTimeline concurrency(const RequestTable &table, int bins)
{
    ConcurrencyTimeline timeline;
    const auto all = stays(table);
    if (all.empty() || bins <= 0)
        return timeline;
    qint64 begin = std::numeric_limits<qint64>::max();
    qint64 end = std::numeric_limits<qint64>::min();
    for (const Stay &stay : all) {
        begin = qMin(begin, stay.begin);
        end = qMax(end, stay.end);
    }
    timeline.startNs = begin;
    timeline.binNs = qMax<qint64>(1, (end - begin + bins - 1) / bins);
    timeline.arrivals.assign(size_t(bins), 0);
    timeline.meanInFlight.assign(size_t(bins), 0.0);
    timeline.maxInFlight.assign(size_t(bins), 0);
    // Sweep over +1 at each arrival and −1 at each end, in time order.
    std::vector<std::pair<qint64, int>> events;
    events.reserve(all.size() * 2);
    for (const Stay &stay : all) {
        events.emplace_back(stay.begin, +1);
        events.emplace_back(stay.end, -1);
    }
    std::sort(events.begin(), events.end()); // at equal times, ends (−1) first
    const auto binOf = [&](qint64 t) { return qMin<qint64>(bins - 1, (t - begin) / timeline.binNs); };
    qint64 inFlight = 0;
    qint64 previous = begin;
    for (const auto &[time, delta] : events) {
        // Spread the current level over the bins between the previous event and this one.
        for (qint64 t = previous; t < time;) {
            const qint64 bin = binOf(t);
            const qint64 binEnd = qMin(time, begin + (bin + 1) * timeline.binNs);
            timeline.meanInFlight[size_t(bin)] += double(inFlight) * double(binEnd - t) / double(timeline.binNs);
            auto &level = timeline.maxInFlight[size_t(bin)];
            level = qMax(level, inFlight);
            t = binEnd;
        }
        previous = time;
        inFlight += delta;
        if (delta > 0)
            ++timeline.arrivals[size_t(binOf(time))];
        auto &peak = timeline.maxInFlight[size_t(binOf(time))];
        peak = qMax(peak, inFlight);
    }
    return timeline;
}

} // namespace ServiceLoad
