#include "TraceComparison.h"

#include "ComparisonSamples.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <cmath>

namespace {

QString ms(double value, int decimals = 1)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("n/a");
}

QString signedMs(double value)
{
    return (value > 0 ? QStringLiteral("+") : QString()) + ms(value);
}

QString percentile(double q)
{
    const double p = q * 100.0;
    return QStringLiteral("p")
        + (std::abs(p - std::round(p)) < 1e-9 ? QString::number(qint64(std::round(p))) : QString::number(p, 'g', 4));
}

qint64 countAbove(std::span<const double> sorted, double threshold)
{
    if (std::isnan(threshold))
        return 0;
    return qint64(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), threshold));
}

ComparisonCell makeCell(const ComparisonSamples &samples, qsizetype index, const ComparisonSpec &spec)
{
    ComparisonCell cell;
    const auto base = samples.sorted(index, false);
    const auto cand = samples.sorted(index, true);
    if (index >= 0) {
        cell.classes = samples.cellClasses[size_t(index)];
        cell.baselineRequests = samples.base.cellRequests[size_t(index)];
        cell.candidateRequests = samples.cand.cellRequests[size_t(index)];
    } else {
        cell.baselineRequests = samples.base.requests;
        cell.candidateRequests = samples.cand.requests;
    }
    cell.difference = PercentileDifference::of(base, cand, spec.q, spec.confidence);
    cell.missThresholdMs = std::isfinite(spec.sloMs) ? spec.sloMs : cell.difference.baseline.value;
    cell.baselineMisses = countAbove(base, cell.missThresholdMs);
    cell.candidateMisses = countAbove(cand, cell.missThresholdMs);
    return cell;
}

Guardrail percentileGuardrail(const QString &key, const QString &label, const QString &unit,
                              std::span<const double> base, std::span<const double> cand, double tolerance)
{
    Guardrail guardrail;
    guardrail.key = key;
    guardrail.label = label;
    guardrail.unit = unit;
    const auto difference = PercentileDifference::of(base, cand, 0.95);
    guardrail.baseline = difference.baseline.value;
    guardrail.candidate = difference.candidate.value;
    if (base.empty() || cand.empty()) {
        guardrail.note = QStringLiteral("%1: not observed on %2")
                             .arg(label,
                                  base.empty() && cand.empty() ? QStringLiteral("either side")
                                      : base.empty()           ? QStringLiteral("the baseline")
                                                               : QStringLiteral("the candidate"));
        return guardrail;
    }
    if (difference.verdict == PercentileDifference::Verdict::TooFew) {
        guardrail.note = QStringLiteral("%1: too few requests for an interval").arg(label);
        return guardrail;
    }
    guardrail.judged = true;
    const double limit = guardrail.baseline * (1.0 + tolerance);
    guardrail.regressed = guardrail.candidate > limit && difference.lowerMs > 0.0;
    guardrail.note
        = QStringLiteral("%1 %2 \u2192 %3 %4 (%5%, change %6 %4, 95% interval [%7, %8])%9")
              .arg(label, ms(guardrail.baseline), ms(guardrail.candidate), unit)
              .arg(signedMs(difference.differencePercent), signedMs(difference.differenceMs),
                   signedMs(difference.lowerMs), signedMs(difference.upperMs),
                   guardrail.regressed
                       ? QStringLiteral(": regressed beyond %1%").arg(QString::number(100.0 * tolerance, 'g', 3))
                       : QString());
    return guardrail;
}

Guardrail shareGuardrail(const QString &key, const QString &label, double base, double cand, bool higherIsBetter,
                         double tolerance, const QString &whyNot)
{
    Guardrail guardrail;
    guardrail.key = key;
    guardrail.label = label;
    guardrail.unit = QStringLiteral("%");
    guardrail.baseline = 100.0 * base;
    guardrail.candidate = 100.0 * cand;
    if (!std::isfinite(base) || !std::isfinite(cand)) {
        guardrail.note = QStringLiteral("%1: %2").arg(label, whyNot);
        return guardrail;
    }
    guardrail.judged = true;
    const double worse = higherIsBetter ? base - cand : cand - base;
    guardrail.regressed = worse > tolerance;
    guardrail.note
        = QStringLiteral("%1 %2% \u2192 %3%%4")
              .arg(
                  label, ms(100.0 * base), ms(100.0 * cand),
                  guardrail.regressed
                      ? QStringLiteral(": worse by more than %1 points").arg(QString::number(100.0 * tolerance, 'g', 3))
                      : QString());
    return guardrail;
}

void checkStopRule(const ComparisonSamples &samples, const ComparisonSpec &spec, TraceComparison *result)
{
    ComparisonStopRule &rule = result->stopRule;
    rule.tolerance = spec.tolerance;
    const PercentileDifference &target = result->overall.difference;
    const QString what = QStringLiteral("%1 %2 (%3)")
                             .arg(percentile(spec.q), metricLabel(spec.metric), boundaryKey(result->observedBoundary));
    switch (target.verdict) {
    case PercentileDifference::Verdict::Improved:
        rule.target = ComparisonStopRule::Check::Passed;
        break;
    case PercentileDifference::Verdict::TooFew:
        rule.target = ComparisonStopRule::Check::NotJudged;
        break;
    default:
        rule.target = ComparisonStopRule::Check::Failed;
        break;
    }
    if (rule.target == ComparisonStopRule::Check::NotJudged) {
        rule.reasons << QStringLiteral("target %1: too few requests for an interval (%2 needs %3 per side)")
                            .arg(what, percentile(spec.q))
                            .arg(QuantileInterval::minimumSampleSize(spec.q, spec.confidence));
    } else {
        rule.reasons << QStringLiteral("target %1 %2 \u2192 %3 %4 (%5 %4, 95% interval [%6, %7]): %8")
                            .arg(what, ms(target.baseline.value), ms(target.candidate.value), metricUnit(spec.metric),
                                 signedMs(target.differenceMs), signedMs(target.lowerMs), signedMs(target.upperMs),
                                 PercentileDifference::verdictLabel(target.verdict));
    }

    if (spec.suspect) {
        rule.suspect = spec.suspect;
        rule.suspectSource = QStringLiteral("named by the user");
    } else if (isPhaseMetric(spec.metric)) {
        rule.suspect = metricPhase(spec.metric);
        rule.suspectSource = QStringLiteral("the metric itself");
    } else {
        rule.suspect = spec.q == samples.spec.q
            ? samples.base.tailSuspect
            : PhaseShift::tailSuspect(samples.baseline.table(), samples.baseline.rows, spec.metric, spec.boundary,
                                      spec.q);
        rule.suspectSource = QStringLiteral("carries the baseline's tail above its %1").arg(percentile(spec.q));
    }
    const PhaseShiftRow *row = rule.suspect ? result->phaseShift.row(*rule.suspect) : nullptr;
    if (!rule.suspect) {
        rule.phase = ComparisonStopRule::Check::NotJudged;
        rule.reasons << QStringLiteral("suspected phase: none named and none carries the baseline's tail (no phases "
                                       "observed, or the tail lies in unobserved time); name one with --suspect");
    } else if (!row) {
        rule.phase = ComparisonStopRule::Check::NotJudged;
        rule.reasons << QStringLiteral("suspected phase %1 lies outside %2, so its move cannot be read from this "
                                       "comparison")
                            .arg(phaseKey(*rule.suspect), metricLabel(result->phaseShift.total));
    } else if (row->baselineObserved == 0 || row->candidateObserved == 0) {
        rule.phase = ComparisonStopRule::Check::NotJudged;
        rule.reasons << QStringLiteral("suspected phase %1 (%2) is not observed on %3")
                            .arg(phaseKey(row->phase), rule.suspectSource,
                                 row->baselineObserved == 0 ? QStringLiteral("the baseline")
                                                            : QStringLiteral("the candidate"));
    } else {
        rule.phase = row->movedDown() ? ComparisonStopRule::Check::Passed : ComparisonStopRule::Check::Failed;
        rule.reasons << QStringLiteral(
                            "suspected phase %1 (%2): mean %3 \u2192 %4 ms (%5 ms, 95% interval [%6, %7]): %8")
                            .arg(phaseKey(row->phase), rule.suspectSource, ms(row->baselineMeanMs),
                                 ms(row->candidateMeanMs), signedMs(row->changeMs()), signedMs(row->changeLowerMs),
                                 signedMs(row->changeUpperMs),
                                 row->movedDown() ? QStringLiteral("moved") : QStringLiteral("did not move down"));
    }

    // Guardrails.
    rule.guardrails.push_back(percentileGuardrail(QStringLiteral("itl_p95"), QStringLiteral("ITL p95"),
                                                  QStringLiteral("ms/token"), samples.base.itl, samples.cand.itl,
                                                  spec.tolerance));
    rule.guardrails.push_back(percentileGuardrail(QStringLiteral("e2e_p95"), QStringLiteral("E2E p95"),
                                                  QStringLiteral("ms"), samples.base.e2e, samples.cand.e2e,
                                                  spec.tolerance));
    Goodput baseGoodput = samples.base.goodput;
    Goodput candGoodput = samples.cand.goodput;
    const bool sloChanged = spec.sloItlMs != samples.spec.sloItlMs
        || (spec.metric == Metric::Ttft
            && !(spec.sloMs == samples.spec.sloMs || (std::isnan(spec.sloMs) && std::isnan(samples.spec.sloMs))));
    if (sloChanged) {
        Slo slo;
        if (spec.metric == Metric::Ttft && std::isfinite(spec.sloMs))
            slo.ttftMs = spec.sloMs;
        slo.itlMs = spec.sloItlMs;
        baseGoodput = ServiceLoad::goodput(samples.baseline.table(), slo, spec.boundary, 0, &samples.baseline.rows);
        candGoodput = ServiceLoad::goodput(samples.candidate.table(), slo, spec.boundary, 0, &samples.candidate.rows);
    }
    const auto goodShare
        = [](const Goodput &goodput) { return goodput.completed > 0 ? goodput.goodShare() : std::nan(""); };
    Guardrail goodput = shareGuardrail(QStringLiteral("goodput"),
                                       QStringLiteral("Goodput (TTFT \u2264 %1 ms and ITL \u2264 %2 ms/token)")
                                           .arg(ms(baseGoodput.slo.ttftMs), ms(baseGoodput.slo.itlMs)),
                                       goodShare(baseGoodput), goodShare(candGoodput), true, spec.tolerance,
                                       QStringLiteral("no request with both TTFT and end observed on a side"));
    rule.guardrails.push_back(goodput);
    const auto failedShare = [](const SideSamples &side) {
        if (side.rejected < 0)
            return std::nan("");
        const double all = double(side.requests + side.rejected);
        return all > 0 ? double(side.rejected) / all : std::nan("");
    };
    rule.guardrails.push_back(shareGuardrail(QStringLiteral("failed_share"), QStringLiteral("Failed or rejected share"),
                                             failedShare(samples.base), failedShare(samples.cand), false,
                                             spec.tolerance,
                                             QStringLiteral("rejected records cannot be attributed to a side when "
                                                            "one file is split")));
    rule.decide();
    for (const Guardrail &guardrail : rule.guardrails)
        rule.reasons << QStringLiteral("guardrail ") + guardrail.note;
}

} // namespace

QString ComparisonCell::label() const
{
    return classes.isEmpty() ? QStringLiteral("overall") : classes.join(QStringLiteral(" \u00b7 "));
}

double ComparisonCell::baselineMissShare() const
{
    const qint64 n = difference.baseline.interval.n;
    return n > 0 ? double(baselineMisses) / double(n) : std::nan("");
}

double ComparisonCell::candidateMissShare() const
{
    const qint64 n = difference.candidate.interval.n;
    return n > 0 ? double(candidateMisses) / double(n) : std::nan("");
}

TraceComparison TraceComparison::evaluate(const ComparisonSamples &samples, const ComparisonSpec &spec)
{
    TraceComparison result;
    result.spec = spec;
    result.observedBoundary = samples.observedBoundary;
    result.baselineLabel = samples.baseline.label;
    result.candidateLabel = samples.candidate.label;
    result.dimensions = samples.dimensions;
    result.workload = samples.workload;
    result.notes = samples.notes;
    if (!samples.error.isEmpty()) {
        result.error = samples.error;
        return result;
    }
    if (!samples.spec.samePreparation(spec)) {
        result.error = QStringLiteral("the samples were prepared for another metric, boundary or class split");
        return result;
    }
    if (!samples.metricError.isEmpty()) {
        result.error = samples.metricError;
        return result;
    }
    if (!(spec.q > 0.0 && spec.q < 1.0)) {
        result.error = QStringLiteral("the percentile must lie strictly between 0 and 1");
        return result;
    }
    result.missesAgainstSlo = std::isfinite(spec.sloMs);
    result.overall = makeCell(samples, -1, spec);
    for (qsizetype cell = 0; cell < samples.cellCount(); ++cell)
        result.cells.push_back(makeCell(samples, cell, spec));

    result.phaseShift = PhaseShift::compute(samples.base.sums, samples.cand.sums,
                                            PhaseAttribution::totalFor(spec.metric), spec.boundary);
    for (PhaseShiftRow &row : result.phaseShift.phases) {
        row.baselinePercentileMs = Percentile::ofSorted(samples.base.phases[size_t(row.phase)], spec.q);
        row.candidatePercentileMs = Percentile::ofSorted(samples.cand.phases[size_t(row.phase)], spec.q);
    }
    checkStopRule(samples, spec, &result);
    if (std::isfinite(spec.predictedSavingMs))
        result.prediction = PredictionCheck::of(spec.predictedSavingMs, result.overall.difference);
    if (samples.workflows && samples.base.criticalPath && samples.cand.criticalPath) {
        WorkflowComparison workflows;
        workflows.e2e = PercentileDifference::of(samples.base.e2e, samples.cand.e2e, spec.q, spec.confidence);
        workflows.ttft = PercentileDifference::of(samples.base.ttft, samples.cand.ttft, spec.q, spec.confidence);
        workflows.baseline = *samples.base.criticalPath;
        workflows.candidate = *samples.cand.criticalPath;
        if (samples.base.pathGroup && samples.cand.pathGroup) {
            PathAttribution paths
                = PathAttribution::compare(*samples.cand.pathGroup, *samples.base.pathGroup, samples.spec.pathKey);
            paths.setName = QStringLiteral("candidate");
            paths.restName = QStringLiteral("baseline");
            workflows.paths = std::move(paths);
        }
        result.workflows = workflows;
    }
    return result;
}
