#pragma once

#include "WorkflowSchedule.h"
#include "analysis/requests/Metric.h"

#include <QString>

#include <memory>

class TraceStore;

// One workflow analysed for display: its schedule, critical path, slack
// and timing, computed together off the GUI thread and handed over as a
// plain value (the schedule is shared and immutable).
struct WorkflowAnalysis
{
    qint32 workflow = -1;
    QString workflowId;
    QString error; // why it could not be analysed
    std::shared_ptr<const WorkflowSchedule> schedule;
    std::vector<PathSection> path;
    std::vector<qint64> slack; // per span; ScheduleGraph::kUnbounded if it gates nothing
    WorkflowTiming timing;

    bool ok() const { return schedule != nullptr; }

    static WorkflowAnalysis analyse(const TraceStore &store, qint32 workflow);
    static WorkflowAnalysis analyse(std::shared_ptr<const SpanGraph> graph, const QString &workflowId);

    // The workflow whose summary row in the RequestTable is `row`, or -1.
    static qint32 workflowOfRequestRow(const TraceStore &store, qint32 row);
    // The workflow with the longest E2E (the first of equals), or -1 when
    // the store has none.
    static qint32 slowestWorkflow(const TraceStore &store);
    // What a view shows before the user picks one: the first member of the
    // exceedance set of `metric` at `boundary` (workflows strictly above its
    // q-percentile, slowest first) that is not a long-lived stream
    // (LongLivedStreams); failing that the slowest workflow that is not one,
    // then the slowest; -1 when the store has no workflow.
    static qint32 representativeWorkflow(const TraceStore &store, Metric metric, Boundary boundary, double q = 0.95);
};
