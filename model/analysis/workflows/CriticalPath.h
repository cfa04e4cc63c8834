#pragma once

#include <QtGlobal>

#include <vector>

class ScheduleGraph;

// One stretch of the critical path: during [start, end) the workflow was
// waiting on `span` itself (its own time, or its coordination gap before a
// child). `span` is kNoSpan for idle time between root spans.
struct PathSection
{
    static constexpr qint32 kNoSpan = -1;

    qint32 span = kNoSpan;
    qint64 start = 0;
    qint64 end = 0;

    qint64 duration() const { return end - start; }
    friend bool operator==(const PathSection &, const PathSection &) = default;
};

// The chain of sections that determines when the workflow completes, in
// time order (Jaeger lists the same sections from the end backwards). It
// walks back from the workflow's end through each event's binding
// predecessor: iterative, linear in the path's length, and it cannot loop
// because the ScheduleGraph is acyclic. Sections with no duration are left
// out; touching sections of the same span are merged.
std::vector<PathSection> traceCriticalPath(const ScheduleGraph &graph, const std::vector<qint64> &times);

// The chain of sections that determines when `instant` is reached, an
// instant inside the delay of event `node` (between the time of its binding
// predecessor and its own): the path to a first token. The sections add up
// to `instant` minus the time of the schedule's source.
std::vector<PathSection> traceCriticalPathTo(const ScheduleGraph &graph, const std::vector<qint64> &times, qint32 node,
                                             qint64 instant);

// 1 for every span with a section on `path`.
std::vector<quint8> spansOnPath(const std::vector<PathSection> &path, qint32 spanCount);
