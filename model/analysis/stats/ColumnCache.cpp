#include "ColumnCache.h"

#include "store/TraceStore.h"

ColumnCache::ColumnCache(std::shared_ptr<const TraceStore> store, Retention retention)
    : m_store(std::move(store))
    , m_retention(retention)
{ }

const RequestTable &ColumnCache::table() const
{
    return m_store->requests;
}

std::shared_ptr<const SortedColumn> ColumnCache::column(const RequestFeature &feature)
{
    return column(feature, m_retention == Retention::Every);
}

std::shared_ptr<const SortedColumn> ColumnCache::column(const RequestFeature &feature, bool retain)
{
    const QString key = feature.cacheKey();
    {
        const std::lock_guard lock(m_mutex);
        const auto found = m_columns.constFind(key);
        if (found != m_columns.cend())
            return found.value();
    }
    // Computed outside the lock: two threads asking at once both compute,
    // which costs time once but never blocks a reader behind a sort.
    auto computed = std::make_shared<const SortedColumn>(SortedColumn::build(featureValues(table(), feature)));
    const std::lock_guard lock(m_mutex);
    const auto found = m_columns.constFind(key);
    if (found != m_columns.cend())
        return found.value();
    ++m_computed;
    if (retain)
        m_columns.insert(key, computed);
    return computed;
}

std::shared_ptr<const SortedColumn> ColumnCache::metric(Metric metric, Boundary boundary)
{
    return column(RequestFeature::ofMetric(metric, boundary), true);
}

int ColumnCache::computedCount() const
{
    const std::lock_guard lock(m_mutex);
    return m_computed;
}
