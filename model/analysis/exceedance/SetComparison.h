#pragma once

#include "RequestFeature.h"

#include <QString>

#include <limits>
#include <span>
#include <vector>

class RequestTable;
struct FeatureSamples;

// Share of one attribute value in the exceedance set and in the rest.
struct ValueShare
{
    QString value; // "(none)" for requests without one
    qint64 setCount = 0;
    qint64 restCount = 0;
    double setShare = 0.0;
    double restShare = 0.0;
};

// Equal-width bins between a smallest and a largest value: their edges and
// the bin of any value, in one arithmetic for every caller (a database's
// counts are binned by the same rule as a loaded trace's values).
struct EqualWidthBins
{
    double low = 0.0;
    double high = 0.0;
    int bins = 1;
    bool halves = false; // the range is beyond double: measured in halves
    double step = 0.0;

    // One bin when `high` is not above `low` or either is not finite.
    static EqualWidthBins between(double low, double high, int bins);
    std::vector<double> edges() const; // bins + 1, ascending
    // NaN and values below `low` fall in the first bin, values at or above
    // the last edge in the last.
    int binOf(double value) const;
};

// The set's and the rest's distributions of a numeric feature over the same
// equal-width bins between the smallest and largest value of either, as the
// share of each group per bin, ready to plot side by side.
struct BinnedDistributions
{
    std::vector<double> edges; // bins + 1 ascending edges; the last bin includes its upper edge
    std::vector<double> setShares;
    std::vector<double> restShares;

    static constexpr int kBins = 20;
    static BinnedDistributions of(std::span<const double> set, std::span<const double> rest, int bins = kBins);
    // From the count of each group's values per bin of `bins` (the groups'
    // sizes are the counts' sums).
    static BinnedDistributions fromCounts(const EqualWidthBins &bins, std::span<const qint64> setCounts,
                                          std::span<const qint64> restCounts);
};

// How strongly one feature separates the exceedance set from the rest.
//
// Categorical: separation = max over values v of |share_set(v) - share_rest(v)|,
// the largest shift of any single value (reported in `separatingValue`).
// Numeric: separation = the two-sample Kolmogorov–Smirnov D (at `ksAt`).
// Both lie in [0, 1]: 0 when the set looks like the rest, 1 when a value or a
// cut point splits them completely, so one ranking holds both kinds.
struct FeatureSeparation
{
    RequestFeature feature;
    double separation = 0.0;

    std::vector<ValueShare> shares; // categorical: by set share, then rest share, descending
    QString separatingValue;

    qint64 setN = 0; // numeric: defined values in each group
    qint64 restN = 0;
    double setMedian = std::numeric_limits<double>::quiet_NaN();
    double restMedian = std::numeric_limits<double>::quiet_NaN();
    double ksAt = std::numeric_limits<double>::quiet_NaN();
    BinnedDistributions distributions;

    QString method() const; // "KS D" or "max share difference"
    static FeatureSeparation of(const RequestTable &table, const FeatureSamples &samples);
    // A categorical feature from its count per value in each group:
    // `values[code]` names code's value (code 0: none), codes in the order a
    // loader interns them (ties in share keep it).
    static FeatureSeparation ofCounts(const RequestFeature &feature, std::span<const QString> values,
                                      std::span<const qint64> setCounts, std::span<const qint64> restCounts,
                                      qint64 setTotal, qint64 restTotal);
};

// Features ranked by separation, strongest first (ties keep feature order):
// attributes and token shape in one list, phases in another. The metric
// that defines the set is never ranked: it separates by construction.
struct SetComparison
{
    std::vector<FeatureSeparation> attributes;
    std::vector<FeatureSeparation> phases;

    static SetComparison rank(std::vector<FeatureSeparation> separations);
};
