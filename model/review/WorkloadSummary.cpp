#include "WorkloadSummary.h"

#include "analysis/stats/Percentile.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

// Every row, or the rows given.
template<typename Visit> void forRows(qsizetype rowCount, std::span<const qint32> rows, Visit visit)
{
    if (rows.empty()) {
        for (qsizetype row = 0; row < rowCount; ++row)
            visit(row);
    } else {
        for (const qint32 row : rows)
            visit(row);
    }
}

qint64 arrivalOf(const RequestTable &table, qsizetype row)
{
    for (int stamp = 0; stamp < kStampCount; ++stamp) {
        const qint64 t = table.stamp(row, static_cast<Stamp>(stamp));
        if (t != kNoTime)
            return t;
    }
    return kNoTime;
}

qint64 departureOf(const RequestTable &table, qsizetype row)
{
    for (int stamp = kStampCount - 1; stamp >= 0; --stamp) {
        const qint64 t = table.stamp(row, static_cast<Stamp>(stamp));
        if (t != kNoTime)
            return t;
    }
    return kNoTime;
}

TokenSpread spreadOf(std::vector<double> values)
{
    TokenSpread spread;
    spread.n = qint64(values.size());
    if (values.empty())
        return spread;
    std::sort(values.begin(), values.end());
    spread.p50 = Percentile::ofSorted(values, 0.50);
    spread.p95 = Percentile::ofSorted(values, 0.95);
    spread.max = values.back();
    return spread;
}

} // namespace

namespace WorkloadSummary {

ArrivalProcess arrivals(const TraceStore &store, std::span<const qint32> rows)
{
    const RequestTable &table = store.requests;
    ArrivalProcess process;
    std::vector<qint64> arrive;
    // Arrival (+1) and departure (−1) events for the in-flight count.
    std::vector<std::pair<qint64, int>> events;
    double timeInSystemNs = 0.0;
    qint64 completed = 0;
    forRows(table.rowCount(), rows, [&](qsizetype row) {
        const qint64 begin = arrivalOf(table, row);
        if (begin == kNoTime)
            return;
        arrive.push_back(begin);
        const qint64 end = departureOf(table, row);
        if (end != kNoTime && end > begin) {
            events.emplace_back(begin, +1);
            events.emplace_back(end, -1);
            timeInSystemNs += double(end - begin);
            ++completed;
        }
    });
    process.requests = qint64(arrive.size());
    if (arrive.empty())
        return process;
    std::sort(arrive.begin(), arrive.end());
    const qint64 windowNs = arrive.back() - arrive.front();
    if (arrive.size() >= 2 && windowNs > 0) {
        process.windowSeconds = double(windowNs) / 1e9;
        process.ratePerSecond = double(arrive.size() - 1) / process.windowSeconds;
    }
    if (arrive.size() >= 3) {
        double sum = 0.0;
        double squares = 0.0;
        for (size_t i = 1; i < arrive.size(); ++i) {
            const double gap = double(arrive[i] - arrive[i - 1]);
            sum += gap;
            squares += gap * gap;
        }
        const double k = double(arrive.size() - 1);
        const double mean = sum / k;
        if (mean > 0.0)
            process.gapCv = std::sqrt(std::max(0.0, squares / k - mean * mean)) / mean;
    }
    // The busiest one-second window that starts at an arrival.
    if (windowNs >= 1'000'000'000) {
        size_t first = 0;
        size_t best = 0;
        for (size_t last = 0; last < arrive.size(); ++last) {
            while (arrive[last] - arrive[first] >= 1'000'000'000)
                ++first;
            best = std::max(best, last - first + 1);
        }
        process.peakPerSecond = double(best);
    }
    // Departures sort before arrivals at the same instant: a request that
    // ends as another starts does not overlap it.
    std::sort(events.begin(), events.end());
    qint64 inFlight = 0;
    for (const auto &[time, delta] : events) {
        inFlight += delta;
        process.peakInFlight = std::max(process.peakInFlight, inFlight);
    }
    if (completed > 0 && !events.empty()) {
        const double spanNs = double(events.back().first - events.front().first);
        if (spanNs > 0.0)
            process.meanInFlight = timeInSystemNs / spanNs;
    }
    return process;
}

RequestShape shape(const TraceStore &store, std::span<const qint32> rows)
{
    const RequestTable &table = store.requests;
    RequestShape shape;
    std::vector<double> prompt;
    std::vector<double> output;
    forRows(table.rowCount(), rows, [&](qsizetype row) {
        if (table.promptTokens(row) > 0)
            prompt.push_back(table.promptTokens(row));
        if (table.outputTokens(row) > 0)
            output.push_back(table.outputTokens(row));
    });
    shape.prompt = spreadOf(std::move(prompt));
    shape.output = spreadOf(std::move(output));

    for (const AttributeColumn &column : table.attributes()) {
        if (column.isNumeric() || column.valueCount() - 1 > 64)
            continue;
        if (qsizetype(shape.classes.size()) >= kMaxMixDimensions)
            break;
        std::vector<qint64> counts(size_t(column.valueCount()), 0);
        qint64 total = 0;
        forRows(table.rowCount(), rows, [&](qsizetype row) {
            ++counts[column.code(row)];
            ++total;
        });
        if (total == 0)
            continue;
        std::vector<quint32> codes(counts.size());
        std::iota(codes.begin(), codes.end(), 0u);
        // Largest first; ties in first-seen order. "(none)" (code 0) competes like any value.
        std::stable_sort(codes.begin(), codes.end(), [&](quint32 a, quint32 b) { return counts[a] > counts[b]; });
        ClassMix mix;
        mix.dimension = column.name();
        for (const quint32 code : codes) {
            if (counts[code] == 0)
                continue;
            if (qsizetype(mix.shares.size()) == kMaxMixValues) {
                ++mix.otherValues;
                continue;
            }
            const QString value = code == 0 ? QStringLiteral("(none)") : column.values()[code];
            mix.shares.emplace_back(value, double(counts[code]) / double(total));
        }
        shape.classes.push_back(std::move(mix));
    }

    const WorkflowTable &workflows = store.workflows;
    shape.workflows = workflows.rowCount();
    if (shape.workflows > 0) {
        std::vector<double> spans;
        std::vector<double> calls;
        for (qsizetype w = 0; w < workflows.rowCount(); ++w) {
            const qint32 first = workflows.firstSpan[size_t(w)];
            const qint32 count = workflows.spanCount[size_t(w)];
            spans.push_back(count);
            shape.spansPerWorkflowMax = std::max<qint64>(shape.spansPerWorkflowMax, count);
            qint64 modelCalls = 0;
            for (qint32 s = first; s < first + count; ++s) {
                if (store.spans.category(s) == SpanCategory::ModelCall)
                    ++modelCalls;
            }
            calls.push_back(double(modelCalls));
        }
        std::sort(spans.begin(), spans.end());
        std::sort(calls.begin(), calls.end());
        shape.spansPerWorkflowP50 = Percentile::ofSorted(spans, 0.5);
        shape.modelCallsPerWorkflowP50 = Percentile::ofSorted(calls, 0.5);
    }
    return shape;
}

} // namespace WorkloadSummary
