#pragma once

#include "SwimlaneColors.h"
#include "SwimlaneCoordinates.h"
#include "TimeWindow.h"

#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <vector>

class LaneLayout;
class QPainter;
struct StallMarks;
class ViewState;

// The highlight pass drawn over the cached swimlane frame: exceedance
// members (a mark in the left gutter; the member being stepped through
// also a tint across its lane), the selection, the current request and the
// hovered lane. Cheap by construction: it walks whichever is
// smaller, the visible lanes or the highlighted rows.
struct SwimlaneOverlay
{
    const LaneLayout *layout = nullptr;
    const ViewState *state = nullptr;
    TimeAxis axis = TimeAxis::Absolute;
    TimeWindow window;
    SwimlaneCoordinates::LaneWindow lanes;
    QSize size;
    SwimlaneColors colors;
    qint64 hoverSlot = -1;
    const StallMarks *stalls = nullptr; // drawn over single lanes when set

    void paint(QPainter &painter) const;

    // The name of each group on screen ("region = eu-west · 80 lanes"), at
    // the top of its band (kept at the top edge while the band scrolls past),
    // where the band is tall enough. A header row tall enough for the frame
    // to write the name itself gets no second label.
    struct GroupLabel
    {
        QRectF rect;
        QString text;
    };
    std::vector<GroupLabel> groupLabels(const QFontMetricsF &metrics) const;

    static constexpr int kGutterWidth = 5;
    static constexpr int kCursorGutterWidth = 9;
};
