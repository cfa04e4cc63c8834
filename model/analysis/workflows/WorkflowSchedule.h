#pragma once

#include "CriticalPath.h"
#include "PathClipping.h"
#include "ScheduleGraph.h"
#include "SpanGraph.h"
#include "SpanTree.h"

#include <QStringList>

#include <memory>
#include <optional>

class TimeScaling;

// When a workflow started, ended and showed its first content token.
struct WorkflowTiming
{
    qint64 start = 0;
    qint64 end = 0;
    qint64 firstToken = kNoTime; // earliest first token of any model call

    qint64 e2e() const { return end - start; }
    qint64 ttft() const { return firstToken == kNoTime ? kNoTime : firstToken - start; }
};

// Everything the critical path, slack and what-if analyses need about one
// workflow, validated and built once: the span graph, its tree, the clipped
// times and the event schedule. Immutable; cheap to query many times.
class WorkflowSchedule
{
public:
    static std::optional<WorkflowSchedule> build(std::shared_ptr<const SpanGraph> graph, QString *error);

    const SpanGraph &graph() const { return *m_graph; }
    std::shared_ptr<const SpanGraph> sharedGraph() const { return m_graph; }
    const SpanTree &tree() const { return m_tree; }
    const ClippedSpans &clipped() const { return m_clipped; }
    const ScheduleGraph &events() const { return m_events; }
    // Dependencies left out because they contradict the recorded times.
    const QStringList &notices() const { return m_notices; }

    const std::vector<qint64> &baselineTimes() const { return m_events.baselineTimes(); }
    const std::vector<qint64> &baselineDelays() const { return m_events.baselineDelays(); }

    std::vector<PathSection> criticalPath() const { return traceCriticalPath(m_events, baselineTimes()); }
    std::vector<PathSection> criticalPath(const std::vector<qint64> &times) const
    {
        return traceCriticalPath(m_events, times);
    }

    // Where the first content token happens on the recorded schedule: the
    // event whose delay holds it (a model call's own time, or its gap before
    // a child) and the instant. A token recorded outside its span's clipped
    // time (the span was clipped to its parent) is moved to the nearest end
    // of that time; `recorded` keeps the original. nullopt without a token.
    struct FirstTokenEvent
    {
        qint32 node = -1;
        qint32 span = -1;
        qint64 instant = 0;
        qint64 recorded = 0;
    };
    std::optional<FirstTokenEvent> firstTokenEvent() const;
    // The chain of sections that determines when the first token appears
    // (adds up to the instant minus the workflow's start); empty without one.
    std::vector<PathSection> firstTokenPath() const;
    // Per span: how much later it could end without delaying the first
    // token; kUnbounded for spans the first token does not wait for.
    std::vector<qint64> slackToFirstToken() const;

    // Per span: how much later it could end without moving the workflow's
    // end; ScheduleGraph::kUnbounded for spans that do not gate it at all.
    std::vector<qint64> slack() const { return slack(baselineTimes(), baselineDelays()); }
    std::vector<qint64> slack(const std::vector<qint64> &times, const std::vector<qint64> &delays) const;

    WorkflowTiming timing() const { return timing(baselineTimes(), baselineDelays(), nullptr); }
    // Timing after a re-schedule; first-token marks move with the stretch of
    // their span's own time they lie in, scaled like it.
    WorkflowTiming timing(const std::vector<qint64> &times, const std::vector<qint64> &delays,
                          const TimeScaling *scaling) const;

    size_t memoryBytes() const;

private:
    WorkflowSchedule(std::shared_ptr<const SpanGraph> graph, SpanTree tree, ClippedSpans clipped, ScheduleGraph events,
                     QStringList notices);

    std::vector<qint64> slackFrom(const std::vector<qint64> &latest, const std::vector<qint64> &times) const;
    qint64 movedInstant(qint32 span, qint64 instant, const std::vector<qint64> &times,
                        const std::vector<qint64> &delays, const TimeScaling *scaling) const;

    std::shared_ptr<const SpanGraph> m_graph;
    SpanTree m_tree;
    ClippedSpans m_clipped;
    ScheduleGraph m_events;
    QStringList m_notices;
};
