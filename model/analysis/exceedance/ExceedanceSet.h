#pragma once

#include "analysis/requests/Metric.h"

#include <QString>

#include <limits>
#include <optional>
#include <vector>

class RequestSlice;
class RequestTable;
struct SortedColumn;

enum class ExceedanceOrder {
    MetricDescending, // slowest first; ties by arrival
    Arrival,          // by client send time; ties by row
};

// What makes a request "slow": its metric at a boundary is strictly above
// the slice's q-percentile (seed interpolation).
struct ExceedanceSpec
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    double q = 0.95;
    ExceedanceOrder order = ExceedanceOrder::MetricDescending;
    // When set, the threshold itself instead of the slice's q-percentile:
    // a larger population's (a server's, over what a sample was drawn from).
    std::optional<double> threshold = std::nullopt;

    bool operator==(const ExceedanceSpec &other) const = default;
};

// The requests of the current slice above the threshold (the set), in the
// chosen order, and the slice's other requests with the metric defined
// (the rest) that they are compared with.
struct ExceedanceSet
{
    ExceedanceSpec spec;
    Boundary boundary = Boundary::Client; // where the metric is observed
    qint64 sliceRequests = 0;
    qint64 observedRequests = 0; // slice requests with the metric defined
    double threshold = std::numeric_limits<double>::quiet_NaN();
    std::vector<qint32> members; // in spec.order
    std::vector<qint32> rest;    // ascending row

    qsizetype size() const { return qsizetype(members.size()); }
    bool isEmpty() const { return members.empty(); }
    // Position of `row` in `members`, or -1.
    qsizetype positionOf(qint32 row) const;

    // Puts the members in `order` (client send time, or metric descending).
    void reorder(const RequestTable &table, const SortedColumn &metric, ExceedanceOrder order);

    static QString orderKey(ExceedanceOrder order); // "metric", "arrival"
    static bool orderFromKey(const QString &key, ExceedanceOrder *order);
};

ExceedanceSet findExceedanceSet(const RequestTable &table, const SortedColumn &metric, const RequestSlice &slice,
                                const ExceedanceSpec &spec);
