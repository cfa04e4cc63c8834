#pragma once

#include "TimeWindow.h"

#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

// Pure coordinate math of the swimlane view: time <-> x, lane <-> y, zoom,
// pan, clamping and axis ticks. No widget state, so every rule is pinned by
// data-driven tests (tests/widgets/tst_swimlanecoordinates.cpp).
//
// Times are integer ns; differences are taken as integers before they become
// doubles, so epoch-sized trace times keep their precision.
namespace SwimlaneCoordinates {

// --- time axis ---------------------------------------------------------------

// x of time `t` in a view `width` pixels wide; unclamped. 0 for an empty window.
inline double timeToX(qint64 t, TimeWindow window, double width)
{
    if (!window.isValid())
        return 0.0;
    return double(t - window.begin) / double(window.duration()) * width;
}

// Inverse of timeToX, rounded to the nearest ns; window.begin when width <= 0.
inline qint64 xToTime(double x, TimeWindow window, double width)
{
    if (width <= 0.0 || !window.isValid())
        return window.begin;
    return window.begin + qint64(std::llround(x / width * double(window.duration())));
}

// Moves and trims `window` to lie inside `bounds`, keeping it at least
// `minDuration` long (and never longer than the bounds).
inline TimeWindow clampWindow(TimeWindow window, TimeWindow bounds, qint64 minDuration)
{
    if (!bounds.isValid())
        return window;
    qint64 duration = std::clamp(window.duration(), qMin(minDuration, bounds.duration()), bounds.duration());
    qint64 begin = window.begin;
    if (window.duration() != duration) // grow or shrink about the centre
        begin = window.begin + (window.duration() - duration) / 2;
    begin = std::clamp(begin, bounds.begin, bounds.end - duration);
    return {begin, begin + duration};
}

// Zooms by `factor` (< 1 zooms in) so that `anchor` stays at the same x;
// the result keeps at least `minDuration` and stays inside `bounds`.
inline TimeWindow zoomAround(TimeWindow window, qint64 anchor, double factor, TimeWindow bounds, qint64 minDuration)
{
    if (!window.isValid() || !bounds.isValid() || factor <= 0.0)
        return window;
    const qint64 wanted = qMax<qint64>(1, qint64(std::llround(double(window.duration()) * factor)));
    const qint64 duration = std::clamp(wanted, qMin(minDuration, bounds.duration()), bounds.duration());
    const double leftShare = double(anchor - window.begin) / double(window.duration());
    const qint64 begin = anchor - qint64(std::llround(leftShare * double(duration)));
    return clampWindow({begin, begin + duration}, bounds, minDuration);
}

// Shifts by `delta` ns, stopping at the bounds.
inline TimeWindow panBy(TimeWindow window, qint64 delta, TimeWindow bounds)
{
    return clampWindow({window.begin + delta, window.end + delta}, bounds, window.duration());
}

// The window that shows [begin, end]: unchanged when the range is inside it;
// moved to centre the range at the same zoom when the range fits with
// `marginShare` of the window free on each side; otherwise zoomed out to the
// range plus `marginShare` of it on each side. Always inside `bounds`.
inline TimeWindow bringIntoView(TimeWindow window, qint64 begin, qint64 end, TimeWindow bounds, qint64 minDuration,
                                double marginShare = 0.05)
{
    if (!window.isValid() || end < begin)
        return window;
    if (begin >= window.begin && end <= window.end)
        return window;
    const qint64 span = end - begin; // integers first: epoch-sized times stay exact
    const qint64 margin = qint64(std::llround(double(window.duration()) * marginShare));
    if (span + 2 * margin <= window.duration()) {
        const qint64 start = begin + span / 2 - window.duration() / 2;
        return clampWindow({start, start + window.duration()}, bounds, window.duration());
    }
    const qint64 pad = qMax<qint64>(1, qint64(std::llround(double(span) * marginShare)));
    return clampWindow({begin - pad, end + pad}, bounds, minDuration);
}

// --- lane axis -----------------------------------------------------------------

// The lanes on screen: `first` is the (fractional) lane at the top edge,
// `count` how many lanes fit the height. Lanes may be far thinner than a pixel.
struct LaneWindow
{
    double first = 0.0;
    double count = 0.0;

    bool isValid() const { return count > 0.0; }
    friend bool operator==(const LaneWindow &, const LaneWindow &) = default;
};

inline double laneToY(double lane, LaneWindow window, double height)
{
    return window.isValid() ? (lane - window.first) / window.count * height : 0.0;
}

// Fractional lane under y; floor() of it is the lane index.
inline double yToLane(double y, LaneWindow window, double height)
{
    return height > 0.0 ? window.first + y / height * window.count : window.first;
}

// Lane index under y, or -1 outside [0, laneCount).
inline qint64 laneAt(double y, LaneWindow window, double height, qint64 laneCount)
{
    const double lane = std::floor(yToLane(y, window, height));
    return lane >= 0.0 && lane < double(laneCount) ? qint64(lane) : -1;
}

// Keeps the window inside [0, laneCount], between `minCount` lanes and all.
inline LaneWindow clampLanes(LaneWindow window, qint64 laneCount, double minCount)
{
    const double total = double(qMax<qint64>(laneCount, 1));
    const double count = std::clamp(window.count, qMin(minCount, total), total);
    const double first = std::clamp(window.first, 0.0, total - count);
    return {first, count};
}

inline LaneWindow zoomLanesAround(LaneWindow window, double anchorLane, double factor, qint64 laneCount,
                                  double minCount)
{
    if (!window.isValid() || factor <= 0.0)
        return window;
    const double total = double(qMax<qint64>(laneCount, 1));
    const double count = std::clamp(window.count * factor, qMin(minCount, total), total);
    const double share = (anchorLane - window.first) / window.count;
    return clampLanes({anchorLane - share * count, count}, laneCount, minCount);
}

// Lanes [first, last) under pixel row `py`: every lane that overlaps the
// row, so a lane taller than a pixel fills each row it crosses and a pixel
// row over many thin lanes summarises all of them.
inline std::pair<qint64, qint64> lanesInPixelRow(int py, LaneWindow window, double height, qint64 laneCount)
{
    const double top = yToLane(double(py), window, height);
    const double bottom = yToLane(double(py + 1), window, height);
    const qint64 first = std::clamp<qint64>(qint64(std::floor(top)), 0, laneCount);
    const qint64 last = std::clamp<qint64>(qint64(std::ceil(bottom - 1e-9)), first, laneCount);
    return {first, last};
}

// Whether lanes are tall enough to draw one by one (otherwise each pixel
// row draws the aggregate of the lanes under it).
inline constexpr double kSingleLaneMinPx = 3.0;
inline bool showsSingleLanes(LaneWindow window, double height)
{
    return window.isValid() && height / window.count >= kSingleLaneMinPx;
}

// --- ticks -------------------------------------------------------------------

struct TimeUnit
{
    qint64 ns = 1;
    QString symbol; // "µs", "ms", "s", "min"

    friend bool operator==(const TimeUnit &, const TimeUnit &) = default;
};

// The unit a span of `durationNs` reads best in: a window under 2 ms is in
// µs, under 2 s in ms, under 2 min in s, longer in min.
inline TimeUnit unitForSpan(qint64 durationNs)
{
    if (durationNs < 2'000'000)
        return {1'000, QStringLiteral("\u00b5s")};
    if (durationNs < 2'000'000'000)
        return {1'000'000, QStringLiteral("ms")};
    if (durationNs < 120'000'000'000)
        return {1'000'000'000, QStringLiteral("s")};
    return {60'000'000'000, QStringLiteral("min")};
}

// Tick spacing in ns: the smallest 1-2-5 step (in minutes for the min unit:
// 1, 2, 5, 10, 15, 30, 60...) that keeps ticks at least `minSpacingPx` apart.
inline qint64 tickStep(qint64 durationNs, double widthPx, double minSpacingPx)
{
    if (durationNs <= 0 || widthPx <= 0.0)
        return 1;
    const double minStep = double(durationNs) * minSpacingPx / widthPx;
    if (minStep >= 60e9) {
        static constexpr std::array<qint64, 9> minutes = {1, 2, 5, 10, 15, 30, 60, 120, 240};
        for (const qint64 m : minutes) {
            if (double(m) * 60e9 >= minStep)
                return m * 60'000'000'000;
        }
        return qint64(std::ceil(minStep / 14'400e9)) * 14'400'000'000'000;
    }
    for (qint64 decade = 1;; decade *= 10) {
        for (const qint64 mantissa : {1, 2, 5}) {
            if (double(mantissa * decade) >= minStep)
                return mantissa * decade;
        }
    }
}

// First tick at or after `begin` on a grid of `step` measured from `origin`.
inline qint64 firstTick(qint64 begin, qint64 origin, qint64 step)
{
    const qint64 offset = begin - origin;
    qint64 k = offset / step;
    if (k * step < offset)
        ++k;
    return origin + k * step;
}

// Tick label: `valueNs` in `unit`, with as many decimals as the step needs.
inline QString formatTick(qint64 valueNs, qint64 stepNs, const TimeUnit &unit)
{
    int decimals = 0;
    for (qint64 resolution = unit.ns; resolution > stepNs && decimals < 6; resolution /= 10)
        ++decimals;
    if (unit.ns == 60'000'000'000 && stepNs < unit.ns)
        decimals = qMax(decimals, 1);
    return QString::number(double(valueNs) / double(unit.ns), 'f', decimals);
}

// A duration with a unit chosen for it: "850 µs", "12.5 ms", "3.20 s".
inline QString formatDuration(qint64 ns)
{
    const qint64 magnitude = ns < 0 ? -ns : ns;
    if (magnitude < 1'000)
        return QString::number(ns) + QStringLiteral(" ns");
    if (magnitude < 1'000'000)
        return QString::number(double(ns) / 1e3, 'f', 1) + QStringLiteral(" \u00b5s");
    if (magnitude < 1'000'000'000)
        return QString::number(double(ns) / 1e6, 'f', magnitude < 10'000'000 ? 2 : 1) + QStringLiteral(" ms");
    if (magnitude < 120'000'000'000)
        return QString::number(double(ns) / 1e9, 'f', 2) + QStringLiteral(" s");
    return QString::number(double(ns) / 60e9, 'f', 1) + QStringLiteral(" min");
}

} // namespace SwimlaneCoordinates
