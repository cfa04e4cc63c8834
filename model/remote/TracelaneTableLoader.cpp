#include "TracelaneTableLoader.h"

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/TracelaneSchema.h"
#include "io/LoadControl.h"
#include "io/RequestRowsBuilder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace {

// The rows in the URL's time range.
QString whereSql(const ClickHouseSource &source)
{
    QStringList conditions;
    if (source.from != ClickHouseSource::kNoBound)
        conditions << QStringLiteral("client_send_ns >= %1").arg(source.from);
    if (source.to != ClickHouseSource::kNoBound)
        conditions << QStringLiteral("client_send_ns < %1").arg(source.to);
    return conditions.isEmpty() ? QStringLiteral("1") : conditions.join(QStringLiteral(" AND "));
}

// One push batch in range: its source, number and rows.
struct Batch
{
    QString source;
    qint64 batch = 0;
    qint64 rows = 0;
};

// Consecutive batches of at most `rowsPerPart` rows together (a larger batch
// alone), as the condition selecting them.
std::vector<QString> partConditions(const std::vector<Batch> &batches, qint64 rowsPerPart)
{
    std::vector<QString> parts;
    QStringList tuples;
    qint64 rows = 0;
    for (const Batch &batch : batches) {
        if (!tuples.isEmpty() && rows + batch.rows > rowsPerPart) {
            parts.push_back(QStringLiteral("(source, batch) IN (%1)").arg(tuples.join(QLatin1Char(','))));
            tuples.clear();
            rows = 0;
        }
        tuples << QStringLiteral("(%1, %2)").arg(clickHouseString(batch.source)).arg(batch.batch);
        rows += batch.rows;
    }
    if (!tuples.isEmpty())
        parts.push_back(QStringLiteral("(source, batch) IN (%1)").arg(tuples.join(QLatin1Char(','))));
    return parts;
}

// A row's column; null when the row lacks it.
const nlohmann::json &field(const nlohmann::json &row, const char *name)
{
    static const nlohmann::json missing;
    const auto found = row.find(name);
    return found == row.end() ? missing : *found;
}

// ClickHouse writes 64-bit integers in JSON as numbers or, by default on
// some versions, as quoted text: both are read, exactly.
bool integer(const nlohmann::json &value, qint64 *out)
{
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<quint64>() > quint64(std::numeric_limits<qint64>::max()))
            return false;
        *out = value.get<qint64>();
        return true;
    }
    if (!value.is_string())
        return false;
    const std::string &text = value.get_ref<const std::string &>();
    bool ok = false;
    *out = QByteArray::fromStdString(text).toLongLong(&ok);
    return ok;
}

bool number(const nlohmann::json &value, double *out)
{
    if (value.is_number()) {
        *out = value.get<double>();
        return true;
    }
    if (!value.is_string())
        return false;
    bool ok = false;
    *out = QByteArray::fromStdString(value.get_ref<const std::string &>()).toDouble(&ok);
    return ok;
}

// Reads fetched rows into the builder, each rejected row with its reason.
class RowReader
{
public:
    explicit RowReader(RequestRowsBuilder &builder)
        : m_builder(builder)
    { }

    void read(std::string_view text, qint64 fetchRow)
    {
        const nlohmann::json fields = nlohmann::json::parse(text, nullptr, false);
        if (fields.is_discarded() || !fields.is_object()) {
            m_builder.reject(fetchRow, {}, QStringLiteral("row"),
                             QStringLiteral("not a row of Tracelane's requests table (not valid JSON, or text that "
                                            "is not UTF-8)"));
            return;
        }
        // The pushed file's line names the row once it can be read.
        qint64 line = fetchRow;
        qint64 sourceLine = 0;
        const bool knownLine = integer(field(fields, "source_line"), &sourceLine) && sourceLine >= 0;
        if (knownLine && sourceLine > 0)
            line = sourceLine;
        const nlohmann::json &id = field(fields, "request_id");
        if (!id.is_string() || id.get_ref<const std::string &>().empty()) {
            m_builder.reject(line, {}, QStringLiteral("request_id"), QStringLiteral("missing or empty"));
            return;
        }
        m_id = id.get<std::string>();
        const QString requestId = QString::fromStdString(m_id);
        RequestTable::Row row;
        row.id = m_id;
        row.sourceLine = knownLine ? sourceLine : 0; // as the file's loader set it (0: a whole document)
        qint64 value = 0;
        for (const char *column : {"prompt_tokens", "output_tokens"}) {
            if (!integer(field(fields, column), &value) || value < 0 || value > std::numeric_limits<qint32>::max()) {
                m_builder.reject(line, requestId, QString::fromLatin1(column),
                                 QStringLiteral("not a whole count of tokens"));
                return;
            }
            (column[0] == 'p' ? row.promptTokens : row.outputTokens) = qint32(value);
        }
        for (int s = 0; s < kStampCount; ++s) {
            const QString column = TracelaneSchema::stampColumn(static_cast<Stamp>(s));
            if (!integer(field(fields, column.toStdString().c_str()), &row.stamps[size_t(s)])) {
                m_builder.reject(line, requestId, column, QStringLiteral("not a time in ns"));
                return;
            }
        }
        m_attributes.clear();
        QString column;
        if (!attributes(fields, &column)) {
            m_builder.reject(line, requestId, column,
                             QStringLiteral("must be an array as long as its keys (text keys and values; numbers "
                                            "for num_values)"));
            return;
        }
        m_builder.add(row, m_attributes);
    }

private:
    // Categorical attributes first, then numeric ones: the order in which
    // the server's analyses meet the keys (ServerRequests::open).
    bool attributes(const nlohmann::json &fields, QString *column)
    {
        const nlohmann::json &keys = field(fields, "attr_keys");
        const nlohmann::json &values = field(fields, "attr_values");
        if (!keys.is_array() || !values.is_array() || keys.size() != values.size()) {
            *column = QStringLiteral("attr_values");
            return false;
        }
        for (size_t i = 0; i < keys.size(); ++i) {
            if (!keys[i].is_string() || !values[i].is_string()) {
                *column = QStringLiteral("attr_values");
                return false;
            }
            m_attributes.push_back({QString::fromStdString(keys[i].get<std::string>()),
                                    QString::fromStdString(values[i].get<std::string>())});
        }
        const nlohmann::json &numKeys = field(fields, "num_keys");
        const nlohmann::json &numValues = field(fields, "num_values");
        if (!numKeys.is_array() || !numValues.is_array() || numKeys.size() != numValues.size()) {
            *column = QStringLiteral("num_values");
            return false;
        }
        for (size_t i = 0; i < numKeys.size(); ++i) {
            RequestRowsBuilder::Attribute attribute;
            if (!numKeys[i].is_string() || !number(numValues[i], &attribute.number)) {
                *column = QStringLiteral("num_values");
                return false;
            }
            attribute.key = QString::fromStdString(numKeys[i].get<std::string>());
            m_attributes.push_back(std::move(attribute));
        }
        return true;
    }

    RequestRowsBuilder &m_builder;
    std::string m_id;
    std::vector<RequestRowsBuilder::Attribute> m_attributes;
};

} // namespace

namespace TracelaneTableLoader {

LoadResult load(const ClickHouseSource &source, const LoadOptions &options, LoadControl *control, qint64 rowsPerPart)
{
    LoadResult result;
    TraceStore &store = *result.store;
    store.sourceFiles << source.display();
    store.format = QStringLiteral("tracelane-clickhouse");
    const ClickHouseClient client(source, [control] { return control && control->isCancelled(); });
    const auto stop = [&](const QString &error) {
        if (control && control->isCancelled())
            result.cancelled = true;
        else
            result.fatalError = error;
        return std::move(result);
    };
    if (!source.where.isEmpty())
        return stop(
            QStringLiteral("%1: where= filters span tables; bound Tracelane's requests table with from= and to=")
                .arg(source.display()));
    const QString where = whereSql(source);
    std::vector<QStringList> rows;
    QString error;
    if (!client.select(QStringLiteral("SELECT source, batch, count() FROM %1 WHERE %2 GROUP BY source, batch "
                                      "ORDER BY source, batch")
                           .arg(source.requestsTable(), where),
                       &rows, &error, 3))
        return stop(error);
    std::vector<Batch> batches;
    qint64 total = 0;
    for (const QStringList &row : rows) {
        batches.push_back({row[0], row[1].toLongLong(), row[2].toLongLong()});
        total += batches.back().rows;
    }
    if (total == 0)
        return stop(QStringLiteral("%1: no requests in the time range").arg(source.display()));
    if (total > source.maxSpans)
        return stop(QStringLiteral("%1: %2 requests in the time range, more than max_spans=%3; narrow it with "
                                   "from= and to=, or raise max_spans")
                        .arg(source.display())
                        .arg(total)
                        .arg(source.maxSpans));
    if (control)
        control->setTotalBytes(total);

    QStringList columns{QStringLiteral("request_id"), QStringLiteral("source_line"), QStringLiteral("prompt_tokens"),
                        QStringLiteral("output_tokens")};
    for (int s = 0; s < kStampCount; ++s)
        columns << TracelaneSchema::stampColumn(static_cast<Stamp>(s));
    columns << QStringLiteral("attr_keys") << QStringLiteral("attr_values") << QStringLiteral("num_keys")
            << QStringLiteral("num_values");
    RequestRowsBuilder builder(store, source.display());
    RowReader reader(builder);
    qint64 fetched = 0;
    for (const QString &part : partConditions(batches, std::max<qint64>(1, rowsPerPart))) {
        QByteArray answer;
        const QString sql = QStringLiteral("SELECT %1 FROM %2 WHERE %3 AND %4 ORDER BY source, row "
                                           "SETTINGS output_format_json_quote_64bit_integers = 0 FORMAT JSONEachRow")
                                .arg(columns.join(QStringLiteral(", ")), source.requestsTable(), where, part);
        if (!client.run(sql, &answer, &error))
            return stop(error);
        result.bytes += answer.size();
        qint64 partRows = 0;
        qsizetype begin = 0;
        while (begin < answer.size()) {
            qsizetype end = answer.indexOf('\n', begin);
            if (end < 0)
                end = answer.size();
            if (end > begin) {
                reader.read(std::string_view(answer.constData() + begin, size_t(end - begin)), ++fetched);
                ++partRows;
                if (options.strict && !store.rejected.empty()) {
                    const RejectedRecord &first = store.rejected.front();
                    return stop(QStringLiteral("line %1, %2: %3").arg(first.line).arg(first.field, first.reason));
                }
            }
            begin = end + 1;
        }
        if (control) {
            control->addProcessed(partRows, partRows);
            if (control->isCancelled())
                return stop({});
        }
    }
    builder.finish();

    // The spans of these sources stay on the server: say so.
    if (client.select(
            QStringLiteral("SELECT count() FROM %1 WHERE source GLOBAL IN (SELECT DISTINCT source FROM %2 WHERE %3)")
                .arg(source.spansTable(), source.requestsTable(), where),
            &rows, &error, 1)
        && !rows.empty() && rows.front().first().toLongLong() > 0)
        builder.notice(0,
                       QStringLiteral("%1 spans of these requests' workflows in %2 were not loaded: the window "
                                      "shows the requests; open the pushed file for its workflows")
                           .arg(rows.front().first().toLongLong())
                           .arg(source.spansTable()));
    return result;
}

} // namespace TracelaneTableLoader
