// The `analysis` target, the analyses a user runs on whatever loaded: each
// input is loaded as a trace file of any format, then taken through what
// `analyse`, `slice`,
// `exceed`, `goodput`, `critical-path` and `whatif` compute and print. The
// loads are checked like the loader targets'; the analyses must not crash,
// hang or trip a sanitizer, whatever the numbers.

#include "FuzzTargets.h"

#include "FuzzChecks.h"
#include "FuzzInput.h"

#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassDimension.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/requests/ProfileReport.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "io/TraceFileLoader.h"
#include "report/ClassTableText.h"
#include "report/ExceedanceText.h"
#include "report/ReportJson.h"
#include "report/ReportText.h"
#include "report/ServiceLoadReport.h"
#include "report/WorkflowReportText.h"

#include <nlohmann/json.hpp>

#include <array>
#include <set>

namespace {

// One boundary and one metric per input (chosen by the input's size), so
// each execution stays short and every combination still comes up.
void requests(const std::shared_ptr<const TraceStore> &store, size_t choice)
{
    const RequestTable &table = store->requests;
    const RequestSlice all = RequestSlice::all(table.rowCount());
    const Boundary boundary = std::array{Boundary::Client, Boundary::Server, Boundary::Engine}[choice % 3];
    const Metric metric = std::array{Metric::Ttft, Metric::Itl, Metric::E2e, Metric::FirstPhase}[(choice / 3) % 4];
    const ProfileReport report = profileRequests(table, boundary, QStringLiteral("fuzz"), QStringLiteral("replay"));
    (void)ReportText::profile(report);
    (void)ReportJson::profile(report).dump();
    const Goodput goodput = ServiceLoad::goodput(table, Slo{}, boundary, qint64(store->rejected.size()));
    (void)ServiceLoadReport::text(goodput, ServiceLoad::littlesLaw(table));
    (void)ServiceLoad::concurrency(table, 64);

    ColumnCache cache(store);
    const auto dimensions = classDimensions(table);
    for (size_t d = 0; d < dimensions.size() && d < 3; ++d) {
        const auto &dimension = dimensions[(d + choice) % dimensions.size()];
        const std::vector<ClassColumn> columns{ClassColumn::build(table, dimension)};
        ClassTableSpec spec;
        spec.metric = metric;
        spec.boundary = boundary;
        const ClassTable classes = computeClassTable(*cache.metric(metric, boundary), columns, all, spec);
        (void)ClassTableText::table(classes, QStringLiteral("all"));
    }
    ExceedanceSpec spec;
    spec.metric = metric;
    spec.boundary = boundary;
    const auto exceedance = ExceedanceAnalysis::compute(cache, all, spec);
    (void)ExceedanceText::analysis(exceedance, table, {});
}

void workflows(const TraceStore &store)
{
    const SpanGraphBuilder builder(store);
    // What-ifs a user would try: every kind of span halved, the queue and
    // prefill shortened, the answer cut, one dependency added.
    std::vector<WhatIfEdit> edits;
    const auto addEdit = [&](bool (*parse)(const QString &, WhatIfEdit *, QString *), const QString &text) {
        WhatIfEdit edit;
        QString error;
        if (parse(text, &edit, &error))
            edits.push_back(edit);
    };
    addEdit(&WhatIfEdit::parseScalePhase, QStringLiteral("queue=0.5"));
    addEdit(&WhatIfEdit::parseScalePhase, QStringLiteral("prefill=-25%"));
    addEdit(&WhatIfEdit::parseShortenAnswer, QStringLiteral("30@24"));
    const qint32 count = qMin<qint32>(4, qint32(store.workflows.rowCount()));
    std::set<QString> kinds;
    for (qint32 workflow = 0; workflow < count; ++workflow) {
        const auto graph = builder.build(workflow);
        for (qint32 span = 0; span < graph->spanCount() && kinds.size() < 4; ++span) {
            if (!graph->operation(span).isEmpty())
                kinds.insert(graph->operation(span));
        }
    }
    for (const QString &kind : kinds)
        addEdit(&WhatIfEdit::parseScale, kind + QStringLiteral("=0.5"));
    if (kinds.size() >= 2)
        addEdit(&WhatIfEdit::parseAddDependency, *kinds.begin() + QLatin1Char('>') + *kinds.rbegin());
    PopulationWhatIf population(edits);
    for (qint32 workflow = 0; workflow < count; ++workflow) {
        QString error;
        const auto schedule = WorkflowSchedule::build(builder.build(workflow), &error);
        if (!schedule) {
            population.addFailure(QString::number(workflow), error);
            continue;
        }
        (void)WorkflowReportText::criticalPath(*schedule, QStringLiteral("w"));
        const WhatIfOutcome &outcome = population.add(*schedule);
        if (outcome.ok())
            (void)WorkflowReportText::whatIf(*schedule, outcome, QStringLiteral("w"));
    }
    (void)WorkflowReportText::population(population.result(0.95));
}

} // namespace

void FuzzTargets::analysis(const uint8_t *data, size_t size)
{
    static FuzzInput input;
    LoadOptions options;
    options.threads = 1;
    const LoadResult result = TraceFileLoader::load(input.write(data, size), options, nullptr);
    FuzzChecks::check(result);
    FuzzChecks::describe(result);
    if (!result.ok())
        return;
    requests(result.store, size);
    workflows(*result.store);
}
