#pragma once

#include "CriticalPath.h"
#include "WorkKinds.h"

#include <vector>

class WorkflowSchedule;

// A stretch of a workflow's time: what it was doing and which span did it
// (an index into the SpanGraph; PathSection::kNoSpan for idle time).
struct WorkSegment
{
    qint64 begin = 0;
    qint64 end = 0;
    WorkKind kind = WorkKind::Other;
    qint32 span = PathSection::kNoSpan;

    friend bool operator==(const WorkSegment &, const WorkSegment &) = default;
};

// One workflow along time, as its swimlane draws it:
// - `path`: the critical path's sections in time order, each split by kind
//   (a model call by its phases, a parent's own time as coordination, a gap
//   between roots as idle). It covers the workflow from its start to its end.
// - `offPath`: the work the path does not wait for, in time order and never
//   overlapping: at each moment the deepest running span whose subtree has
//   no section on the path (its recorded times), split by kind. Ancestors of
//   path spans are not off-path work: they are only waiting for it.
struct WorkTimeline
{
    std::vector<WorkSegment> path;
    std::vector<WorkSegment> offPath;

    static WorkTimeline of(const WorkflowSchedule &schedule, const std::vector<PathSection> &criticalPath);
    // The same into `out`, reusing its storage (many workflows in a row).
    static void build(const WorkflowSchedule &schedule, const std::vector<PathSection> &criticalPath,
                      WorkTimeline &out);

    // The segment of `segments` holding instant `t`, or nullptr.
    static const WorkSegment *at(const std::vector<WorkSegment> &segments, qint64 t);
};
