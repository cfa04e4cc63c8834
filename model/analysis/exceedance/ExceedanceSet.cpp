#include "ExceedanceSet.h"

#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/SortedColumn.h"
#include "store/RequestTable.h"

#include <algorithm>

qsizetype ExceedanceSet::positionOf(qint32 row) const
{
    const auto found = std::find(members.begin(), members.end(), row);
    return found == members.end() ? -1 : qsizetype(found - members.begin());
}

void ExceedanceSet::reorder(const RequestTable &table, const SortedColumn &metric, ExceedanceOrder order)
{
    spec.order = order;
    const auto arrival = [&](qint32 row) { return table.stamp(row, Stamp::ClientSend); };
    if (order == ExceedanceOrder::Arrival) {
        std::sort(members.begin(), members.end(),
                  [&](qint32 a, qint32 b) { return std::pair(arrival(a), a) < std::pair(arrival(b), b); });
        return;
    }
    std::sort(members.begin(), members.end(), [&](qint32 a, qint32 b) {
        const double x = metric.values[size_t(a)];
        const double y = metric.values[size_t(b)];
        if (x != y)
            return x > y;
        return std::pair(arrival(a), a) < std::pair(arrival(b), b);
    });
}

QString ExceedanceSet::orderKey(ExceedanceOrder order)
{
    return order == ExceedanceOrder::Arrival ? QStringLiteral("arrival") : QStringLiteral("metric");
}

bool ExceedanceSet::orderFromKey(const QString &key, ExceedanceOrder *order)
{
    if (key == QStringLiteral("arrival")) {
        *order = ExceedanceOrder::Arrival;
        return true;
    }
    if (key == QStringLiteral("metric")) {
        *order = ExceedanceOrder::MetricDescending;
        return true;
    }
    return false;
}

ExceedanceSet findExceedanceSet(const RequestTable &table, const SortedColumn &metric, const RequestSlice &slice,
                                const ExceedanceSpec &spec)
{
    ExceedanceSet set;
    set.spec = spec;
    set.boundary = observedBoundary(spec.metric, spec.boundary);
    set.sliceRequests = slice.size();
    const auto sorted = metric.sortedWhere([&](qint32 row) { return slice.contains(row); });
    set.observedRequests = qint64(sorted.size());
    set.threshold = Percentile::ofSorted(sorted, spec.q);
    for (const qint32 row : metric.ascending) {
        if (!slice.contains(row))
            continue;
        if (metric.values[size_t(row)] > set.threshold)
            set.members.push_back(row);
        else
            set.rest.push_back(row);
    }
    std::sort(set.rest.begin(), set.rest.end());
    set.reorder(table, metric, spec.order);
    return set;
}
