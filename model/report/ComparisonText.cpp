#include "ComparisonText.h"

#include "PathReportText.h"
#include "ReportFormat.h"
#include "TextTable.h"
#include "analysis/compare/TraceComparison.h"

#include <QLocale>

#include <cmath>

namespace ComparisonText {

namespace {

using Align = TextTable::Align;

QString signedFixed(double value, int decimals = 1)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    const QString text = QString::number(value, 'f', decimals);
    return value > 0 && text.toDouble() != 0.0 ? QStringLiteral("+") + text : text;
}

QString estimate(const QuantileEstimate &estimate)
{
    if (estimate.interval.n == 0)
        return QStringLiteral("none");
    if (estimate.tooFew())
        return ReportFormat::fixed(estimate.value) + QStringLiteral(" (too few)");
    return QStringLiteral("%1 [%2\u2013%3]")
        .arg(ReportFormat::fixed(estimate.value), ReportFormat::fixed(estimate.lower),
             ReportFormat::fixed(estimate.upper));
}

QString misses(qint64 count, qint64 n)
{
    return n > 0 ? QStringLiteral("%1 (%2)").arg(count).arg(ReportFormat::share(double(count) / double(n)))
                 : QStringLiteral("n/a");
}

QString cellVerdict(const ComparisonCell &cell)
{
    if (cell.baselineRequests == 0)
        return QStringLiteral("candidate only");
    if (cell.candidateRequests == 0)
        return QStringLiteral("baseline only");
    return PercentileDifference::verdictLabel(cell.difference.verdict);
}

QString differenceTable(const TraceComparison &comparison)
{
    const QString p = ReportFormat::percentileLabel(comparison.spec.q);
    QStringList dimensionNames;
    for (const auto &dimension : comparison.dimensions)
        dimensionNames << dimension.key;
    const QString first
        = dimensionNames.isEmpty() ? QStringLiteral("population") : dimensionNames.join(QStringLiteral(" \u00b7 "));
    TextTable table({first, QStringLiteral("n base"), QStringLiteral("n cand"), p + QStringLiteral(" base [95% CI]"),
                     p + QStringLiteral(" cand [95% CI]"), QStringLiteral("change [95% CI]"),
                     QStringLiteral("change %"), QStringLiteral("detectable \u00b1"), QStringLiteral("verdict"),
                     QStringLiteral("misses base"), QStringLiteral("misses cand")},
                    {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                     Align::Right, Align::Left, Align::Right, Align::Right});
    const auto add = [&](const ComparisonCell &cell) {
        const auto &d = cell.difference;
        table.addRow({cell.label(), QString::number(d.baseline.interval.n), QString::number(d.candidate.interval.n),
                      estimate(d.baseline), estimate(d.candidate), change(d), signedFixed(d.differencePercent),
                      ReportFormat::fixed(d.detectableMs), cellVerdict(cell),
                      misses(cell.baselineMisses, d.baseline.interval.n),
                      misses(cell.candidateMisses, d.candidate.interval.n)});
    };
    for (const auto &cell : comparison.cells)
        add(cell);
    add(comparison.overall);
    return table.render();
}

QString phaseTable(const TraceComparison &comparison)
{
    const PhaseShift &shift = comparison.phaseShift;
    const QString p = ReportFormat::percentileLabel(comparison.spec.q);
    TextTable table({QStringLiteral("phase"), QStringLiteral("mean base"), QStringLiteral("mean cand"),
                     QStringLiteral("change ms"), QStringLiteral("95% CI"), p + QStringLiteral(" base"),
                     p + QStringLiteral(" cand"), QStringLiteral("observed base/cand")},
                    {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                     Align::Right});
    for (const auto &row : shift.phases) {
        if (row.baselineObserved == 0 && row.candidateObserved == 0)
            continue; // a phase neither side observed has nothing to say
        table.addRow(
            {phaseKey(row.phase), ReportFormat::fixed(row.baselineMeanMs, 3),
             ReportFormat::fixed(row.candidateMeanMs, 3), signedFixed(row.changeMs(), 6),
             QStringLiteral("[%1, %2]").arg(signedFixed(row.changeLowerMs, 2), signedFixed(row.changeUpperMs, 2)),
             ReportFormat::fixed(row.baselinePercentileMs), ReportFormat::fixed(row.candidatePercentileMs),
             QStringLiteral("%1/%2").arg(row.baselineObserved).arg(row.candidateObserved)});
    }
    table.addRow({QStringLiteral("residual (unobserved)"), ReportFormat::fixed(shift.residualBaselineMeanMs, 3),
                  ReportFormat::fixed(shift.residualCandidateMeanMs, 3),
                  signedFixed(double(shift.residualChangeNs) / 1e6, 6), QString(), QString(), QString(), QString()});
    table.addRow({QStringLiteral("total ") + metricKey(shift.total), ReportFormat::fixed(shift.baselineMeanMs, 3),
                  ReportFormat::fixed(shift.candidateMeanMs, 3), signedFixed(double(shift.totalChangeNs) / 1e6, 6),
                  QString(), QString(), QString(), QStringLiteral("%1/%2").arg(shift.baselineN).arg(shift.candidateN)});
    return table.render();
}

QString workloadTable(const WorkloadComparability &workload)
{
    TextTable table({QStringLiteral("figure"), QStringLiteral("baseline"), QStringLiteral("candidate"),
                     QStringLiteral("difference"), QStringLiteral("threshold"), QStringLiteral("")},
                    {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Left});
    for (const auto &check : workload.checks) {
        QString difference = QStringLiteral("n/a");
        QString threshold = QStringLiteral("n/a");
        if (check.judged) {
            if (check.key == QLatin1String("arrival_rate") || check.key == QLatin1String("peak_in_flight")) {
                difference = signedFixed(100.0 * check.measure) + QLatin1Char('%');
                threshold
                    = QStringLiteral("\u00b1") + QString::number(100.0 * check.threshold, 'g', 3) + QLatin1Char('%');
            } else if (check.key == QLatin1String("burstiness")) {
                difference = signedFixed(check.measure, 2);
                threshold = QStringLiteral("\u00b1") + QString::number(check.threshold, 'f', 2);
            } else if (check.key.startsWith(QLatin1String("class_mix"))) {
                difference = QString::number(100.0 * check.measure, 'f', 1) + QStringLiteral(" pts");
                threshold = QString::number(100.0 * check.threshold, 'g', 3) + QStringLiteral(" pts");
            } else {
                difference = QStringLiteral("KS D %1").arg(QString::number(check.measure, 'f', 3));
                threshold = QString::number(check.threshold, 'f', 3);
            }
        }
        table.addRow({check.label, check.baselineText, check.candidateText, difference, threshold,
                      !check.judged       ? QStringLiteral("not compared: ") + check.note
                          : check.differs ? QStringLiteral("DIFFERS")
                                          : QStringLiteral("ok")});
    }
    return table.render();
}

QString sharesTable(const WorkflowComparison &workflows)
{
    TextTable table({QStringLiteral("critical-path time"), QStringLiteral("baseline"), QStringLiteral("candidate"),
                     QStringLiteral("change")},
                    {Align::Left, Align::Right, Align::Right, Align::Right});
    for (int part = 0; part < CriticalPathShares::kParts; ++part) {
        if (workflows.baseline.ms[size_t(part)] == 0.0 && workflows.candidate.ms[size_t(part)] == 0.0)
            continue;
        const double base = workflows.baseline.share(part);
        const double cand = workflows.candidate.share(part);
        table.addRow({CriticalPathShares::partLabel(part), ReportFormat::share(base), ReportFormat::share(cand),
                      signedFixed(100.0 * (cand - base)) + QStringLiteral(" pts")});
    }
    return table.render();
}

} // namespace

QString change(const PercentileDifference &difference, int decimals)
{
    if (difference.verdict == PercentileDifference::Verdict::TooFew)
        return std::isnan(difference.differenceMs)
            ? ReportFormat::tooFew()
            : signedFixed(difference.differenceMs, decimals) + QStringLiteral(" (too few)");
    return QStringLiteral("%1 [%2, %3]")
        .arg(signedFixed(difference.differenceMs, decimals), signedFixed(difference.lowerMs, decimals),
             signedFixed(difference.upperMs, decimals));
}

QString report(const TraceComparison &comparison)
{
    const QLocale locale = QLocale::c();
    const auto &spec = comparison.spec;
    QStringList lines;
    QString boundary = boundaryKey(comparison.observedBoundary) + QStringLiteral(" boundary");
    if (spec.metric == Metric::Ttft)
        boundary += QStringLiteral(" (") + boundarySpan(comparison.observedBoundary) + QLatin1Char(')');
    lines << QStringLiteral("Before and after: %1 %2 in %3, %4")
                 .arg(ReportFormat::percentileLabel(spec.q), metricLabel(spec.metric), metricUnit(spec.metric),
                      boundary);
    lines << QStringLiteral("Baseline:  ") + comparison.baselineLabel;
    lines << QStringLiteral("Candidate: ") + comparison.candidateLabel;
    for (const QString &note : comparison.notes)
        lines << QStringLiteral("Note: ") + note;
    if (!comparison.ok()) {
        lines << QStringLiteral("Cannot compare: ") + comparison.error;
        if (!comparison.workload.checks.empty()) {
            lines << QString() << QStringLiteral("Workload check (what can still be compared):");
            lines << workloadTable(comparison.workload);
        }
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Intervals: 95% for the difference, from each side's distribution-free order-statistic "
                            "interval (see README, \"Before and after\")");
    lines << QString();

    const ComparisonStopRule &rule = comparison.stopRule;
    QString outcome = ComparisonStopRule::outcomeLabel(rule.outcome).toUpper();
    if (rule.outcome == ComparisonStopRule::Outcome::Worked && rule.phase == ComparisonStopRule::Check::NotJudged)
        outcome += QStringLiteral(" at the target, with the guardrails held; the suspected phase was not checked");
    lines << QStringLiteral("Stop rule: %1").arg(outcome);
    for (const QString &reason : rule.reasons)
        lines << QStringLiteral("  - ") + reason;
    if (comparison.prediction)
        lines << QStringLiteral("Prediction: ") + comparison.prediction->sentence();
    lines << QString();

    lines << differenceTable(comparison);
    if (comparison.missesAgainstSlo) {
        lines << QStringLiteral("misses: requests above the SLO of %1 %2 on each side")
                     .arg(ReportFormat::fixed(spec.sloMs), metricUnit(spec.metric));
    } else {
        lines << QStringLiteral("misses: requests above each row's baseline %1 (no --slo given), so about %2 of the "
                                "baseline by construction")
                     .arg(ReportFormat::percentileLabel(spec.q), ReportFormat::share(1.0 - spec.q));
    }
    lines << QStringLiteral("detectable \u00b1: the smallest change these samples could tell from noise");
    lines << QString();

    const PhaseShift &shift = comparison.phaseShift;
    if (!shift.isEmpty()) {
        lines << QStringLiteral("Phase shift: mean %1 change split exactly over its phases (whole ns, parts add up to "
                                "the total); %2 of each phase side by side, never added")
                     .arg(metricLabel(shift.total), ReportFormat::percentileLabel(spec.q));
        bool anyObserved = false;
        for (const auto &row : shift.phases)
            anyObserved = anyObserved || row.baselineObserved > 0 || row.candidateObserved > 0;
        lines << phaseTable(comparison);
        if (!anyObserved)
            lines << QStringLiteral("No phase is observed on either side: the whole mean change is residual.");
        lines << (shift.movedMost
                      ? QStringLiteral("Moved most: %1 (%2 ms)")
                            .arg(phaseKey(*shift.movedMost), signedFixed(shift.row(*shift.movedMost)->changeMs(), 3))
                      : QStringLiteral("Moved most: no phase moved"));
        lines << QString();
    }

    lines << QStringLiteral("Workload check (the seed: preserve input and output distributions, replay a "
                            "representative load):");
    lines << workloadTable(comparison.workload);
    const QStringList warnings = comparison.workload.warnings();
    for (const QString &warning : warnings)
        lines << QStringLiteral("Warning: ") + warning;
    bool allJudged = true;
    for (const auto &check : comparison.workload.checks)
        allJudged = allJudged && check.judged;
    if (warnings.isEmpty()) {
        lines << (allJudged ? QStringLiteral("The two sides saw a comparable workload.")
                            : QStringLiteral("No difference found in what could be compared; the rest is unknown."));
    }

    if (comparison.workflows) {
        const auto &workflows = *comparison.workflows;
        lines << QString()
              << QStringLiteral("Workflows: %1 vs %2 (critical paths traced: %3 vs %4)")
                     .arg(locale.toString(workflows.baseline.workflows), locale.toString(workflows.candidate.workflows))
                     .arg(workflows.baseline.analysed)
                     .arg(workflows.candidate.analysed);
        lines << QStringLiteral("  E2E %1: %2 \u2192 %3 ms, change %4: %5")
                     .arg(ReportFormat::percentileLabel(spec.q), ReportFormat::fixed(workflows.e2e.baseline.value),
                          ReportFormat::fixed(workflows.e2e.candidate.value), change(workflows.e2e),
                          PercentileDifference::verdictLabel(workflows.e2e.verdict));
        lines << QStringLiteral("  TTFT %1: %2 \u2192 %3 ms, change %4: %5")
                     .arg(ReportFormat::percentileLabel(spec.q), ReportFormat::fixed(workflows.ttft.baseline.value),
                          ReportFormat::fixed(workflows.ttft.candidate.value), change(workflows.ttft),
                          PercentileDifference::verdictLabel(workflows.ttft.verdict));
        lines << sharesTable(workflows);
        if (workflows.paths)
            lines << QString() << PathReportText::attribution(*workflows.paths);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace ComparisonText
