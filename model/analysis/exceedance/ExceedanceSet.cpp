#include "ExceedanceSet.h"

#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/SortedColumn.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

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
    set.threshold = spec.threshold ? *spec.threshold : Percentile::ofSorted(sorted, spec.q);
    // In row order, so the rest comes out ascending without a sort (the
    // members are ordered below).
    set.rest.reserve(sorted.size());
    for (size_t row = 0; row < metric.values.size(); ++row) {
        const double value = metric.values[row];
        if (std::isnan(value) || !slice.contains(qsizetype(row)))
            continue;
        if (value > set.threshold)
            set.members.push_back(qint32(row));
        else
            set.rest.push_back(qint32(row));
    }
    set.reorder(table, metric, spec.order);
    return set;
}
