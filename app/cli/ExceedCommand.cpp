#include "ExceedCommand.h"

#include "ClassCommandLoad.h"
#include "CliContext.h"
#include "ClickHouseAnalyses.h"
#include "PathOptions.h"

#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/PathAttribution.h"
#include "report/ExceedanceJson.h"
#include "report/ExceedanceText.h"
#include "report/PathReportJson.h"
#include "report/PathReportText.h"
#include "report/ReportText.h"

#include <nlohmann/json.hpp>

int runExceed(const CliContext &context)
{
    if (context.arguments.size() == 1 && computesOnServer(context.arguments.first()))
        return runExceedOnClickHouse(context);
    ClassCommandInput input;
    if (const int code = prepareClassCommand(context, QStringLiteral("exceed"), &input); code >= 0)
        return code;
    const auto &store = *input.load.store;
    const auto &options = input.options;
    ExceedanceSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.q = options.percentile;
    spec.order = options.order;
    SpanKeyKind keyKind = SpanKeyKind::Kind;
    if (!readKeyKind(context, &keyKind))
        return ExitUsage;
    // One report: no feature column is asked for twice, so none is kept.
    ColumnCache cache(input.load.store, ColumnCache::Retention::MetricsOnly);
    const auto analysis = ExceedanceAnalysis::compute(cache, input.slice, spec);
    // Workflow traces: the excess split over critical-path time, not over
    // request phases (a span tree has none beyond its model calls').
    std::optional<PathAttribution> paths;
    if (store.workflows.rowCount() > 0) {
        const WorkflowPaths computed = WorkflowPaths::compute(store, context.loadOptions.threads);
        const auto target = PhaseAttribution::totalFor(spec.metric) == Metric::E2e ? WorkflowPaths::Target::End
                                                                                   : WorkflowPaths::Target::FirstToken;
        paths = PathAttribution::compute(store, computed, SpanKeys::build(store, keyKind), analysis.set.members,
                                         analysis.set.rest, target);
    }
    if (context.json) {
        nlohmann::json document
            = ExceedanceJson::analysis(analysis, store.requests, input.sliceText, options.members, options.member);
        if (paths)
            document["critical_path_attribution"] = PathReportJson::attribution(*paths);
        document["file"] = context.arguments.first().toStdString();
        document["rejected"] = store.rejected.size();
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    ExceedanceText::Options text;
    text.slice = input.sliceText;
    text.listedMembers = options.members;
    text.member = options.member;
    if (paths)
        text.attributionText = PathReportText::attribution(*paths);
    context.out << ExceedanceText::analysis(analysis, store.requests, text) << '\n';
    if (!store.rejected.empty())
        context.out << ReportText::rejectedSummary(store.rejected, 5) << '\n';
    return ExitOk;
}
