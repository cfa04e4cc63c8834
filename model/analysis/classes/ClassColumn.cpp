#include "ClassColumn.h"

#include "analysis/stats/Percentile.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace {

// Numbers compare as numbers ("2" < "10"), text case-insensitively.
bool naturalLess(const QString &a, const QString &b)
{
    bool aNumber = false;
    bool bNumber = false;
    const double x = a.toDouble(&aNumber);
    const double y = b.toDouble(&bNumber);
    if (aNumber && bNumber && x != y)
        return x < y;
    if (aNumber != bNumber)
        return aNumber;
    const int folded = a.compare(b, Qt::CaseInsensitive);
    return folded != 0 ? folded < 0 : a < b;
}

// Codes of `column` (0 = absent) relabelled through `labelOf`; the column's
// values that map to the same label share a class.
template<typename LabelOf>
ClassColumn fromCategorical(const AttributeColumn &column, ClassColumn result, LabelOf labelOf)
{
    const auto &values = column.values();
    QStringList labels;
    std::vector<QString> mapped(size_t(values.size()));
    bool anyAbsent = false;
    for (qsizetype code = 1; code < values.size(); ++code) {
        mapped[size_t(code)] = labelOf(values[code]);
        if (!labels.contains(mapped[size_t(code)]))
            labels << mapped[size_t(code)];
    }
    std::sort(labels.begin(), labels.end(), naturalLess);
    const qsizetype rows = column.rowCount();
    for (qsizetype row = 0; row < rows && !anyAbsent; ++row)
        anyAbsent = column.code(row) == 0;
    if (anyAbsent)
        labels << ClassColumn::noneLabel();
    std::vector<quint32> remap(size_t(values.size()), 0);
    for (qsizetype code = 1; code < values.size(); ++code)
        remap[size_t(code)] = quint32(labels.indexOf(mapped[size_t(code)]));
    if (anyAbsent)
        remap[0] = quint32(labels.size() - 1);
    result.classes = labels;
    result.codes.resize(size_t(rows));
    for (qsizetype row = 0; row < rows; ++row)
        result.codes[size_t(row)] = remap[column.code(row)];
    return result;
}

QString numberLabel(double value)
{
    return QString::number(value, 'g', 15);
}

// Values of a many-valued numeric attribute in bands at `edges` (value v
// falls in band upper_bound(edges, v)), labelled "<a", "a–b", "≥b".
ClassColumn bandedNumeric(const AttributeColumn &column, std::vector<double> edges, double onlyValue,
                          ClassColumn result)
{
    const qsizetype rows = column.rowCount();
    QStringList labels;
    const auto text = [](double value) { return QString::number(value, 'g', 4); };
    for (size_t i = 0; i <= edges.size(); ++i) {
        if (edges.empty())
            labels << numberLabel(onlyValue);
        else if (i == 0)
            labels << QStringLiteral("<") + text(edges.front());
        else if (i == edges.size())
            labels << QStringLiteral("\u2265") + text(edges.back());
        else
            labels << text(edges[i - 1]) + QStringLiteral("\u2013") + text(edges[i]);
    }
    bool anyAbsent = false;
    for (qsizetype row = 0; row < rows && !anyAbsent; ++row)
        anyAbsent = std::isnan(column.number(row));
    const auto none = quint32(labels.size());
    if (anyAbsent)
        labels << ClassColumn::noneLabel();
    result.classes = labels;
    result.codes.resize(size_t(rows));
    for (qsizetype row = 0; row < rows; ++row) {
        const double value = column.number(row);
        result.codes[size_t(row)]
            = std::isnan(value) ? none : quint32(std::upper_bound(edges.begin(), edges.end(), value) - edges.begin());
    }
    result.bandEdges = std::move(edges);
    result.banded = true;
    return result;
}

ClassColumn fromNumeric(const AttributeColumn &column, ClassColumn result)
{
    const qsizetype rows = column.rowCount();
    std::set<double> distinct;
    bool anyAbsent = false;
    for (qsizetype row = 0; row < rows; ++row) {
        const double value = column.number(row);
        if (std::isnan(value))
            anyAbsent = true;
        else if (distinct.size() <= size_t(ClassColumn::kMaxNumericCategories))
            distinct.insert(value);
    }
    if (distinct.size() > size_t(ClassColumn::kMaxNumericCategories)) {
        // Many values: quartile bands, so each class holds about a quarter.
        std::vector<double> values(static_cast<size_t>(rows));
        for (qsizetype row = 0; row < rows; ++row)
            values[size_t(row)] = column.number(row);
        const auto sorted = Percentile::sortedFinite(values);
        std::vector<double> edges;
        for (const double q : {0.25, 0.5, 0.75}) {
            const double edge = Percentile::ofSorted(sorted, q);
            if (edge > sorted.front() && (edges.empty() || edge > edges.back()))
                edges.push_back(edge);
        }
        // Every quartile the lowest value (a retry count that is mostly 0):
        // the lowest value's band and the band of the others, not one band
        // of every value named after the lowest.
        if (edges.empty())
            edges.push_back(*std::upper_bound(sorted.begin(), sorted.end(), sorted.front()));
        return bandedNumeric(column, std::move(edges), sorted.front(), std::move(result));
    }
    // Few values (tiers, flags): each is its own class.
    QStringList labels;
    for (const double value : distinct)
        labels << numberLabel(value);
    // Every value absent (a column only rejected records filled): no value
    // class, only "(none)". std::next of an empty set's begin never ends.
    const std::vector<double> edges
        = distinct.empty() ? std::vector<double>() : std::vector<double>(std::next(distinct.begin()), distinct.end());
    const auto none = quint32(labels.size());
    if (anyAbsent)
        labels << ClassColumn::noneLabel();
    result.classes = labels;
    result.codes.resize(size_t(rows));
    for (qsizetype row = 0; row < rows; ++row) {
        const double value = column.number(row);
        result.codes[size_t(row)]
            = std::isnan(value) ? none : quint32(std::upper_bound(edges.begin(), edges.end(), value) - edges.begin());
    }
    return result;
}

ClassColumn fromTokens(const RequestTable &table, const TokenBands &bands, bool prompt, ClassColumn result)
{
    const qsizetype rows = table.rowCount();
    result.classes = bands.labels();
    const auto none = quint32(result.classes.size());
    bool anyAbsent = false;
    result.codes.resize(size_t(rows));
    for (qsizetype row = 0; row < rows; ++row) {
        const int band = bands.bandOf(prompt ? table.promptTokens(row) : table.outputTokens(row));
        anyAbsent = anyAbsent || band < 0;
        result.codes[size_t(row)] = band < 0 ? none : quint32(band);
    }
    if (anyAbsent)
        result.classes << ClassColumn::noneLabel();
    return result;
}

QString cacheStatus(const QString &value)
{
    static const QStringList yes = {QStringLiteral("true"), QStringLiteral("yes"), QStringLiteral("1"),
                                    QStringLiteral("hit"), QStringLiteral("cached")};
    static const QStringList no = {QStringLiteral("false"), QStringLiteral("no"), QStringLiteral("0"),
                                   QStringLiteral("miss"), QStringLiteral("not cached")};
    const QString folded = value.trimmed().toLower();
    if (yes.contains(folded))
        return QStringLiteral("cached");
    if (no.contains(folded))
        return QStringLiteral("not cached");
    return value;
}

} // namespace

ClassColumn ClassColumn::buildBanded(const RequestTable &table, const ClassDimension &dimension,
                                     std::vector<double> edges, double onlyValue)
{
    ClassColumn result;
    result.dimension = dimension;
    const AttributeColumn *column = table.attribute(dimension.source);
    if (!column || !column->isNumeric() || dimension.kind != ClassDimension::Kind::Attribute
        || (edges.empty() && std::isnan(onlyValue)))
        return build(table, dimension);
    return bandedNumeric(*column, std::move(edges), onlyValue, std::move(result));
}

ClassColumn ClassColumn::build(const RequestTable &table, const ClassDimension &dimension, const ClassBands &bands)
{
    ClassColumn result;
    result.dimension = dimension;
    switch (dimension.kind) {
    case ClassDimension::Kind::PromptBand:
        return fromTokens(table, bands.prompt, true, std::move(result));
    case ClassDimension::Kind::OutputBand:
        return fromTokens(table, bands.output, false, std::move(result));
    case ClassDimension::Kind::CachedPrefix: {
        const AttributeColumn *column = table.attribute(dimension.source);
        if (!column)
            break;
        if (column->isNumeric()) {
            // A count of cached tokens: any is "cached".
            ClassColumn status = std::move(result);
            status.classes = {QStringLiteral("cached"), QStringLiteral("not cached")};
            bool anyAbsent = false;
            status.codes.resize(size_t(table.rowCount()));
            for (qsizetype row = 0; row < table.rowCount(); ++row) {
                const double value = column->number(row);
                anyAbsent = anyAbsent || std::isnan(value);
                status.codes[size_t(row)] = std::isnan(value) ? 2u : (value > 0.0 ? 0u : 1u);
            }
            if (anyAbsent)
                status.classes << noneLabel();
            return status;
        }
        return fromCategorical(*column, std::move(result), cacheStatus);
    }
    case ClassDimension::Kind::Attribute:
    case ClassDimension::Kind::WorkflowType: {
        const AttributeColumn *column = table.attribute(dimension.source);
        if (!column)
            break;
        if (column->isNumeric())
            return fromNumeric(*column, std::move(result));
        return fromCategorical(*column, std::move(result), [](const QString &value) { return value; });
    }
    }
    // Unknown source: one class holding everything, so callers need no special case.
    result.classes = {noneLabel()};
    result.codes.assign(size_t(table.rowCount()), 0);
    return result;
}
