#include "MemberComparison.h"

#include "FeatureSamples.h"
#include "analysis/stats/Percentile.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

double MemberComparison::percentileRank(qint64 less, qint64 equal, qint64 n)
{
    if (n <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    return 100.0 * (double(less) + double(equal) / 2.0) / double(n);
}

double MemberComparison::percentileRank(std::span<const double> sortedRest, double value)
{
    if (sortedRest.empty() || std::isnan(value))
        return std::numeric_limits<double>::quiet_NaN();
    const auto below = std::lower_bound(sortedRest.begin(), sortedRest.end(), value);
    const auto notAbove = std::upper_bound(below, sortedRest.end(), value);
    return percentileRank(below - sortedRest.begin(), notAbove - below, qint64(sortedRest.size()));
}

MemberFeatureRow MemberComparison::valueOfFetched(const RequestTable &table, const RequestFeature &feature,
                                                  const RequestTable &fetched, qint32 fetchedRow)
{
    MemberFeatureRow line;
    line.feature = feature;
    if (feature.group != RequestFeature::Group::Attribute) {
        line.text = featureText(fetched, feature, fetchedRow);
        line.value = feature.group == RequestFeature::Group::Shape
            ? (line.text.isEmpty() ? line.value : line.text.toDouble())
            : metricValueMs(fetched, fetchedRow, feature.metric, feature.boundary);
        return line;
    }
    const AttributeColumn &column = table.attributes()[size_t(feature.attribute)];
    const qsizetype index = fetched.attributeIndex(column.name());
    if (index >= 0) {
        const AttributeColumn &theirs = fetched.attributes()[size_t(index)];
        line.text = theirs.text(fetchedRow);
        if (feature.numeric && theirs.isNumeric())
            line.value = theirs.number(fetchedRow);
    }
    return line;
}

MemberComparison MemberComparison::ofFetched(const RequestTable &table, std::span<const FeatureSamples> samples,
                                             const RequestTable &fetched, qint32 fetchedRow)
{
    MemberComparison comparison;
    comparison.requestId = fetched.idText(fetchedRow);
    for (const auto &sample : samples) {
        MemberFeatureRow line = valueOfFetched(table, sample.feature, fetched, fetchedRow);
        if (sample.feature.numeric) {
            line.restN = qint64(sample.rest.size());
            line.restMedian = Percentile::ofSorted(sample.rest, 0.5);
            line.percentileRank = percentileRank(sample.rest, line.value);
        } else {
            line.restN = sample.restTotal;
            const quint32 code = table.attributes()[size_t(sample.feature.attribute)].codeOf(line.text);
            if (sample.restTotal > 0)
                line.restShareSameValue = code == 0 && !line.text.isEmpty()
                    ? 0.0
                    : double(sample.restCounts[code]) / double(sample.restTotal);
        }
        comparison.rows.push_back(line);
    }
    return comparison;
}

MemberComparison MemberComparison::of(const RequestTable &table, std::span<const FeatureSamples> samples, qint32 row)
{
    MemberComparison comparison;
    comparison.row = row;
    comparison.requestId = table.idText(row);
    for (const auto &sample : samples) {
        MemberFeatureRow line;
        line.feature = sample.feature;
        line.text = featureText(table, sample.feature, row);
        if (sample.feature.numeric) {
            if (sample.feature.group == RequestFeature::Group::Attribute)
                line.value = table.attributes()[size_t(sample.feature.attribute)].number(row);
            else if (sample.feature.group == RequestFeature::Group::Shape)
                line.value = line.text.isEmpty() ? line.value : line.text.toDouble();
            else
                line.value = metricValueMs(table, row, sample.feature.metric, sample.feature.boundary);
            line.restN = qint64(sample.rest.size());
            line.restMedian = Percentile::ofSorted(sample.rest, 0.5);
            line.percentileRank = percentileRank(sample.rest, line.value);
        } else {
            const quint32 code = table.attributes()[size_t(sample.feature.attribute)].code(row);
            line.restN = sample.restTotal;
            if (sample.restTotal > 0)
                line.restShareSameValue = double(sample.restCounts[code]) / double(sample.restTotal);
        }
        comparison.rows.push_back(line);
    }
    return comparison;
}
