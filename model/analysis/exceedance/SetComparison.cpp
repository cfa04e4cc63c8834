#include "SetComparison.h"

#include "FeatureSamples.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/TwoSampleDistance.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

BinnedDistributions BinnedDistributions::of(std::span<const double> set, std::span<const double> rest, int bins)
{
    BinnedDistributions result;
    if (set.empty() && rest.empty())
        return result;
    const double low = std::min(set.empty() ? rest.front() : set.front(), rest.empty() ? set.front() : rest.front());
    const double high = std::max(set.empty() ? rest.back() : set.back(), rest.empty() ? set.back() : rest.back());
    if (!(high > low) || !std::isfinite(low) || !std::isfinite(high))
        bins = 1;
    // Two finite extremes (-1e308 and 1e308) have a range beyond double: then
    // everything is measured in halves, which stay finite; otherwise in
    // whole widths, as always.
    const bool halves = !std::isfinite(high - low);
    const double step = bins > 1 ? (halves ? high / 2.0 - low / 2.0 : high - low) / double(bins) : 0.0;
    for (int i = 0; i <= bins; ++i) {
        const double edge = halves ? low + step * double(i) + step * double(i) : low + step * double(i);
        result.edges.push_back(i == bins ? (bins > 1 ? high : low) : edge);
    }
    const auto fill = [&](std::span<const double> values, std::vector<double> *shares) {
        shares->assign(size_t(bins), 0.0);
        for (const double value : values) {
            // NaN (never expected) and values below `low` land in the first bin.
            const double at = step > 0.0 ? (halves ? value / 2.0 - low / 2.0 : value - low) / step : 0.0;
            const int bin = at >= double(bins - 1) ? bins - 1 : at > 0.0 ? int(at) : 0;
            (*shares)[size_t(bin)] += 1.0;
        }
        for (double &share : *shares)
            share = values.empty() ? 0.0 : share / double(values.size());
    };
    fill(set, &result.setShares);
    fill(rest, &result.restShares);
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
    const auto &values = table.attributes()[size_t(samples.feature.attribute)].values();
    result.setN = samples.setTotal;
    result.restN = samples.restTotal;
    double best = -1.0;
    double largest = 0.0;
    for (size_t code = 0; code < samples.setCounts.size(); ++code) {
        ValueShare share;
        share.value = code == 0 ? ClassColumn::noneLabel() : values[qsizetype(code)];
        share.setCount = samples.setCounts[code];
        share.restCount = samples.restCounts[code];
        if (share.setCount == 0 && share.restCount == 0)
            continue;
        share.setShare = samples.setTotal > 0 ? double(share.setCount) / double(samples.setTotal) : 0.0;
        share.restShare = samples.restTotal > 0 ? double(share.restCount) / double(samples.restTotal) : 0.0;
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
