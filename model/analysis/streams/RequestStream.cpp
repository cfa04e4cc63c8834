#include "RequestStream.h"

#include <algorithm>
#include <cmath>

namespace RequestStream {

namespace {

// The seed's percentile over integer gaps, already sorted.
double percentileNs(const std::vector<qint64> &sorted, double q)
{
    if (sorted.empty())
        return std::nan("");
    const double rank = double(sorted.size() - 1) * q;
    const auto lo = size_t(rank);
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return double(sorted[lo]) + (double(sorted[hi]) - double(sorted[lo])) * (rank - double(lo));
}

} // namespace

std::vector<StreamGap> gaps(const TokenTimeline &timeline, qsizetype row)
{
    std::vector<StreamGap> result;
    result.reserve(timeline.countFor(row));
    qint64 previous = 0;
    timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        if (!event.segmentStart)
            result.push_back({previous, event.time - previous});
        previous = event.time;
    });
    return result;
}

double gapQuantileMs(const TokenTimeline &timeline, qsizetype row, double q)
{
    std::vector<qint64> values;
    values.reserve(timeline.countFor(row));
    qint64 previous = 0;
    timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        if (!event.segmentStart)
            values.push_back(event.time - previous);
        previous = event.time;
    });
    std::sort(values.begin(), values.end());
    return percentileNs(values, q) / 1e6;
}

double maxGapMs(const TokenTimeline &timeline, qsizetype row)
{
    qint64 longest = -1;
    qint64 previous = 0;
    timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        if (!event.segmentStart)
            longest = qMax(longest, event.time - previous);
        previous = event.time;
    });
    return longest < 0 ? std::nan("") : double(longest) / 1e6;
}

double medianGapNs(std::vector<qint64> gapNs)
{
    std::sort(gapNs.begin(), gapNs.end());
    return percentileNs(gapNs, 0.5);
}

RequestStreamStats analyse(const TokenTimeline &timeline, qsizetype row, qint32 outputTokens, const StallRule &rule)
{
    RequestStreamStats stats;
    std::vector<qint64> sorted;
    sorted.reserve(timeline.countFor(row));
    qint64 previous = 0;
    timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        ++stats.events;
        stats.tokens += event.tokens;
        if (event.tokens > 1)
            ++stats.multiTokenEvents;
        stats.maxTokensPerEvent = qMax(stats.maxTokensPerEvent, event.tokens);
        if (!event.segmentStart)
            sorted.push_back(event.time - previous);
        previous = event.time;
    });
    if (stats.events == 0)
        return stats;
    stats.chunkingInferred = stats.multiTokenEvents == 0 && outputTokens > stats.tokens;
    stats.tokensPerEvent = double(stats.chunkingInferred ? outputTokens : stats.tokens) / double(stats.events);
    stats.gaps = qint64(sorted.size());
    if (sorted.empty())
        return stats;
    std::sort(sorted.begin(), sorted.end());
    const double median = percentileNs(sorted, 0.5);
    stats.p50GapMs = median / 1e6;
    stats.p95GapMs = percentileNs(sorted, 0.95) / 1e6;
    stats.maxGapMs = double(sorted.back()) / 1e6;
    double sum = 0.0;
    for (const qint64 gap : sorted)
        sum += double(gap);
    const double mean = sum / double(sorted.size());
    double squares = 0.0;
    for (const qint64 gap : sorted)
        squares += (double(gap) - mean) * (double(gap) - mean);
    stats.meanGapMs = mean / 1e6;
    stats.gapCv = mean > 0.0 ? std::sqrt(squares / double(sorted.size())) / mean : std::nan("");
    stats.stallThresholdNs = rule.thresholdNs(median);
    const auto firstStall = std::lower_bound(sorted.begin(), sorted.end(), stats.stallThresholdNs);
    stats.stalls = sorted.end() - firstStall;
    for (auto it = firstStall; it != sorted.end(); ++it)
        stats.stallMs += double(*it) / 1e6;
    return stats;
}

std::vector<StreamGap> stalls(const TokenTimeline &timeline, qsizetype row, const StallRule &rule)
{
    auto all = gaps(timeline, row);
    std::vector<qint64> values;
    values.reserve(all.size());
    for (const auto &gap : all)
        values.push_back(gap.ns);
    const qint64 threshold = rule.thresholdNs(medianGapNs(std::move(values)));
    std::erase_if(all, [threshold](const StreamGap &gap) { return gap.ns < threshold; });
    return all;
}

} // namespace RequestStream
