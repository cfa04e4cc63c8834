#include "WorkActivity.h"

#include "LaneLayout.h"
#include "WorkflowLanes.h"

void WorkActivity::addLanes(const LaneLayout &layout, const WorkflowLanes &workflows, qint64 slotBegin, qint64 slotEnd,
                            bool aligned, qint64 windowBegin, qint64 windowDuration)
{
    if (m_bins <= 0 || windowDuration <= 0)
        return;
    const double binsPerNs = double(m_bins) / double(windowDuration);
    const double binsPerMs = binsPerNs * 1e6;
    for (qint64 slot = slotBegin; slot < slotEnd; ++slot) {
        const qint32 row = layout.rowAt(slot);
        if (row < 0) {
            ++m_headers;
            continue;
        }
        const qint32 lane = workflows.laneOfRow(row);
        if (lane < 0)
            continue;
        ++m_lanes;
        // The lane's origin is its row's first stamp, so on the aligned axis
        // it sits at 0 like the request lanes.
        const double base = double(aligned ? -windowBegin : workflows.origin(lane) - windowBegin) * binsPerNs;
        const auto path = workflows.path(lane);
        for (qint32 i = 0; i < path.count; ++i)
            addSegment(int(path.kind[i]), base + double(path.begin[i]) * binsPerMs,
                       base + double(path.end[i]) * binsPerMs);
    }
}

int WorkActivity::dominant(const float *values)
{
    int best = -1;
    float most = 0.0f;
    for (int c = 0; c < kCategories; ++c) {
        if (values[c] > most) {
            most = values[c];
            best = c;
        }
    }
    return best;
}
