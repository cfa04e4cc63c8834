#pragma once

#include "SwimlaneColors.h"
#include "SwimlaneCoordinates.h"
#include "TimeWindow.h"

#include <QImage>
#include <QSize>

#include <memory>

class LaneLayout;

// Everything one swimlane frame depends on; the canvas caches the rendered
// image under this key, so highlights drawn on top never invalidate it.
struct LaneFrameKey
{
    std::shared_ptr<const LaneLayout> layout;
    TimeAxis axis = TimeAxis::Absolute;
    TimeWindow window;
    SwimlaneCoordinates::LaneWindow lanes;
    QSize size;   // device pixels
    qint64 tickOrigin = 0;
    SwimlaneColors colors;

    friend bool operator==(const LaneFrameKey &, const LaneFrameKey &) = default;
};

// Renders the cached part of a swimlane frame: grid, group headers and
// lanes. Lanes at least kSingleLaneMinPx tall are drawn one by one, as
// rectangles batched by colour; thinner lanes are aggregated per pixel row
// (LaneActivity): each pixel mixes the phase colours by their share of the
// lanes under it, stronger where more of those lanes are active. Pixel rows
// are split across `threads` workers.
namespace LaneRaster {

QImage render(const LaneFrameKey &key, int threads = 2);

// Time-axis grid spacing used by both the raster and the ruler.
qint64 gridStep(TimeWindow window, int widthPx);

} // namespace LaneRaster
