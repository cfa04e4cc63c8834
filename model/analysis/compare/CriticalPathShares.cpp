#include "CriticalPathShares.h"

#include "analysis/requests/RequestSlice.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "store/TraceStore.h"

#include <vector>

QString CriticalPathShares::partKey(int part)
{
    return part == kIdle ? QStringLiteral("idle") : spanCategoryKey(static_cast<SpanCategory>(part));
}

QString CriticalPathShares::partLabel(int part)
{
    if (part == kIdle)
        return QStringLiteral("Idle between spans");
    // An agent span is on the path only for its own time between children:
    // the coordination gaps the issue counts apart from the work.
    if (static_cast<SpanCategory>(part) == SpanCategory::Agent)
        return QStringLiteral("Agent coordination");
    return spanCategoryLabel(static_cast<SpanCategory>(part));
}

CriticalPathShares CriticalPathShares::of(const TraceStore &store, const RequestSlice &rows,
                                          const std::atomic<bool> *cancelled)
{
    CriticalPathShares shares;
    const auto &workflows = store.workflows;
    if (workflows.rowCount() == 0)
        return shares;
    const SpanGraphBuilder builder(store);
    for (qsizetype workflow = 0; workflow < workflows.rowCount(); ++workflow) {
        const qint32 row = workflows.requestRow[size_t(workflow)];
        if (row < 0 || row >= rows.rowCount() || !rows.contains(row))
            continue;
        if (cancelled && cancelled->load(std::memory_order_relaxed))
            return shares;
        ++shares.workflows;
        QString error;
        const auto schedule = WorkflowSchedule::build(builder.build(qint32(workflow)), &error);
        if (!schedule) {
            ++shares.failed;
            continue;
        }
        ++shares.analysed;
        for (const PathSection &section : schedule->criticalPath()) {
            const double ms = double(section.duration()) / 1e6;
            const int part = section.span == PathSection::kNoSpan
                ? kIdle
                : static_cast<int>(schedule->graph().category(section.span));
            shares.ms[size_t(part)] += ms;
            shares.pathMs += ms;
        }
    }
    return shares;
}
