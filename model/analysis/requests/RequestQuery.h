#pragma once

#include "Boundary.h"
#include "Metric.h"
#include "store/RowSet.h"

#include <QString>

#include <atomic>
#include <vector>

class RequestTable;

// One column of the request table, as something to filter and sort by.
struct RequestColumn
{
    enum class Kind { Id, Attribute, PromptTokens, OutputTokens, Metric };

    Kind kind = Kind::Id;
    qsizetype attribute = -1; // index into RequestTable::attributes()
    Metric metric = Metric::Ttft;

    friend bool operator==(const RequestColumn &, const RequestColumn &) = default;
};

// What the request table shows: rows matching a text (request id or any
// categorical attribute value, case-insensitive) and an attribute = value
// condition, in the order of one column.
struct RequestQuery
{
    QString text;
    QString attribute; // empty: no attribute condition
    QString value;     // the attribute's value as text ("(none)" = absent)
    RequestColumn sortColumn;
    bool descending = false;
    bool sorted = false; // false: natural (file) order
    Boundary boundary = Boundary::Client;

    bool filters() const { return !text.isEmpty() || !attribute.isEmpty(); }
    QString filterLabel() const; // "text ~ "eu" and region = eu-west"
};

struct RequestQueryResult
{
    RowSet matching;             // rows passing the filter (every row when none)
    std::vector<qint32> ordered; // the same rows in display order
    bool filtered = false;
};

namespace RequestQueries {

// The rows from `firstRow` on that pass the query's filter (every such row
// when it has none): a grown table's new rows alone are filtered from the
// first new row.
RowSet filter(const RequestTable &table, const RequestQuery &query, const std::atomic<bool> *cancelled = nullptr,
              qsizetype firstRow = 0);

// `rows` in the order of query.sortColumn; ties keep row order. Missing
// values (NaN, absent attribute) sort last in both directions. Numbers sort
// with a stable radix sort (StableKeySort); ids on up to `threads` threads
// (sorted halves merged).
std::vector<qint32> sort(const RequestTable &table, const RowSet &rows, const RequestQuery &query, int threads = 2,
                         const std::atomic<bool> *cancelled = nullptr);

RequestQueryResult run(const RequestTable &table, const RequestQuery &query, int threads = 2,
                       const std::atomic<bool> *cancelled = nullptr);

} // namespace RequestQueries
