#include "WorkflowAnalysis.h"

#include "LongLivedStreams.h"
#include "SpanGraphBuilder.h"
#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/SortedColumn.h"
#include "store/TraceStore.h"

#include <cmath>

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

qint32 WorkflowAnalysis::representativeWorkflow(const TraceStore &store, Metric metric, Boundary boundary, double q)
{
    const auto &workflows = store.workflows;
    if (workflows.rowCount() == 0)
        return -1;
    const std::vector<quint8> longLived = LongLivedStreams::find(store);
    const auto &requests = store.requests;
    std::vector<qint32> workflowOfRow(size_t(requests.rowCount()), -1);
    std::vector<qint32> workflowRows;
    for (qint32 w = 0; w < qint32(workflows.rowCount()); ++w) {
        const qint32 row = workflows.requestRow[size_t(w)];
        if (row >= 0 && row < requests.rowCount()) {
            workflowOfRow[size_t(row)] = w;
            workflowRows.push_back(row);
        }
    }
    // The exceedance set among the workflows (a mixed file's flat requests
    // are not candidates), slowest first.
    const SortedColumn column = SortedColumn::build(metricColumnMs(requests, metric, boundary));
    const RequestSlice slice = RequestSlice::fromRows(requests.rowCount(), workflowRows);
    ExceedanceSpec spec;
    spec.metric = metric;
    spec.boundary = boundary;
    spec.q = q;
    spec.order = ExceedanceOrder::MetricDescending;
    const ExceedanceSet set = findExceedanceSet(requests, column, slice, spec);
    for (const qint32 row : set.members) {
        const qint32 w = workflowOfRow[size_t(row)];
        if (w >= 0 && !longLived[size_t(w)])
            return w;
    }
    // Too few workflows for a percentile, or every member a stream: the
    // slowest by E2E that is not one.
    qint32 best = -1;
    qint64 longest = -1;
    for (qint32 w = 0; w < qint32(workflows.rowCount()); ++w) {
        if (longLived[size_t(w)])
            continue;
        const qint32 row = workflows.requestRow[size_t(w)];
        const double e2e = row >= 0 ? metricValueMs(requests, row, Metric::E2e, boundary) : std::nan("");
        const qint64 ns = std::isnan(e2e) ? 0 : qint64(std::llround(e2e * 1e6));
        if (ns > longest) {
            longest = ns;
            best = w;
        }
    }
    return best >= 0 ? best : slowestWorkflow(store);
}
