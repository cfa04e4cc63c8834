#pragma once

#include <QtGlobal>

#include <vector>

class ScheduleGraph;
class SpanGraph;
class SpanTree;

// How a what-if stretches time: a factor per span (applying to its whole
// subtree) and a ratio per phase interval of a span (a prefill made 25%
// shorter, a stream cut by 30 tokens). Turns the schedule's baseline delays
// into the what-if's delays; the identity leaves every delay as it was.
class TimeScaling
{
public:
    TimeScaling(const SpanGraph &graph, const SpanTree &tree);

    void scaleSpan(qint32 span, double factor);
    void scalePhase(qint32 span, qsizetype phaseIndex, double ratio); // phaseIndex within the span
    bool isIdentity() const { return !m_changed; }
    double effectiveFactor(qint32 span) const
    {
        propagate();
        return m_effective[size_t(span)];
    }

    // How many times the factors were carried down the tree: one after any
    // number of scaleSpan calls (tests hold it to that; issue 10, 11).
    qint64 propagations() const { return m_propagations; }

    // New length of the stretch [from, to] of `span`'s own time.
    qint64 scaledLength(qint32 span, qint64 from, qint64 to) const;
    std::vector<qint64> delays(const ScheduleGraph &schedule) const;

private:
    // Brings m_effective up to date: once after any number of scaleSpan
    // calls, so scaling every span of a kind stays linear in spans.
    void propagate() const;

    const SpanGraph &m_graph;
    const SpanTree &m_tree;
    std::vector<double> m_factor;
    mutable std::vector<double> m_effective; // product of factors from the root down
    mutable bool m_stale = false;            // m_factor changed since the last propagate()
    mutable qint64 m_propagations = 0;
    std::vector<double> m_phaseRatio;   // one per phase of the graph
    std::vector<quint8> m_phaseChanged; // per span
    bool m_changed = false;
};
