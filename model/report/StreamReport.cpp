#include "StreamReport.h"

#include "TextTable.h"

#include "analysis/streams/StreamSummary.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <cmath>

namespace StreamReport {

namespace {

QString ms(double value, int decimals = 2)
{
    return std::isnan(value) ? QStringLiteral("-") : QString::number(value, 'f', decimals);
}

QString grouped(qint64 value)
{
    QString digits = QString::number(value);
    for (qsizetype at = digits.size() - 3; at > (value < 0 ? 1 : 0); at -= 3)
        digits.insert(at, QLatin1Char(','));
    return digits;
}

QString percent(double share)
{
    return QString::number(100.0 * share, 'f', 1) + QLatin1Char('%');
}

QString pooled(const PooledQuantile *quantile)
{
    if (!quantile)
        return QStringLiteral("-");
    QString text = ms(quantile->valueMs);
    if (quantile->intervalFormed)
        text += QStringLiteral(" [%1, %2]").arg(ms(quantile->lowerMs), ms(quantile->upperMs));
    return text;
}

QString estimate(const QuantileEstimate &estimate)
{
    if (std::isnan(estimate.value))
        return QStringLiteral("-");
    QString text = ms(estimate.value);
    if (estimate.interval.formed)
        text += QStringLiteral(" [%1, %2]").arg(ms(estimate.lower), ms(estimate.upper));
    else
        text += QStringLiteral(" (too few for an interval)");
    return text;
}

nlohmann::json number(double value)
{
    return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

nlohmann::json figureJson(const RequestFigure &figure)
{
    nlohmann::json quantiles = nlohmann::json::array();
    for (const auto &estimate : figure.quantiles) {
        nlohmann::json q = {{"q", estimate.q}, {"value_ms", number(estimate.value)}};
        if (estimate.interval.formed) {
            q["interval_ms"] = {estimate.lower, estimate.upper};
            q["interval_coverage"] = estimate.interval.coverage;
        }
        quantiles.push_back(std::move(q));
    }
    return {{"key", figure.key.toStdString()},
            {"label", figure.label.toStdString()},
            {"boundary", "client"},
            {"requests", figure.n},
            {"mean_ms", number(figure.meanMs)},
            {"quantiles", std::move(quantiles)}};
}

} // namespace

QString text(const StreamSummary &summary)
{
    QStringList lines;
    if (!summary.hasTokenTimes()) {
        lines << QStringLiteral("No per-token times in this trace: the stream is known only as first and last token "
                                "(mean ITL below). Per-token times come from server_token_ms / client_token_ms in "
                                "seed JSONL, tracelane.tokens.* on OTLP spans, AIPerf chunk latencies or vLLM bench "
                                "itls.");
    }
    lines << QStringLiteral("Stream of %1 requests; stall: %2")
                 .arg(grouped(summary.scopeRequests), summary.rule.describe());

    if (summary.hasTokenTimes()) {
        lines << QString();
        lines << QStringLiteral("Inter-token gap, every gap pooled over requests (gap = time between consecutive "
                                "stream events of one request; 95% interval from 20 random groups of requests):");
        TextTable table(
            {QStringLiteral("side"), QStringLiteral("requests"), QStringLiteral("events"), QStringLiteral("gaps"),
             QStringLiteral("p50 ms"), QStringLiteral("p90 ms"), QStringLiteral("p95 ms [95% interval]"),
             QStringLiteral("p99 ms"), QStringLiteral("max ms"), QStringLiteral("mean ms")},
            {TextTable::Align::Left, TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right,
             TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right,
             TextTable::Align::Right, TextTable::Align::Right});
        for (const auto &side : summary.sides) {
            const auto &gaps = side.gaps;
            const auto *p50 = gaps.find(0.50);
            const auto *p90 = gaps.find(0.90);
            const auto *p99 = gaps.find(0.99);
            table.addRow({streamSideKey(side.side), grouped(side.requests), grouped(side.events), grouped(gaps.gaps),
                          p50 ? ms(p50->valueMs) : QStringLiteral("-"), p90 ? ms(p90->valueMs) : QStringLiteral("-"),
                          pooled(gaps.find(0.95)), p99 ? ms(p99->valueMs) : QStringLiteral("-"), ms(gaps.maxMs),
                          ms(gaps.meanMs)});
        }
        lines << table.render();
    }

    lines << QString();
    lines << QStringLiteral("Per-request figures (one value per request, not pooled gaps; 95% order-statistic "
                            "intervals) [client boundary]:");
    TextTable figures({QStringLiteral("figure"), QStringLiteral("requests"), QStringLiteral("p50 ms/token"),
                       QStringLiteral("p95 ms/token [95% interval]"), QStringLiteral("p99 ms/token"),
                       QStringLiteral("mean")},
                      {TextTable::Align::Left, TextTable::Align::Right, TextTable::Align::Right,
                       TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right});
    for (const RequestFigure *figure : {&summary.meanItl, &summary.tpot}) {
        figures.addRow({figure->label, grouped(figure->n), ms(figure->quantiles[0].value),
                        estimate(figure->quantiles[2]), ms(figure->quantiles[3].value), ms(figure->meanMs)});
    }
    lines << figures.render();

    for (const auto &side : summary.sides) {
        lines << QString();
        const QString name = streamSideKey(side.side);
        const double stallShare = side.streamMs > 0.0 ? side.stallMs / side.streamMs : 0.0;
        lines << QStringLiteral("Stalls (%1): %2 in %3 of %4 requests (%5); %6 s stalled, %7 of the time between "
                                "first and last event")
                     .arg(name, grouped(side.stalls), grouped(side.requestsWithStalls), grouped(side.requests),
                          percent(side.requests > 0 ? double(side.requestsWithStalls) / double(side.requests) : 0.0))
                     .arg(side.stallMs / 1e3, 0, 'f', 3)
                     .arg(percent(stallShare));
        if (side.chunkedRequests > 0) {
            lines << QStringLiteral("Chunking (%1): %2 tokens per event on average; %3 of %4 requests were delivered "
                                    "in chunks (%5 events said so). Gaps are between events, never split into "
                                    "zero-length token gaps.")
                         .arg(name)
                         .arg(side.tokensPerEvent, 0, 'f', 2)
                         .arg(grouped(side.chunkedRequests), grouped(side.requests), grouped(side.multiTokenEvents));
        } else {
            lines << QStringLiteral("Chunking (%1): one token per event (%2 events for %3 tokens)")
                         .arg(name, grouped(side.events), grouped(side.tokens));
        }
    }

    const auto &c = summary.coalescing;
    lines << QString();
    lines << QStringLiteral("Server vs client: %1").arg(streamMechanismLabel(c.mechanism));
    if (c.requests > 0) {
        QStringList clusters;
        for (int size = 1; size <= CoalescingReport::kMaxClusterSize; ++size) {
            if (c.clusterSizes[size_t(size)] > 0)
                clusters << QStringLiteral("%1%2: %3")
                                .arg(size)
                                .arg(size == CoalescingReport::kMaxClusterSize ? QStringLiteral("+") : QString())
                                .arg(grouped(c.clusterSizes[size_t(size)]));
        }
        lines << QStringLiteral("  %1 requests with both sides, %2 of them coalesced; %3 of %4 client events carried "
                                "several tokens (%5); tokens per event: %6")
                     .arg(grouped(c.requests), grouped(c.coalescedRequests), grouped(c.multiTokenEvents),
                          grouped(c.clientEvents), percent(c.multiTokenShare), clusters.join(QStringLiteral(", ")));
        lines << QStringLiteral("  gap CV (median over requests): server %1, client %2; stalls: server %3, client %4 "
                                "(decode %5, transport %6)")
                     .arg(ms(c.medianServerGapCv), ms(c.medianClientGapCv), grouped(c.serverStalls),
                          grouped(c.clientStalls), grouped(c.decodeStalls), grouped(c.transportStalls));
    }
    lines << QStringLiteral("  why: %1").arg(c.reason);
    lines << QStringLiteral("  next test: %1").arg(c.nextTest);

    if (!summary.worst.empty()) {
        lines << QString();
        lines << QStringLiteral("Longest gaps (%1 side), worst first:").arg(streamSideKey(summary.worst.front().side));
        TextTable worst({QStringLiteral("request"), QStringLiteral("max gap ms"), QStringLiteral("p95 gap ms"),
                         QStringLiteral("p50 gap ms"), QStringLiteral("stalls"), QStringLiteral("stalled ms"),
                         QStringLiteral("events"), QStringLiteral("output tokens")},
                        {TextTable::Align::Left, TextTable::Align::Right, TextTable::Align::Right,
                         TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right,
                         TextTable::Align::Right, TextTable::Align::Right});
        for (const auto &w : summary.worst) {
            worst.addRow({w.requestId, ms(w.maxGapMs), ms(w.p95GapMs), ms(w.p50GapMs), grouped(w.stalls),
                          ms(w.stallMs, 1), grouped(w.events), grouped(w.outputTokens)});
        }
        lines << worst.render();
    }
    return lines.join(QLatin1Char('\n'));
}

nlohmann::json json(const StreamSummary &summary)
{
    nlohmann::json sides = nlohmann::json::array();
    for (const auto &side : summary.sides) {
        nlohmann::json quantiles = nlohmann::json::array();
        for (const auto &q : side.gaps.quantiles) {
            nlohmann::json entry = {{"q", q.q}, {"value_ms", number(q.valueMs)}};
            if (q.intervalFormed)
                entry["interval_ms"] = {q.lowerMs, q.upperMs};
            quantiles.push_back(std::move(entry));
        }
        sides.push_back({{"side", streamSideKey(side.side).toStdString()},
                         {"requests", side.requests},
                         {"events", side.events},
                         {"tokens", side.tokens},
                         {"multi_token_events", side.multiTokenEvents},
                         {"chunked_requests", side.chunkedRequests},
                         {"tokens_per_event", number(side.tokensPerEvent)},
                         {"pooled_gaps",
                          {{"gaps", side.gaps.gaps},
                           {"requests", side.gaps.requests},
                           {"mean_ms", number(side.gaps.meanMs)},
                           {"max_ms", number(side.gaps.maxMs)},
                           {"interval_method", "random groups of requests"},
                           {"interval_groups", side.gaps.groups},
                           {"quantiles", std::move(quantiles)}}},
                         {"stalls", side.stalls},
                         {"requests_with_stalls", side.requestsWithStalls},
                         {"stall_ms", side.stallMs},
                         {"stream_ms", side.streamMs}});
    }
    const auto &c = summary.coalescing;
    nlohmann::json worst = nlohmann::json::array();
    for (const auto &w : summary.worst) {
        worst.push_back({{"request_id", w.requestId.toStdString()},
                         {"side", streamSideKey(w.side).toStdString()},
                         {"max_gap_ms", w.maxGapMs},
                         {"p95_gap_ms", number(w.p95GapMs)},
                         {"p50_gap_ms", number(w.p50GapMs)},
                         {"stalls", w.stalls},
                         {"stall_ms", w.stallMs},
                         {"events", w.events},
                         {"output_tokens", w.outputTokens}});
    }
    return {{"requests", summary.scopeRequests},
            {"stall_rule", {{"median_factor", summary.rule.medianFactor}, {"minimum_ms", summary.rule.minimumMs}}},
            {"sides", std::move(sides)},
            {"mean_itl", figureJson(summary.meanItl)},
            {"tpot", figureJson(summary.tpot)},
            {"coalescing",
             {{"requests", c.requests},
              {"coalesced_requests", c.coalescedRequests},
              {"client_events", c.clientEvents},
              {"multi_token_events", c.multiTokenEvents},
              {"multi_token_share", c.multiTokenShare},
              {"cluster_sizes", c.clusterSizes},
              {"median_server_gap_cv", number(c.medianServerGapCv)},
              {"median_client_gap_cv", number(c.medianClientGapCv)},
              {"server_stalls", c.serverStalls},
              {"client_stalls", c.clientStalls},
              {"decode_stalls", c.decodeStalls},
              {"transport_stalls", c.transportStalls},
              {"mechanism", streamMechanismKey(c.mechanism).toStdString()},
              {"reason", c.reason.toStdString()},
              {"next_test", c.nextTest.toStdString()}}},
            {"worst", std::move(worst)}};
}

} // namespace StreamReport
