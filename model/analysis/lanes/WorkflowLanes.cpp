#include "WorkflowLanes.h"

#include "analysis/workflows/LongLivedStreams.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkTimeline.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <thread>

qint32 WorkflowLanes::Segments::indexAt(float ms) const
{
    const float *it = std::upper_bound(end, end + count, ms);
    const qint32 index = qint32(it - end);
    return index < count && begin[index] <= ms ? index : -1;
}

WorkflowLanes::Segments WorkflowLanes::segments(const Columns &columns, qint32 lane)
{
    const quint32 first = columns.first[size_t(lane)];
    const quint32 last = columns.first[size_t(lane) + 1];
    return {columns.begin.data() + first, columns.end.data() + first, columns.kind.data() + first,
            columns.span.data() + first, qint32(last - first)};
}

size_t WorkflowLanes::memoryBytes() const
{
    const auto columnBytes = [](const Columns &c) {
        return c.first.capacity() * sizeof(quint32) + (c.begin.capacity() + c.end.capacity()) * sizeof(float)
            + c.kind.capacity() * sizeof(WorkKind) + c.span.capacity() * sizeof(qint32);
    };
    return m_origin.capacity() * sizeof(qint64) + (m_row.capacity() + m_laneOfRow.capacity()) * sizeof(qint32)
        + m_flags.capacity() + columnBytes(m_path) + columnBytes(m_offPath);
}

// Builds a contiguous range of lanes; the ranges of several threads are
// joined in order afterwards.
struct WorkflowLanesBuilder
{
    using Columns = WorkflowLanes::Columns;

    const TraceStore &store;
    const SpanGraphBuilder &graphs;
    const std::vector<quint8> &longLived;
    const std::atomic<bool> *cancelled = nullptr;

    struct Part
    {
        Columns path;
        Columns offPath;
        std::vector<qint64> origin;
        std::vector<qint32> row;
        std::vector<quint8> flags;
        std::array<qint64, kWorkKindCount> totals{};
        bool cancelled = false;
    };

    // The lane's origin: the first observed stamp of its request row (where
    // LaneLayout puts the row), else the earliest span start.
    qint64 originOf(qint32 workflow) const
    {
        const qint32 row = store.workflows.requestRow[size_t(workflow)];
        if (row >= 0 && row < store.requests.rowCount()) {
            for (int s = 0; s < kStampCount; ++s) {
                const qint64 t = store.requests.stamp(row, static_cast<Stamp>(s));
                if (t != kNoTime)
                    return t;
            }
        }
        const qint32 first = store.workflows.firstSpan[size_t(workflow)];
        qint64 origin = std::numeric_limits<qint64>::max();
        for (qint32 r = first; r < first + store.workflows.spanCount[size_t(workflow)]; ++r)
            origin = std::min(origin, store.spans.start(r));
        return origin == std::numeric_limits<qint64>::max() ? 0 : origin;
    }

    static void pack(Columns &columns, const std::vector<WorkSegment> &segments, const SpanGraph &graph, qint64 origin,
                     std::array<qint64, kWorkKindCount> *totals)
    {
        for (const auto &segment : segments) {
            // Integer subtraction first: epoch-sized times keep their precision.
            columns.begin.push_back(float(double(segment.begin - origin) / 1e6));
            columns.end.push_back(float(double(segment.end - origin) / 1e6));
            columns.kind.push_back(segment.kind);
            columns.span.push_back(segment.span >= 0 ? graph.sourceRow(segment.span) : -1);
            if (totals)
                (*totals)[size_t(segment.kind)] += segment.end - segment.begin;
        }
        columns.first.push_back(quint32(columns.kind.size()));
    }

    static void appendColumns(Columns &to, const Columns &from)
    {
        const quint32 base = quint32(to.kind.size());
        for (size_t i = 1; i < from.first.size(); ++i)
            to.first.push_back(base + from.first[i]);
        to.begin.insert(to.begin.end(), from.begin.begin(), from.begin.end());
        to.end.insert(to.end.end(), from.end.begin(), from.end.end());
        to.kind.insert(to.kind.end(), from.kind.begin(), from.kind.end());
        to.span.insert(to.span.end(), from.span.begin(), from.span.end());
    }

    static void reserve(Columns &columns, size_t lanes, size_t segments)
    {
        columns.first.reserve(lanes + 1);
        columns.begin.reserve(segments);
        columns.end.reserve(segments);
        columns.kind.reserve(segments);
        columns.span.reserve(segments);
    }

    void run(qint32 from, qint32 to, Part &part) const
    {
        // Columns sized up front from the range's span count (a lane has
        // about one path segment and one off-path segment per span): growing
        // them by doubling copied each column several times, a tenth of the
        // build at 3M spans.
        size_t spans = 0;
        for (qint32 w = from; w < to; ++w)
            spans += size_t(store.workflows.spanCount[size_t(w)]);
        const auto lanes = size_t(to - from);
        reserve(part.path, lanes, spans + spans / 4);
        reserve(part.offPath, lanes, spans);
        part.origin.reserve(lanes);
        part.row.reserve(lanes);
        part.flags.reserve(lanes);
        part.path.first.push_back(0);
        part.offPath.first.push_back(0);
        WorkTimeline timeline;
        for (qint32 w = from; w < to; ++w) {
            if (((w - from) & 0xFF) == 0 && cancelled && cancelled->load(std::memory_order_relaxed)) {
                part.cancelled = true;
                return;
            }
            const qint64 origin = originOf(w);
            part.origin.push_back(origin);
            part.row.push_back(store.workflows.requestRow[size_t(w)]);
            quint8 flags = longLived[size_t(w)] ? WorkflowLanes::LongLivedStream : WorkflowLanes::NoFlags;
            QString error;
            auto graph = graphs.build(w, SpanGraphBuilder::Detail::Structure);
            const auto schedule = WorkflowSchedule::build(graph, &error);
            if (!schedule) {
                flags |= WorkflowLanes::NotAnalysed;
                timeline.path.clear();
                timeline.offPath.clear();
            } else {
                WorkTimeline::build(*schedule, schedule->criticalPath(), timeline);
            }
            part.flags.push_back(flags);
            pack(part.path, timeline.path, *graph, origin, &part.totals);
            pack(part.offPath, timeline.offPath, *graph, origin, nullptr);
        }
    }
};

WorkflowLanes WorkflowLanes::build(const TraceStore &store, const std::atomic<bool> *cancelled, int threads)
{
    WorkflowLanes lanes;
    const qint32 count = qint32(store.workflows.rowCount());
    if (count == 0)
        return lanes;
    const SpanGraphBuilder graphs(store);
    const std::vector<quint8> longLived = LongLivedStreams::find(store);
    const WorkflowLanesBuilder builder{store, graphs, longLived, cancelled};

    // Split by span count, not workflow count: a few huge workflows would
    // otherwise leave one thread idle.
    threads = std::clamp(threads, 1, std::max(1, count / 64));
    std::vector<qint32> bounds{0};
    const qint64 spanTotal = store.spans.rowCount();
    qint64 seen = 0;
    for (qint32 w = 0; w < count && qint32(bounds.size()) < threads; ++w) {
        seen += store.workflows.spanCount[size_t(w)];
        if (seen * threads >= spanTotal * qint64(bounds.size()))
            bounds.push_back(w + 1);
    }
    if (bounds.back() != count)
        bounds.push_back(count);
    std::vector<WorkflowLanesBuilder::Part> parts(bounds.size() - 1);
    std::vector<std::thread> workers;
    for (size_t p = 1; p < parts.size(); ++p)
        workers.emplace_back([&, p] { builder.run(bounds[p], bounds[p + 1], parts[p]); });
    builder.run(bounds[0], bounds[1], parts[0]);
    for (auto &worker : workers)
        worker.join();

    // The joined columns at their final size: one copy of each part.
    size_t pathSegments = 0;
    size_t offPathSegments = 0;
    for (const auto &part : parts) {
        if (part.cancelled)
            return {};
        pathSegments += part.path.kind.size();
        offPathSegments += part.offPath.kind.size();
    }
    WorkflowLanesBuilder::reserve(lanes.m_path, size_t(count), pathSegments);
    WorkflowLanesBuilder::reserve(lanes.m_offPath, size_t(count), offPathSegments);
    lanes.m_origin.reserve(size_t(count));
    lanes.m_row.reserve(size_t(count));
    lanes.m_flags.reserve(size_t(count));
    lanes.m_path.first.push_back(0);
    lanes.m_offPath.first.push_back(0);
    for (const auto &part : parts) {
        lanes.m_origin.insert(lanes.m_origin.end(), part.origin.begin(), part.origin.end());
        lanes.m_row.insert(lanes.m_row.end(), part.row.begin(), part.row.end());
        lanes.m_flags.insert(lanes.m_flags.end(), part.flags.begin(), part.flags.end());
        WorkflowLanesBuilder::appendColumns(lanes.m_path, part.path);
        WorkflowLanesBuilder::appendColumns(lanes.m_offPath, part.offPath);
        for (int k = 0; k < kWorkKindCount; ++k)
            lanes.m_pathTotals[size_t(k)] += part.totals[size_t(k)];
    }
    for (const auto *columns : {&lanes.m_path, &lanes.m_offPath}) {
        for (const WorkKind kind : columns->kind)
            lanes.m_present[size_t(kind)] = 1;
    }
    lanes.m_laneOfRow.assign(size_t(store.requests.rowCount()), -1);
    for (qint32 lane = 0; lane < count; ++lane) {
        const qint32 row = lanes.m_row[size_t(lane)];
        if (row >= 0 && size_t(row) < lanes.m_laneOfRow.size())
            lanes.m_laneOfRow[size_t(row)] = lane;
    }
    return lanes;
}
