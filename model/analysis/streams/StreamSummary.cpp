#include "StreamSummary.h"

#include "RequestStream.h"

#include "analysis/requests/Metric.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace StreamAnalysis {

RequestFigure requestFigure(const QString &key, const QString &label, std::vector<double> values)
{
    RequestFigure figure;
    figure.key = key;
    figure.label = label;
    auto sorted = Percentile::sortedFinite(values);
    figure.n = qint64(sorted.size());
    if (!sorted.empty())
        figure.meanMs = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    for (size_t i = 0; i < kQuantiles.size(); ++i) {
        auto &estimate = figure.quantiles[i];
        estimate.q = kQuantiles[i];
        estimate.value = Percentile::ofSorted(sorted, estimate.q);
        estimate.interval = QuantileInterval::forSample(figure.n, estimate.q);
        if (estimate.interval.formed) {
            estimate.lower = sorted[size_t(estimate.interval.lowerRank - 1)];
            estimate.upper = sorted[size_t(estimate.interval.upperRank - 1)];
        }
    }
    return figure;
}

StreamSummary summarise(const RequestTable &table, const RowSet *scope, const StallRule &rule, int worstCount,
                        int threads)
{
    StreamSummary summary;
    summary.rule = rule;
    summary.scopeRequests = scope ? scope->size() : table.rowCount();
    const auto forRows = [&](auto &&visit) {
        if (scope) {
            for (const qint32 row : *scope)
                visit(qsizetype(row));
        } else {
            for (qsizetype row = 0; row < table.rowCount(); ++row)
                visit(row);
        }
    };

    std::vector<WorstStream> candidates;
    for (const StreamSide side : {StreamSide::Server, StreamSide::Client}) {
        const TokenTimeline &timeline = tokenTimeline(table, side);
        if (timeline.isEmpty())
            continue;
        StreamSideSummary sideSummary;
        sideSummary.side = side;
        qint64 outputTokens = 0;
        forRows([&](qsizetype row) {
            if (timeline.countFor(row) == 0)
                return;
            const RequestStreamStats stats = RequestStream::analyse(timeline, row, table.outputTokens(row), rule);
            ++sideSummary.requests;
            sideSummary.events += stats.events;
            sideSummary.tokens += stats.tokens;
            sideSummary.multiTokenEvents += stats.multiTokenEvents;
            sideSummary.chunkedRequests += stats.chunkingInferred || stats.multiTokenEvents > 0 ? 1 : 0;
            outputTokens += qMax<qint64>(stats.tokens, table.outputTokens(row));
            sideSummary.stalls += stats.stalls;
            sideSummary.requestsWithStalls += stats.stalls > 0 ? 1 : 0;
            sideSummary.stallMs += stats.stallMs;
            if (stats.gaps > 0) {
                sideSummary.streamMs += stats.meanGapMs * double(stats.gaps);
                candidates.push_back({qint32(row), table.idText(row), side, stats.maxGapMs, stats.p95GapMs,
                                      stats.p50GapMs, stats.stalls, stats.stallMs, stats.events,
                                      table.outputTokens(row)});
                // Keep the candidate list short while it grows.
                if (worstCount > 0 && qsizetype(candidates.size()) > 8 * qsizetype(worstCount) + 1024) {
                    std::nth_element(
                        candidates.begin(), candidates.begin() + worstCount, candidates.end(),
                        [](const WorstStream &a, const WorstStream &b) { return a.maxGapMs > b.maxGapMs; });
                    candidates.resize(size_t(worstCount));
                }
            }
        });
        sideSummary.tokensPerEvent
            = sideSummary.events > 0 ? double(outputTokens) / double(sideSummary.events) : std::nan("");
        sideSummary.gaps = PooledGapStats::compute(timeline, side, scope, kQuantiles, threads);
        summary.sides.push_back(std::move(sideSummary));
    }

    // The worst requests on the client side when it exists (what users saw).
    const StreamSide worstSide = summary.side(StreamSide::Client) ? StreamSide::Client : StreamSide::Server;
    std::erase_if(candidates, [worstSide](const WorstStream &w) { return w.side != worstSide; });
    std::sort(candidates.begin(), candidates.end(), [](const WorstStream &a, const WorstStream &b) {
        return a.maxGapMs != b.maxGapMs ? a.maxGapMs > b.maxGapMs : a.row < b.row;
    });
    if (qsizetype(candidates.size()) > worstCount)
        candidates.resize(size_t(qMax(0, worstCount)));
    summary.worst = std::move(candidates);

    std::vector<double> itl;
    std::vector<double> tpot;
    forRows([&](qsizetype row) {
        itl.push_back(metricValueMs(table, row, Metric::Itl, Boundary::Client));
        const qint32 tokens = table.outputTokens(row);
        const double e2e = metricValueMs(table, row, Metric::E2e, Boundary::Client);
        const double ttft = metricValueMs(table, row, Metric::Ttft, Boundary::Client);
        tpot.push_back(tokens > 1 ? (e2e - ttft) / double(tokens - 1) : std::nan(""));
    });
    summary.meanItl = requestFigure(
        QStringLiteral("mean_itl"),
        QStringLiteral("mean ITL per request (seed profiler: stream / (output tokens - 1))"), std::move(itl));
    summary.tpot = requestFigure(QStringLiteral("tpot"),
                                 QStringLiteral("TPOT per request (vLLM, MLPerf: (E2E - TTFT) / (output tokens - 1))"),
                                 std::move(tpot));
    summary.coalescing = StreamAlignment::coalescing(table, scope, rule);
    return summary;
}

} // namespace StreamAnalysis
