#include "LoadReport.h"

#include "TextTable.h"

#include "analysis/load/LoadTimeline.h"

#include <nlohmann/json.hpp>

#include <QStringList>

namespace LoadReport {

namespace {

QString seconds(qint64 ns, int decimals = 3)
{
    return QString::number(double(ns) / 1e9, 'f', decimals);
}

QString rate(qint64 count, double binSeconds)
{
    return QString::number(double(count) / binSeconds, 'f', binSeconds >= 1.0 ? 2 : 3);
}

QString littleLine(const LittleInWindow &little, qint64 origin)
{
    if (little.completions == 0)
        return QStringLiteral("Little's law: no request completed inside +%1 .. +%2 s; not checked")
            .arg(seconds(little.fromNs - origin), seconds(little.toNs - origin));
    return QStringLiteral("Little's law inside +%1 .. +%2 s (middle half of the arrivals): \u03bb %3 req/s \u00d7 W "
                          "%4 s = %5 expected in flight, %6 observed (%7%8): %9")
        .arg(seconds(little.fromNs - origin), seconds(little.toNs - origin))
        .arg(little.throughputPerSecond, 0, 'f', 3)
        .arg(little.meanTimeInSystemSeconds, 0, 'f', 3)
        .arg(little.expectedInFlight, 0, 'f', 2)
        .arg(little.observedInFlight, 0, 'f', 2)
        .arg(little.relativeGap >= 0 ? QStringLiteral("+") : QString())
        .arg(QString::number(100.0 * little.relativeGap, 'f', 1) + QLatin1Char('%'))
        .arg(little.consistent ? QStringLiteral("consistent")
                               : QStringLiteral("INCONSISTENT: the interval is not steady (a backlog builds or "
                                                "drains) or requests never finish"));
}

} // namespace

QString text(const Parts &parts)
{
    const LoadTimeline &t = parts.timeline;
    QStringList lines;
    if (!t.arrivalsUnknown.isEmpty()) {
        lines << QStringLiteral("Arrivals unknown: %1, so every request sits at t = 0; arrivals, concurrency and "
                                "queue over time cannot be drawn from this file (TTFT, ITL and E2E are exact).")
                     .arg(t.arrivalsUnknown);
        return lines.join(QLatin1Char('\n'));
    }
    if (t.binCount() == 0) {
        lines << QStringLiteral("No request has a send time; nothing to place in time.");
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Load over %1 s in %2 bins of %3 s [client boundary: send .. last token]; objectives for "
                            "goodput: TTFT \u2264 %4 ms [%5], mean ITL \u2264 %6 ms/token")
                 .arg(seconds(t.endNs() - t.startNs), QString::number(t.binCount()), seconds(t.binNs))
                 .arg(t.slo.ttftMs)
                 .arg(boundaryKey(t.boundary))
                 .arg(t.slo.itlMs);
    lines << QStringLiteral("Requests: %1 placed by their send time, %2 without one (left out), %3 never seen to "
                            "finish; queue stamps on %4; failures: %5 placed in time, %6 undated")
                 .arg(t.placed)
                 .arg(t.withoutSend)
                 .arg(t.withoutEnd)
                 .arg(t.queueObserved)
                 .arg(t.failuresPlaced)
                 .arg(t.failuresWithoutTime);
    const BurstEnvelope &b = parts.burst;
    lines << QStringLiteral("Burst envelope: mean %1 arrivals/s; peak %2 in 1 s (from +%3 s, %4\u00d7 the mean), %5 in "
                            "10 s (from +%6 s)")
                 .arg(b.meanPerSecond, 0, 'f', 3)
                 .arg(b.peak1s)
                 .arg(seconds(b.peak1sStartNs - t.startNs))
                 .arg(b.peakToMean1s(), 0, 'f', 1)
                 .arg(b.peak10s)
                 .arg(seconds(b.peak10sStartNs - t.startNs));
    lines << littleLine(parts.little, t.startNs);
    const LittlesLawCheck &s = parts.steadiness;
    if (s.steadinessJudged) {
        lines << QStringLiteral("Steadiness: time in system %1 s for the first quarter of arrivals, %2 s for the last: "
                                "%3")
                     .arg(s.earlyTimeInSystemSeconds, 0, 'f', 3)
                     .arg(s.lateTimeInSystemSeconds, 0, 'f', 3)
                     .arg(s.steady ? QStringLiteral("steady")
                                   : QStringLiteral("NOT steady: a backlog built up; averages over the whole "
                                                    "interval mix regimes"));
    } else {
        lines << QStringLiteral("Steadiness: not judged (arrivals span less than twice the time in system, or fewer "
                                "than 8 requests per quarter)");
    }
    lines << QString();
    const double binSeconds = t.binSeconds();
    TextTable table({QStringLiteral("t (s)"), QStringLiteral("arrivals/s"), QStringLiteral("completions/s"),
                     QStringLiteral("failures/s"), QStringLiteral("goodput/s"), QStringLiteral("in flight mean"),
                     QStringLiteral("max"), QStringLiteral("queue mean"), QStringLiteral("max")},
                    std::vector<TextTable::Align>(9, TextTable::Align::Right));
    for (int bin = 0; bin < t.binCount(); ++bin) {
        const auto i = size_t(bin);
        table.addRow({QLatin1Char('+') + seconds(t.binStart(bin) - t.startNs), rate(t.arrivals[i], binSeconds),
                      rate(t.completions[i], binSeconds), rate(t.failures[i], binSeconds), rate(t.good[i], binSeconds),
                      QString::number(t.meanInFlight[i], 'f', 2), QString::number(t.maxInFlight[i]),
                      t.queueObserved > 0 ? QString::number(t.meanQueueDepth[i], 'f', 2) : QStringLiteral("-"),
                      t.queueObserved > 0 ? QString::number(t.maxQueueDepth[i]) : QStringLiteral("-")});
    }
    lines << table.render();
    return lines.join(QLatin1Char('\n'));
}

nlohmann::json json(const Parts &parts)
{
    const LoadTimeline &t = parts.timeline;
    nlohmann::json result
        = {{"arrivals_unknown",
            t.arrivalsUnknown.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(t.arrivalsUnknown.toStdString())},
           {"boundary", "client"},
           {"slo",
            {{"ttft_ms", t.slo.ttftMs},
             {"itl_ms", t.slo.itlMs},
             {"ttft_boundary", boundaryKey(t.boundary).toStdString()}}},
           {"placed", t.placed},
           {"without_send", t.withoutSend},
           {"without_end", t.withoutEnd},
           {"queue_observed", t.queueObserved},
           {"failures_placed", t.failuresPlaced},
           {"failures_without_time", t.failuresWithoutTime}};
    if (!t.arrivalsUnknown.isEmpty() || t.binCount() == 0)
        return result;
    result["start_ns"] = t.startNs;
    result["bin_s"] = t.binSeconds();
    result["series"] = {{"arrivals", t.arrivals},
                        {"completions", t.completions},
                        {"failures", t.failures},
                        {"good", t.good},
                        {"mean_in_flight", t.meanInFlight},
                        {"max_in_flight", t.maxInFlight},
                        {"mean_queue_depth", t.meanQueueDepth},
                        {"max_queue_depth", t.maxQueueDepth}};
    const BurstEnvelope &b = parts.burst;
    result["burst_envelope"] = {{"mean_per_s", b.meanPerSecond},
                                {"peak_1s", b.peak1s},
                                {"peak_1s_start_ns", b.peak1sStartNs},
                                {"peak_10s", b.peak10s},
                                {"peak_10s_start_ns", b.peak10sStartNs}};
    const LittleInWindow &l = parts.little;
    result["littles_law"] = {{"from_ns", l.fromNs},
                             {"to_ns", l.toNs},
                             {"completions", l.completions},
                             {"throughput_per_s", l.throughputPerSecond},
                             {"mean_time_in_system_s", l.meanTimeInSystemSeconds},
                             {"expected_in_flight", l.expectedInFlight},
                             {"observed_in_flight", l.observedInFlight},
                             {"relative_gap", l.relativeGap},
                             {"consistent", l.consistent}};
    const LittlesLawCheck &s = parts.steadiness;
    result["steadiness"] = {{"judged", s.steadinessJudged},
                            {"steady", s.steady},
                            {"early_time_in_system_s", s.earlyTimeInSystemSeconds},
                            {"late_time_in_system_s", s.lateTimeInSystemSeconds}};
    return result;
}

} // namespace LoadReport
