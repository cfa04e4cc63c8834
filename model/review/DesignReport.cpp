#include "DesignReport.h"

#include "RecordText.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "report/ClassTableText.h"
#include "report/ReportFigures.h"
#include "report/ReportFormat.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace {

QString target(const Coordinates &coordinates)
{
    return QStringLiteral("%1 %2 %3")
        .arg(ReportFormat::percentileLabel(coordinates.q),
             boundaryKey(observedBoundary(coordinates.metric, coordinates.boundary)), metricLabel(coordinates.metric));
}

// "n = 2,000 · slice: all requests · trace: example.jsonl"
QString scopeText(qint64 n, const DesignReport::Options &options)
{
    return QStringLiteral("n = %1 \u00b7 slice: %2 \u00b7 trace: %3")
        .arg(RecordText::grouped(n), options.slice.isEmpty() ? QStringLiteral("all requests") : options.slice,
             options.trace);
}

bool stop(const std::atomic<bool> *cancelled)
{
    return cancelled && cancelled->load(std::memory_order_relaxed);
}

// The record itself: claim, objectives, coordinates, configuration, trace
// boundaries, suspect, experiment, stop rule.
void addRecord(ReportDocument &document, const DiagnosisRecord &record)
{
    document.heading(QStringLiteral("Diagnosis record"));
    std::vector<std::pair<QString, QString>> head;
    if (!record.claim.isEmpty())
        head.emplace_back(QStringLiteral("Claim"), record.claim);
    head.emplace_back(QStringLiteral("Measured on"),
                      record.measuredOn.isEmpty() ? QStringLiteral("not measured") : record.measuredOn);
    if (!record.author.isEmpty() || !record.date.isEmpty())
        head.emplace_back(QStringLiteral("Author"), QStringList{record.author, record.date}.join(QStringLiteral(", ")));
    document.facts(head);

    document.heading(QStringLiteral("Objectives"), 3);
    ReportTable objectives;
    objectives.header = {QStringLiteral("Objective"),    QStringLiteral("Verdict"), QStringLiteral("Percentile"),
                         QStringLiteral("95% interval"), QStringLiteral("n"),       QStringLiteral("Margin")};
    objectives.numeric = {false, false, true, true, true, true};
    for (size_t i = 0; i < record.objectives.size(); ++i) {
        const Objective &objective = record.objectives[i];
        const ObjectiveCheck *check
            = i < record.checks.size() && record.checks[i].objective == objective ? &record.checks[i] : nullptr;
        if (!check || !check->measured()) {
            objectives.rows.push_back({RecordText::objective(objective), QStringLiteral("not measured"), QString(),
                                       QString(), QString(), QString()});
            continue;
        }
        const QString unit = metricUnit(objective.metric);
        objectives.rows.push_back({RecordText::objective(objective), RecordText::checkVerdict(*check),
                                   RecordText::grouped(check->valueMs, 1) + QLatin1Char(' ') + unit,
                                   std::isnan(check->lowerMs) ? ReportFormat::tooFew()
                                                              : QStringLiteral("%1\u2013%2")
                                                                    .arg(RecordText::grouped(check->lowerMs, 1),
                                                                         RecordText::grouped(check->upperMs, 1)),
                                   RecordText::grouped(check->n),
                                   (check->marginMs() > 0 ? QStringLiteral("+") : QString())
                                       + RecordText::grouped(check->marginMs(), 1) + QLatin1Char(' ') + unit});
    }
    document.table(objectives);

    document.heading(QStringLiteral("The five coordinates"), 3);
    const Coordinates &c = record.coordinates;
    std::vector<std::pair<QString, QString>> coordinates = {
        {QStringLiteral("Observation boundary"),
         QStringLiteral("%1 (%2)").arg(boundaryKey(c.boundary), boundarySpan(c.boundary))},
        {QStringLiteral("Metric"), QStringLiteral("%1 (%2)").arg(metricLabel(c.metric), metricUnit(c.metric))},
        {QStringLiteral("Percentile"), ReportFormat::percentileLabel(c.q)},
        {QStringLiteral("Arrival process"),
         RecordText::arrival(c.arrival) + (c.arrivalNote.isEmpty() ? QString() : QStringLiteral(". ") + c.arrivalNote)},
    };
    QStringList shape{RecordText::tokens(c.shape)};
    shape += RecordText::classMix(c.shape);
    if (const QString workflows = RecordText::workflows(c.shape); !workflows.isEmpty())
        shape.append(workflows);
    if (!c.shapeNote.isEmpty())
        shape.append(c.shapeNote);
    coordinates.emplace_back(QStringLiteral("Request shape"), shape.join(QStringLiteral("; ")));
    document.facts(coordinates);

    if (!record.configuration.empty()) {
        document.heading(QStringLiteral("Configuration manifest"), 3);
        ReportTable manifest;
        manifest.header = {QStringLiteral("Key"), QStringLiteral("Value"), QStringLiteral("Source")};
        for (const ManifestEntry &entry : record.configuration)
            manifest.rows.push_back(
                {entry.key, entry.value, entry.fromTrace ? QStringLiteral("trace") : QStringLiteral("author")});
        document.table(manifest);
    }

    document.heading(QStringLiteral("Trace boundaries"), 3);
    const TraceBoundaries &b = record.boundaries;
    QStringList boundaries;
    if (!b.trace.isEmpty())
        boundaries.append(QStringLiteral("%1 (%2): %3 requests, %4 spans, %5 workflows")
                              .arg(b.trace, b.format, RecordText::grouped(b.requests), RecordText::grouped(b.spans),
                                   RecordText::grouped(b.workflows)));
    boundaries.append(RecordText::phases(b));
    boundaries.append(RecordText::rejected(b));
    for (const QString &caveat : b.clockCaveats)
        boundaries.append(QStringLiteral("Clock caveat: ") + caveat);
    if (!b.note.isEmpty())
        boundaries.append(b.note);
    document.bullets(boundaries);

    document.heading(QStringLiteral("Suspect, experiment and stop rule"), 3);
    document.facts({
        {QStringLiteral("Suspected phase"),
         record.suspect.phase.isEmpty()
             ? QStringLiteral("none")
             : QStringLiteral("%1 (%2)").arg(record.suspect.phase, RecordText::suspectSource(record.suspect.source))},
        {QStringLiteral("Evidence"), record.suspect.evidence},
        {QStringLiteral("Symptom"), record.experiment.symptom},
        {QStringLiteral("Experiment"), record.experiment.test},
        {QStringLiteral("Stop rule"), RecordText::stopRule(record.stopRule, record.coordinates)},
        {QStringLiteral("Verdict"), RecordText::verdict(record.verdict)},
    });
}

void addWorkload(ReportDocument &document, const DiagnosisRecord &record, const TraceStore &store,
                 const DesignReport::Options &options)
{
    document.heading(QStringLiteral("Workload distribution"));
    if (!record.workloadNote.isEmpty())
        document.paragraph(record.workloadNote);
    const qint64 n = options.rows.empty() ? store.requests.rowCount() : qint64(options.rows.size());
    if (options.rows.empty()) {
        document.figure({QStringLiteral("arrivals"), QStringLiteral("Arrivals and requests in flight"),
                         QStringLiteral("client boundary \u00b7 ") + scopeText(n, options),
                         ReportFigures::arrivals(ServiceLoad::concurrency(store.requests, 120))});
    }
    const QString tokens = ReportFigures::tokenShape(store.requests, options.rows);
    if (tokens.isEmpty())
        document.note(QStringLiteral("This trace reports no token counts; the request shape is unknown."));
    document.figure({QStringLiteral("token-shape"), QStringLiteral("Prompt and output tokens, jointly"),
                     scopeText(n, options), tokens});
}

QString defaultDimension(const RequestTable &table)
{
    for (const ClassDimension &dimension : classDimensions(table)) {
        if (dimension.kind == ClassDimension::Kind::WorkflowType)
            return dimension.key;
    }
    for (const AttributeColumn &column : table.attributes()) {
        if (!column.isNumeric() && column.valueCount() - 1 >= 2 && column.valueCount() - 1 <= 12)
            return column.name();
    }
    return QStringLiteral("prompt_band");
}

void addClasses(ReportDocument &document, const DiagnosisRecord &record, ColumnCache &cache, const RequestSlice &slice,
                const DesignReport::Options &options)
{
    const RequestTable &table = cache.table();
    const Coordinates &c = record.coordinates;
    QStringList keys = options.classDimensions;
    if (keys.isEmpty())
        keys.append(defaultDimension(table));
    std::vector<ClassColumn> columns;
    for (const QString &key : keys.mid(0, 2)) {
        ClassDimension dimension;
        if (classDimensionFromKey(table, key, &dimension))
            columns.push_back(ClassColumn::build(table, dimension, options.bands));
    }
    document.heading(QStringLiteral("Percentiles by class"));
    if (columns.empty()) {
        document.note(
            QStringLiteral("The trace has no class dimension named %1.").arg(keys.join(QStringLiteral(", "))));
        return;
    }
    ClassTableSpec spec;
    spec.metric = c.metric;
    spec.boundary = c.boundary;
    spec.exceedanceQ = c.q;
    const ClassTable classes = computeClassTable(*cache.metric(c.metric, c.boundary), columns, slice, spec);
    if (!classes.error.isEmpty()) {
        document.note(classes.error);
        return;
    }
    ReportTable out;
    QStringList dimensions;
    for (const ClassDimension &dimension : classes.dimensions) {
        out.header.append(dimension.label);
        out.numeric.push_back(false);
        dimensions.append(dimension.label);
    }
    const QString unit = metricUnit(classes.metric);
    out.header += {QStringLiteral("Requests"), QStringLiteral("Share"), QStringLiteral("n")};
    out.numeric.insert(out.numeric.end(), {true, true, true});
    for (const double q : kClassQuantiles) {
        out.header.append(QStringLiteral("%1 [95%] (%2)").arg(ReportFormat::percentileLabel(q), unit));
        out.numeric.push_back(true);
    }
    out.header.append(QStringLiteral("Share of the %1 tail").arg(ReportFormat::percentileLabel(classes.exceedanceQ)));
    out.numeric.push_back(true);
    const auto row = [&](const ClassCell &cell, const QStringList &labels) {
        QStringList cells = labels;
        cells += {RecordText::grouped(cell.requests), ReportFormat::share(cell.requestShare),
                  RecordText::grouped(cell.n)};
        for (const QuantileEstimate &estimate : cell.quantiles)
            cells.append(ClassTableText::estimate(estimate));
        cells.append(ReportFormat::share(cell.exceedanceShare));
        return cells;
    };
    for (const ClassCell &cell : classes.cells)
        out.rows.push_back(row(cell, cell.classes));
    QStringList overall;
    for (qsizetype i = 0; i < qsizetype(classes.dimensions.size()); ++i)
        overall.append(i == 0 ? QStringLiteral("overall") : QString());
    out.rows.push_back(row(classes.overall, overall));
    document.table(out);
    if (classes.mixture)
        document.paragraph(QStringLiteral("Warning: ") + classes.mixture->text(classes));
    // The first objective on this metric draws its threshold.
    double threshold = ReportFigures::kNoThreshold;
    for (const Objective &objective : record.objectives) {
        if (objective.metric == classes.metric && std::isnan(threshold))
            threshold = objective.thresholdMs;
    }
    document.figure(
        {QStringLiteral("class-cdfs"),
         QStringLiteral("%1 CDF by %2").arg(metricLabel(classes.metric), dimensions.join(QStringLiteral(" \u00d7 "))),
         QStringLiteral("%1 at the %2 boundary (%3) \u00b7 p50, p90, p95, p99 of the overall marked \u00b7 %4")
             .arg(metricLabel(classes.metric), boundaryKey(classes.boundary), unit,
                  scopeText(classes.overall.n, options)),
         ReportFigures::classCdfs(classes, threshold)});
}

void addExceedance(ReportDocument &document, const DiagnosisRecord &record, ColumnCache &cache,
                   const RequestSlice &slice, const DesignReport::Options &options)
{
    const RequestTable &table = cache.table();
    const Coordinates &c = record.coordinates;
    const ExceedanceSet set
        = findExceedanceSet(table, *cache.metric(c.metric, c.boundary), slice,
                            ExceedanceSpec{c.metric, c.boundary, c.q, ExceedanceOrder::MetricDescending});
    document.heading(QStringLiteral("The exceedance set: requests above the %1").arg(target(c)));
    if (set.isEmpty() || set.rest.empty()) {
        document.note(QStringLiteral("No request lies above the %1 (n = %2).")
                          .arg(target(c), RecordText::grouped(set.observedRequests)));
        return;
    }
    const QString setText
        = QStringLiteral("%1 of %2 requests above %3 (%4), rest n = %5")
              .arg(RecordText::grouped(set.size()), RecordText::grouped(set.observedRequests),
                   ReportText::duration(set.threshold), target(c), RecordText::grouped(qint64(set.rest.size())));
    document.paragraph(setText + QLatin1Char('.'));
    const PhaseAttribution attribution
        = PhaseAttribution::compute(table, set.members, set.rest, PhaseAttribution::totalFor(c.metric), c.boundary);
    document.figure(
        {QStringLiteral("phase-attribution"), QStringLiteral("Phase attribution of the exceedance set"),
         QStringLiteral("mean %1 at the %2 boundary, set minus rest \u00b7 %3 \u00b7 slice: %4 \u00b7 trace: %5")
             .arg(metricLabel(attribution.total), boundaryKey(attribution.boundary), setText,
                  options.slice.isEmpty() ? QStringLiteral("all requests") : options.slice, options.trace),
         ReportFigures::phaseAttribution(attribution)});
    if (attribution.suspected)
        document.paragraph(
            QStringLiteral("Suspect: %1. Next test: %2").arg(phaseKey(*attribution.suspected), attribution.nextTest));
    document.note(PhaseAttribution::percentileNote());
    const size_t members = std::min(set.members.size(), size_t(std::max(0, options.members)));
    const std::vector<qint32> slowest(set.members.begin(), set.members.begin() + qsizetype(members));
    // A TTFT set is read before its streams: the axis ends past the longest TTFT.
    double window = ReportFigures::kNoThreshold;
    if (PhaseAttribution::totalFor(c.metric) == Metric::Ttft) {
        window = 0.0;
        for (const qint32 row : slowest)
            window = std::max(window, metricValueMs(table, row, Metric::Ttft, c.boundary) * 1.3);
    }
    document.figure({QStringLiteral("slowest-members"),
                     QStringLiteral("The %1 slowest members, phase by phase").arg(members),
                     QStringLiteral("%1 at the %2 boundary, slowest first \u00b7 %3")
                         .arg(metricLabel(c.metric), boundaryKey(c.boundary), scopeText(qint64(members), options)),
                     ReportFigures::memberTimelines(table, slowest, c.boundary, window)});
}

void addWorkflow(ReportDocument &document, const TraceStore &store, const DesignReport::Options &options)
{
    if (store.workflows.rowCount() == 0)
        return;
    const qint32 workflow = options.workflow >= 0 ? options.workflow : WorkflowAnalysis::slowestWorkflow(store);
    document.heading(QStringLiteral("Critical path and what-ifs"));
    const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(store, workflow);
    if (!analysis.ok()) {
        document.note(QStringLiteral("Workflow %1 could not be analysed: %2").arg(analysis.workflowId, analysis.error));
        return;
    }
    const WorkflowSchedule &schedule = *analysis.schedule;
    const SpanGraph &graph = schedule.graph();
    const QString timing = QStringLiteral("workflow %1: E2E %2%3, %4 spans")
                               .arg(analysis.workflowId, ReportText::duration(double(analysis.timing.e2e()) / 1e6),
                                    analysis.timing.ttft() == kNoTime
                                        ? QString()
                                        : QStringLiteral(", client TTFT %1")
                                              .arg(ReportText::duration(double(analysis.timing.ttft()) / 1e6)))
                               .arg(graph.spanCount());
    document.figure({QStringLiteral("critical-path"), QStringLiteral("Critical path of the slowest workflow"),
                     QStringLiteral("client boundary \u00b7 %1 \u00b7 trace: %2").arg(timing, options.trace),
                     ReportFigures::criticalPath(schedule, analysis.path, analysis.slack)});

    // Time on the path by span, largest first: where a change can pay.
    std::map<qint32, qint64> onPath;
    for (const PathSection &section : analysis.path) {
        if (section.span != PathSection::kNoSpan)
            onPath[section.span] += section.duration();
    }
    std::vector<std::pair<qint32, qint64>> ranked(onPath.begin(), onPath.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second > b.second; });

    std::vector<std::pair<QString, std::vector<WhatIfEdit>>> changes;
    if (!options.whatIfs.empty()) {
        QStringList names;
        for (const WhatIfEdit &edit : options.whatIfs) {
            // A span named by its id reads as its label ("model call: final
            // answer"), as the other rows of this table do.
            QString name = edit.toString();
            for (const SpanSelector *selector : {&edit.target, &edit.from}) {
                const std::vector<qint32> spans
                    = selector->isEmpty() ? std::vector<qint32>() : selector->resolve(graph);
                if (spans.size() == 1 && selector->ordinal == 0 && graph.idText(spans.front()) == selector->text)
                    name.replace(selector->toString(), graph.label(spans.front()));
            }
            names.append(name);
        }
        changes.emplace_back(names.join(QStringLiteral(" + ")), options.whatIfs);
    }
    for (size_t i = 0; i < std::min<size_t>(4, ranked.size()); ++i) {
        WhatIfEdit edit;
        edit.kind = WhatIfEdit::Kind::ScaleSpans;
        edit.target = SpanSelector{graph.idText(ranked[i].first), 0};
        edit.factor = 0.75;
        changes.emplace_back(QStringLiteral("%1 25% faster").arg(graph.label(ranked[i].first)), std::vector{edit});
    }
    ReportTable table;
    table.header = {QStringLiteral("Change"), QStringLiteral("E2E after (ms)"), QStringLiteral("Saving (ms)"),
                    QStringLiteral("TTFT saving (ms)")};
    table.numeric = {false, true, true, true};
    std::vector<std::pair<QString, double>> savings;
    for (const auto &[label, edits] : changes) {
        const WhatIfOutcome outcome = WhatIf::run(schedule, edits);
        if (!outcome.ok()) {
            table.rows.push_back({label, outcome.error, QString(), QString()});
            continue;
        }
        const double saving = double(outcome.e2eSaving()) / 1e6;
        table.rows.push_back(
            {label, RecordText::grouped(double(outcome.after.e2e()) / 1e6, 2), RecordText::grouped(saving, 2),
             outcome.ttftSaving() == kNoTime ? QStringLiteral("\u2014")
                                             : RecordText::grouped(double(outcome.ttftSaving()) / 1e6, 2)});
        savings.emplace_back(label, saving);
    }
    document.table(table);
    document.figure({QStringLiteral("what-if-savings"), QStringLiteral("What each change would save"),
                     QStringLiteral("E2E of %1 \u00b7 re-scheduled through the dependency graph \u00b7 trace: %2")
                         .arg(analysis.workflowId, options.trace),
                     ReportFigures::whatIfSavings(savings)});
}

// Workflow traces: the candidate's mean total minus the baseline's, split
// over critical-path time by key (the keys that moved, largest first).
void addPathComparison(ReportDocument &document, const PathAttribution &paths)
{
    const QString total = PathAttribution::targetLabel(paths.target);
    document.heading(QStringLiteral("Critical path: candidate against baseline"), 3);
    if (paths.isEmpty()) {
        document.note(QStringLiteral("No critical path to compare: the %1 has no workflow with a %2.")
                          .arg(paths.setN == 0 ? paths.setName : paths.restName, total));
        return;
    }
    document.paragraph(QStringLiteral("Mean %1: candidate %2 \u2212 baseline %3 = %4, split exactly over critical-path "
                                      "time by %5 (candidate n = %6, baseline n = %7; sums in integer ns).")
                           .arg(total, ReportText::duration(paths.setMeanMs), ReportText::duration(paths.restMeanMs),
                                ReportText::duration(paths.differenceMs), spanKeyKindKey(paths.keyKind))
                           .arg(paths.setN)
                           .arg(paths.restN));
    ReportTable table;
    table.header = {QStringLiteral("key"), QStringLiteral("baseline mean (ms)"), QStringLiteral("candidate mean (ms)"),
                    QStringLiteral("difference (ms)"), QStringLiteral("on path baseline / candidate")};
    table.numeric = {false, true, true, true, true};
    const auto fixed = [](double ms) { return ReportFormat::fixed(std::abs(ms) < 0.05 ? 0.0 : ms); };
    for (const auto &key : paths.keys) {
        if (key.setSumNs == 0 && key.restSumNs == 0)
            continue;
        table.rows.push_back({paths.label(key), fixed(key.restMeanMs), fixed(key.setMeanMs), fixed(key.differenceMs),
                              ReportFormat::share(key.restShareOnPath) + QStringLiteral(" / ")
                                  + ReportFormat::share(key.setShareOnPath)});
    }
    table.rows.push_back({QStringLiteral("outside the span tree"), fixed(paths.outsideRestMeanMs),
                          fixed(paths.outsideSetMeanMs), fixed(paths.outsideDifferenceMs), QString()});
    table.rows.push_back({QStringLiteral("total"), fixed(paths.restMeanMs), fixed(paths.setMeanMs),
                          fixed(paths.sumOfContributions()), QString()});
    document.table(std::move(table));
    QStringList verdict;
    if (paths.suspect)
        verdict << QStringLiteral("Suspect: %1 (%2 of the %3 difference)")
                       .arg(paths.label(paths.keys[*paths.suspect]),
                            ReportText::duration(paths.keys[*paths.suspect].differenceMs),
                            ReportText::duration(paths.differenceMs));
    else if (paths.outsideCarriesMost)
        verdict << QStringLiteral("Suspect: none; time outside the span tree carries most of the difference");
    else if (paths.differenceMs < 0.0 && paths.largestSaving())
        verdict << QStringLiteral("Suspect: none; the candidate is faster on average, most of all in %1 (%2)")
                       .arg(paths.label(*paths.largestSaving()),
                            ReportText::duration(paths.largestSaving()->differenceMs));
    else
        verdict << QStringLiteral("Suspect: none; no key is slower on the candidate's critical paths");
    if (!paths.nextTest.isEmpty())
        verdict << QStringLiteral("Next test: ") + paths.nextTest;
    document.bullets(verdict);
}

void addComparison(ReportDocument &document, const DiagnosisRecord &record, const DesignReport::Options &options)
{
    if (!options.comparison)
        return;
    const TraceComparison &comparison = *options.comparison;
    document.heading(QStringLiteral("Baseline and candidate"));
    if (!comparison.ok()) {
        document.note(QStringLiteral("The traces could not be compared: %1").arg(comparison.error));
        return;
    }
    const PercentileDifference &overall = comparison.overall.difference;
    document.paragraph(
        QStringLiteral("%1 %2: %3 \u2192 %4, change %5 [95% interval %6, %7]: %8.")
            .arg(ReportFormat::percentileLabel(comparison.spec.q),
                 QStringLiteral("%1 (%2)").arg(metricLabel(comparison.spec.metric),
                                               boundaryKey(comparison.observedBoundary)),
                 ReportText::duration(overall.baseline.value), ReportText::duration(overall.candidate.value),
                 ReportText::duration(overall.differenceMs), ReportText::duration(overall.lowerMs),
                 ReportText::duration(overall.upperMs), PercentileDifference::verdictLabel(overall.verdict)));
    document.figure({QStringLiteral("comparison"), QStringLiteral("Baseline and candidate at the target percentile"),
                     QStringLiteral("%1 \u00b7 baseline %2 \u00b7 candidate %3")
                         .arg(target(record.coordinates), comparison.baselineLabel, comparison.candidateLabel),
                     ReportFigures::comparison(comparison)});
    document.heading(QStringLiteral("Stop rule"), 3);
    QStringList reasons = comparison.stopRule.reasons;
    reasons.prepend(QStringLiteral("Verdict: %1").arg(ComparisonStopRule::outcomeLabel(comparison.stopRule.outcome)));
    for (const QString &warning : comparison.workload.warnings())
        reasons.append(QStringLiteral("Workload: ") + warning);
    document.bullets(reasons);
    if (comparison.workflows && comparison.workflows->paths)
        addPathComparison(document, *comparison.workflows->paths);
}

} // namespace

namespace DesignReport {

ReportDocument build(const DiagnosisRecord &record, const std::shared_ptr<const TraceStore> &store,
                     const Options &options, const std::atomic<bool> *cancelled)
{
    ReportDocument document;
    document.title = record.title.isEmpty() ? QStringLiteral("Latency diagnosis") : record.title;
    QStringList subtitle{
        QStringLiteral("trace %1").arg(options.trace),
        QStringLiteral("slice: %1").arg(options.slice.isEmpty() ? QStringLiteral("all requests") : options.slice),
        QStringLiteral("target %1").arg(target(record.coordinates))};
    if (!options.date.isEmpty())
        subtitle.append(options.date);
    document.subtitle = subtitle.join(QStringLiteral(" \u00b7 "));
    addRecord(document, record);
    if (!store || stop(cancelled))
        return document;
    addWorkload(document, record, *store, options);
    if (stop(cancelled))
        return document;
    ColumnCache cache(store);
    const qsizetype rows = store->requests.rowCount();
    const RequestSlice slice
        = options.rows.empty() ? RequestSlice::all(rows) : RequestSlice::fromRows(rows, options.rows);
    if (!store->requests.isEmpty()) {
        addClasses(document, record, cache, slice, options);
        if (stop(cancelled))
            return document;
        addExceedance(document, record, cache, slice, options);
        if (stop(cancelled))
            return document;
    }
    addWorkflow(document, *store, options);
    addComparison(document, record, options);
    return document;
}

void judge(DiagnosisRecord &record, const TraceComparison &comparison, const QString &candidate)
{
    StopVerdict &verdict = record.verdict;
    verdict.candidate = candidate;
    if (!comparison.ok()) {
        verdict.outcome = StopVerdict::Outcome::Inconclusive;
        verdict.detail = comparison.error;
        return;
    }
    switch (comparison.stopRule.outcome) {
    case ComparisonStopRule::Outcome::Worked:
        verdict.outcome = StopVerdict::Outcome::Worked;
        break;
    case ComparisonStopRule::Outcome::DidNotWork:
        verdict.outcome = StopVerdict::Outcome::DidNotWork;
        break;
    case ComparisonStopRule::Outcome::Inconclusive:
        verdict.outcome = StopVerdict::Outcome::Inconclusive;
        break;
    }
    verdict.baselineMs = comparison.overall.difference.baseline.value;
    verdict.candidateMs = comparison.overall.difference.candidate.value;
    verdict.detail = comparison.stopRule.reasons.join(QStringLiteral("; "));
}

} // namespace DesignReport
