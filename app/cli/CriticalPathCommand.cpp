#include "CriticalPathCommand.h"

#include "ClassCommandLoad.h"
#include "CliContext.h"
#include "PathOptions.h"
#include "WorkflowOptions.h"

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/PathTree.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "report/PathReportJson.h"
#include "report/PathReportText.h"
#include "report/ReportFormat.h"
#include "report/WorkflowReportJson.h"
#include "report/WorkflowReportText.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

// --aggregate: the slow set's critical paths against the rest's, by key.
int runAggregate(const CliContext &context)
{
    ClassCommandInput input;
    if (const int code = prepareClassCommand(context, QStringLiteral("critical-path --aggregate"), &input); code >= 0)
        return code;
    SpanKeyKind keyKind = SpanKeyKind::Kind;
    if (!readKeyKind(context, &keyKind))
        return ExitUsage;
    const QString path = context.arguments.first();
    const TraceStore &store = *input.load.store;
    if (!requireWorkflows(context, QStringLiteral("critical-path"), path, store))
        return ExitFailure;
    // Workflows are judged on E2E unless --metric says otherwise.
    ExceedanceSpec spec;
    spec.metric = context.parser.isSet(QStringLiteral("metric")) ? input.options.metric : Metric::E2e;
    spec.boundary = context.boundary;
    spec.q = input.options.percentile;
    ColumnCache cache(input.load.store);
    const ExceedanceSet set
        = findExceedanceSet(store.requests, *cache.metric(spec.metric, spec.boundary), input.slice, spec);
    const auto target = PhaseAttribution::totalFor(spec.metric) == Metric::E2e ? WorkflowPaths::Target::End
                                                                               : WorkflowPaths::Target::FirstToken;
    const WorkflowPaths paths = WorkflowPaths::compute(store, context.loadOptions.threads);
    const SpanKeys keys = SpanKeys::build(store, keyKind);
    const PathAttribution attribution = PathAttribution::compute(store, paths, keys, set.members, set.rest, target);
    const PathTree tree = PathTree::build(store, paths, keys, set.members, set.rest, target);
    for (qint32 w = 0; w < paths.workflowCount() && w < 10; ++w) {
        if (const QString error = paths.error(w); !error.isEmpty())
            context.err << QStringLiteral("tracelane-cli: %1: workflow %2: %3\n")
                               .arg(path, store.workflows.traceIdText(w), error);
    }
    if (context.json) {
        const nlohmann::json document
            = {{"file", path.toStdString()},
               {"slice", input.sliceText.toStdString()},
               {"metric", metricKey(spec.metric).toStdString()},
               {"percentile", spec.q},
               {"threshold", std::isfinite(set.threshold) ? nlohmann::json(set.threshold) : nlohmann::json(nullptr)},
               {"set_size", set.size()},
               {"rest_size", set.rest.size()},
               {"unschedulable_workflows", paths.failedCount()},
               {"critical_path_attribution", PathReportJson::attribution(attribution)},
               {"path_tree", PathReportJson::tree(tree)}};
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    context.out << QStringLiteral("Slow workflows: %1 above its %2 (%3 ms) in %4: %5 of %6 workflows; rest %7\n\n")
                       .arg(metricLabel(spec.metric), ReportFormat::percentileLabel(spec.q),
                            ReportFormat::fixed(set.threshold), input.sliceText)
                       .arg(set.size())
                       .arg(set.observedRequests)
                       .arg(set.rest.size())
                << PathReportText::attribution(attribution) << QStringLiteral("\n\n") << PathReportText::tree(tree)
                << '\n';
    return ExitOk;
}

} // namespace

int runCriticalPath(const CliContext &context)
{
    if (context.parser.isSet(QStringLiteral("aggregate")))
        return runAggregate(context);
    if (!expectOneFile(context, QStringLiteral("critical-path")))
        return ExitUsage;
    WorkflowInput input;
    if (!loadWorkflows(context, QStringLiteral("critical-path"), &input))
        return ExitFailure;
    const QString &path = input.path;
    const TraceStore &store = *input.load.store;
    const std::vector<qint32> &workflows = input.workflows;

    // Each workflow is written as soon as it is analysed: a trace of 80,000
    // workflows is 400 MB of JSON, too much to hold as one document.
    const SpanGraphBuilder builder(store);
    nlohmann::json errors = nlohmann::json::array();
    qsizetype written = 0;
    if (context.json)
        context.out << "{\n  \"file\": " << QString::fromStdString(nlohmann::json(path.toStdString()).dump())
                    << ",\n  \"format\": " << QString::fromStdString(nlohmann::json(store.format.toStdString()).dump())
                    << ",\n  \"workflows\": [";
    for (const qint32 workflow : workflows) {
        const QString id = store.workflows.traceIdText(workflow);
        QString error;
        const auto schedule = WorkflowSchedule::build(builder.build(workflow), &error);
        if (!schedule) {
            context.err << QStringLiteral("tracelane-cli: %1: workflow %2: %3\n").arg(path, id, error);
            errors.push_back({{"workflow", id.toStdString()}, {"error", error.toStdString()}});
            continue;
        }
        if (context.json) {
            // Indented as one element of the document's array.
            std::string element = WorkflowReportJson::criticalPath(*schedule, id).dump(2);
            for (size_t at = element.find('\n'); at != std::string::npos; at = element.find('\n', at + 1))
                element.insert(at + 1, 4, ' ');
            context.out << (written == 0 ? "\n    " : ",\n    ") << QString::fromStdString(element);
        } else {
            context.out << (written == 0 ? "" : "\n\n") << WorkflowReportText::criticalPath(*schedule, id);
        }
        ++written;
    }
    if (context.json) {
        std::string list = errors.dump(2);
        for (size_t at = list.find('\n'); at != std::string::npos; at = list.find('\n', at + 1))
            list.insert(at + 1, 2, ' ');
        context.out << (written == 0 ? "]" : "\n  ]") << ",\n  \"errors\": " << QString::fromStdString(list) << "\n}\n";
    } else if (written > 0) {
        context.out << '\n';
    }
    return written == 0 ? ExitFailure : ExitOk;
}
