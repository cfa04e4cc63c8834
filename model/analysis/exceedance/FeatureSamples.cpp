#include "FeatureSamples.h"

#include "ExceedanceSet.h"
#include "analysis/stats/ColumnCache.h"
#include "store/RequestTable.h"

std::vector<quint8> FeatureSamples::groupsOf(const ExceedanceSet &set, qsizetype rows)
{
    std::vector<quint8> groups(size_t(rows), 0);
    for (const qint32 row : set.members)
        groups[size_t(row)] = 1;
    for (const qint32 row : set.rest)
        groups[size_t(row)] = 2;
    return groups;
}

FeatureSamples FeatureSamples::gather(ColumnCache &cache, const RequestFeature &feature, const ExceedanceSet &set,
                                      const std::vector<quint8> &groups)
{
    FeatureSamples samples;
    samples.feature = feature;
    const RequestTable &table = cache.table();
    if (!feature.numeric) {
        const auto &column = table.attributes()[size_t(feature.attribute)];
        samples.setCounts.assign(size_t(column.valueCount()), 0);
        samples.restCounts.assign(size_t(column.valueCount()), 0);
        for (const qint32 row : set.members)
            ++samples.setCounts[column.code(row)];
        for (const qint32 row : set.rest)
            ++samples.restCounts[column.code(row)];
        samples.setTotal = qint64(set.members.size());
        samples.restTotal = qint64(set.rest.size());
        return samples;
    }
    // Read both groups off the sorted column: they come out in order.
    const auto column = cache.column(feature);
    samples.set.reserve(set.members.size());
    samples.rest.reserve(set.rest.size());
    for (const qint32 row : column->ascending) {
        const quint8 which = groups[size_t(row)];
        if (which == 1)
            samples.set.push_back(column->values[size_t(row)]);
        else if (which == 2)
            samples.rest.push_back(column->values[size_t(row)]);
    }
    return samples;
}
