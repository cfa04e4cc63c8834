#include "CriticalPath.h"

#include "ScheduleGraph.h"

#include <algorithm>

namespace {

// Walks back from `node` (reached at `reached`) through binding predecessors.
std::vector<PathSection> walkBack(const ScheduleGraph &graph, const std::vector<qint64> &times, qint32 node,
                                  qint64 reached)
{
    std::vector<PathSection> backwards;
    qint64 to = reached;
    for (qint32 pred = graph.bindingPredecessor(node, times); pred >= 0;
         node = pred, pred = graph.bindingPredecessor(node, times)) {
        const qint64 from = times[size_t(pred)];
        if (to != from) {
            const qint32 owner = graph.owner(node);
            const qint32 span = owner == graph.virtualRoot() || owner < 0 ? PathSection::kNoSpan : owner;
            if (!backwards.empty() && backwards.back().span == span && backwards.back().start == to)
                backwards.back().start = from;
            else
                backwards.push_back({span, from, to});
        }
        to = from;
    }
    std::reverse(backwards.begin(), backwards.end());
    return backwards;
}

} // namespace

std::vector<PathSection> traceCriticalPath(const ScheduleGraph &graph, const std::vector<qint64> &times)
{
    const qint32 finish = graph.endNode(graph.virtualRoot());
    return walkBack(graph, times, finish, times[size_t(finish)]);
}

std::vector<PathSection> traceCriticalPathTo(const ScheduleGraph &graph, const std::vector<qint64> &times, qint32 node,
                                             qint64 instant)
{
    return walkBack(graph, times, node, instant);
}

std::vector<quint8> spansOnPath(const std::vector<PathSection> &path, qint32 spanCount)
{
    std::vector<quint8> on(size_t(spanCount), 0);
    for (const auto &section : path) {
        if (section.span >= 0 && section.span < spanCount)
            on[size_t(section.span)] = 1;
    }
    return on;
}
