#pragma once

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <span>
#include <vector>

class SpanGraph;
class SpanTree;
struct ClippedSpans;

// A workflow as a graph of events that a re-schedule can replay. Every span
// has a start event S and an end event E; a virtual root (span index
// spanCount()) joins the real roots. Each event happens when its last
// predecessor has happened, plus a delay:
//   E(x) = max(S(x), E(c) for children c that gate x) + x's own tail time
//   S(c) = max(join of c's earlier siblings, E(d) for dependencies d) + gap
// The join before a child is the latest end among siblings that finished
// before it started (or the parent's start): the order Jaeger infers from
// timing, kept linear in size by one shared join node per distinct start
// time. A child with recorded dependencies waits for those and its parent's
// start instead of the inferred order. The gap is the original coordination time and belongs to the join,
// not to any one predecessor.
class ScheduleGraph
{
public:
    static constexpr qint64 kUnbounded = std::numeric_limits<qint64>::max();
    static constexpr qint32 kNoOwner = -1;

    // Dependencies that contradict the recorded times (the successor starts
    // before its predecessor ends) or join a span to its own ancestor are
    // left out with a notice; hypothetical ones (a what-if) are not checked
    // against the times and do not define gaps. A dependency cycle is an error.
    static std::optional<ScheduleGraph> build(const SpanGraph &graph, const SpanTree &tree, const ClippedSpans &clipped,
                                              QString *error, QStringList *notices);

    qint32 spanCount() const { return m_spanCount; }
    qint32 virtualRoot() const { return m_spanCount; }
    qint32 startNode(qint32 span) const { return span; }
    qint32 endNode(qint32 span) const { return m_spanCount + 1 + span; }
    qint32 nodeCount() const { return qint32(m_delay.size()); }

    std::span<const qint32> predecessors(qint32 node) const
    {
        // Start/end events index m_preds, joins m_joinPreds (both in m_predBegin).
        const auto &preds = node < m_firstJoin ? m_preds : m_joinPreds;
        const auto begin = node == m_firstJoin ? 0 : m_predBegin[size_t(node)];
        return {preds.data() + begin, size_t(m_predBegin[size_t(node) + 1] - begin)};
    }
    // The span whose time a node's delay is (a span's tail, or the parent's
    // coordination gap before a child); kNoOwner for joins and sources,
    // virtualRoot() for gaps between roots.
    qint32 owner(qint32 node) const { return m_owner[size_t(node)]; }
    // A source (no predecessors) holds its absolute time as its delay.
    const std::vector<qint64> &baselineDelays() const { return m_delay; }
    // Recorded (clipped) event times. With the baseline delays schedule()
    // reproduces them exactly, unless a hypothetical dependency holds a span back.
    const std::vector<qint64> &baselineTimes() const { return m_baselineTimes; }
    const std::vector<qint32> &topologicalOrder() const { return m_order; }

    // Event times for the given delays (one per node).
    std::vector<qint64> schedule(const std::vector<qint64> &delays) const;
    // The predecessor that determined `node`'s time: the latest, first in
    // preference order on ties (explicit dependencies, then children in row
    // order, then the join or parent start). -1 for a source.
    qint32 bindingPredecessor(qint32 node, const std::vector<qint64> &times) const;
    // Latest time each event could happen without moving the workflow's end;
    // kUnbounded for events that do not lead to it.
    std::vector<qint64> latestTimes(const std::vector<qint64> &times, const std::vector<qint64> &delays) const;
    // The same for reaching `instant` inside the delay of event `node` (a
    // first token): its predecessors may not move, so their latest time is
    // the one that bound `node`; events after it are kUnbounded.
    std::vector<qint64> latestTimesBefore(qint32 node, const std::vector<qint64> &times,
                                          const std::vector<qint64> &delays) const;

    size_t memoryBytes() const;

private:
    void propagateLatest(std::vector<qint64> &latest, const std::vector<qint64> &delays) const;

    qint32 m_spanCount = 0;
    qint32 m_firstJoin = 0;
    std::vector<qint32> m_predBegin;
    std::vector<qint32> m_preds;
    std::vector<qint32> m_joinPreds;
    std::vector<qint64> m_delay;
    std::vector<qint32> m_owner;
    std::vector<qint32> m_order;
    std::vector<qint64> m_baselineTimes;

    friend class ScheduleGraphBuilder;
};
