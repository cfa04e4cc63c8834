#include "UnusualSpans.h"

#include "store/TraceStore.h"

#include <algorithm>
#include <unordered_map>

UnusualSpans UnusualSpans::compute(const TraceStore &store, const SpanKeys &keys, qint32 workflow,
                                   std::span<const qint32> restRows)
{
    UnusualSpans result;
    result.keyKind = keys.kind();
    if (workflow < 0 || workflow >= store.workflows.rowCount())
        return result;
    const SpanTable &spans = store.spans;
    const qint32 first = store.workflows.firstSpan[size_t(workflow)];
    const qint32 count = store.workflows.spanCount[size_t(workflow)];
    result.rank.assign(size_t(count), kNoRank);
    result.restSamples.assign(size_t(count), 0);
    // Only the keys this workflow has: one duration list each.
    std::unordered_map<quint32, std::vector<qint64>> durations;
    for (qint32 row = first; row < first + count; ++row)
        durations.try_emplace(keys.keyOf(row));
    const qint32 ownRow = store.workflows.requestRow[size_t(workflow)];
    std::vector<qint32> workflowOfRow(size_t(store.requests.rowCount()), -1);
    for (qint32 w = 0; w < qint32(store.workflows.rowCount()); ++w) {
        const qint32 row = store.workflows.requestRow[size_t(w)];
        if (row >= 0 && size_t(row) < workflowOfRow.size())
            workflowOfRow[size_t(row)] = w;
    }
    for (const qint32 row : restRows) {
        if (row == ownRow || row < 0 || size_t(row) >= workflowOfRow.size() || workflowOfRow[size_t(row)] < 0)
            continue;
        const qint32 w = workflowOfRow[size_t(row)];
        const qint32 begin = store.workflows.firstSpan[size_t(w)];
        const qint32 end = begin + store.workflows.spanCount[size_t(w)];
        for (qint32 span = begin; span < end; ++span) {
            const auto it = durations.find(keys.keyOf(span));
            if (it != durations.end())
                it->second.push_back(spans.duration(span));
        }
    }
    for (auto &[key, list] : durations)
        std::sort(list.begin(), list.end());
    for (qint32 row = first; row < first + count; ++row) {
        const auto &sorted = durations[keys.keyOf(row)];
        if (sorted.empty())
            continue;
        const qint64 value = spans.duration(row);
        const auto below = std::lower_bound(sorted.begin(), sorted.end(), value);
        const auto notAbove = std::upper_bound(below, sorted.end(), value);
        result.rank[size_t(row - first)]
            = 100.0 * (double(below - sorted.begin()) + double(notAbove - below) / 2.0) / double(sorted.size());
        result.restSamples[size_t(row - first)] = qint64(sorted.size());
    }
    return result;
}
