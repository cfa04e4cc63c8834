#include "ServerRequests.h"

#include "TracelaneSchema.h"

#include <cstring>

namespace {

QString column(Stamp stamp)
{
    return TracelaneSchema::stampColumn(stamp);
}

QString observed(Stamp begin, Stamp end)
{
    return QStringLiteral("(%1 != %3 AND %2 != %3)").arg(column(begin), column(end), TracelaneSchema::absentSql());
}

QString spanMs(Stamp begin, Stamp end)
{
    return QStringLiteral("((%2 - %1) / 1e6)").arg(column(begin), column(end));
}

std::pair<Stamp, Stamp> boundsOf(Metric metric, Boundary boundary)
{
    switch (metric) {
    case Metric::Ttft:
        return {boundaryStart(boundary), boundaryFirstToken(boundary)};
    case Metric::Itl:
        return {Stamp::FirstTokenClient, Stamp::LastTokenClient};
    case Metric::E2e:
        return {Stamp::ClientSend, Stamp::LastTokenClient};
    default:
        return {phaseBegin(metricPhase(metric)), phaseEnd(metricPhase(metric))};
    }
}

} // namespace

QString ServerRequests::definedSql(Metric metric, Boundary boundary)
{
    const auto [begin, end] = boundsOf(metric, boundary);
    if (metric == Metric::Itl)
        return QStringLiteral("(%1 AND output_tokens > 1)").arg(observed(begin, end));
    return observed(begin, end);
}

QString ServerRequests::valueSql(Metric metric, Boundary boundary)
{
    const auto [begin, end] = boundsOf(metric, boundary);
    if (metric == Metric::Itl)
        return QStringLiteral("(%1 / (output_tokens - 1))").arg(spanMs(begin, end));
    return spanMs(begin, end);
}

QString ServerRequests::float64Sql(double value)
{
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return QStringLiteral("reinterpretAsFloat64(reinterpretAsString(toUInt64(%1)))").arg(bits);
}

QString ServerRequests::float64BitsSql(const QString &expression)
{
    return QStringLiteral("reinterpretAsUInt64(reinterpretAsString(toFloat64(%1)))").arg(expression);
}

double ServerRequests::float64FromBits(const QString &bits)
{
    const quint64 raw = bits.toULongLong();
    double value = 0;
    std::memcpy(&value, &raw, sizeof value);
    return value;
}

QString ServerRequests::fromWhere() const
{
    const auto &source = m_client.source();
    QStringList conditions;
    if (source.from != ClickHouseSource::kNoBound)
        conditions << QStringLiteral("client_send_ns >= %1").arg(source.from);
    if (source.to != ClickHouseSource::kNoBound)
        conditions << QStringLiteral("client_send_ns < %1").arg(source.to);
    QString sql = QStringLiteral(" FROM %1").arg(source.requestsTable());
    if (!conditions.isEmpty())
        sql += QStringLiteral(" WHERE ") + conditions.join(QStringLiteral(" AND "));
    return sql;
}

bool ServerRequests::open(QString *error)
{
    // First-seen order of keys, as a loader creates attribute columns; which
    // keys are numeric (in num_keys) and which text.
    std::vector<QStringList> rows;
    const QString keysOf = QStringLiteral(
        "SELECT key, min(row * 65536 + position), min(numeric) FROM ("
        "SELECT row, arrayJoin(arrayConcat(arrayMap((k, i) -> (k, i, 0), attr_keys, arrayEnumerate(attr_keys)), "
        "arrayMap((k, i) -> (k, i + 32768, 1), num_keys, arrayEnumerate(num_keys)))) AS entry, "
        "entry.1 AS key, entry.2 AS position, entry.3 AS numeric %1) GROUP BY key "
        "ORDER BY min(row * 65536 + position)");
    if (!m_client.select(keysOf.arg(fromWhere()), &rows, error, 3))
        return false;
    m_names = RequestTable();
    for (const auto &row : rows) {
        const auto kind
            = row[2] == QLatin1String("1") ? AttributeColumn::Kind::Numeric : AttributeColumn::Kind::Categorical;
        m_names.attributeColumn(row[0], kind);
    }
    return true;
}

bool ServerRequests::classColumn(const ClassDimension &dimension, const ClassBands &bands, ClassColumn *result,
                                 QString *codeSql, QString *error) const
{
    // The distinct raw values, each one row of a small table of its own.
    std::vector<QStringList> rows;
    QString raw;
    RequestTable values;
    const bool tokens
        = dimension.kind == ClassDimension::Kind::PromptBand || dimension.kind == ClassDimension::Kind::OutputBand;
    const AttributeColumn *names = tokens ? nullptr : m_names.attribute(dimension.source);
    if (tokens) {
        raw = dimension.kind == ClassDimension::Kind::PromptBand ? QStringLiteral("prompt_tokens")
                                                                 : QStringLiteral("output_tokens");
    } else if (!names) {
        *error = QStringLiteral("no attribute '%1' in %2").arg(dimension.source, m_client.source().requestsTable());
        return false;
    } else if (names->isNumeric()) {
        raw = QStringLiteral("if(has(num_keys, %1), toString(%2), '')")
                  .arg(
                      clickHouseString(dimension.source),
                      float64BitsSql(
                          QStringLiteral("num_values[indexOf(num_keys, %1)]").arg(clickHouseString(dimension.source))));
    } else {
        raw = QStringLiteral("if(has(attr_keys, %1), concat('=', attr_values[indexOf(attr_keys, %1)]), '')")
                  .arg(clickHouseString(dimension.source));
    }
    if (!m_client.select(QStringLiteral("SELECT DISTINCT %1 AS raw %2 ORDER BY raw").arg(raw, fromWhere()), &rows,
                         error, 1))
        return false;
    if (names && names->isNumeric() && rows.size() > size_t(ClassColumn::kMaxNumericCategories) + 1) {
        *error = QStringLiteral("'%1' has more than %2 numeric values: its quartile bands are not computed on the "
                                "server yet; open the file instead")
                     .arg(dimension.source)
                     .arg(ClassColumn::kMaxNumericCategories);
        return false;
    }
    for (const auto &row : rows) {
        RequestTable::Row request;
        request.stamps.fill(kNoTime);
        const QString &value = row[0];
        if (tokens) {
            (dimension.kind == ClassDimension::Kind::PromptBand ? request.promptTokens : request.outputTokens)
                = value.toInt();
        }
        values.appendRow(request);
        if (!tokens && !value.isEmpty()) {
            auto &attribute = values.attributeColumn(dimension.source, names->kind());
            attribute.padTo(values.rowCount() - 1);
            if (names->isNumeric())
                attribute.appendNumber(float64FromBits(value));
            else
                attribute.appendText(value.mid(1));
        }
        values.finishRow();
    }
    if (!tokens && values.attribute(dimension.source) == nullptr)
        values.attributeColumn(dimension.source, names->kind()).padTo(values.rowCount());
    *result = ClassColumn::build(values, dimension, bands);
    QStringList from;
    QStringList to;
    for (size_t row = 0; row < rows.size(); ++row) {
        from << (tokens ? rows[row][0] : clickHouseString(rows[row][0]));
        to << QString::number(result->codes[row]);
    }
    if (rows.empty()) {
        *codeSql = QStringLiteral("toUInt32(0)");
        return true;
    }
    *codeSql = QStringLiteral("transform(%1, [%2], [%3], toUInt32(0))")
                   .arg(raw, from.join(QLatin1Char(',')), to.join(QStringLiteral(",")));
    *codeSql = QStringLiteral("toUInt32(%1)").arg(*codeSql);
    return true;
}
