#include "RecordDraft.h"

#include "ConfigurationManifest.h"
#include "ObjectiveEvaluation.h"
#include "TraceCoverage.h"
#include "WorkloadSummary.h"
#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/requests/PhaseAdvice.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/SortedColumn.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "report/ReportFormat.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <QLocale>

#include <map>

namespace {

QString grouped(qint64 value)
{
    return QLocale(QLocale::English).toString(value);
}

QString objectiveCoordinates(Metric metric, Boundary boundary, double q)
{
    return QStringLiteral("%1 %2 %3")
        .arg(ReportFormat::percentileLabel(q), boundaryKey(observedBoundary(metric, boundary)), metricLabel(metric));
}

SuspectedPhase fromAttribution(const TraceStore &store, std::span<const qint32> rows, Boundary boundary, Metric metric,
                               double q)
{
    const RequestTable &table = store.requests;
    SuspectedPhase suspect;
    const SortedColumn column = SortedColumn::build(metricColumnMs(table, metric, boundary));
    const RequestSlice slice
        = rows.empty() ? RequestSlice::all(table.rowCount()) : RequestSlice::fromRows(table.rowCount(), rows);
    const ExceedanceSet set = findExceedanceSet(table, column, slice, ExceedanceSpec{metric, boundary, q});
    if (set.isEmpty() || set.rest.empty()) {
        suspect.evidence = QStringLiteral("no requests above the %1 to compare with the rest")
                               .arg(objectiveCoordinates(metric, boundary, q));
        return suspect;
    }
    const PhaseAttribution attribution
        = PhaseAttribution::compute(table, set.members, set.rest, PhaseAttribution::totalFor(metric), boundary);
    const QString setName = QStringLiteral("the %1 of %2 requests above the %3 (%4)")
                                .arg(grouped(set.size()), grouped(set.observedRequests),
                                     objectiveCoordinates(metric, boundary, q), ReportText::duration(set.threshold));
    if (!attribution.suspected) {
        suspect.evidence = attribution.residualCarriesMost
            ? QStringLiteral("%1: most of their excess over the rest is time no observed phase covers "
                             "(residual %2); no phase is blamed")
                  .arg(setName, ReportText::duration(attribution.residualDifferenceMs))
            : QStringLiteral("%1: no phase is longer on average than in the rest").arg(setName);
        return suspect;
    }
    const Phase phase = *attribution.suspected;
    double difference = 0.0;
    for (const PhaseContribution &contribution : attribution.phases) {
        if (contribution.phase == phase)
            difference = contribution.differenceMs;
    }
    suspect.source = SuspectedPhase::Source::PhaseAttribution;
    suspect.phase = phaseKey(phase);
    suspect.evidence = QStringLiteral("%1 spend %2 longer in %3 on average than the rest: %4 of their %5 mean "
                                      "excess in %6 %7")
                           .arg(setName, ReportText::duration(difference), phaseKey(phase),
                                ReportFormat::share(difference / attribution.differenceMs),
                                ReportText::duration(attribution.differenceMs), boundaryKey(attribution.boundary),
                                metricLabel(attribution.total));
    return suspect;
}

SuspectedPhase fromCriticalPath(const TraceStore &store)
{
    SuspectedPhase suspect;
    const qint32 workflow = WorkflowAnalysis::slowestWorkflow(store);
    if (workflow < 0)
        return suspect;
    const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(store, workflow);
    if (!analysis.ok()) {
        suspect.evidence = QStringLiteral("the slowest workflow could not be analysed: %1").arg(analysis.error);
        return suspect;
    }
    const SpanGraph &graph = analysis.schedule->graph();
    // Time on the path by (span, phase): a section inside a model call's
    // phase counts for that phase, the rest of a span's section for the span.
    std::map<std::pair<qint32, int>, qint64> onPath;
    qint64 total = 0;
    for (const PathSection &section : analysis.path) {
        total += section.duration();
        if (section.span == PathSection::kNoSpan)
            continue;
        qint64 covered = 0;
        for (const SpanGraph::PhaseInterval &phase : graph.phases(section.span)) {
            const qint64 overlap = qMin(section.end, phase.end) - qMax(section.start, phase.begin);
            if (overlap > 0) {
                onPath[{section.span, int(phase.phase)}] += overlap;
                covered += overlap;
            }
        }
        if (section.duration() > covered)
            onPath[{section.span, -1}] += section.duration() - covered;
    }
    if (onPath.empty() || total <= 0)
        return suspect;
    auto largest = onPath.begin();
    for (auto it = onPath.begin(); it != onPath.end(); ++it) {
        if (it->second > largest->second)
            largest = it;
    }
    const auto [span, phase] = largest->first;
    const QString label = graph.label(span);
    suspect.source = SuspectedPhase::Source::CriticalPath;
    suspect.phase = phase < 0 ? label : label + QStringLiteral(" \u00b7 ") + phaseKey(static_cast<Phase>(phase));
    suspect.evidence = QStringLiteral("%1 holds %2 of the slowest workflow's critical path (%3 of %4, workflow %5)")
                           .arg(suspect.phase, ReportText::duration(double(largest->second) / 1e6),
                                ReportFormat::share(double(largest->second) / double(total)),
                                ReportText::duration(double(total) / 1e6), analysis.workflowId);
    return suspect;
}

QString loadText(const ArrivalProcess &arrival)
{
    if (arrival.requests < 2 || std::isnan(arrival.ratePerSecond))
        return QStringLiteral("the same arrivals as the baseline trace (%1 request(s))").arg(grouped(arrival.requests));
    QString text = QStringLiteral("about %1 requests/s").arg(QString::number(arrival.ratePerSecond, 'f', 1));
    if (!std::isnan(arrival.gapCv))
        text += QStringLiteral(" with the baseline's burstiness (gap CV %1)")
                    .arg(QString::number(arrival.gapCv, 'f', 2));
    if (arrival.peakInFlight > 0)
        text += QStringLiteral(", up to %1 in flight").arg(grouped(arrival.peakInFlight));
    return text + QStringLiteral(", and the same request shape");
}

} // namespace

namespace RecordDraft {

std::vector<Objective> defaultObjectives()
{
    return {Objective{Metric::Ttft, Boundary::Client, 0.95, 1200.0},
            Objective{Metric::Itl, Boundary::Client, 0.95, 80.0}};
}

QStringList defaultGuardrails()
{
    return {QStringLiteral("quality: evaluation score no lower than the baseline's"),
            QStringLiteral("cost: cost per request at most 5% higher"),
            QStringLiteral("fairness: no class's p95 worse by more than 10%")};
}

SuspectedPhase suspect(const TraceStore &store, std::span<const qint32> rows, Boundary boundary, Metric metric,
                       double q)
{
    if (store.workflows.rowCount() > 0)
        return fromCriticalPath(store);
    return fromAttribution(store, rows, boundary, metric, q);
}

Experiment experimentFor(const SuspectedPhase &suspect, const Coordinates &coordinates)
{
    Experiment experiment;
    const QString target = objectiveCoordinates(coordinates.metric, coordinates.boundary, coordinates.q);
    Phase phase = Phase::Queue;
    const QString phasePart = suspect.phase.section(QStringLiteral(" \u00b7 "), -1);
    const bool isPhase = phaseFromKey(phasePart, &phase);
    switch (suspect.source) {
    case SuspectedPhase::Source::PhaseAttribution:
        experiment.symptom = QStringLiteral("%1 tail carried by %2").arg(target, suspect.phase);
        break;
    case SuspectedPhase::Source::CriticalPath:
        experiment.symptom = QStringLiteral("the critical path is dominated by %1").arg(suspect.phase);
        break;
    case SuspectedPhase::Source::Person:
        experiment.symptom = QStringLiteral("%1 suspected in %2").arg(suspect.phase, target);
        break;
    case SuspectedPhase::Source::None:
        experiment.symptom = QStringLiteral("%1 too high; no phase stands out").arg(target);
        experiment.test = QStringLiteral("add the missing phase stamps (see the trace boundaries) so the "
                                         "unobserved time can be placed, then re-run the attribution");
        return experiment;
    }
    experiment.test = isPhase ? nextTestFor(phase)
                              : QStringLiteral("scale %1 in a what-if to see what it would save, then change it "
                                               "and verify at %2 under the same load")
                                    .arg(suspect.phase, target);
    return experiment;
}

void measure(DiagnosisRecord &record, const TraceStore &store, const Scope &scope)
{
    record.measuredOn = scope.slice.isEmpty() || scope.slice == QStringLiteral("all requests")
        ? scope.trace
        : QStringLiteral("%1 (%2)").arg(scope.trace, scope.slice);
    record.checks.clear();
    for (const Objective &objective : record.objectives) {
        record.checks.push_back(scope.rows.empty() ? ObjectiveEvaluation::check(store.requests, objective)
                                                   : ObjectiveEvaluation::check(store.requests, scope.rows, objective));
    }
    record.coordinates.arrival = WorkloadSummary::arrivals(store, scope.rows);
    record.coordinates.shape = WorkloadSummary::shape(store, scope.rows);
    record.configuration
        = ConfigurationManifest::merged(record.configuration, ConfigurationManifest::fromTrace(store, scope.trace));
    const QString note = record.boundaries.note;
    record.boundaries = TraceCoverage::boundaries(store, scope.rows, scope.trace);
    record.boundaries.note = note;
    if (record.suspect.source != SuspectedPhase::Source::Person) {
        record.suspect
            = suspect(store, scope.rows, record.coordinates.boundary, record.coordinates.metric, record.coordinates.q);
    }
    if (record.experiment.symptom.isEmpty() && record.experiment.test.isEmpty())
        record.experiment = experimentFor(record.suspect, record.coordinates);
    if (record.stopRule.representativeLoad.isEmpty())
        record.stopRule.representativeLoad = loadText(record.coordinates.arrival);
}

DiagnosisRecord draft(const TraceStore &store, const Scope &scope, Boundary boundary, Metric metric, double q)
{
    DiagnosisRecord record;
    record.title = QStringLiteral("Latency diagnosis: %1").arg(scope.trace);
    record.objectives = defaultObjectives();
    record.objectives.front().boundary = boundary;
    record.coordinates.boundary = boundary;
    record.coordinates.metric = metric;
    record.coordinates.q = q;
    record.stopRule.guardrails = defaultGuardrails();
    measure(record, store, scope);
    return record;
}

} // namespace RecordDraft
