#pragma once

#include "WhatIfEdit.h"
#include "WorkflowSchedule.h"

#include <QStringList>

#include <span>

// A workflow before and after a what-if, re-scheduled through its event
// graph: every span keeps its place in the dependency structure and its
// original coordination gaps; only the edited times change.
struct WhatIfOutcome
{
    QString error;         // set when the changed workflow cannot be scheduled (a cycle)
    QStringList unmatched; // edits that found nothing to change in this workflow
    QStringList applied;   // what each edit changed, for people
    WorkflowTiming before;
    WorkflowTiming after;
    std::vector<PathSection> pathBefore;
    std::vector<PathSection> pathAfter;
    std::vector<qint64> slackAfter; // per span, ScheduleGraph::kUnbounded if it gates nothing
    std::vector<qint64> startAfter; // per span, re-scheduled (on the clipped times)
    std::vector<qint64> endAfter;

    bool ok() const { return error.isEmpty(); }
    qint64 e2eSaving() const { return before.e2e() - after.e2e(); }
    qint64 ttftSaving() const
    {
        return before.ttft() == kNoTime || after.ttft() == kNoTime ? kNoTime : before.ttft() - after.ttft();
    }
};

namespace WhatIf {

// Applies `edits` together: added dependencies first, then every scaling.
// An edit that matches nothing is listed in `unmatched` and changes nothing.
WhatIfOutcome run(const WorkflowSchedule &schedule, std::span<const WhatIfEdit> edits);

// The span whose stream is "the answer" when a shorten-answer edit names
// none: the model call (a span with a stream phase) that ends last.
qint32 finalAnswerSpan(const SpanGraph &graph);

} // namespace WhatIf
