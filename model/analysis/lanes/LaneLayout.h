#pragma once

#include "LaneOrder.h"
#include "store/RowSet.h"
#include "store/Stamp.h"

#include <QString>

#include <atomic>
#include <vector>

class RequestTable;

// One group of lanes: a header slot followed by its lanes.
struct LaneGroup
{
    QString label; // the attribute value, or "(none)"
    qint64 headerSlot = 0;
    qint64 laneCount = 0;
};

// The swimlane's rows ("slots") in display order, with every request's eight
// stamps packed in slot order so drawing reads memory front to back instead
// of gathering from eight columns through a permutation. Built off the GUI
// thread whenever the order, grouping or slice changes; immutable after.
//
// Times of a slot are `origin` (client send, or the first observed stamp
// when that is missing) plus float millisecond offsets: ample precision for
// pixels, and the full-precision values stay in the store for tooltips.
class LaneLayout
{
public:
    qint64 slotCount() const { return qint64(m_slotRows.size()); }
    qint64 requestCount() const { return m_requestCount; }
    bool isEmpty() const { return m_slotRows.empty(); }

    // Request row in `slot`, or -1 for a group header slot.
    qint32 rowAt(qint64 slot) const { return m_slotRows[size_t(slot)]; }
    bool isHeader(qint64 slot) const { return rowAt(slot) < 0; }
    // Slot of request `row`, or -1 when the row is not laid out (out of scope).
    qint64 slotOf(qint32 row) const
    {
        return row >= 0 && size_t(row) < m_rowSlots.size() ? m_rowSlots[size_t(row)] : -1;
    }
    // Group whose header or lanes include `slot`; -1 when ungrouped.
    qint32 groupAt(qint64 slot) const;
    const std::vector<LaneGroup> &groups() const { return m_groups; }
    // Request lanes (header slots not counted) in the slots before `slot`:
    // what a lane counter shows, since a header is not a request.
    qint64 requestLanesBefore(qint64 slot) const;

    qint64 origin(qint64 slot) const { return m_origins[size_t(slot)]; }
    // Offset of `stamp` from origin in ms; NaN when the stamp is missing.
    float offsetMs(qint64 slot, Stamp stamp) const { return m_offsets[size_t(slot) * kStampCount + size_t(stamp)]; }
    const float *offsets(qint64 slot) const { return m_offsets.data() + size_t(slot) * kStampCount; }
    const qint64 *origins() const { return m_origins.data(); }

    // Earliest and latest observed stamp over all lanes (absolute axis bounds).
    qint64 traceBegin() const { return m_traceBegin; }
    qint64 traceEnd() const { return m_traceEnd; }
    // Longest lane from its origin (aligned axis bounds: [0, longest)).
    qint64 longestLaneNs() const { return m_longestLane; }

    const LaneOrder &order() const { return m_order; }

    // Lays out `scope` (or every row when null) of `table`. Returns an empty
    // layout early if `cancelled` becomes true.
    static LaneLayout build(const RequestTable &table, const LaneOrder &order, const RowSet *scope,
                            const std::atomic<bool> *cancelled = nullptr);

private:
    LaneOrder m_order;
    std::vector<qint32> m_slotRows;
    std::vector<qint64> m_rowSlots;
    std::vector<LaneGroup> m_groups;
    std::vector<qint64> m_origins;
    std::vector<float> m_offsets;
    qint64 m_requestCount = 0;
    qint64 m_traceBegin = 0;
    qint64 m_traceEnd = 0;
    qint64 m_longestLane = 0;
};
