#include "TimeScaling.h"

#include "ScheduleGraph.h"
#include "SpanGraph.h"
#include "SpanTree.h"

#include <algorithm>
#include <cmath>

TimeScaling::TimeScaling(const SpanGraph &graph, const SpanTree &tree)
    : m_graph(graph)
    , m_tree(tree)
    , m_factor(size_t(graph.spanCount()), 1.0)
    , m_effective(size_t(graph.spanCount()), 1.0)
    , m_phaseRatio(size_t(graph.phaseTotal()), 1.0)
    , m_phaseChanged(size_t(graph.spanCount()), 0)
{ }

void TimeScaling::scaleSpan(qint32 span, double factor)
{
    m_factor[size_t(span)] *= factor;
    m_changed = true;
    m_stale = true;
}

void TimeScaling::scalePhase(qint32 span, qsizetype phaseIndex, double ratio)
{
    m_phaseRatio[size_t(m_graph.phaseOffset(span)) + size_t(phaseIndex)] *= ratio;
    m_phaseChanged[size_t(span)] = 1;
    m_changed = true;
}

void TimeScaling::propagate() const
{
    if (!m_stale)
        return;
    m_stale = false;
    ++m_propagations;
    for (const qint32 span : m_tree.preorder()) {
        const qint32 parent = m_tree.parent(span);
        m_effective[size_t(span)] = m_factor[size_t(span)] * (parent >= 0 ? m_effective[size_t(parent)] : 1.0);
    }
}

qint64 TimeScaling::scaledLength(qint32 span, qint64 from, qint64 to) const
{
    propagate();
    // Integer ns difference first, then one rounding at the end.
    double length = double(to - from);
    if (m_phaseChanged[size_t(span)] != 0) {
        const auto phases = m_graph.phases(span);
        const auto offset = size_t(m_graph.phaseOffset(span));
        for (size_t k = 0; k < phases.size(); ++k) {
            const double ratio = m_phaseRatio[offset + k];
            if (ratio == 1.0)
                continue;
            const qint64 overlap = std::min(to, phases[k].end) - std::max(from, phases[k].begin);
            if (overlap > 0)
                length += double(overlap) * (ratio - 1.0);
        }
    }
    return std::llround(m_effective[size_t(span)] * length);
}

std::vector<qint64> TimeScaling::delays(const ScheduleGraph &schedule) const
{
    std::vector<qint64> delays = schedule.baselineDelays();
    if (isIdentity())
        return delays;
    propagate();
    const auto &times = schedule.baselineTimes();
    const qint32 spans = schedule.spanCount();
    for (qint32 node = 0; node < schedule.nodeCount(); ++node) {
        const qint32 owner = schedule.owner(node);
        if (owner < 0 || owner >= spans || schedule.predecessors(node).empty())
            continue;
        if (m_effective[size_t(owner)] == 1.0 && m_phaseChanged[size_t(owner)] == 0)
            continue;
        const qint64 to = times[size_t(node)];
        delays[size_t(node)] = scaledLength(owner, to - delays[size_t(node)], to);
    }
    return delays;
}
