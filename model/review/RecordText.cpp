#include "RecordText.h"

#include "report/ReportFormat.h"
#include "report/ReportText.h"

#include <QLocale>

#include <cmath>

namespace RecordText {

QString grouped(qint64 value)
{
    return QLocale(QLocale::English).toString(value);
}

QString grouped(double value, int decimals)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString milliseconds(double value)
{
    return grouped(value, 1) + QStringLiteral(" ms");
}

static QString unitValue(double value, Metric metric)
{
    return grouped(value, 1) + QLatin1Char(' ') + metricUnit(metric);
}

QString objective(const Objective &objective)
{
    const double threshold = objective.thresholdMs;
    const QString value = std::floor(threshold) == threshold ? grouped(qint64(threshold)) : grouped(threshold, 1);
    return QStringLiteral("%1 %2 %3 < %4 %5")
        .arg(ReportFormat::percentileLabel(objective.q),
             boundaryKey(observedBoundary(objective.metric, objective.boundary)), metricLabel(objective.metric), value,
             metricUnit(objective.metric));
}

QString checkVerdict(const ObjectiveCheck &check)
{
    if (!check.measured())
        return QStringLiteral("not measured");
    QString text = check.met ? QStringLiteral("met") : QStringLiteral("missed");
    if (!check.decided)
        text += QStringLiteral(" (not decided at 95%)");
    return text;
}

QString check(const ObjectiveCheck &check)
{
    const Metric metric = check.objective.metric;
    if (!check.measured())
        return QStringLiteral("not measured: no request with %1 defined").arg(metricLabel(metric));
    QString text = QStringLiteral("%1 by %2: %3 %4")
                       .arg(check.met ? QStringLiteral("met") : QStringLiteral("missed"),
                            unitValue(std::abs(check.marginMs()), metric),
                            ReportFormat::percentileLabel(check.objective.q), unitValue(check.valueMs, metric));
    if (std::isnan(check.lowerMs)) {
        text += QStringLiteral(" (too few requests for a 95% interval)");
    } else {
        text += QStringLiteral(" [95% interval %1\u2013%2]")
                    .arg(grouped(check.lowerMs, 1), unitValue(check.upperMs, metric));
    }
    text += QStringLiteral(", n = %1").arg(grouped(check.n));
    if (!check.decided && !std::isnan(check.lowerMs))
        text += QStringLiteral("; the interval straddles the threshold, so this trace cannot decide it");
    return text;
}

QString arrival(const ArrivalProcess &arrival)
{
    if (arrival.requests == 0)
        return QStringLiteral("no arrivals observed");
    if (std::isnan(arrival.ratePerSecond))
        return QStringLiteral("%1 request(s) arriving at once; no arrival process to describe")
            .arg(grouped(arrival.requests));
    QString text = QStringLiteral("%1 requests/s over %2")
                       .arg(grouped(arrival.ratePerSecond, 1), ReportText::duration(arrival.windowSeconds * 1000.0));
    if (!std::isnan(arrival.gapCv)) {
        const QString kind = arrival.gapCv > 1.3 ? QStringLiteral("bursty")
            : arrival.gapCv < 0.7                ? QStringLiteral("more regular than Poisson")
                                                 : QStringLiteral("about Poisson");
        text += QStringLiteral(", gap CV %1 (%2)").arg(grouped(arrival.gapCv, 2), kind);
    }
    if (!std::isnan(arrival.peakPerSecond))
        text += QStringLiteral(", peak %1 arrivals in one second").arg(grouped(qint64(arrival.peakPerSecond)));
    if (arrival.peakInFlight > 0) {
        text += QStringLiteral(", up to %1 in flight").arg(grouped(arrival.peakInFlight));
        if (!std::isnan(arrival.meanInFlight))
            text += QStringLiteral(" (mean %1)").arg(grouped(arrival.meanInFlight, 1));
    }
    return text;
}

static QString spread(const TokenSpread &spread)
{
    if (spread.n == 0)
        return QStringLiteral("not reported");
    return QStringLiteral("p50 %1 / p95 %2 / max %3")
        .arg(grouped(qint64(std::llround(spread.p50))), grouped(qint64(std::llround(spread.p95))),
             grouped(qint64(std::llround(spread.max))));
}

QString tokens(const RequestShape &shape)
{
    return QStringLiteral("prompt tokens %1; output tokens %2").arg(spread(shape.prompt), spread(shape.output));
}

QStringList classMix(const RequestShape &shape)
{
    QStringList lines;
    for (const ClassMix &mix : shape.classes) {
        QStringList parts;
        for (const auto &[value, share] : mix.shares)
            parts.append(QStringLiteral("%1 %2").arg(value, ReportFormat::share(share)));
        if (mix.otherValues > 0)
            parts.append(QStringLiteral("%1 other value(s)").arg(mix.otherValues));
        lines.append(QStringLiteral("%1: %2").arg(mix.dimension, parts.join(QStringLiteral(", "))));
    }
    return lines;
}

QString workflows(const RequestShape &shape)
{
    if (shape.workflows == 0)
        return {};
    return QStringLiteral("%1 workflow(s): %2 spans (median, at most %3), %4 model call(s) (median)")
        .arg(grouped(shape.workflows), grouped(shape.spansPerWorkflowP50, 0), grouped(shape.spansPerWorkflowMax),
             grouped(shape.modelCallsPerWorkflowP50, 0));
}

QString phases(const TraceBoundaries &boundaries)
{
    QStringList observed;
    QStringList missing;
    for (const auto &[phase, count] : boundaries.phases) {
        if (count == 0)
            missing.append(phaseKey(phase));
        else if (count == boundaries.requests)
            observed.append(phaseKey(phase));
        else
            observed.append(
                QStringLiteral("%1 (%2 of %3)").arg(phaseKey(phase), grouped(count), grouped(boundaries.requests)));
    }
    QString text = observed.isEmpty() ? QStringLiteral("no phase observed")
                                      : QStringLiteral("observed: %1").arg(observed.join(QStringLiteral(", ")));
    if (!missing.isEmpty())
        text += QStringLiteral("; not observed (residual, never guessed): %1").arg(missing.join(QStringLiteral(", ")));
    return text;
}

QString rejected(const TraceBoundaries &boundaries)
{
    if (boundaries.rejected == 0)
        return QStringLiteral("no record rejected");
    QStringList reasons;
    for (const ReasonCount &reason : boundaries.rejectedReasons)
        reasons.append(QStringLiteral("%1 \u00d7 %2").arg(grouped(reason.count)).arg(reason.reason));
    return QStringLiteral("%1 record(s) rejected: %2")
        .arg(grouped(boundaries.rejected), reasons.join(QStringLiteral("; ")));
}

QString suspectSource(SuspectedPhase::Source source)
{
    switch (source) {
    case SuspectedPhase::Source::PhaseAttribution:
        return QStringLiteral("from the phase attribution of the exceedance set");
    case SuspectedPhase::Source::CriticalPath:
        return QStringLiteral("from the critical path of the slowest workflow");
    case SuspectedPhase::Source::Person:
        return QStringLiteral("named by the author");
    case SuspectedPhase::Source::None:
        break;
    }
    return QStringLiteral("no suspect");
}

QString verdict(const StopVerdict &verdict)
{
    switch (verdict.outcome) {
    case StopVerdict::Outcome::NotJudged:
        return QStringLiteral("not judged: no candidate trace compared yet");
    case StopVerdict::Outcome::Worked:
    case StopVerdict::Outcome::DidNotWork:
    case StopVerdict::Outcome::Inconclusive:
        break;
    }
    const QString outcome = verdict.outcome == StopVerdict::Outcome::Worked ? QStringLiteral("the change worked")
        : verdict.outcome == StopVerdict::Outcome::DidNotWork               ? QStringLiteral("the change did not work")
                                                                            : QStringLiteral("inconclusive");
    QString text
        = QStringLiteral("%1 (candidate %2: %3 \u2192 %4)")
              .arg(outcome, verdict.candidate, milliseconds(verdict.baselineMs), milliseconds(verdict.candidateMs));
    if (!verdict.detail.isEmpty())
        text += QStringLiteral(": ") + verdict.detail;
    return text;
}

QString stopRule(const StopRule &rule, const Coordinates &coordinates)
{
    const QString target = QStringLiteral("%1 %2 %3")
                               .arg(ReportFormat::percentileLabel(coordinates.q),
                                    boundaryKey(observedBoundary(coordinates.metric, coordinates.boundary)),
                                    metricLabel(coordinates.metric));
    QString text = QStringLiteral("optimise the suspect only if it carries at least %1 of the %2 excess")
                       .arg(ReportFormat::share(rule.materialShare), target);
    if (rule.minimumGainMs > 0.0)
        text
            += QStringLiteral(", the change moves the %1 by at least %2").arg(target, milliseconds(rule.minimumGainMs));
    else
        text += QStringLiteral(", the change moves the %1").arg(target);
    text += QStringLiteral(" under representative load (%1)")
                .arg(rule.representativeLoad.isEmpty() ? QStringLiteral("not stated") : rule.representativeLoad);
    if (!rule.guardrails.isEmpty())
        text += QStringLiteral(", and no guardrail regresses: %1").arg(rule.guardrails.join(QStringLiteral("; ")));
    return text;
}

} // namespace RecordText
