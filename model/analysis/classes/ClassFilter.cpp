#include "ClassFilter.h"

#include "ClassColumn.h"
#include "store/RequestTable.h"

#include <map>

bool ClassFilter::parse(const QString &text, ClassFilter *filter, QString *error)
{
    ClassFilter parsed;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        if (equals <= 0) {
            *error = QStringLiteral("'%1' is not DIMENSION=VALUE").arg(part.trimmed());
            return false;
        }
        parsed.add({part.left(equals).trimmed(), part.mid(equals + 1).trimmed()});
    }
    *filter = std::move(parsed);
    return true;
}

RequestSlice ClassFilter::apply(const RequestTable &table, const ClassBands &bands, QString *error) const
{
    const qsizetype rows = table.rowCount();
    // Group alternatives by dimension, in first-mentioned order.
    std::vector<QString> order;
    std::map<QString, std::vector<QString>> wanted;
    for (const auto &condition : m_conditions) {
        if (!wanted.count(condition.dimension))
            order.push_back(condition.dimension);
        wanted[condition.dimension].push_back(condition.value);
    }
    std::vector<quint8> mask(size_t(rows), 1);
    for (const QString &key : order) {
        ClassDimension dimension;
        if (!classDimensionFromKey(table, key, &dimension)) {
            if (error)
                *error = QStringLiteral("no class dimension '%1' in this trace").arg(key);
            return RequestSlice::none(rows);
        }
        const ClassColumn column = ClassColumn::build(table, dimension, bands);
        std::vector<quint8> accepted(size_t(column.classCount()), 0);
        for (const QString &value : wanted[key]) {
            const qsizetype code = column.codeOf(value);
            if (code < 0) {
                if (error) {
                    *error = QStringLiteral("%1 has no class '%2' (classes: %3)")
                                 .arg(dimension.key, value, column.classes.join(QStringLiteral(", ")));
                }
                return RequestSlice::none(rows);
            }
            accepted[size_t(code)] = 1;
        }
        for (qsizetype row = 0; row < rows; ++row)
            mask[size_t(row)] = quint8(mask[size_t(row)] & accepted[column.codes[size_t(row)]]);
    }
    return RequestSlice::fromMask(std::move(mask));
}

QString ClassFilter::describe() const
{
    if (m_conditions.empty())
        return QStringLiteral("all requests");
    QStringList parts;
    for (const auto &condition : m_conditions)
        parts << condition.dimension + QStringLiteral(" = ") + condition.value;
    return parts.join(QStringLiteral(", "));
}
