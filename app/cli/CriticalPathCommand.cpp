#include "CriticalPathCommand.h"

#include "CliContext.h"
#include "WorkflowOptions.h"

#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "report/WorkflowReportJson.h"
#include "report/WorkflowReportText.h"

#include <nlohmann/json.hpp>

int runCriticalPath(const CliContext &context)
{
    if (context.arguments.size() != 1) {
        context.err << QStringLiteral("tracelane-cli critical-path: expected exactly one FILE\n\n")
                    << context.parser.helpText();
        return ExitUsage;
    }
    const QString path = context.arguments.first();
    LoadResult result;
    if (!loadForCli(context, path, &result))
        return ExitFailure;
    const TraceStore &store = *result.store;
    std::vector<qint32> workflows;
    if (!selectWorkflows(context, path, store, &workflows))
        return ExitFailure;

    const SpanGraphBuilder builder(store);
    nlohmann::json analysed = nlohmann::json::array();
    nlohmann::json errors = nlohmann::json::array();
    QStringList blocks;
    for (const qint32 workflow : workflows) {
        const QString id = store.workflows.traceIdText(workflow);
        QString error;
        const auto schedule = WorkflowSchedule::build(builder.build(workflow), &error);
        if (!schedule) {
            context.err << QStringLiteral("tracelane-cli: %1: workflow %2: %3\n").arg(path, id, error);
            errors.push_back({{"workflow", id.toStdString()}, {"error", error.toStdString()}});
            continue;
        }
        if (context.json)
            analysed.push_back(WorkflowReportJson::criticalPath(*schedule, id));
        else
            blocks << WorkflowReportText::criticalPath(*schedule, id);
    }
    if (context.json) {
        const nlohmann::json document = {{"file", path.toStdString()},
                                         {"format", store.format.toStdString()},
                                         {"workflows", analysed},
                                         {"errors", errors}};
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else if (!blocks.isEmpty()) {
        context.out << blocks.join(QStringLiteral("\n\n")) << '\n';
    }
    return analysed.empty() && blocks.isEmpty() ? ExitFailure : ExitOk;
}
