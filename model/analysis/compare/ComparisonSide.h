#pragma once

#include "analysis/requests/RequestSlice.h"
#include "store/TraceStore.h"

#include <QString>

#include <memory>

// One side of a before/after comparison: the requests of a loaded trace
// that form the baseline or the candidate. Two files give two whole stores;
// one file split by class values or at a time gives two slices of the same
// store, so nothing is copied.
struct ComparisonSide
{
    std::shared_ptr<const TraceStore> store;
    RequestSlice rows; // the store's requests on this side
    QString label;     // "baseline" or "candidate" plus where it came from
    // Records the loader refused on this side, for the failed-share guardrail;
    // -1 when they cannot be attributed (one file split in two).
    qint64 rejected = -1;

    static ComparisonSide whole(std::shared_ptr<const TraceStore> store, QString label)
    {
        ComparisonSide side;
        side.rows = RequestSlice::all(store ? store->requests.rowCount() : 0);
        side.rejected = store ? qint64(store->rejected.size()) : 0;
        side.store = std::move(store);
        side.label = std::move(label);
        return side;
    }

    static ComparisonSide part(std::shared_ptr<const TraceStore> store, RequestSlice rows, QString label)
    {
        ComparisonSide side;
        side.store = std::move(store);
        side.rows = std::move(rows);
        side.label = std::move(label);
        return side;
    }

    const RequestTable &table() const { return store->requests; }
    qsizetype size() const { return rows.size(); }
};
