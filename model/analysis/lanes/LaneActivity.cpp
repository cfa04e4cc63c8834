#include "LaneActivity.h"

#include "LaneLayout.h"
#include "WorkflowLanes.h"

#include <cmath>

void LaneActivity::addLanes(const LaneLayout &layout, qint64 slotBegin, qint64 slotEnd, bool aligned,
                            qint64 windowBegin, qint64 windowDuration, const WorkflowLanes *workflows)
{
    if (m_bins <= 0 || windowDuration <= 0)
        return;
    const double binsPerNs = double(m_bins) / double(windowDuration);
    const double binsPerMs = binsPerNs * 1e6;
    for (qint64 slot = slotBegin; slot < slotEnd; ++slot) {
        if (layout.isHeader(slot)) {
            ++m_headers;
            continue;
        }
        if (workflows && workflows->laneOfRow(layout.rowAt(slot)) >= 0)
            continue;
        ++m_lanes;
        const qint64 origin = layout.origin(slot);
        if (origin == kNoTime)
            continue;
        // Integer subtraction first: epoch-sized times keep their precision.
        const double base = double(aligned ? -windowBegin : origin - windowBegin) * binsPerNs;
        const float *offsets = layout.offsets(slot);
        int previous = -1;
        double previousX = 0.0;
        for (int s = 0; s < kStampCount; ++s) {
            if (std::isnan(offsets[s]))
                continue;
            const double x = base + double(offsets[s]) * binsPerMs;
            if (previous >= 0) {
                // Consecutive stamps bound a phase; a gap over a missing
                // stamp is residual, never guessed into a phase.
                addSegment(s == previous + 1 ? previous : kResidual, previousX, x);
            }
            previous = s;
            previousX = x;
        }
    }
}
