#include "WorkflowPaths.h"

#include "SpanGraphBuilder.h"
#include "WorkflowSchedule.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <thread>

namespace {

// What one thread computed for a contiguous range of workflows.
struct Chunk
{
    std::vector<WorkflowPaths::Section> sections[2];
    std::vector<qint64> length[2]; // sections per workflow
    std::vector<qint64> total[2];
    std::vector<qint32> overrunRow[2];
    std::vector<qint64> overrunNs[2];
    std::vector<std::pair<qint32, QString>> errors;
};

void appendPath(const WorkflowSchedule &schedule, const std::vector<PathSection> &path, Chunk &chunk, size_t t)
{
    const SpanGraph &graph = schedule.graph();
    const ScheduleGraph &events = schedule.events();
    for (const PathSection &section : path) {
        WorkflowPaths::Section out;
        out.ns = section.duration();
        if (section.span >= 0) {
            out.row = graph.sourceRow(section.span);
            // A span's own time counts as coordination when it has gating
            // children: its end waits for them as well as for its start.
            out.gap = events.predecessors(events.endNode(section.span)).size() > 1;
        }
        chunk.sections[t].push_back(out);
    }
    chunk.length[t].push_back(qint64(path.size()));
}

void failPaths(Chunk &chunk)
{
    for (size_t t = 0; t < 2; ++t) {
        chunk.length[t].push_back(0);
        chunk.total[t].push_back(-1);
        chunk.overrunRow[t].push_back(-1);
        chunk.overrunNs[t].push_back(0);
    }
}

} // namespace

QString WorkflowPaths::error(qint32 workflow) const
{
    const auto it = std::lower_bound(m_errors.begin(), m_errors.end(), workflow,
                                     [](const auto &entry, qint32 w) { return entry.first < w; });
    return it != m_errors.end() && it->first == workflow ? it->second : QString();
}

WorkflowPaths WorkflowPaths::compute(const TraceStore &store, int threads, const std::atomic<bool> *cancel)
{
    WorkflowPaths paths;
    const auto workflows = qint32(store.workflows.rowCount());
    const auto spanRows = size_t(store.spans.rowCount());
    for (size_t t = 0; t < 2; ++t)
        paths.m_slack[t].assign(spanRows, kUnbounded);
    paths.m_workflowOfRow.assign(size_t(store.requests.rowCount()), -1);
    for (qint32 w = 0; w < workflows; ++w) {
        const qint32 row = store.workflows.requestRow[size_t(w)];
        if (row >= 0 && size_t(row) < paths.m_workflowOfRow.size())
            paths.m_workflowOfRow[size_t(row)] = w;
    }

    const SpanGraphBuilder builder(store);
    const int hardware = std::max(1, int(std::thread::hardware_concurrency()));
    const int workers = std::clamp(threads > 0 ? threads : hardware, 1, std::max(1, workflows));
    std::vector<Chunk> chunks(static_cast<size_t>(workers));
    std::atomic<bool> stopped = false;
    const auto run = [&](int index) {
        Chunk &chunk = chunks[size_t(index)];
        const qint32 first = qint32(qint64(workflows) * index / workers);
        const qint32 last = qint32(qint64(workflows) * (index + 1) / workers);
        for (qint32 w = first; w < last; ++w) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            QString error;
            auto schedule = WorkflowSchedule::build(builder.build(w, SpanGraphBuilder::Detail::Structure), &error);
            if (!schedule) {
                // Said again with the spans' names, which the lean graph left out.
                WorkflowSchedule::build(builder.build(w), &error);
                chunk.errors.emplace_back(w, error);
                failPaths(chunk);
                continue;
            }
            const SpanGraph &graph = schedule->graph();
            const WorkflowTiming timing = schedule->timing();
            appendPath(*schedule, schedule->criticalPath(), chunk, size_t(Target::End));
            chunk.total[size_t(Target::End)].push_back(timing.e2e());
            // The span that ended last, when it ended after the path.
            qint32 latest = 0;
            for (qint32 span = 1; span < graph.spanCount(); ++span) {
                if (graph.end(span) > graph.end(latest))
                    latest = span;
            }
            const bool overrun = graph.end(latest) > timing.end;
            chunk.overrunRow[size_t(Target::End)].push_back(overrun ? graph.sourceRow(latest) : -1);
            chunk.overrunNs[size_t(Target::End)].push_back(overrun ? graph.end(latest) - timing.end : 0);
            const auto event = schedule->firstTokenEvent();
            if (event) {
                const auto path
                    = traceCriticalPathTo(schedule->events(), schedule->baselineTimes(), event->node, event->instant);
                appendPath(*schedule, path, chunk, size_t(Target::FirstToken));
                chunk.total[size_t(Target::FirstToken)].push_back(event->instant - timing.start);
                const bool late = event->recorded > event->instant;
                chunk.overrunRow[size_t(Target::FirstToken)].push_back(late ? graph.sourceRow(event->span) : -1);
                chunk.overrunNs[size_t(Target::FirstToken)].push_back(late ? event->recorded - event->instant : 0);
            } else {
                chunk.length[size_t(Target::FirstToken)].push_back(0);
                chunk.total[size_t(Target::FirstToken)].push_back(-1);
                chunk.overrunRow[size_t(Target::FirstToken)].push_back(-1);
                chunk.overrunNs[size_t(Target::FirstToken)].push_back(0);
            }
            // Slack goes straight into the shared columns: each span row
            // belongs to exactly one workflow, so threads never share a cell.
            const auto endSlack = schedule->slack();
            const auto tokenSlack = event ? schedule->slackToFirstToken() : std::vector<qint64>();
            for (qint32 span = 0; span < graph.spanCount(); ++span) {
                const auto row = size_t(graph.sourceRow(span));
                paths.m_slack[size_t(Target::End)][row] = endSlack[size_t(span)];
                if (event)
                    paths.m_slack[size_t(Target::FirstToken)][row] = tokenSlack[size_t(span)];
            }
        }
    };
    if (workers == 1) {
        run(0);
    } else {
        std::vector<std::thread> pool;
        for (int i = 1; i < workers; ++i)
            pool.emplace_back(run, i);
        run(0);
        for (auto &thread : pool)
            thread.join();
    }
    if (stopped) {
        paths.m_cancelled = true;
        return paths;
    }

    // Chunks in workflow order: offsets, sections and totals joined.
    for (size_t t = 0; t < 2; ++t) {
        size_t sections = 0;
        for (const auto &chunk : chunks)
            sections += chunk.sections[t].size();
        paths.m_sections[t].reserve(sections);
        paths.m_begin[t].reserve(size_t(workflows) + 1);
        paths.m_total[t].reserve(size_t(workflows));
        paths.m_begin[t].push_back(0);
        for (auto &chunk : chunks) {
            paths.m_sections[t].insert(paths.m_sections[t].end(), chunk.sections[t].begin(), chunk.sections[t].end());
            for (const qint64 length : chunk.length[t])
                paths.m_begin[t].push_back(paths.m_begin[t].back() + length);
            paths.m_total[t].insert(paths.m_total[t].end(), chunk.total[t].begin(), chunk.total[t].end());
            paths.m_overrunRow[t].insert(paths.m_overrunRow[t].end(), chunk.overrunRow[t].begin(),
                                         chunk.overrunRow[t].end());
            paths.m_overrunNs[t].insert(paths.m_overrunNs[t].end(), chunk.overrunNs[t].begin(),
                                        chunk.overrunNs[t].end());
            chunk.sections[t] = {};
        }
    }
    for (auto &chunk : chunks)
        paths.m_errors.insert(paths.m_errors.end(), chunk.errors.begin(), chunk.errors.end());
    return paths;
}

size_t WorkflowPaths::memoryBytes() const
{
    size_t bytes = m_workflowOfRow.capacity() * sizeof(qint32);
    for (size_t t = 0; t < 2; ++t) {
        bytes += m_sections[t].capacity() * sizeof(Section)
            + (m_begin[t].capacity() + m_total[t].capacity() + m_slack[t].capacity() + m_overrunNs[t].capacity())
                * sizeof(qint64)
            + m_overrunRow[t].capacity() * sizeof(qint32);
    }
    return bytes;
}
