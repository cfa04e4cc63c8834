#pragma once

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <limits>
#include <span>
#include <vector>

class TraceStore;

// Every workflow's critical path, to its end (E2E) and to its first content
// token (TTFT), and every span's slack against both, computed once per
// loaded trace with the same schedule as the Workflow dock (WorkflowSchedule)
// and kept column-wise by span row of the store, so any set of workflows can
// then be attributed, counted or merged without recomputing a path.
class WorkflowPaths
{
public:
    static constexpr qint64 kUnbounded = std::numeric_limits<qint64>::max();

    enum class Target { End, FirstToken };

    // One stretch of a path: `row` is a span row of the store (-1 for idle
    // time between root spans); `gap` when it is that span's own time
    // around its children (coordination), not work of a leaf.
    struct Section
    {
        qint32 row = -1;
        bool gap = false;
        qint64 ns = 0;
    };

    // `threads` 0 = one per core. Polls `cancel` between workflows.
    static WorkflowPaths compute(const TraceStore &store, int threads = 0, const std::atomic<bool> *cancel = nullptr);

    qint32 workflowCount() const { return qint32(m_total[0].size()); }
    bool cancelled() const { return m_cancelled; }

    std::span<const Section> path(Target target, qint32 workflow) const
    {
        const auto t = size_t(target);
        const auto begin = m_begin[t][size_t(workflow)];
        return {m_sections[t].data() + begin, size_t(m_begin[t][size_t(workflow) + 1] - begin)};
    }
    // The path's length: E2E, or start to first token; -1 when the workflow
    // could not be scheduled or (first token) has none.
    qint64 total(Target target, qint32 workflow) const { return m_total[size_t(target)][size_t(workflow)]; }
    // A span that ran past its parent's end (async work, clock skew) is
    // clipped on the path, but the workflow's recorded total still includes
    // it: the overrun beyond the path's end (or of a first token recorded
    // past its clipped span) and the span it belongs to; row -1 for none.
    qint32 overrunRow(Target target, qint32 workflow) const { return m_overrunRow[size_t(target)][size_t(workflow)]; }
    qint64 overrunNs(Target target, qint32 workflow) const { return m_overrunNs[size_t(target)][size_t(workflow)]; }
    // How much later span `row` could end without moving the target;
    // kUnbounded when the target does not wait for it.
    qint64 slack(Target target, qint32 row) const { return m_slack[size_t(target)][size_t(row)]; }

    // Why a workflow could not be scheduled (empty when it could).
    QString error(qint32 workflow) const;
    qint32 failedCount() const { return qint32(m_errors.size()); }

    // Workflow of each request row (-1 for flat requests).
    qint32 workflowOfRow(qint32 row) const
    {
        return row >= 0 && size_t(row) < m_workflowOfRow.size() ? m_workflowOfRow[size_t(row)] : -1;
    }

    size_t memoryBytes() const;

private:
    std::vector<Section> m_sections[2];
    std::vector<qint64> m_begin[2]; // workflowCount() + 1 offsets
    std::vector<qint64> m_total[2];
    std::vector<qint64> m_slack[2]; // per span row
    std::vector<qint32> m_overrunRow[2];
    std::vector<qint64> m_overrunNs[2];
    std::vector<std::pair<qint32, QString>> m_errors;
    std::vector<qint32> m_workflowOfRow;
    bool m_cancelled = false;
};
