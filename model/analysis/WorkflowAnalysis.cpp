#include "WorkflowAnalysis.h"

#include "SpanGraphBuilder.h"
#include "store/TraceStore.h"

WorkflowAnalysis WorkflowAnalysis::analyse(const TraceStore &store, qint32 workflow)
{
    if (workflow < 0 || workflow >= store.workflows.rowCount()) {
        WorkflowAnalysis analysis;
        analysis.error = QStringLiteral("no workflow %1").arg(workflow);
        return analysis;
    }
    WorkflowAnalysis analysis = analyse(SpanGraphBuilder(store).build(workflow), store.workflows.traceIdText(workflow));
    analysis.workflow = workflow;
    return analysis;
}

WorkflowAnalysis WorkflowAnalysis::analyse(std::shared_ptr<const SpanGraph> graph, const QString &workflowId)
{
    WorkflowAnalysis analysis;
    analysis.workflowId = workflowId;
    auto schedule = WorkflowSchedule::build(std::move(graph), &analysis.error);
    if (!schedule)
        return analysis;
    auto shared = std::make_shared<const WorkflowSchedule>(std::move(*schedule));
    analysis.path = shared->criticalPath();
    analysis.slack = shared->slack();
    analysis.timing = shared->timing();
    analysis.schedule = std::move(shared);
    return analysis;
}

qint32 WorkflowAnalysis::workflowOfRequestRow(const TraceStore &store, qint32 row)
{
    const auto &requestRows = store.workflows.requestRow;
    for (size_t w = 0; w < requestRows.size(); ++w) {
        if (requestRows[w] == row)
            return qint32(w);
    }
    return -1;
}
