#pragma once

#include "BinCoverage.h"
#include "store/Phase.h"

class LaneLayout;
class WorkflowLanes;

// How many lanes are in each phase (or in unobserved residual time) over a
// row of time bins: the honest aggregate behind the swimlane's level of
// detail and its overview strip (see BinCoverage).
class LaneActivity : public BinCoverage<kPhaseCount + 1>
{
public:
    static constexpr int kResidual = kPhaseCount;

    using BinCoverage::BinCoverage;

    // Adds lanes [slotBegin, slotEnd) of `layout` over the time window
    // [windowBegin, windowBegin + windowDuration) in ns; on the aligned axis
    // each lane is placed relative to its own origin. Header slots are
    // counted in headerCount() and drawn by nobody here. Rows that are
    // workflows in `workflows` are left to WorkActivity (not counted).
    void addLanes(const LaneLayout &layout, qint64 slotBegin, qint64 slotEnd, bool aligned, qint64 windowBegin,
                  qint64 windowDuration, const WorkflowLanes *workflows = nullptr);
};
