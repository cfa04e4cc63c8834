#include "StallMarksPainter.h"

#include "analysis/lanes/LaneLayout.h"
#include "analysis/streams/StallMarks.h"

#include <QPainter>

#include <cmath>

namespace StallMarksPainter {

void paint(QPainter &painter, const LaneLayout &layout, const StallMarks &marks, TimeAxis axis, TimeWindow window,
           SwimlaneCoordinates::LaneWindow lanes, QSize size, const QColor &colour)
{
    if (marks.isEmpty() || !window.isValid() || !SwimlaneCoordinates::showsSingleLanes(lanes, size.height()))
        return;
    const double width = size.width();
    const double height = size.height();
    const qint64 first = qMax<qint64>(0, qint64(std::floor(lanes.first)));
    const qint64 last = qMin(layout.slotCount(), qint64(std::ceil(lanes.first + lanes.count)));
    const bool aligned = axis == TimeAxis::AlignedAtSend;
    QColor fill = colour;
    fill.setAlpha(200);
    painter.setPen(Qt::NoPen);
    for (qint64 slot = first; slot < last; ++slot) {
        const qint32 row = layout.rowAt(slot);
        if (row < 0)
            continue;
        const auto stalls = marks.of(row);
        if (stalls.empty())
            continue;
        const double y0 = SwimlaneCoordinates::laneToY(double(slot), lanes, height);
        const double y1 = SwimlaneCoordinates::laneToY(double(slot + 1), lanes, height);
        const double band = qMax(1.0, (y1 - y0) * 0.5);
        const double top = y0 + (y1 - y0 - band) / 2.0;
        const qint64 base = aligned ? layout.origin(slot) : 0;
        if (aligned && base == kNoTime)
            continue;
        for (const StreamGap &stall : stalls) {
            const double x0 = SwimlaneCoordinates::timeToX(stall.startNs - base, window, width);
            const double x1 = SwimlaneCoordinates::timeToX(stall.startNs + stall.ns - base, window, width);
            if (x1 < 0.0 || x0 > width)
                continue;
            const QRectF rect(QPointF(x0, top), QPointF(qMax(x1, x0 + 2.0), top + band));
            painter.fillRect(rect, QBrush(fill, band >= 6.0 ? Qt::BDiagPattern : Qt::SolidPattern));
            painter.fillRect(QRectF(rect.left(), top, qMin(2.0, rect.width()), band), fill);
        }
    }
}

} // namespace StallMarksPainter
