#include "SetComparison.h"

#include "FeatureSamples.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/TwoSampleDistance.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

EqualWidthBins EqualWidthBins::between(double low, double high, int bins)
{
    EqualWidthBins result;
    result.low = low;
    result.high = high;
    result.bins = !(high > low) || !std::isfinite(low) || !std::isfinite(high) ? 1 : bins;
    // Two finite extremes (-1e308 and 1e308) have a range beyond double: then
    // everything is measured in halves, which stay finite; otherwise in
    // whole widths, as always.
    result.halves = !std::isfinite(high - low);
    result.step = result.bins > 1 ? (result.halves ? high / 2.0 - low / 2.0 : high - low) / double(result.bins) : 0.0;
    return result;
}

std::vector<double> EqualWidthBins::edges() const
{
    std::vector<double> result;
    result.reserve(size_t(bins) + 1);
    for (int i = 0; i <= bins; ++i) {
        const double edge = halves ? low + step * double(i) + step * double(i) : low + step * double(i);
        result.push_back(i == bins ? (bins > 1 ? high : low) : edge);
    }
    return result;
}

int EqualWidthBins::binOf(double value) const
{
    const double at = step > 0.0 ? (halves ? value / 2.0 - low / 2.0 : value - low) / step : 0.0;
    return at >= double(bins - 1) ? bins - 1 : at > 0.0 ? int(at) : 0;
}

BinnedDistributions BinnedDistributions::of(std::span<const double> set, std::span<const double> rest, int bins)
{
    if (set.empty() && rest.empty())
        return {};
    const double low = std::min(set.empty() ? rest.front() : set.front(), rest.empty() ? set.front() : rest.front());
    const double high = std::max(set.empty() ? rest.back() : set.back(), rest.empty() ? set.back() : rest.back());
    const auto binned = EqualWidthBins::between(low, high, bins);
    const auto count = [&](std::span<const double> values) {
        std::vector<qint64> counts(size_t(binned.bins), 0);
        for (const double value : values)
            ++counts[size_t(binned.binOf(value))];
        return counts;
    };
    return fromCounts(binned, count(set), count(rest));
}

BinnedDistributions BinnedDistributions::fromCounts(const EqualWidthBins &bins, std::span<const qint64> setCounts,
                                                    std::span<const qint64> restCounts)
{
    BinnedDistributions result;
    result.edges = bins.edges();
    const auto shares = [](std::span<const qint64> counts) {
        qint64 n = 0;
        for (const qint64 count : counts)
            n += count;
        std::vector<double> shared;
        shared.reserve(counts.size());
        for (const qint64 count : counts)
            shared.push_back(n == 0 ? 0.0 : double(count) / double(n));
        return shared;
    };
    result.setShares = shares(setCounts);
    result.restShares = shares(restCounts);
    return result;
}

QString FeatureSeparation::method() const
{
    return feature.numeric ? QStringLiteral("KS D") : QStringLiteral("max share difference");
}

FeatureSeparation FeatureSeparation::of(const RequestTable &table, const FeatureSamples &samples)
{
    FeatureSeparation result;
    result.feature = samples.feature;
    if (samples.feature.numeric) {
        result.setN = qint64(samples.set.size());
        result.restN = qint64(samples.rest.size());
        result.setMedian = Percentile::ofSorted(samples.set, 0.5);
        result.restMedian = Percentile::ofSorted(samples.rest, 0.5);
        const auto ks = KolmogorovSmirnov::of(samples.set, samples.rest);
        result.separation = ks.d;
        result.ksAt = ks.at;
        result.distributions = BinnedDistributions::of(samples.set, samples.rest);
        return result;
    }
    const auto &column = table.attributes()[size_t(samples.feature.attribute)];
    std::vector<QString> values;
    values.reserve(size_t(column.valueCount()));
    values.push_back(ClassColumn::noneLabel());
    for (qsizetype code = 1; code < column.valueCount(); ++code)
        values.push_back(column.values()[code]);
    return ofCounts(samples.feature, values, samples.setCounts, samples.restCounts, samples.setTotal,
                    samples.restTotal);
}

FeatureSeparation FeatureSeparation::ofCounts(const RequestFeature &feature, std::span<const QString> values,
                                              std::span<const qint64> setCounts, std::span<const qint64> restCounts,
                                              qint64 setTotal, qint64 restTotal)
{
    FeatureSeparation result;
    result.feature = feature;
    result.setN = setTotal;
    result.restN = restTotal;
    double best = -1.0;
    double largest = 0.0;
    for (size_t code = 0; code < setCounts.size(); ++code) {
        ValueShare share;
        share.value = values[code];
        share.setCount = setCounts[code];
        share.restCount = restCounts[code];
        if (share.setCount == 0 && share.restCount == 0)
            continue;
        share.setShare = setTotal > 0 ? double(share.setCount) / double(setTotal) : 0.0;
        share.restShare = restTotal > 0 ? double(share.restCount) / double(restTotal) : 0.0;
        // Shifts equal up to rounding: name the value the set has more of,
        // which is the one a user acts on.
        const double shift = std::abs(share.setShare - share.restShare);
        const bool tie = std::abs(shift - best) <= 1e-12;
        largest = std::max(largest, shift);
        if ((!tie && shift > best) || (tie && share.setShare > share.restShare)) {
            best = shift;
            result.separatingValue = share.value;
        }
        result.shares.push_back(share);
    }
    result.separation = largest;
    std::stable_sort(result.shares.begin(), result.shares.end(), [](const ValueShare &a, const ValueShare &b) {
        return a.setShare != b.setShare ? a.setShare > b.setShare : a.restShare > b.restShare;
    });
    return result;
}

SetComparison SetComparison::rank(std::vector<FeatureSeparation> separations)
{
    SetComparison comparison;
    for (auto &separation : separations) {
        if (separation.feature.group == RequestFeature::Group::Phase)
            comparison.phases.push_back(std::move(separation));
        else if (separation.feature.isRanked())
            comparison.attributes.push_back(std::move(separation));
    }
    const auto stronger
        = [](const FeatureSeparation &a, const FeatureSeparation &b) { return a.separation > b.separation; };
    std::stable_sort(comparison.attributes.begin(), comparison.attributes.end(), stronger);
    std::stable_sort(comparison.phases.begin(), comparison.phases.end(), stronger);
    return comparison;
}
