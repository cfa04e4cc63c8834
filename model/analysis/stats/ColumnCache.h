#pragma once

#include "SortedColumn.h"
#include "analysis/exceedance/RequestFeature.h"
#include "analysis/requests/Metric.h"

#include <QHash>
#include <QString>

#include <memory>
#include <mutex>

class TraceStore;

// Sorted columns of one trace, computed once per feature (a metric at a
// boundary, a phase, token counts, a numeric attribute) and shared by every
// class table and exceedance set after that. Safe to use from worker
// threads; holds the store alive.
class ColumnCache
{
public:
    // What is kept once computed: every column (the views, which come back
    // to them), or only the metrics asked for by metric() (a one-shot
    // report: the dozen feature columns an exceedance ranking sorts, 12 bytes
    // a request each, are freed as soon as their feature is done).
    enum class Retention { Every, MetricsOnly };

    explicit ColumnCache(std::shared_ptr<const TraceStore> store, Retention retention = Retention::Every);

    const std::shared_ptr<const TraceStore> &store() const { return m_store; }
    const RequestTable &table() const;

    std::shared_ptr<const SortedColumn> column(const RequestFeature &feature);
    std::shared_ptr<const SortedColumn> metric(Metric metric, Boundary boundary);

    // How many columns were computed (not served from the cache), for tests.
    int computedCount() const;

private:
    std::shared_ptr<const SortedColumn> column(const RequestFeature &feature, bool retain);

    std::shared_ptr<const TraceStore> m_store;
    Retention m_retention;
    mutable std::mutex m_mutex;
    QHash<QString, std::shared_ptr<const SortedColumn>> m_columns;
    int m_computed = 0;
};
