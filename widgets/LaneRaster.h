#pragma once

#include "SwimlaneColors.h"
#include "SwimlaneCoordinates.h"
#include "TimeWindow.h"

#include <QImage>
#include <QSize>

#include <memory>

class LaneLayout;
class TraceStore;
class WorkflowLanes;

// Everything one swimlane frame depends on; the canvas caches the rendered
// image under this key, so highlights drawn on top never invalidate it.
struct LaneFrameKey
{
    std::shared_ptr<const LaneLayout> layout;
    // Workflow lanes drawn by kind instead of by phase (null: none yet).
    std::shared_ptr<const WorkflowLanes> workflows;
    // Where lane labels (request ids, workflow names) are read.
    std::shared_ptr<const TraceStore> store;
    TimeAxis axis = TimeAxis::Absolute;
    TimeWindow window;
    SwimlaneCoordinates::LaneWindow lanes;
    QSize size; // device pixels
    qint64 tickOrigin = 0;
    SwimlaneColors colors;

    friend bool operator==(const LaneFrameKey &, const LaneFrameKey &) = default;
};

// Renders the cached part of a swimlane frame: grid, group headers and
// lanes. Lanes at least kSingleLaneMinPx tall are drawn one by one, as
// rectangles batched by colour, with a label (request id, workflow name)
// where the lane is tall enough; thinner lanes are aggregated per pixel row
// (LaneActivity): each pixel mixes the phase colours by their share of the
// lanes under it, stronger where more of those lanes are active. Pixel rows
// are split across `threads` workers.
//
// A workflow lane (a row of `workflows`) shows its critical path by kind
// along time in the upper part of the lane and the off-path work faintly in
// a band beneath; aggregated, a pixel shows the kind that holds the path of
// most of the row's workflows there (WorkActivity).
namespace LaneRaster {

QImage render(const LaneFrameKey &key, int threads = 2);

// True when render() would split the frame's pixel rows across the
// background pool (an aggregated frame of a layout with 20,000 slots or
// more). The GUI thread must not wait for that: the pool's threads run at a
// lower priority and may be busy with the views' jobs, so a frame of a few
// ms took the GUI thread away for up to 100 ms under load (the live window,
// tracelane-bench-live-gui); such a frame is built on a worker instead.
bool rendersOnPool(const LaneFrameKey &key);

// How many lanes an aggregated view must show before its frame is built on
// a worker, the GUI thread showing the previous frame scaled meanwhile. A
// workflow lane costs about 16x a request lane (path and off-path segments
// by kind, the dominant kind per pixel): 100,000 workflow lanes took ~390 ms
// on the GUI thread (bench_workflowlanes), 100,000 request lanes ~25 ms.
qint64 backgroundFrameLanes(bool workflowLanes);

// Time-axis grid spacing used by both the raster and the ruler.
qint64 gridStep(TimeWindow window, int widthPx);

// Where a single lane is drawn, in pixel rows: [top, top + height). A
// workflow lane draws its critical path in the first `pathHeight` rows and
// the off-path band in the rest (none when the lane is under 5 px).
struct LaneBands
{
    int top = 0;
    int height = 0;
    int pathHeight = 0;

    bool inOffPathBand(int y) const { return y >= top + pathHeight && y < top + height; }
};
LaneBands laneBands(SwimlaneCoordinates::LaneWindow lanes, double heightPx, qint64 slot);

} // namespace LaneRaster
