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
    GoodputCounts counts;
    counts.firstSend = std::numeric_limits<qint64>::max();
    counts.lastEnd = std::numeric_limits<qint64>::min();
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (rows && !rows->contains(row))
            continue;
        const double ttft = metricValueMs(table, row, Metric::Ttft, boundary);
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        const qint64 end = table.stamp(row, Stamp::LastTokenClient);
        if (std::isnan(ttft) || send == kNoTime || end == kNoTime) {
            ++counts.notJudged;
            continue;
        }
        ++counts.completed;
        counts.firstSend = qMin(counts.firstSend, send);
        counts.lastEnd = qMax(counts.lastEnd, end);
        counts.outputTokens += table.outputTokens(row);
        const double itl = metricValueMs(table, row, Metric::Itl, boundary);
        const bool ttftOk = ttft <= slo.ttftMs;
        const bool itlOk = std::isnan(itl) || itl <= slo.itlMs; // one token: no gap to miss
        if (ttftOk && itlOk) {
            ++counts.good;
            counts.goodOutputTokens += table.outputTokens(row);
        } else if (!ttftOk && !itlOk) {
            ++counts.missedBoth;
        } else if (!ttftOk) {
            ++counts.missedTtftOnly;
        } else {
            ++counts.missedItlOnly;
        }
    }
    return goodputOf(counts, slo, boundary, rejectedRecords);
}

Goodput goodputOf(const GoodputCounts &counts, const Slo &slo, Boundary boundary, qint64 rejectedRecords)
{
    Goodput result;
    result.slo = slo;
    result.boundary = boundary;
    result.rejected = rejectedRecords;
    result.completed = counts.completed;
    result.notJudged = counts.notJudged;
    result.good = counts.good;
    result.missedTtftOnly = counts.missedTtftOnly;
    result.missedItlOnly = counts.missedItlOnly;
    result.missedBoth = counts.missedBoth;
    if (result.completed > 0 && counts.lastEnd > counts.firstSend) {
        result.windowSeconds = double(counts.lastEnd - counts.firstSend) / 1e9;
        result.throughputPerSecond = double(result.completed) / result.windowSeconds;
        result.goodputPerSecond = double(result.good) / result.windowSeconds;
        result.outputTokensPerSecond = double(counts.outputTokens) / result.windowSeconds;
        result.goodOutputTokensPerSecond = double(counts.goodOutputTokens) / result.windowSeconds;
    }
    return result;
}

LittlesLawCheck littlesLaw(const RequestTable &table, double observedInFlight, double tolerance, const RowSet *scope)
{
    const auto all = stays(table, scope);
    StaySums sums;
    sums.stays = qint64(all.size());
    sums.firstSend = std::numeric_limits<qint64>::max();
    sums.lastSend = std::numeric_limits<qint64>::min();
    sums.lastEnd = std::numeric_limits<qint64>::min();
    for (const Stay &stay : all) {
        sums.firstSend = qMin(sums.firstSend, stay.begin);
        sums.lastSend = qMax(sums.lastSend, stay.begin);
        sums.lastEnd = qMax(sums.lastEnd, stay.end);
        sums.stayNs += stay.end - stay.begin;
    }
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
        sums.peakInFlight = qMax(sums.peakInFlight, inFlight);
    }
    for (const Stay &stay : all) {
        sums.completedInside += stay.end <= sums.lastSend ? 1 : 0;
        if (stay.begin <= sums.earlyUntil()) {
            sums.earlyNs += stay.end - stay.begin;
            ++sums.early;
        } else if (stay.begin >= sums.lateFrom()) {
            sums.lateNs += stay.end - stay.begin;
            ++sums.late;
        }
    }
    return littlesLawOf(sums, observedInFlight, tolerance);
}

LittlesLawCheck littlesLawOf(const StaySums &sums, double observedInFlight, double tolerance)
{
    LittlesLawCheck check;
    check.tolerance = tolerance;
    check.observedInFlight = observedInFlight;
    if (sums.stays == 0)
        return check;
    check.completed = sums.stays;
    if (sums.lastEnd <= sums.firstSend)
        return check;
    check.windowSeconds = double(sums.lastEnd - sums.firstSend) / 1e9;
    check.throughputPerSecond = double(check.completed) / check.windowSeconds;
    check.meanTimeInSystemSeconds = double(sums.stayNs) / double(check.completed) / 1e9;
    check.expectedInFlight = check.throughputPerSecond * check.meanTimeInSystemSeconds;
    check.peakInFlight = sums.peakInFlight;

    // A backlog shows as time in system growing across the interval: compare
    // the requests that arrived in the first and the last quarter of it.
    // Only judged when arrivals span at least twice the time in system.
    if (sums.lastSend > sums.firstSend) {
        check.arrivalWindowSeconds = double(sums.lastSend - sums.firstSend) / 1e9;
        check.arrivalRatePerSecond = double(check.completed) / check.arrivalWindowSeconds;
        check.completionRatePerSecond = double(sums.completedInside) / check.arrivalWindowSeconds;
        check.earlyTimeInSystemSeconds = sums.early > 0 ? double(sums.earlyNs) / double(sums.early) / 1e9 : 0.0;
        check.lateTimeInSystemSeconds = sums.late > 0 ? double(sums.lateNs) / double(sums.late) / 1e9 : 0.0;
        check.steadinessJudged
            = check.arrivalWindowSeconds >= 2.0 * check.meanTimeInSystemSeconds && sums.early >= 8 && sums.late >= 8;
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
