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

qint32 WorkflowAnalysis::slowestWorkflow(const TraceStore &store)
{
    qint32 slowest = -1;
    qint64 longest = -1;
    for (qint32 w = 0; w < qint32(store.workflows.rowCount()); ++w) {
        const qint32 row = store.workflows.requestRow[size_t(w)];
        qint64 e2e = 0;
        if (row >= 0 && row < store.requests.rowCount()) {
            const qint64 send = store.requests.stamp(row, Stamp::ClientSend);
            const qint64 last = store.requests.stamp(row, Stamp::LastTokenClient);
            e2e = send == kNoTime || last == kNoTime ? 0 : last - send;
        }
        if (e2e > longest) {
            longest = e2e;
            slowest = w;
        }
    }
    return slowest;
}
