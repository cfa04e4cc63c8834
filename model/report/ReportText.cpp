#include "ReportText.h"

#include "analysis/requests/PhaseAdvice.h"
#include "analysis/requests/ProfileReport.h"
#include "store/TraceStore.h"

#include <cmath>

namespace ReportText {

namespace {

QString ms(double value)
{
    return std::isnan(value) ? QStringLiteral("n/a") : QString::number(value, 'f', 1);
}

QString tag(const MetricSummary &summary)
{
    return QStringLiteral("[%1 boundary, n=%2]").arg(boundaryKey(summary.boundary)).arg(summary.n);
}

QString shapeOf(const ProfileReport &report)
{
    if (report.promptP50 == report.promptP95 && report.outputP50 == report.outputP95) {
        return QStringLiteral("%1 input / %2 output tokens")
            .arg(report.promptP50, 0, 'f', 0)
            .arg(report.outputP50, 0, 'f', 0);
    }
    return QStringLiteral("input p50/p95 %1/%2 | output p50/p95 %3/%4 tokens")
        .arg(report.promptP50, 0, 'f', 0)
        .arg(report.promptP95, 0, 'f', 0)
        .arg(report.outputP50, 0, 'f', 0)
        .arg(report.outputP95, 0, 'f', 0);
}

} // namespace

QString duration(double value)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    const double magnitude = std::abs(value);
    if (magnitude >= 60'000.0)
        return QString::number(value / 60'000.0, 'f', 2) + QStringLiteral(" min");
    if (magnitude >= 1'000.0)
        return QString::number(value / 1'000.0, 'f', 2) + QStringLiteral(" s");
    if (magnitude >= 1.0 || magnitude == 0.0)
        return QString::number(value, 'f', 1) + QStringLiteral(" ms");
    return QString::number(value * 1'000.0, 'f', 0) + QStringLiteral(" \u00b5s");
}

QString profile(const ProfileReport &report)
{
    QStringList lines;
    lines << QStringLiteral("Scenario: %1 (%2 requests)").arg(report.label).arg(report.requests);
    lines << QStringLiteral("Latency coordinates: %1 boundary (%2) | TTFT/ITL/E2E | p50+p95 | %3 | %4")
                 .arg(boundaryKey(report.boundary), boundarySpan(report.boundary), report.workload, shapeOf(report));
    lines << QStringLiteral("p50 TTFT: %1 ms  %2").arg(ms(report.ttft.p50), tag(report.ttft));
    lines << QStringLiteral("p95 TTFT: %1 ms  %2").arg(ms(report.ttft.p95), tag(report.ttft));
    lines << QStringLiteral("p95 ITL:  %1 ms/token  %2").arg(ms(report.itl.p95), tag(report.itl));
    lines << QStringLiteral("p95 E2E:  %1 ms  %2").arg(ms(report.e2e.p95), tag(report.e2e));
    const auto dominantLine = [&](const QString &what, const std::optional<Phase> &phase, Boundary boundary) {
        if (!phase) {
            lines << QStringLiteral("Dominant %1 phase: none observed (the trace has no phase timestamps "
                                    "inside this boundary)  [%2 boundary]")
                         .arg(what, boundaryKey(boundary));
            return;
        }
        const auto &mean = report.meanOf(*phase);
        lines << QStringLiteral("Dominant %1 phase: %2 (%3 ms mean)  [%4 boundary, n=%5]")
                     .arg(what, phaseKey(*phase), ms(mean.meanMs), boundaryKey(boundary))
                     .arg(mean.n);
        lines << QStringLiteral("%1 first test: %2").arg(what, nextTestFor(*phase));
    };
    dominantLine(QStringLiteral("TTFT"), report.dominantTtftPhase, report.boundary);
    dominantLine(QStringLiteral("E2E"), report.dominantE2ePhase, Boundary::Client);

    QStringList means;
    for (const auto &mean : report.phaseMeans)
        means << QStringLiteral("%1 %2").arg(phaseKey(mean.phase), ms(mean.meanMs));
    lines << QStringLiteral("Phase means (ms): %1").arg(means.join(QStringLiteral(" | ")));
    if (std::abs(report.ttftResidualMeanMs) >= 0.05) {
        lines << QStringLiteral("Unobserved TTFT time (residual, not assigned to any phase): %1 ms mean")
                     .arg(ms(report.ttftResidualMeanMs));
    }
    lines << QStringLiteral("Note: phase means add up to the mean total; phase percentiles do not add up "
                            "to a total percentile.");
    return lines.join(QLatin1Char('\n'));
}

QString rejectedSummary(std::span<const RejectedRecord> rejected, int limit)
{
    QStringList lines;
    lines << QStringLiteral("Rejected records: %1").arg(rejected.size());
    int shown = 0;
    for (const auto &record : rejected) {
        if (shown++ == limit) {
            lines << QStringLiteral("  ... and %1 more").arg(qsizetype(rejected.size()) - limit);
            break;
        }
        lines << QStringLiteral("  ") + record.toString();
    }
    return lines.join(QLatin1Char('\n'));
}

QString notices(std::span<const LoadNotice> notices)
{
    QStringList lines;
    for (const auto &notice : notices)
        lines << QStringLiteral("Note: ") + notice.toString();
    return lines.join(QLatin1Char('\n'));
}

} // namespace ReportText
