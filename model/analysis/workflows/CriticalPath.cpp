#include "CriticalPath.h"

#include "ScheduleGraph.h"

#include <algorithm>

std::vector<PathSection> traceCriticalPath(const ScheduleGraph &graph, const std::vector<qint64> &times)
{
    std::vector<PathSection> backwards;
    qint32 node = graph.endNode(graph.virtualRoot());
    for (qint32 pred = graph.bindingPredecessor(node, times); pred >= 0;
         node = pred, pred = graph.bindingPredecessor(node, times)) {
        const qint64 from = times[size_t(pred)];
        const qint64 to = times[size_t(node)];
        if (to == from)
            continue;
        const qint32 owner = graph.owner(node);
        const qint32 span = owner == graph.virtualRoot() || owner < 0 ? PathSection::kNoSpan : owner;
        if (!backwards.empty() && backwards.back().span == span && backwards.back().start == to)
            backwards.back().start = from;
        else
            backwards.push_back({span, from, to});
    }
    std::reverse(backwards.begin(), backwards.end());
    return backwards;
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
