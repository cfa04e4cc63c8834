#pragma once

#include <QtGlobal>

// A half-open span of trace time in integer nanoseconds, on whichever time
// axis the views use (absolute trace time, or offsets from each request's
// client send when lanes are aligned).
struct TimeWindow
{
    qint64 begin = 0;
    qint64 end = 0;

    qint64 duration() const { return end - begin; }
    bool isValid() const { return end > begin; }
    bool contains(qint64 t) const { return t >= begin && t < end; }

    friend bool operator==(const TimeWindow &, const TimeWindow &) = default;
};

// How lanes place their phases in time.
enum class TimeAxis : int {
    Absolute,      // trace time: bursts and queue build-up stay visible
    AlignedAtSend, // each lane starts at its own client send: shapes compare
};
