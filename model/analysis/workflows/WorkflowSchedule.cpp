#include "WorkflowSchedule.h"

#include "TimeScaling.h"

#include <algorithm>

WorkflowSchedule::WorkflowSchedule(std::shared_ptr<const SpanGraph> graph, SpanTree tree, ClippedSpans clipped,
                                   ScheduleGraph events, QStringList notices)
    : m_graph(std::move(graph))
    , m_tree(std::move(tree))
    , m_clipped(std::move(clipped))
    , m_events(std::move(events))
    , m_notices(std::move(notices))
{ }

std::optional<WorkflowSchedule> WorkflowSchedule::build(std::shared_ptr<const SpanGraph> graph, QString *error)
{
    auto tree = SpanTree::build(*graph, error);
    if (!tree)
        return std::nullopt;
    ClippedSpans clipped = clipToParents(*graph, *tree);
    QStringList notices;
    auto events = ScheduleGraph::build(*graph, *tree, clipped, error, &notices);
    if (!events)
        return std::nullopt;
    return WorkflowSchedule(std::move(graph), std::move(*tree), std::move(clipped), std::move(*events),
                            std::move(notices));
}

std::vector<qint64> WorkflowSchedule::slack(const std::vector<qint64> &times, const std::vector<qint64> &delays) const
{
    return slackFrom(m_events.latestTimes(times, delays), times);
}

std::vector<qint64> WorkflowSchedule::slackFrom(const std::vector<qint64> &latest,
                                                const std::vector<qint64> &times) const
{
    const qint32 n = m_graph->spanCount();
    std::vector<qint64> result(static_cast<size_t>(n));
    for (qint32 span = 0; span < n; ++span) {
        const auto node = size_t(m_events.endNode(span));
        result[size_t(span)]
            = latest[node] == ScheduleGraph::kUnbounded ? ScheduleGraph::kUnbounded : latest[node] - times[node];
    }
    return result;
}

std::optional<WorkflowSchedule::FirstTokenEvent> WorkflowSchedule::firstTokenEvent() const
{
    qint32 span = -1;
    for (qint32 s = 0; s < m_graph->spanCount(); ++s) {
        const qint64 mark = m_graph->firstToken(s);
        if (mark != kNoTime && (span < 0 || mark < m_graph->firstToken(span)))
            span = s;
    }
    if (span < 0)
        return std::nullopt;
    const auto &times = baselineTimes();
    const auto &delays = baselineDelays();
    FirstTokenEvent event;
    event.recorded = m_graph->firstToken(span);
    const auto holds = [&](qint32 node, qint64 instant) {
        const qint64 to = times[size_t(node)];
        return !m_events.predecessors(node).empty() && instant >= to - delays[size_t(node)] && instant <= to;
    };
    // Descend from the span that recorded the token to the one whose own
    // time holds it: the span itself, or a gating child it was waiting on.
    qint64 instant = event.recorded;
    for (qint32 depth = 0; depth <= m_graph->spanCount(); ++depth) {
        instant = std::clamp(instant, m_clipped.start[size_t(span)], m_clipped.end[size_t(span)]);
        if (holds(m_events.endNode(span), instant)) {
            event.node = m_events.endNode(span);
            break;
        }
        qint32 inside = -1;
        for (const qint32 child : m_tree.children(span)) {
            const qint32 start = m_events.startNode(child);
            if (m_events.owner(start) == span && holds(start, instant)) {
                event.node = start;
                break;
            }
            if (m_clipped.gatesParent[size_t(child)] && instant >= m_clipped.start[size_t(child)]
                && instant <= m_clipped.end[size_t(child)] && inside < 0)
                inside = child;
        }
        if (event.node >= 0 || inside < 0)
            break;
        span = inside;
    }
    if (event.node < 0) {
        // Not inside any stretch (cannot happen for a well-formed schedule):
        // the span's end stands for it.
        event.node = m_events.endNode(span);
        instant = times[size_t(event.node)];
    }
    event.span = span;
    event.instant = instant;
    return event;
}

std::vector<PathSection> WorkflowSchedule::firstTokenPath() const
{
    const auto event = firstTokenEvent();
    if (!event)
        return {};
    return traceCriticalPathTo(m_events, baselineTimes(), event->node, event->instant);
}

std::vector<qint64> WorkflowSchedule::slackToFirstToken() const
{
    const auto event = firstTokenEvent();
    if (!event)
        return std::vector<qint64>(size_t(m_graph->spanCount()), ScheduleGraph::kUnbounded);
    return slackFrom(m_events.latestTimesBefore(event->node, baselineTimes(), baselineDelays()), baselineTimes());
}

qint64 WorkflowSchedule::movedInstant(qint32 span, qint64 instant, const std::vector<qint64> &times,
                                      const std::vector<qint64> &delays, const TimeScaling *scaling) const
{
    // Find the stretch of the span's own time holding the instant: its tail
    // (after its last gating child) or a gap before one of its children.
    const auto &baseTimes = baselineTimes();
    const auto &baseDelays = baselineDelays();
    const auto moved = [&](qint32 node) -> std::optional<qint64> {
        const qint64 to = baseTimes[size_t(node)];
        const qint64 from = to - baseDelays[size_t(node)];
        if (m_events.predecessors(node).empty() || instant < from || instant > to)
            return std::nullopt;
        const qint64 newFrom = times[size_t(node)] - delays[size_t(node)];
        return newFrom + (scaling ? scaling->scaledLength(span, from, instant) : instant - from);
    };
    if (const auto at = moved(m_events.endNode(span)))
        return *at;
    for (const qint32 child : m_tree.children(span)) {
        if (m_events.owner(m_events.startNode(child)) != span)
            continue;
        if (const auto at = moved(m_events.startNode(child)))
            return *at;
    }
    // Inside a child's time: moves with the span's start.
    const auto start = size_t(m_events.startNode(span));
    return instant + (times[start] - baseTimes[start]);
}

WorkflowTiming WorkflowSchedule::timing(const std::vector<qint64> &times, const std::vector<qint64> &delays,
                                        const TimeScaling *scaling) const
{
    const qint32 root = m_events.virtualRoot();
    WorkflowTiming timing;
    timing.start = times[size_t(m_events.startNode(root))];
    timing.end = times[size_t(m_events.endNode(root))];
    for (qint32 span = 0; span < m_graph->spanCount(); ++span) {
        const qint64 mark = m_graph->firstToken(span);
        if (mark == kNoTime)
            continue;
        const qint64 at = movedInstant(span, mark, times, delays, scaling);
        if (timing.firstToken == kNoTime || at < timing.firstToken)
            timing.firstToken = at;
    }
    return timing;
}

size_t WorkflowSchedule::memoryBytes() const
{
    return m_graph->memoryBytes() + m_tree.memoryBytes() + m_clipped.memoryBytes() + m_events.memoryBytes();
}
