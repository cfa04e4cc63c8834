#include "SwimlaneOverlay.h"

#include "CountText.h"
#include "StallMarksPainter.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"

#include <QPainter>

#include <cmath>
#include <vector>

namespace {

struct SlotRange
{
    qint64 first = 0;
    qint64 last = 0; // exclusive
};

// Calls `visit(slot)` for each visible slot whose row is in `rows`, walking
// the shorter of the two lists.
template<typename Visit>
void forEachVisibleMember(const LaneLayout &layout, const RowSet &rows, SlotRange range, Visit visit)
{
    if (rows.isEmpty() || range.first >= range.last)
        return;
    if (rows.size() < range.last - range.first) {
        for (const qint32 row : rows) {
            const qint64 slot = layout.slotOf(row);
            if (slot >= range.first && slot < range.last)
                visit(slot);
        }
        return;
    }
    for (qint64 slot = range.first; slot < range.last; ++slot) {
        const qint32 row = layout.rowAt(slot);
        if (row >= 0 && rows.contains(row))
            visit(slot);
    }
}

// Marks the pixel rows covered by `visit`ed slots, then fills each run of
// marked rows once: at a million lanes thousands of members share a row.
template<typename ForEach>
void fillMarkedRows(QPainter &painter, int height, ForEach forEach, double left, double width, const QColor &colour)
{
    std::vector<quint8> marked(size_t(qMax(0, height)), 0);
    forEach([&](double y0, double y1) {
        const int from = qBound(0, int(std::floor(y0)), height);
        const int to = qBound(from + 1, int(std::ceil(y1)), height);
        std::fill(marked.begin() + from, marked.begin() + to, quint8(1));
    });
    for (int y = 0; y < height;) {
        if (!marked[size_t(y)]) {
            ++y;
            continue;
        }
        const int start = y;
        while (y < height && marked[size_t(y)])
            ++y;
        painter.fillRect(QRectF(left, start, width, y - start), colour);
    }
}

} // namespace

std::vector<SwimlaneOverlay::GroupLabel> SwimlaneOverlay::groupLabels(const QFontMetricsF &metrics) const
{
    std::vector<GroupLabel> labels;
    if (!layout || layout->groups().empty() || !lanes.isValid())
        return labels;
    const double height = size.height();
    const double textHeight = metrics.height();
    const bool single = SwimlaneCoordinates::showsSingleLanes(lanes, height);
    const QString dimension = layout->order().groupBy;
    for (const LaneGroup &group : layout->groups()) {
        const double top = SwimlaneCoordinates::laneToY(double(group.headerSlot), lanes, height);
        const double headerBottom = SwimlaneCoordinates::laneToY(double(group.headerSlot + 1), lanes, height);
        const double bottom
            = SwimlaneCoordinates::laneToY(double(group.headerSlot + 1 + group.laneCount), lanes, height);
        if (bottom <= 0.0 || top >= height)
            continue; // off screen
        // The frame writes the name into a header row this tall (LaneRaster).
        if (single && top >= 0.0 && headerBottom - top + 2.0 >= textHeight)
            continue;
        const double y = qMax(top, 0.0) + 2.0;
        if (qMin(bottom, height) - y < textHeight + 2.0)
            continue; // too thin a band for a label
        const QString text = QStringLiteral("%1 = %2 \u00b7 %3")
                                 .arg(dimension, group.label,
                                      CountText::of(group.laneCount, QStringLiteral("lane"), QStringLiteral("lanes")));
        labels.push_back(
            {QRectF(kCursorGutterWidth + 4.0, y, metrics.horizontalAdvance(text) + 12.0, textHeight + 2.0), text});
    }
    return labels;
}

void SwimlaneOverlay::paint(QPainter &painter) const
{
    if (!layout || !state || layout->isEmpty() || !window.isValid() || !lanes.isValid())
        return;
    const double width = size.width();
    const double height = size.height();
    const bool single = SwimlaneCoordinates::showsSingleLanes(lanes, height);
    const bool aligned = axis == TimeAxis::AlignedAtSend;
    const SlotRange range{qMax<qint64>(0, qint64(std::floor(lanes.first))),
                          qMin(layout->slotCount(), qint64(std::ceil(lanes.first + lanes.count)))};

    auto laneTop = [&](qint64 slot) { return SwimlaneCoordinates::laneToY(double(slot), lanes, height); };
    auto laneRect = [&](qint64 slot) {
        const double y0 = laneTop(slot);
        const double y1 = qMax(laneTop(slot + 1), y0 + 1.0);
        const qint64 origin = layout->origin(slot);
        const float *offsets = layout->offsets(slot);
        double x0 = 0.0;
        double x1 = width;
        if (origin != kNoTime) {
            // The origin is the first observed stamp, so the lane starts at 0.
            float lastMs = 0.0f;
            for (int s = 0; s < kStampCount; ++s) {
                if (!std::isnan(offsets[s]))
                    lastMs = offsets[s];
            }
            const qint64 base = aligned ? 0 : origin;
            x0 = SwimlaneCoordinates::timeToX(base, window, width);
            x1 = SwimlaneCoordinates::timeToX(base + qint64(double(lastMs) * 1e6), window, width);
        }
        return QRectF(QPointF(x0, y0), QPointF(qMax(x1, x0 + 1.0), y1));
    };

    if (stalls)
        StallMarksPainter::paint(painter, *layout, *stalls, axis, window, lanes, size, QColor(colors.text));

    // Selection: an outline around single lanes, a band across aggregated rows.
    if (!state->selection().isEmpty()) {
        QColor band = colors.selection;
        band.setAlpha(single ? 60 : 110);
        if (single) {
            const QPen pen(colors.selection, 2.0);
            forEachVisibleMember(*layout, state->selection(), range, [&](qint64 slot) {
                const QRectF rect = laneRect(slot);
                painter.fillRect(QRectF(0.0, rect.top(), width, rect.height()), band);
                painter.setPen(pen);
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(rect.adjusted(-1.0, 0.0, 1.0, 0.0));
            });
        } else {
            fillMarkedRows(
                painter, size.height(),
                [&](auto mark) {
                    forEachVisibleMember(*layout, state->selection(), range,
                                         [&](qint64 slot) { mark(laneTop(slot), laneTop(slot + 1)); });
                },
                0.0, width, band);
        }
    }

    // Exceedance members: a mark in the left gutter, whatever the zoom,
    // drawn over the selection band so it stays readable.
    if (state->hasExceedance()) {
        fillMarkedRows(
            painter, size.height(),
            [&](auto mark) {
                forEachVisibleMember(*layout, state->exceedance().members, range,
                                     [&](qint64 slot) { mark(laneTop(slot), laneTop(slot + 1)); });
            },
            0.0, kGutterWidth, colors.exceedance);
    }

    // Bookmarks (notes): a mark in the right gutter, whatever the zoom.
    if (!state->bookmarks().isEmpty()) {
        fillMarkedRows(
            painter, size.height(),
            [&](auto mark) {
                forEachVisibleMember(*layout, state->bookmarks(), range,
                                     [&](qint64 slot) { mark(laneTop(slot), laneTop(slot + 1)); });
            },
            width - kGutterWidth - 1.0, kGutterWidth + 1.0, colors.bookmark);
    }

    // The member being stepped through: a wider gutter mark and a tint
    // across its lane, so it stands out among the other members.
    const qint64 cursorSlot = layout->slotOf(state->exceedanceCursor());
    if (cursorSlot >= range.first && cursorSlot < range.last) {
        const double y0 = laneTop(cursorSlot);
        const double y1 = qMax(laneTop(cursorSlot + 1), y0 + 2.0);
        QColor tint = colors.exceedance;
        tint.setAlpha(45);
        painter.fillRect(QRectF(0.0, y0, width, y1 - y0), tint);
        painter.fillRect(QRectF(0.0, y0, kCursorGutterWidth, y1 - y0), colors.exceedance);
    }

    const qint64 currentSlot = layout->slotOf(state->currentRow());
    if (currentSlot >= range.first && currentSlot < range.last) {
        QPen pen(colors.current, 1.0, Qt::DashLine);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        const QRectF rect = laneRect(currentSlot);
        if (single)
            painter.drawRect(rect.adjusted(-2.0, -1.0, 2.0, 0.0));
        else
            painter.drawLine(QPointF(0.0, rect.center().y()), QPointF(width, rect.center().y()));
    }

    // Groups: a rule where each one starts, and its name on its band.
    if (!layout->groups().empty()) {
        painter.save();
        QColor rule(colors.text);
        rule.setAlpha(110);
        painter.setPen(QPen(rule, 1.0));
        for (const LaneGroup &group : layout->groups()) {
            if (group.headerSlot >= range.first && group.headerSlot < range.last && group.headerSlot > 0)
                painter.drawLine(QPointF(0.0, std::round(laneTop(group.headerSlot)) + 0.5),
                                 QPointF(width, std::round(laneTop(group.headerSlot)) + 0.5));
        }
        QFont font = painter.font();
        font.setBold(true);
        painter.setFont(font);
        QColor background(colors.headerBackground);
        background.setAlpha(225);
        for (const GroupLabel &label : groupLabels(QFontMetricsF(font))) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(background);
            painter.drawRoundedRect(label.rect, 3.0, 3.0);
            painter.setPen(QColor(colors.text));
            painter.drawText(label.rect, Qt::AlignCenter, label.text);
        }
        painter.restore();
    }

    if (single && hoverSlot >= range.first && hoverSlot < range.last && !layout->isHeader(hoverSlot)) {
        QColor outline = colors.current;
        outline.setAlpha(120);
        painter.setPen(QPen(outline, 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(laneRect(hoverSlot).adjusted(-1.0, -0.5, 1.0, -0.5));
    }
}
