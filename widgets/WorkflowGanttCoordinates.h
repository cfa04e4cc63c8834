#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <utility>

// Pure coordinate maths of the workflow Gantt: a time window mapped onto a
// pixel range, rows of equal height below a header, scrolled by whole rows.
namespace WorkflowGanttCoordinates {

struct TimeFrame
{
    qint64 start = 0; // ns at the left edge of the bars area
    qint64 end = 1;   // ns at its right edge
    int left = 0;     // px
    int width = 1;    // px
};

inline double xOf(const TimeFrame &frame, qint64 time)
{
    const double span = double(std::max<qint64>(1, frame.end - frame.start));
    return frame.left + double(time - frame.start) / span * double(frame.width);
}

inline qint64 timeAt(const TimeFrame &frame, double x)
{
    const double span = double(std::max<qint64>(1, frame.end - frame.start));
    return frame.start + qint64(std::llround((x - frame.left) / double(std::max(1, frame.width)) * span));
}

struct Rows
{
    int header = 0;  // px above the first row
    int height = 18; // px per row
    int first = 0;   // index of the row at the top (scroll position)
    int count = 0;   // rows in total
};

inline int rowTop(const Rows &rows, int row)
{
    return rows.header + (row - rows.first) * rows.height;
}

// The row under y, or -1 above the rows or past the last one.
inline int rowAt(const Rows &rows, int y)
{
    if (y < rows.header)
        return -1;
    const int row = rows.first + (y - rows.header) / rows.height;
    return row < rows.count ? row : -1;
}

// [first, last) rows at least partly inside a viewport `viewHeight` px tall.
inline std::pair<int, int> visibleRows(const Rows &rows, int viewHeight)
{
    const int shown = std::max(0, (viewHeight - rows.header + rows.height - 1) / rows.height);
    const int first = std::clamp(rows.first, 0, std::max(0, rows.count));
    return {first, std::min(rows.count, first + shown)};
}

// A "nice" tick step (1, 2 or 5 × 10^k ns) giving at least `minPx` between ticks.
inline qint64 tickStep(const TimeFrame &frame, int minPx)
{
    const double nsPerPx = double(std::max<qint64>(1, frame.end - frame.start)) / double(std::max(1, frame.width));
    const double wanted = nsPerPx * minPx;
    double step = 1.0;
    while (step < wanted) {
        if (step * 2 >= wanted)
            return qint64(step * 2);
        if (step * 5 >= wanted)
            return qint64(step * 5);
        step *= 10;
    }
    return qint64(step);
}

} // namespace WorkflowGanttCoordinates
