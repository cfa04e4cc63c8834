#pragma once

#include "BinCoverage.h"
#include "analysis/workflows/WorkKind.h"

class LaneLayout;
class WorkflowLanes;

// How many workflow lanes have each kind on their critical path over a row
// of time bins: the aggregate the swimlane draws for workflow lanes too
// thin to draw one by one (the dominant kind per pixel) and the overview
// strip of a span trace. Off-path work is left out: the aggregate answers
// "what gated these workflows here".
class WorkActivity : public BinCoverage<kWorkKindCount>
{
public:
    using BinCoverage::BinCoverage;

    // Adds the workflow lanes among slots [slotBegin, slotEnd) of `layout`
    // (rows that are not workflows are skipped and not counted; headers are
    // counted) over [windowBegin, windowBegin + windowDuration) in ns.
    void addLanes(const LaneLayout &layout, const WorkflowLanes &workflows, qint64 slotBegin, qint64 slotEnd,
                  bool aligned, qint64 windowBegin, qint64 windowDuration);

    // The category with the most coverage in `values` (a bin's), or -1.
    static int dominant(const float *values);
};
