#pragma once

#include "analysis/workflows/WorkKind.h"

#include <QtGlobal>

#include <array>
#include <atomic>
#include <vector>

class TraceStore;

// Every workflow of a store as a swimlane draws it: its critical path split
// by kind along time, and the off-path work beneath (WorkTimeline), packed
// column-wise so drawing reads memory front to back. Built once per store,
// off the GUI thread and split across threads; immutable after.
//
// A lane is a workflow (lane i = store.workflows row i). Segment times are
// float ms from the lane's origin: the first observed stamp of the
// workflow's request row (its root's start), as LaneLayout places the row.
class WorkflowLanes
{
public:
    // One lane's segments: [begin[i], end[i]) ms from the origin, of `kind`,
    // done by store span row `span` (-1: idle, no span).
    struct Segments
    {
        const float *begin = nullptr;
        const float *end = nullptr;
        const WorkKind *kind = nullptr;
        const qint32 *span = nullptr;
        qint32 count = 0;

        // Index of the segment holding `ms`, or -1.
        qint32 indexAt(float ms) const;
    };

    enum LaneFlag : quint8 {
        NoFlags = 0,
        NotAnalysed = 1 << 0, // its spans cannot form a schedule (a cycle...): no segments
        LongLivedStream = 1 << 1,
    };

    qint32 laneCount() const { return qint32(m_origin.size()); }
    bool isEmpty() const { return m_origin.empty(); }
    // The lane of request row `row`, or -1 when the row is not a workflow.
    qint32 laneOfRow(qint32 row) const
    {
        return row >= 0 && size_t(row) < m_laneOfRow.size() ? m_laneOfRow[size_t(row)] : -1;
    }
    qint32 rowOfLane(qint32 lane) const { return m_row[size_t(lane)]; }
    qint64 origin(qint32 lane) const { return m_origin[size_t(lane)]; }
    quint8 flags(qint32 lane) const { return m_flags[size_t(lane)]; }
    Segments path(qint32 lane) const { return segments(m_path, lane); }
    Segments offPath(qint32 lane) const { return segments(m_offPath, lane); }

    // Time on the critical path by kind, over every lane (ns): which kinds
    // the legend lists and how much each weighs.
    const std::array<qint64, kWorkKindCount> &pathTotals() const { return m_pathTotals; }
    // Whether any lane shows `kind` on or off its path.
    bool shows(WorkKind kind) const { return m_present[size_t(kind)] != 0; }
    qint64 segmentCount() const { return qint64(m_path.kind.size()) + qint64(m_offPath.kind.size()); }
    size_t memoryBytes() const;

    // Empty (and early) when `cancelled` becomes true.
    static WorkflowLanes build(const TraceStore &store, const std::atomic<bool> *cancelled = nullptr, int threads = 1);

private:
    struct Columns
    {
        std::vector<quint32> first; // laneCount() + 1 offsets
        std::vector<float> begin;
        std::vector<float> end;
        std::vector<WorkKind> kind;
        std::vector<qint32> span;
    };
    static Segments segments(const Columns &columns, qint32 lane);
    friend struct WorkflowLanesBuilder;

    std::vector<qint64> m_origin;
    std::vector<qint32> m_row;
    std::vector<quint8> m_flags;
    std::vector<qint32> m_laneOfRow;
    Columns m_path;
    Columns m_offPath;
    std::array<qint64, kWorkKindCount> m_pathTotals{};
    std::array<quint8, kWorkKindCount> m_present{};
};
