#include "LongLivedStreams.h"

#include "store/TraceStore.h"

#include <algorithm>
#include <limits>

namespace LongLivedStreams {

std::vector<quint8> find(const TraceStore &store)
{
    const auto &workflows = store.workflows;
    const auto &spans = store.spans;
    const auto count = size_t(workflows.rowCount());
    std::vector<quint8> flags(count, 0);
    std::vector<qint64> e2e(count, 0);
    for (size_t w = 0; w < count; ++w) {
        const qint32 first = workflows.firstSpan[w];
        const qint32 spanCount = workflows.spanCount[w];
        qint64 begin = std::numeric_limits<qint64>::max();
        qint64 end = std::numeric_limits<qint64>::min();
        for (qint32 row = first; row < first + spanCount; ++row) {
            begin = std::min(begin, spans.start(row));
            end = std::max(end, spans.end(row));
        }
        e2e[w] = spanCount > 0 ? end - begin : 0;
    }
    if (count < 2)
        return flags; // nothing to be far longer than
    std::vector<qint64> sorted = e2e;
    std::nth_element(sorted.begin(), sorted.begin() + qsizetype(count / 2), sorted.end());
    const double median = double(sorted[count / 2]);
    const double limit = std::max(double(kMinimumNs), kFactor * median);
    for (size_t w = 0; w < count; ++w)
        flags[w] = workflows.spanCount[w] == 1 && double(e2e[w]) >= limit ? 1 : 0;
    return flags;
}

} // namespace LongLivedStreams
