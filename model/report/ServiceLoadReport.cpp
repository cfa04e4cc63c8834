#include "ServiceLoadReport.h"

#include "analysis/load/ServiceLoad.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <cmath>

namespace ServiceLoadReport {

namespace {

QString percent(double share)
{
    return QString::number(share * 100.0, 'f', 1) + QLatin1Char('%');
}

} // namespace

QString text(const Goodput &goodput, const LittlesLawCheck &little)
{
    QStringList lines;
    lines << QStringLiteral(
                 "Objectives: TTFT \u2264 %1 ms [%2 boundary] and mean ITL \u2264 %3 ms/token [client boundary]")
                 .arg(goodput.slo.ttftMs)
                 .arg(boundaryKey(goodput.boundary))
                 .arg(goodput.slo.itlMs);
    lines << QStringLiteral("Window: %1 s (first client send to last client token)")
                 .arg(goodput.windowSeconds, 0, 'f', 3);
    lines << QStringLiteral("Goodput: %1 req/s (%2 of %3 completed requests met both) | %4 output tokens/s")
                 .arg(goodput.goodputPerSecond, 0, 'f', 3)
                 .arg(percent(goodput.goodShare()))
                 .arg(goodput.completed)
                 .arg(goodput.goodOutputTokensPerSecond, 0, 'f', 1);
    lines << QStringLiteral("Throughput: %1 req/s | %2 output tokens/s")
                 .arg(goodput.throughputPerSecond, 0, 'f', 3)
                 .arg(goodput.outputTokensPerSecond, 0, 'f', 1);
    lines << QStringLiteral(
                 "Missed: TTFT only %1 | ITL only %2 | both %3 | not judged (unobserved) %4 | rejected records %5")
                 .arg(goodput.missedTtftOnly)
                 .arg(goodput.missedItlOnly)
                 .arg(goodput.missedBoth)
                 .arg(goodput.notJudged)
                 .arg(goodput.rejected);
    if (little.completed == 0) {
        lines << QStringLiteral("Little's law: no request has both a send and an end time");
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Little's law: \u03bb %1 req/s \u00d7 W %2 s = L %3 requests in flight on average "
                            "(peak %4) [client boundary, n=%5]")
                 .arg(little.throughputPerSecond, 0, 'f', 3)
                 .arg(little.meanTimeInSystemSeconds, 0, 'f', 3)
                 .arg(little.expectedInFlight, 0, 'f', 2)
                 .arg(little.peakInFlight)
                 .arg(little.completed);
    if (!little.steadinessJudged) {
        lines << QStringLiteral("  steadiness: not judged; arrivals span %1 s, less than twice the time in system")
                     .arg(little.arrivalWindowSeconds, 0, 'f', 3);
    } else {
        lines << QStringLiteral("  steadiness: time in system %1 s for the first quarter of arrivals, %2 s for the "
                                "last; arrivals %3 req/s, completions %4 req/s meanwhile; %5")
                     .arg(little.earlyTimeInSystemSeconds, 0, 'f', 3)
                     .arg(little.lateTimeInSystemSeconds, 0, 'f', 3)
                     .arg(little.arrivalRatePerSecond, 0, 'f', 3)
                     .arg(little.completionRatePerSecond, 0, 'f', 3)
                     .arg(little.steady ? QStringLiteral("steady")
                                        : QStringLiteral("NOT steady: a backlog built up, so averages over this "
                                                         "interval mix regimes"));
    }
    if (!std::isnan(little.observedInFlight)) {
        lines << QStringLiteral("  observed concurrency %1 vs L %2 (gap %3%4): %5")
                     .arg(little.observedInFlight)
                     .arg(little.expectedInFlight, 0, 'f', 2)
                     .arg(little.relativeGap >= 0 ? QStringLiteral("+") : QString())
                     .arg(percent(little.relativeGap))
                     .arg(little.consistent ? QStringLiteral("consistent")
                                            : QStringLiteral("INCONSISTENT: the boundaries differ, observations were "
                                                             "dropped, or the interval is not steady"));
    }
    return lines.join(QLatin1Char('\n'));
}

nlohmann::json json(const Goodput &goodput, const LittlesLawCheck &little)
{
    return {{"slo",
             {{"ttft_ms", goodput.slo.ttftMs},
              {"itl_ms", goodput.slo.itlMs},
              {"ttft_boundary", boundaryKey(goodput.boundary).toStdString()}}},
            {"window_s", goodput.windowSeconds},
            {"completed", goodput.completed},
            {"good", goodput.good},
            {"good_share", goodput.goodShare()},
            {"missed_ttft_only", goodput.missedTtftOnly},
            {"missed_itl_only", goodput.missedItlOnly},
            {"missed_both", goodput.missedBoth},
            {"not_judged", goodput.notJudged},
            {"rejected_records", goodput.rejected},
            {"goodput_per_s", goodput.goodputPerSecond},
            {"throughput_per_s", goodput.throughputPerSecond},
            {"output_tokens_per_s", goodput.outputTokensPerSecond},
            {"good_output_tokens_per_s", goodput.goodOutputTokensPerSecond},
            {"littles_law",
             {{"window_s", little.windowSeconds},
              {"completed", little.completed},
              {"lambda_per_s", little.throughputPerSecond},
              {"w_s", little.meanTimeInSystemSeconds},
              {"l_in_flight", little.expectedInFlight},
              {"peak_in_flight", little.peakInFlight},
              {"arrival_window_s", little.arrivalWindowSeconds},
              {"arrival_rate_per_s", little.arrivalRatePerSecond},
              {"completion_rate_per_s", little.completionRatePerSecond},
              {"steadiness_judged", little.steadinessJudged},
              {"steady", little.steady},
              {"early_w_s", little.earlyTimeInSystemSeconds},
              {"late_w_s", little.lateTimeInSystemSeconds},
              {"observed_in_flight",
               std::isnan(little.observedInFlight) ? nlohmann::json(nullptr) : nlohmann::json(little.observedInFlight)},
              {"relative_gap", little.relativeGap},
              {"consistent", little.consistent}}}};
}

} // namespace ServiceLoadReport
