#pragma once

#include "RequestFeature.h"

#include <QString>

#include <limits>
#include <span>
#include <vector>

class RequestTable;
struct FeatureSamples;

// Where one request of the exceedance set sits among the rest on one feature.
//
// Numeric: its value, the rest's median (seed interpolation) and its
// percentile rank among the rest, by mid-rank:
//     rank = 100 * (#{rest < v} + #{rest == v} / 2) / #rest,
// so 50 is "typical", 100 "above every request of the rest".
// Categorical: its value and the share of the rest that has the same value.
struct MemberFeatureRow
{
    RequestFeature feature;
    QString text; // the member's value; empty when absent
    double value = std::numeric_limits<double>::quiet_NaN();
    double restMedian = std::numeric_limits<double>::quiet_NaN();
    double percentileRank = std::numeric_limits<double>::quiet_NaN();
    double restShareSameValue = std::numeric_limits<double>::quiet_NaN();
    qint64 restN = 0;
};

struct MemberComparison
{
    qint32 row = -1;
    qsizetype position = -1; // in the set's order
    QString requestId;
    std::vector<MemberFeatureRow> rows; // one per feature, in feature order

    static MemberComparison of(const RequestTable &table, std::span<const FeatureSamples> samples, qint32 row);
    // A request of another table (`fetched`: one fetched from a server)
    // against the samples of `table`'s rest: attributes matched by name and
    // categories by text (a value the rest never has shares 0 of it).
    static MemberComparison ofFetched(const RequestTable &table, std::span<const FeatureSamples> samples,
                                      const RequestTable &fetched, qint32 fetchedRow);
    // The member's text and value of `table`'s `feature` on `fetched`'s row
    // (attributes matched by name), the rest's figures not filled in.
    static MemberFeatureRow valueOfFetched(const RequestTable &table, const RequestFeature &feature,
                                           const RequestTable &fetched, qint32 fetchedRow);
    static double percentileRank(std::span<const double> sortedRest, double value);
    // The same from counts: `less` and `equal` of the rest's `n` values.
    static double percentileRank(qint64 less, qint64 equal, qint64 n);
};
