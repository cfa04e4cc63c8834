#include "ScheduleGraph.h"

#include <algorithm>

std::vector<qint64> ScheduleGraph::schedule(const std::vector<qint64> &delays) const
{
    std::vector<qint64> times(delays.size());
    for (const qint32 node : m_order) {
        const auto preds = predecessors(node);
        if (preds.empty()) {
            times[size_t(node)] = delays[size_t(node)];
            continue;
        }
        qint64 ready = times[size_t(preds.front())];
        for (const qint32 pred : preds.subspan(1))
            ready = std::max(ready, times[size_t(pred)]);
        times[size_t(node)] = ready + delays[size_t(node)];
    }
    return times;
}

qint32 ScheduleGraph::bindingPredecessor(qint32 node, const std::vector<qint64> &times) const
{
    qint32 best = -1;
    for (const qint32 pred : predecessors(node)) {
        if (best < 0 || times[size_t(pred)] > times[size_t(best)])
            best = pred;
    }
    return best;
}

std::vector<qint64> ScheduleGraph::latestTimes(const std::vector<qint64> &times,
                                               const std::vector<qint64> &delays) const
{
    std::vector<qint64> latest(times.size(), kUnbounded);
    const qint32 finish = endNode(virtualRoot());
    latest[size_t(finish)] = times[size_t(finish)];
    propagateLatest(latest, delays);
    return latest;
}

std::vector<qint64> ScheduleGraph::latestTimesBefore(qint32 node, const std::vector<qint64> &times,
                                                     const std::vector<qint64> &delays) const
{
    std::vector<qint64> latest(times.size(), kUnbounded);
    const qint32 binding = bindingPredecessor(node, times);
    if (binding < 0)
        return latest;
    // Seed the predecessors, not `node` itself: the instant lies inside its delay.
    for (const qint32 pred : predecessors(node))
        latest[size_t(pred)] = std::min(latest[size_t(pred)], times[size_t(binding)]);
    propagateLatest(latest, delays);
    return latest;
}

void ScheduleGraph::propagateLatest(std::vector<qint64> &latest, const std::vector<qint64> &delays) const
{
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
        const qint32 node = *it;
        if (latest[size_t(node)] == kUnbounded)
            continue;
        const qint64 bound = latest[size_t(node)] - delays[size_t(node)];
        for (const qint32 pred : predecessors(node))
            latest[size_t(pred)] = std::min(latest[size_t(pred)], bound);
    }
}

size_t ScheduleGraph::memoryBytes() const
{
    return (m_predBegin.capacity() + m_preds.capacity() + m_joinPreds.capacity() + m_owner.capacity()
            + m_order.capacity())
        * sizeof(qint32)
        + (m_delay.capacity() + m_baselineTimes.capacity()) * sizeof(qint64);
}
