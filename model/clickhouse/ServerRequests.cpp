#include "ServerRequests.h"

#include "ServerOrderStatistics.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

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

bool ServerRequests::firstSend(qint64 *ns, QString *error) const
{
    std::vector<QStringList> rows;
    if (!m_client.select(
            QStringLiteral("SELECT count(), min(client_send_ns) %1")
                .arg(withPrewhere(rangeFromWhere(),
                                  QStringLiteral("client_send_ns != %1").arg(TracelaneSchema::absentSql()))),
            &rows, error, 2))
        return false;
    *ns = rows.empty() || rows.front()[0].toLongLong() == 0 ? kNoTime : rows.front()[1].toLongLong();
    return true;
}

bool ServerRequests::featureSql(const RequestFeature &feature, QString *defined, QString *value)
{
    switch (feature.group) {
    case RequestFeature::Group::Metric:
    case RequestFeature::Group::Phase:
        if (isStreamMetric(feature.metric))
            return false;
        *defined = definedSql(feature.metric, feature.boundary);
        *value = valueSql(feature.metric, feature.boundary);
        return true;
    case RequestFeature::Group::Shape: {
        // 0 tokens: the source did not say.
        const QString column = feature.prompt ? QStringLiteral("prompt_tokens") : QStringLiteral("output_tokens");
        *defined = QStringLiteral("%1 > 0").arg(column);
        *value = QStringLiteral("toFloat64(%1)").arg(column);
        return true;
    }
    case RequestFeature::Group::Attribute:
        break;
    }
    if (!feature.numeric)
        return false;
    const QString key = clickHouseString(feature.key);
    *value = QStringLiteral("num_values[indexOf(num_keys, %1)]").arg(key);
    *defined = QStringLiteral("has(num_keys, %1) AND NOT isNaN(%2)").arg(key, *value);
    return true;
}

QString ServerRequests::aboveSql(Metric metric, Boundary boundary, double threshold)
{
    return QStringLiteral("%1 > %2").arg(valueSql(metric, boundary), float64Sql(threshold));
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

QString ServerRequests::rowsChanged(qint64 read, qint64 counted)
{
    return QStringLiteral("the rows changed while they were read (%1 values where %2 were counted)")
        .arg(read)
        .arg(counted);
}

QString ServerRequests::rangeFromWhere() const
{
    const auto &source = m_client.source();
    const QStringList conditions = source.requestConditions();
    QString sql = QStringLiteral(" FROM %1").arg(source.requestsTable());
    if (!conditions.isEmpty())
        sql += QStringLiteral(" WHERE ") + conditions.join(QStringLiteral(" AND "));
    return sql;
}

QString ServerRequests::fromWhere() const
{
    QString sql = rangeFromWhere();
    if (!m_filter.isEmpty())
        sql += (sql.contains(QStringLiteral(" WHERE ")) ? QStringLiteral(" AND ") : QStringLiteral(" WHERE "))
            + m_filter;
    return sql;
}

bool ServerRequests::distinctRawValues(const ClassDimension &dimension, QStringList *values, QString *error) const
{
    QString raw;
    std::vector<QStringList> rows;
    if (!rawSql(dimension, &raw, error)
        || !m_client.select(QStringLiteral("SELECT DISTINCT %1 %2").arg(raw, rangeFromWhere()), &rows, error, 1))
        return false;
    values->clear();
    for (const auto &row : rows)
        *values << row[0];
    return true;
}

bool ServerRequests::setFilter(const ClassFilter &filter, const ClassBands &bands, QString *error)
{
    // Alternatives on one dimension (OR), dimensions together (AND), as
    // ClassFilter::apply reads them.
    std::vector<QString> order;
    std::map<QString, QStringList> wanted;
    for (const auto &condition : filter.conditions()) {
        if (!wanted.contains(condition.dimension))
            order.push_back(condition.dimension);
        wanted[condition.dimension] << condition.value;
    }
    QStringList conditions;
    for (const QString &key : order) {
        ClassDimension dimension;
        if (!classDimensionFromKey(m_names, key, &dimension)) {
            *error = QStringLiteral("no class dimension '%1' in this trace").arg(key);
            return false;
        }
        QStringList values;
        ClassColumn column;
        QStringList sorted;
        QString code;
        if (!prepareDimension(dimension, error) || !distinctRawValues(dimension, &values, error)
            || !classColumn(dimension, bands, values, &column, &sorted, &code, error))
            return false;
        QStringList codes;
        for (const QString &value : wanted[key]) {
            const qsizetype at = column.codeOf(value);
            if (at < 0) {
                *error = QStringLiteral("%1 has no class '%2' (classes: %3)")
                             .arg(dimension.key, value, column.classes.join(QStringLiteral(", ")));
                return false;
            }
            codes << QString::number(at);
        }
        conditions << QStringLiteral("%1 IN (%2)").arg(code, codes.join(QStringLiteral(", ")));
    }
    m_filter = conditions.isEmpty() ? QString() : QStringLiteral("(%1)").arg(conditions.join(QStringLiteral(" AND ")));
    return true;
}

QString ServerRequests::withPrewhere(const QString &fromWhere, const QString &prewhere, const QString &where,
                                     const QString &arrayJoin)
{
    const QString keyword = QStringLiteral(" WHERE ");
    const qsizetype at = fromWhere.indexOf(keyword);
    QStringList conditions;
    if (at >= 0)
        conditions << fromWhere.mid(at + keyword.size());
    if (!where.isEmpty())
        conditions << where;
    QString sql = at < 0 ? fromWhere : fromWhere.left(at);
    if (!arrayJoin.isEmpty())
        sql += QStringLiteral(" ARRAY JOIN ") + arrayJoin;
    if (!prewhere.isEmpty())
        sql += QStringLiteral(" PREWHERE ") + prewhere;
    if (!conditions.isEmpty())
        sql += QStringLiteral(" WHERE (") + conditions.join(QStringLiteral(") AND (")) + QLatin1Char(')');
    return sql;
}

bool ServerRequests::readClassColumns(QString *error)
{
    QSet<QString> columns;
    if (!TracelaneSchema::columnsOf(m_client, m_client.source().table, &columns, error))
        return false;
    m_classColumns.clear();
    for (const QString &column : std::as_const(columns)) {
        if (column.startsWith(QStringLiteral("class_")))
            m_classColumns.insert(column);
    }
    return true;
}

bool ServerRequests::open(QString *error)
{
    if (!readClassColumns(error))
        return false;
    // First-seen order of keys, as a loader creates attribute columns; which
    // keys are numeric (in num_keys) and which text.
    std::vector<QStringList> rows;
    // ARRAY JOIN in the query over the (Distributed) table, so each shard
    // groups its own rows (an arrayJoin() in a subquery ships every row's
    // keys to the initiator first: 2.1 s against 1.3 s on 20M rows).
    const QString arrays = QStringLiteral(
        "arrayConcat(attr_keys, num_keys) AS tl_key, arrayConcat(arrayMap(i -> toUInt64(i), "
        "arrayEnumerate(attr_keys)), arrayMap(i -> toUInt64(i + 32768), arrayEnumerate(num_keys))) AS tl_position, "
        "arrayConcat(arrayMap(k -> toUInt8(0), attr_keys), arrayMap(k -> toUInt8(1), num_keys)) AS tl_numeric");
    const QString range = rangeFromWhere();
    const qsizetype where = range.indexOf(QStringLiteral(" WHERE "));
    const QString from = (where < 0 ? range : range.left(where)) + QStringLiteral(" ARRAY JOIN ") + arrays
        + (where < 0 ? QString() : range.mid(where));
    if (!m_client.select(QStringLiteral("SELECT tl_key, min(row * 65536 + tl_position), min(tl_numeric) %1 GROUP BY "
                                        "tl_key ORDER BY min(row * 65536 + tl_position)")
                             .arg(from),
                         &rows, error, 3))
        return false;
    m_names = RequestTable();
    for (const auto &row : rows) {
        const auto kind
            = row[2] == QLatin1String("1") ? AttributeColumn::Kind::Numeric : AttributeColumn::Kind::Categorical;
        m_names.attributeColumn(row[0], kind);
    }
    return true;
}

namespace {

bool isTokenBand(const ClassDimension &dimension)
{
    return dimension.kind == ClassDimension::Kind::PromptBand || dimension.kind == ClassDimension::Kind::OutputBand;
}

} // namespace

bool ServerRequests::rawSql(const ClassDimension &dimension, QString *raw, QString *error) const
{
    if (isTokenBand(dimension)) {
        *raw = dimension.kind == ClassDimension::Kind::PromptBand ? QStringLiteral("prompt_tokens")
                                                                  : QStringLiteral("output_tokens");
        return true;
    }
    const AttributeColumn *names = m_names.attribute(dimension.source);
    if (!names) {
        *error = QStringLiteral("no attribute '%1' in %2").arg(dimension.source, m_client.source().requestsTable());
        return false;
    }
    const QString key = clickHouseString(dimension.source);
    if (const auto banded = m_bands.find(dimension.source); banded != m_bands.end()) {
        // The band: how many edges are <= the value (upper_bound's index).
        QStringList atOrAbove = {QStringLiteral("0")};
        for (const double edge : banded->second.edges)
            atOrAbove << QStringLiteral("(num_values[indexOf(num_keys, %1)] >= %2)").arg(key, float64Sql(edge));
        *raw = QStringLiteral("if(has(num_keys, %1), toString(toUInt32(%2)), '')")
                   .arg(key, atOrAbove.join(QStringLiteral(" + ")));
        return true;
    }
    if (names->isNumeric()) {
        *raw = QStringLiteral("if(has(num_keys, %1), toString(%2), '')")
                   .arg(key, float64BitsSql(QStringLiteral("num_values[indexOf(num_keys, %1)]").arg(key)));
    } else {
        // A class column (schema version 2) holds the same value, computed
        // by the server from the arrays: one short column to read.
        *raw = hasClassColumn(dimension.source) ? clickHouseIdentifier(TracelaneSchema::classColumn(dimension.source))
                                                : TracelaneSchema::classValueSql(dimension.source);
    }
    return true;
}

bool ServerRequests::prepareDimension(const ClassDimension &dimension, QString *error)
{
    if (isTokenBand(dimension) || dimension.kind != ClassDimension::Kind::Attribute
        || m_bands.contains(dimension.source))
        return true;
    const AttributeColumn *names = m_names.attribute(dimension.source);
    if (!names || !names->isNumeric())
        return true;
    QString raw;
    if (!rawSql(dimension, &raw, error))
        return false;
    std::vector<QStringList> rows;
    const int enough = ClassColumn::kMaxNumericCategories + 3; // '', -0 beside 0, one value too many
    if (!m_client.select(QStringLiteral("SELECT DISTINCT %1 AS raw %2 LIMIT %3").arg(raw, rangeFromWhere()).arg(enough),
                         &rows, error, 1))
        return false;
    // Distinct as doubles, as ClassColumn counts them (-0 is 0).
    std::set<double> values;
    for (const QStringList &row : rows) {
        if (!row[0].isEmpty())
            values.insert(float64FromBits(row[0]));
    }
    if (values.size() <= size_t(ClassColumn::kMaxNumericCategories))
        return true;
    // Quartile edges of the finite values, kept when above the lowest
    // value and the edge before (Percentile::ofSorted, as on the file).
    const QString key = clickHouseString(dimension.source);
    const QStringList with = {QStringLiteral("num_values[indexOf(num_keys, %1)] AS tl_x").arg(key),
                              QStringLiteral("(has(num_keys, %1) AND isFinite(tl_x)) AS tl_finite").arg(key)};
    if (!m_client.select(QStringLiteral("WITH %1 SELECT countIf(tl_finite) %2")
                             .arg(with.join(QStringLiteral(", ")), rangeFromWhere()),
                         &rows, error, 1))
        return false;
    if (rows.size() != 1) {
        *error = QStringLiteral("ClickHouse answered %1 rows where one count was expected").arg(rows.size());
        return false;
    }
    const qint64 n = rows[0][0].toLongLong();
    if (n == 0) {
        *error = QStringLiteral("'%1' has no finite value to band").arg(dimension.source);
        return false;
    }
    const double quartiles[] = {0.25, 0.5, 0.75};
    std::set<qint64> ranks = ServerOrderStatistics::percentileRanks(n, quartiles);
    ranks.insert(0);
    ServerOrderStatistics statistics;
    const int index = statistics.add(QStringLiteral("tl_x"), QStringLiteral("tl_finite"), n, ranks);
    if (!statistics.run(m_client, with, rangeFromWhere(), error))
        return false;
    NumericBands bands;
    bands.lowest = statistics.at(index, 0);
    for (const double q : quartiles) {
        const double edge = statistics.percentile(index, q);
        if (edge > bands.lowest && (bands.edges.empty() || edge > bands.edges.back()))
            bands.edges.push_back(edge);
    }
    // Every quartile the lowest value: the next value up is the one edge,
    // as on the file (there is one: more than 12 distinct values).
    if (bands.edges.empty()) {
        const QString above = QStringLiteral("tl_finite AND tl_x > %1").arg(float64Sql(bands.lowest));
        if (!m_client.select(QStringLiteral("WITH %1 SELECT countIf(%2), %3 %4")
                                 .arg(with.join(QStringLiteral(", ")), above,
                                      float64BitsSql(QStringLiteral("minIf(tl_x, %1)").arg(above)), rangeFromWhere()),
                             &rows, error, 2))
            return false;
        if (rows.size() != 1 || rows[0][0].toLongLong() == 0) {
            *error = QStringLiteral("'%1' has no finite value above its lowest (%2) although it has more than %3 "
                                    "values; the rows changed while they were read")
                         .arg(dimension.source, QString::number(bands.lowest),
                              QString::number(ClassColumn::kMaxNumericCategories));
            return false;
        }
        bands.edges.push_back(float64FromBits(rows[0][1]));
    }
    m_bands[dimension.source] = std::move(bands);
    return true;
}

bool ServerRequests::openFor(const QStringList &keys, QString *error)
{
    // A full open() reads every row's key arrays (seconds on tens of
    // millions of rows); a key that is there is usually in the first block.
    RequestTable names;
    for (const QString &raw : keys) {
        const QString key = raw.trimmed();
        const bool special = key.contains(QStringLiteral("cache"), Qt::CaseInsensitive)
            || key.compare(QStringLiteral("workflow_type"), Qt::CaseInsensitive) == 0
            || key.compare(QStringLiteral("prompt_band"), Qt::CaseInsensitive) == 0
            || key.compare(QStringLiteral("output_band"), Qt::CaseInsensitive) == 0;
        if (special || key.isEmpty())
            return open(error);
        std::vector<QStringList> rows;
        const QString literal = clickHouseString(key);
        if (!m_client.select(QStringLiteral("SELECT has(attr_keys, %1), has(num_keys, %1) %2 %3 (has(attr_keys, %1) OR "
                                            "has(num_keys, %1)) LIMIT 1")
                                 .arg(literal, rangeFromWhere(),
                                      rangeFromWhere().contains(QStringLiteral(" WHERE ")) ? QStringLiteral("AND")
                                                                                           : QStringLiteral("WHERE")),
                             &rows, error, 2))
            return false;
        if (rows.empty())
            return open(error); // not an attribute: the full list decides
        names.attributeColumn(key,
                              rows[0][0] == QLatin1String("1") ? AttributeColumn::Kind::Categorical
                                                               : AttributeColumn::Kind::Numeric);
    }
    m_names = std::move(names);
    return readClassColumns(error);
}

bool ServerRequests::classColumn(const ClassDimension &dimension, const ClassBands &bands, QStringList values,
                                 ClassColumn *result, QStringList *sortedValues, QString *codeSql, QString *error) const
{
    QString raw;
    if (!rawSql(dimension, &raw, error))
        return false;
    const bool tokens = isTokenBand(dimension);
    const AttributeColumn *names = tokens ? nullptr : m_names.attribute(dimension.source);
    // In the server's ORDER BY raw: numbers by value, text by its bytes.
    if (tokens) {
        std::sort(values.begin(), values.end(),
                  [](const QString &a, const QString &b) { return a.toLongLong() < b.toLongLong(); });
    } else {
        std::sort(values.begin(), values.end(),
                  [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    }
    if (names && names->isNumeric() && values.size() > qsizetype(ClassColumn::kMaxNumericCategories) + 1) {
        *error = QStringLiteral("'%1' has more than %2 numeric values: its quartile bands need "
                                "prepareDimension() first")
                     .arg(dimension.source, QString::number(ClassColumn::kMaxNumericCategories));
        return false;
    }
    const auto banded = tokens ? m_bands.end() : m_bands.find(dimension.source);
    RequestTable table;
    for (const QString &value : values) {
        RequestTable::Row request;
        request.stamps.fill(kNoTime);
        if (tokens) {
            (dimension.kind == ClassDimension::Kind::PromptBand ? request.promptTokens : request.outputTokens)
                = value.toInt();
        }
        table.appendRow(request);
        if (!tokens && !value.isEmpty()) {
            auto &attribute = table.attributeColumn(dimension.source, names->kind());
            attribute.padTo(table.rowCount() - 1);
            if (banded != m_bands.end()) {
                // A value of band i: the lowest for band 0, else edge i - 1.
                const auto band = value.toULongLong();
                if (band > banded->second.edges.size()) {
                    *error = QStringLiteral("ClickHouse answered band %1 of '%2', which has %3 bands")
                                 .arg(value, dimension.source, QString::number(banded->second.edges.size() + 1));
                    return false;
                }
                attribute.appendNumber(band == 0 ? banded->second.lowest : banded->second.edges[band - 1]);
            } else if (names->isNumeric()) {
                attribute.appendNumber(float64FromBits(value));
            } else {
                attribute.appendText(value.mid(1));
            }
        }
        table.finishRow();
    }
    if (!tokens && table.attribute(dimension.source) == nullptr)
        table.attributeColumn(dimension.source, names->kind()).padTo(table.rowCount());
    *result = banded != m_bands.end()
        ? ClassColumn::buildBanded(table, dimension, banded->second.edges, banded->second.lowest)
        : ClassColumn::build(table, dimension, bands);
    *sortedValues = values;
    if (values.isEmpty()) {
        *codeSql = QStringLiteral("toUInt32(0)");
        return true;
    }
    QStringList from;
    QStringList to;
    for (qsizetype row = 0; row < values.size(); ++row) {
        from << (tokens ? values[row] : clickHouseString(values[row]));
        to << QString::number(result->codes[size_t(row)]);
    }
    *codeSql = QStringLiteral("toUInt32(transform(%1, [%2], [%3], toUInt32(0)))")
                   .arg(raw, from.join(QLatin1Char(',')), to.join(QLatin1Char(',')));
    return true;
}

QString ServerRequests::limbColumnsSql(const QString &value, const QString &defined, const QString &prefix)
{
    // |v| / 2^16 and four steps of (x - floor(x)) * 2^32: every step is exact
    // in binary floating point (a power-of-two scale; x - floor(x) of x >= 1
    // by Sterbenz), so floor(x_k) are exactly ExactSum::limbs' magnitudes.
    QStringList columns = {
        QStringLiteral("abs(if(%1, %2, 0)) / 65536 AS %3_x0").arg(defined, value, prefix),
        QStringLiteral("if(if(%1, %2, 0) < 0, -1, 1) AS %3_s").arg(defined, value, prefix),
    };
    for (int k = 1; k < ExactSum::kLimbs; ++k)
        columns << QStringLiteral("(%1_x%2 - floor(%1_x%2)) * 4294967296 AS %1_x%3").arg(prefix).arg(k - 1).arg(k);
    return columns.join(QStringLiteral(", "));
}

QStringList ServerRequests::limbSumsSql(const QString &prefix, const QString &condition)
{
    QStringList sums;
    for (int k = 0; k < ExactSum::kLimbs; ++k)
        sums << QStringLiteral("sumIf(toInt64(floor(%1_x%2)) * %1_s, %3)").arg(prefix).arg(k).arg(condition);
    return sums;
}

ExactSum ServerRequests::limbSums(const QStringList &fields, qsizetype first)
{
    ExactSum::Limbs sums{};
    for (int k = 0; k < ExactSum::kLimbs; ++k)
        sums[size_t(k)] = fields.value(first + k).toLongLong();
    return ExactSum::fromLimbSums(sums);
}

QStringList ServerRequests::integerSumSql(const QString &expression, const QString &condition)
{
    // Int64 constants: intDiv and % of an Int64 by a UInt64 are taken unsigned.
    return {QStringLiteral("sumIf(intDiv(%1, toInt64(4294967296)), %2)").arg(expression, condition),
            QStringLiteral("sumIf(%1 % toInt64(4294967296), %2)").arg(expression, condition)};
}

ServerRequests::Int128 ServerRequests::integerSum(const QStringList &fields, qsizetype first)
{
    return Int128(fields.value(first).toLongLong()) * (Int128(1) << 32) + fields.value(first + 1).toLongLong();
}

QStringList ServerRequests::wrappedSumSql(const QString &expression)
{
    return {QStringLiteral("sum(%1)").arg(expression), QStringLiteral("sum(bitShiftRight(%1, 32))").arg(expression)};
}

ServerRequests::Int128 ServerRequests::wrappedSum(const QStringList &fields, qsizetype first)
{
    // Σx = 2^32 · Σhigh + Σlow with every low half in [0, 2^32): Σlow is
    // below 2^64 for fewer than 2^32 rows, so it is (Σx − 2^32 · Σhigh)
    // mod 2^64, read from the wrapped sum exactly.
    const quint64 wrapped = quint64(fields.value(first).toLongLong());
    const qint64 high = fields.value(first + 1).toLongLong();
    const quint64 low = wrapped - (quint64(high) << 32);
    return Int128(high) * (Int128(1) << 32) + Int128(low);
}

QString ServerRequests::nsSql(Metric metric, Boundary boundary)
{
    const auto [begin, end] = boundsOf(metric, boundary);
    return QStringLiteral("(%2 - %1)").arg(column(begin), column(end));
}

double ServerRequests::valueMs(Metric metric, qint64 ns, qint32 outputTokens)
{
    const double ms = double(ns) / 1e6;
    return metric == Metric::Itl ? ms / double(outputTokens - 1) : ms;
}

QString ServerMeanSums::innerSql(Metric metric, Boundary boundary, const QString &defined, const QString &value,
                                 const QString &prefix)
{
    if (MetricMean::isWholeNs(metric))
        return QStringLiteral("%1 AS %2_ns").arg(ServerRequests::nsSql(metric, boundary), prefix);
    return ServerRequests::limbColumnsSql(value, defined, prefix);
}

QStringList ServerMeanSums::sumsSql(Metric metric, const QString &prefix, const QString &condition)
{
    if (MetricMean::isWholeNs(metric))
        return ServerRequests::integerSumSql(prefix + QStringLiteral("_ns"), condition);
    return ServerRequests::limbSumsSql(prefix, condition);
}

void ServerMeanSums::add(const QStringList &fields, qsizetype first)
{
    if (MetricMean::isWholeNs(m_metric)) {
        m_ns += ServerRequests::integerSum(fields, first);
        return;
    }
    for (int k = 0; k < ExactSum::kLimbs; ++k)
        m_limbs[size_t(k)] += fields.value(first + k).toLongLong();
}

double ServerMeanSums::mean(qint64 n) const
{
    if (MetricMean::isWholeNs(m_metric))
        return MetricMean::fromNsSum(m_ns, n);
    return ExactSum::fromLimbSums(m_limbs).mean(n);
}
