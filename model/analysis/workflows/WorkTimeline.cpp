#include "WorkTimeline.h"

#include "WorkflowSchedule.h"

#include <algorithm>
#include <tuple>

namespace {

// Appends `pieces` of `span` as segments, joining a piece to the previous
// segment when it continues it (same span and kind, touching).
void appendPieces(std::vector<WorkSegment> &out, const std::vector<WorkPiece> &pieces, qint32 span)
{
    for (const auto &piece : pieces) {
        if (!out.empty() && out.back().span == span && out.back().kind == piece.kind && out.back().end == piece.begin) {
            out.back().end = piece.end;
            continue;
        }
        out.push_back({piece.begin, piece.end, piece.kind, span});
    }
}

} // namespace

WorkTimeline WorkTimeline::of(const WorkflowSchedule &schedule, const std::vector<PathSection> &criticalPath)
{
    WorkTimeline timeline;
    build(schedule, criticalPath, timeline);
    return timeline;
}

void WorkTimeline::build(const WorkflowSchedule &schedule, const std::vector<PathSection> &criticalPath,
                         WorkTimeline &out)
{
    out.path.clear();
    out.offPath.clear();
    const SpanGraph &graph = schedule.graph();
    const SpanTree &tree = schedule.tree();
    const qint32 n = graph.spanCount();
    std::vector<WorkPiece> pieces;

    for (const auto &section : criticalPath) {
        pieces.clear();
        if (section.span == PathSection::kNoSpan)
            pieces.push_back({WorkKind::Idle, section.start, section.end});
        else
            WorkKinds::split(graph, section.span, WorkKinds::ofSpan(graph, tree, section.span), section.start,
                             section.end, pieces);
        appendPieces(out.path, pieces, section.span);
    }

    // Spans whose subtree holds a path section: a reverse preorder visits
    // children before their parents.
    std::vector<quint8> holdsPath = spansOnPath(criticalPath, n);
    const auto &preorder = tree.preorder();
    for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
        const qint32 parent = tree.parent(*it);
        if (holdsPath[size_t(*it)] && parent >= 0)
            holdsPath[size_t(parent)] = 1;
    }
    std::vector<qint32> depth(size_t(n), 0);
    for (const qint32 span : preorder) {
        const qint32 parent = tree.parent(span);
        depth[size_t(span)] = parent >= 0 ? depth[size_t(parent)] + 1 : 0;
    }

    // Sweep the off-path spans' starts and ends; between two events the
    // deepest running span (the latest started among equals) is shown.
    struct Event
    {
        qint64 time;
        qint32 span;
        bool start;
    };
    std::vector<Event> events;
    for (qint32 span = 0; span < n; ++span) {
        if (holdsPath[size_t(span)] || graph.end(span) <= graph.start(span))
            continue;
        events.push_back({graph.start(span), span, true});
        events.push_back({graph.end(span), span, false});
    }
    if (events.empty())
        return;
    std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) { return a.time < b.time; });
    // The running spans, kept sorted: a handful at a time, so a sorted
    // vector beats a node-allocating std::set.
    using Running = std::tuple<qint32, qint64, qint32>; // depth, start, span
    std::vector<Running> running;
    for (size_t i = 0; i < events.size();) {
        const qint64 now = events[i].time;
        for (; i < events.size() && events[i].time == now; ++i) {
            const qint32 span = events[i].span;
            const Running key{depth[size_t(span)], graph.start(span), span};
            const auto at = std::lower_bound(running.begin(), running.end(), key);
            if (events[i].start) {
                if (at == running.end() || *at != key)
                    running.insert(at, key);
            } else if (at != running.end() && *at == key) {
                running.erase(at);
            }
        }
        if (running.empty() || i == events.size())
            continue;
        const qint32 top = std::get<2>(running.back());
        pieces.clear();
        WorkKinds::split(graph, top, WorkKinds::ofSpan(graph, tree, top), now, events[i].time, pieces);
        appendPieces(out.offPath, pieces, top);
    }
}

const WorkSegment *WorkTimeline::at(const std::vector<WorkSegment> &segments, qint64 t)
{
    const auto it = std::upper_bound(segments.begin(), segments.end(), t,
                                     [](qint64 time, const WorkSegment &segment) { return time < segment.end; });
    return it != segments.end() && it->begin <= t ? &*it : nullptr;
}
