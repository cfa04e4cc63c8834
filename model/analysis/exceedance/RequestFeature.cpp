#include "RequestFeature.h"

#include "store/RequestTable.h"

#include <cmath>
#include <limits>

RequestFeature RequestFeature::ofMetric(Metric metric, Boundary boundary)
{
    RequestFeature feature;
    feature.group = isPhaseMetric(metric) ? Group::Phase : Group::Metric;
    feature.key = metricKey(metric);
    feature.label = metricLabel(metric);
    feature.unit = metricUnit(metric);
    feature.metric = metric;
    feature.boundary = observedBoundary(metric, boundary);
    return feature;
}

RequestFeature RequestFeature::ofTokens(bool prompt)
{
    RequestFeature feature;
    feature.group = Group::Shape;
    feature.key = prompt ? QStringLiteral("prompt_tokens") : QStringLiteral("output_tokens");
    feature.label = prompt ? QStringLiteral("Prompt tokens") : QStringLiteral("Output tokens");
    feature.unit = QStringLiteral("tokens");
    feature.prompt = prompt;
    return feature;
}

RequestFeature RequestFeature::ofAttribute(const RequestTable &table, qsizetype attribute)
{
    const auto &column = table.attributes()[size_t(attribute)];
    RequestFeature feature;
    feature.group = Group::Attribute;
    feature.key = column.name();
    feature.label = column.name();
    feature.numeric = column.isNumeric();
    feature.attribute = attribute;
    return feature;
}

QString RequestFeature::cacheKey() const
{
    switch (group) {
    case Group::Metric:
        return key + QLatin1Char('@') + boundaryKey(boundary);
    case Group::Phase:
    case Group::Shape:
        return key;
    case Group::Attribute:
        break;
    }
    return QStringLiteral("attr:") + key;
}

std::vector<RequestFeature> comparisonFeatures(const RequestTable &table, Boundary boundary)
{
    std::vector<RequestFeature> features;
    for (const Metric metric : {Metric::Ttft, Metric::Itl, Metric::E2e})
        features.push_back(RequestFeature::ofMetric(metric, boundary));
    // Stream figures only where the trace has token times on that side.
    const auto &tokens
        = observedBoundary(Metric::GapP95, boundary) == Boundary::Client ? table.clientTokens() : table.serverTokens();
    if (!tokens.isEmpty()) {
        for (const Metric metric : {Metric::GapP95, Metric::MaxStall})
            features.push_back(RequestFeature::ofMetric(metric, boundary));
    }
    for (const Phase phase : kAllPhases)
        features.push_back(RequestFeature::ofMetric(phaseMetric(phase), boundary));
    features.push_back(RequestFeature::ofTokens(true));
    features.push_back(RequestFeature::ofTokens(false));
    for (size_t i = 0; i < table.attributes().size(); ++i)
        features.push_back(RequestFeature::ofAttribute(table, qsizetype(i)));
    return features;
}

ColumnVector<double> featureValues(const RequestTable &table, const RequestFeature &feature)
{
    const auto rows = size_t(table.rowCount());
    switch (feature.group) {
    case RequestFeature::Group::Metric:
    case RequestFeature::Group::Phase:
        return metricColumnMs(table, feature.metric, feature.boundary);
    case RequestFeature::Group::Shape: {
        // 0 tokens means the source did not say: not an observation.
        ColumnVector<double> values(rows);
        for (size_t row = 0; row < rows; ++row) {
            const qint32 tokens
                = feature.prompt ? table.promptTokens(qsizetype(row)) : table.outputTokens(qsizetype(row));
            values[row] = tokens > 0 ? double(tokens) : std::numeric_limits<double>::quiet_NaN();
        }
        return values;
    }
    case RequestFeature::Group::Attribute:
        break;
    }
    ColumnVector<double> values(rows, std::numeric_limits<double>::quiet_NaN());
    const auto &column = table.attributes()[size_t(feature.attribute)];
    if (column.isNumeric()) {
        for (size_t row = 0; row < rows; ++row)
            values[row] = column.number(qsizetype(row));
    }
    return values;
}

QString featureText(const RequestTable &table, const RequestFeature &feature, qsizetype row)
{
    if (feature.group == RequestFeature::Group::Attribute)
        return table.attributes()[size_t(feature.attribute)].text(row);
    if (feature.group == RequestFeature::Group::Shape) {
        const qint32 tokens = feature.prompt ? table.promptTokens(row) : table.outputTokens(row);
        return tokens > 0 ? QString::number(tokens) : QString();
    }
    const double value = metricValueMs(table, row, feature.metric, feature.boundary);
    return std::isnan(value) ? QString() : QString::number(value, 'f', 3);
}
