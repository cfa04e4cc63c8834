#pragma once

#include "SwimlaneCoordinates.h"
#include "TimeWindow.h"

#include <QColor>
#include <QSize>

class LaneLayout;
class QPainter;
struct StallMarks;

// Stalls drawn on the swimlanes: a hatched bar across the middle of the lane
// over each stall, when lanes are tall enough to be told apart (aggregated
// rows leave them out rather than smear them). Part of the overlay pass, so
// a new stall rule never rebuilds the cached frame.
namespace StallMarksPainter {

void paint(QPainter &painter, const LaneLayout &layout, const StallMarks &marks, TimeAxis axis, TimeWindow window,
           SwimlaneCoordinates::LaneWindow lanes, QSize size, const QColor &colour);

} // namespace StallMarksPainter
