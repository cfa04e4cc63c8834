#include "TracelaneTableLoader.h"

#include "PartFetch.h"
#include "TabSeparated.h"
#include "TracelaneSpanRows.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/TracelaneSchema.h"
#include "io/LoadControl.h"
#include "io/RequestRowsBuilder.h"

#include <QLocale>

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

using TabSeparated::integer;
using TabSeparated::numberArray;
using TabSeparated::stringArray;
using TabSeparated::unescapeInto;

// The rows in the URL's time range, and in its sample when `sampled`.
QString whereSql(const ClickHouseSource &source, bool sampled = true)
{
    const QStringList conditions = source.requestConditions(sampled);
    return conditions.isEmpty() ? QStringLiteral("1") : conditions.join(QStringLiteral(" AND "));
}

// A count as people read it: 20,000,000.
QString grouped(qint64 count)
{
    return QLocale(QLocale::English).toString(count);
}

// Why `total` requests (of the range's `population`) are not fetched, with
// a sample of one in `oneIn` that would fit in max_spans.
QString tooMany(const ClickHouseSource &source, qint64 total, qint64 population, qint64 oneIn)
{
    if (source.sampleOneIn > 1)
        return QStringLiteral("%1: %2 requests in the 1-in-%3 sample of the time range's %4, more than max_spans=%5; "
                              "keep fewer with sample=%6, narrow the range with from= and to=, or raise max_spans")
            .arg(source.display(), grouped(total), QString::number(source.sampleOneIn), grouped(population),
                 QString::number(source.maxSpans), QString::number(oneIn));
    return QStringLiteral("%1: %2 requests in the time range, more than max_spans=%3; open a sample of them with "
                          "sample=%4 (one request in %4), narrow the range with from= and to=, or raise max_spans")
        .arg(source.display(), grouped(total), QString::number(source.maxSpans), QString::number(oneIn));
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

// The columns fetched, in order.
enum Column : int {
    RequestId,
    SourceLine,
    PromptTokens,
    OutputTokens,
    FirstStamp,
    AttrKeys = FirstStamp + kStampCount,
    AttrValues,
    NumKeys,
    NumValues,
    kColumns
};

QString columnName(int column)
{
    static const char *const fixed[] = {"request_id", "source_line", "prompt_tokens", "output_tokens"};
    static const char *const arrays[] = {"attr_keys", "attr_values", "num_keys", "num_values"};
    if (column < FirstStamp)
        return QString::fromLatin1(fixed[column]);
    if (column < AttrKeys)
        return TracelaneSchema::stampColumn(static_cast<Stamp>(column - FirstStamp));
    return QString::fromLatin1(arrays[column - AttrKeys]);
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
        TabSeparated::split(text, &m_fields);
        if (m_fields.size() != size_t(kColumns)) {
            m_builder.reject(fetchRow, {}, QStringLiteral("row"),
                             QStringLiteral("%1 fields where Tracelane's requests table has %2")
                                 .arg(m_fields.size())
                                 .arg(int(kColumns)));
            return;
        }
        // The pushed file's line names the row once it can be read.
        qint64 sourceLine = 0;
        const bool knownLine = integer(m_fields[SourceLine], &sourceLine) && sourceLine >= 0;
        const qint64 line = knownLine && sourceLine > 0 ? sourceLine : fetchRow;
        unescapeInto(m_fields[RequestId], &m_id);
        if (m_id.empty()) {
            m_builder.reject(line, {}, columnName(RequestId), QStringLiteral("missing or empty"));
            return;
        }
        RequestTable::Row row;
        row.id = m_id;
        row.sourceLine = knownLine ? sourceLine : 0; // as the file's loader set it (0: a whole document)
        const auto fail = [&](int column, const QString &reason) {
            m_builder.reject(line, QString::fromStdString(m_id), columnName(column), reason);
        };
        qint64 value = 0;
        for (const int column : {PromptTokens, OutputTokens}) {
            if (!integer(m_fields[size_t(column)], &value) || value < 0 || value > std::numeric_limits<qint32>::max())
                return fail(column, QStringLiteral("not a whole count of tokens"));
            (column == PromptTokens ? row.promptTokens : row.outputTokens) = qint32(value);
        }
        for (int s = 0; s < kStampCount; ++s) {
            if (!integer(m_fields[size_t(FirstStamp) + size_t(s)], &row.stamps[size_t(s)]))
                return fail(FirstStamp + s, QStringLiteral("not a time in ns"));
        }
        m_attributes.clear();
        if (const int bad = attributes(); bad >= 0)
            return fail(bad,
                        QStringLiteral("must be an array as long as its keys (text keys and values; numbers "
                                       "for num_values)"));
        m_builder.add(row, m_attributes);
    }

private:
    // Categorical attributes first, then numeric ones: the order in which
    // the server's analyses meet the keys (ServerRequests::open). The column
    // at fault, or -1.
    int attributes()
    {
        if (!stringArray(m_fields[AttrKeys], &m_keys) || !stringArray(m_fields[AttrValues], &m_values)
            || m_keys.size() != m_values.size())
            return AttrValues;
        for (size_t i = 0; i < m_keys.size(); ++i)
            m_attributes.push_back({key(m_keys[i]), QString::fromStdString(m_values[i])});
        if (!stringArray(m_fields[NumKeys], &m_keys) || !numberArray(m_fields[NumValues], &m_numbers)
            || m_keys.size() != m_numbers.size())
            return NumValues;
        for (size_t i = 0; i < m_keys.size(); ++i)
            m_attributes.push_back({key(m_keys[i]), QString(), m_numbers[i]});
        return -1;
    }

    // Keys repeat on every row: each made a QString once.
    const QString &key(const std::string &name)
    {
        auto found = m_keyText.find(name);
        if (found == m_keyText.end())
            found = m_keyText.emplace(name, QString::fromStdString(name)).first;
        return found->second;
    }

    RequestRowsBuilder &m_builder;
    std::vector<std::string_view> m_fields;
    std::string m_id;
    std::vector<std::string> m_keys;
    std::vector<std::string> m_values;
    std::vector<double> m_numbers;
    std::unordered_map<std::string, QString> m_keyText;
    std::vector<RequestRowsBuilder::Attribute> m_attributes;
};

// The sources in range that have spans: those pushed whole (schema version
// 3, as quoted literals) and the count of older spans.
struct SpanSources
{
    QStringList whole;
    qint64 olderSpans = 0;
};

bool findSpanSources(const ClickHouseClient &client, const ClickHouseSource &source, const QString &inRange,
                     SpanSources *found, QString *error)
{
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT source, min(schema_version), count() FROM %1 WHERE source GLOBAL IN "
                                      "(SELECT DISTINCT source FROM %2 WHERE %3) GROUP BY source ORDER BY source")
                           .arg(source.spansTable(), source.requestsTable(), inRange),
                       &rows, error, 3))
        return false;
    for (const QStringList &row : rows) {
        if (row[1].toInt() >= TracelaneSchema::kSpanStoreVersion)
            found->whole << clickHouseString(row[0]);
        else
            found->olderSpans += row[2].toLongLong();
    }
    return true;
}

// The spans of the workflows whose summaries are in range (whole traces).
QString spanSelection(const ClickHouseSource &source, const SpanSources &sources, const QString &inRange)
{
    const QString list = sources.whole.join(QLatin1Char(','));
    if (inRange == QLatin1String("1"))
        return QStringLiteral("source IN (%1)").arg(list);
    return QStringLiteral("source IN (%1) AND (source, trace_id) GLOBAL IN (SELECT source, request_id FROM %2 WHERE "
                          "%3 AND source IN (%1))")
        .arg(list, source.requestsTable(), inRange);
}

// The push batches of `table` with rows in `where`, in order, and their rows.
bool countBatches(const ClickHouseClient &client, const QString &table, const QString &where,
                  std::vector<Batch> *batches, qint64 *total, QString *error)
{
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT source, batch, count() FROM %1 WHERE %2 GROUP BY source, batch "
                                      "ORDER BY source, batch")
                           .arg(table, where),
                       &rows, error, 3))
        return false;
    for (const QStringList &row : rows) {
        batches->push_back({row[0], row[1].toLongLong(), row[2].toLongLong()});
        *total += batches->back().rows;
    }
    return true;
}

// The spans in `where` back into the store, their workflows summarised.
bool readSpans(const ClickHouseClient &client, const ClickHouseSource &source, const QString &where,
               const std::vector<Batch> &batches, qint64 rowsPerPart, const LoadOptions &options, LoadControl *control,
               LoadResult &result, QString *error)
{
    TracelaneSpanRows spans(*result.store, source.display());
    QByteArray answer;
    for (const bool resources : {true, false}) {
        const QString sql = resources ? TracelaneSpanRows::resourcesSql(source.spansTable(), where)
                                      : TracelaneSpanRows::scopesSql(source.spansTable(), where);
        if (!client.run(sql, &answer, error))
            return false;
        for (const QByteArray &line : answer.split('\n')) {
            if (line.isEmpty())
                continue;
            const std::string_view text(line.constData(), size_t(line.size()));
            resources ? spans.addResource(text) : spans.addScope(text);
        }
    }
    std::vector<QString> parts;
    for (const QString &part : partConditions(batches, std::max<qint64>(1, rowsPerPart)))
        parts.push_back(QStringLiteral("SELECT %1 FROM %2 WHERE %3 AND %4 ORDER BY source, row FORMAT TabSeparated")
                            .arg(TracelaneSpanRows::columnsSql(), source.spansTable(), where, part));
    if (!PartFetch::readParts(
            client, parts, result, options, control, QStringLiteral("line"),
            [&spans](std::string_view line, qint64 number) { spans.read(line, number); }, error))
        return false;
    spans.finish();
    return true;
}

} // namespace

namespace TracelaneTableLoader {

LoadResult load(const ClickHouseSource &source, const LoadOptions &options, LoadControl *control, qint64 rowsPerPart)
{
    LoadResult result;
    TraceStore &store = *result.store;
    store.sourceFiles << source.display();
    store.format = QStringLiteral("tracelane-clickhouse");
    store.sampleOneIn = source.sampleOneIn;
    const ClickHouseClient client(source, [control] { return control && control->isCancelled(); });
    const auto stop = [&](const QString &error) { return PartFetch::stopped(std::move(result), control, error); };
    if (!source.where.isEmpty())
        return stop(
            QStringLiteral("%1: where= filters span tables; bound Tracelane's requests table with from= and to=")
                .arg(source.display()));
    const QString inRange = whereSql(source);
    std::vector<QStringList> rows;
    QString error;
    // Sources whose spans the table holds whole (schema version 3): their
    // requests are the summaries of their workflows, made again from the
    // spans as the file's load made them.
    SpanSources spanSources;
    if (!findSpanSources(client, source, inRange, &spanSources, &error))
        return stop(error);
    const QString flatWhere = spanSources.whole.isEmpty()
        ? inRange
        : QStringLiteral("%1 AND source NOT IN (%2)").arg(inRange, spanSources.whole.join(QLatin1Char(',')));
    const QString spanWhere = spanSources.whole.isEmpty() ? QString() : spanSelection(source, spanSources, inRange);
    std::vector<Batch> batches;
    std::vector<Batch> spanBatches;
    qint64 flat = 0;
    qint64 spans = 0;
    if (!countBatches(client, source.requestsTable(), flatWhere, &batches, &flat, &error)
        || (!spanWhere.isEmpty()
            && !countBatches(client, source.spansTable(), spanWhere, &spanBatches, &spans, &error)))
        return stop(error);
    qint64 total = flat;
    if (!spanWhere.isEmpty()) {
        if (!client.select(QStringLiteral("SELECT count() FROM %1 WHERE %2 AND source IN (%3)")
                               .arg(source.requestsTable(), inRange, spanSources.whole.join(QLatin1Char(','))),
                           &rows, &error, 1))
            return stop(error);
        total += rows.empty() ? 0 : rows.front().first().toLongLong();
    }
    // A sample is counted against the range it is drawn from.
    qint64 population = total;
    if (source.sampleOneIn > 1) {
        std::vector<QStringList> counted;
        if (!client.select(
                QStringLiteral("SELECT count() FROM %1 WHERE %2").arg(source.requestsTable(), whereSql(source, false)),
                &counted, &error, 1))
            return stop(error);
        population = counted.empty() ? 0 : counted.front().first().toLongLong();
    }
    if (total == 0)
        return stop(population > 0 ? QStringLiteral("%1: none of the time range's %2 requests is in the sample")
                                         .arg(source.display(), grouped(population))
                        : source.trace.isEmpty()
                        ? QStringLiteral("%1: no requests in the time range").arg(source.display())
                        : QStringLiteral("%1: no request or workflow with id '%2' in the time range")
                              .arg(source.display(), source.trace));
    if (total > source.maxSpans || spans > source.maxSpans) {
        // Spans come whole per workflow: a sample of workflows keeps about
        // the same share of their spans.
        const qint64 most = std::max(total, spans);
        const qint64 scaled = most == total ? population : qint64(double(population) * double(spans) / double(total));
        result.sampleThatFits = ClickHouseSource::sampleThatFits(scaled, source.maxSpans, source.sampleOneIn);
        if (most == total)
            return stop(tooMany(source, total, population, result.sampleThatFits));
        return stop(QStringLiteral("%1: %2 spans in the workflows of the time range's %3 requests, more than "
                                   "max_spans=%4; open a sample of them with sample=%5, narrow the range with from= "
                                   "and to=, or raise max_spans")
                        .arg(source.display(), grouped(spans), grouped(total), QString::number(source.maxSpans),
                             QString::number(result.sampleThatFits)));
    }
    if (control)
        control->setTotalBytes(flat + spans);

    if (flat > 0) {
        QStringList columns;
        for (int column = 0; column < kColumns; ++column)
            columns << columnName(column);
        RequestRowsBuilder builder(store, source.display());
        RowReader reader(builder);
        std::vector<QString> parts;
        for (const QString &part : partConditions(batches, std::max<qint64>(1, rowsPerPart)))
            parts.push_back(QStringLiteral("SELECT %1 FROM %2 WHERE %3 AND %4 ORDER BY source, row FORMAT TabSeparated")
                                .arg(columns.join(QStringLiteral(", ")), source.requestsTable(), flatWhere, part));
        if (!PartFetch::readParts(
                client, parts, result, options, control, QStringLiteral("line"),
                [&reader](std::string_view line, qint64 number) { reader.read(line, number); }, &error))
            return stop(error);
        builder.finish();
    }
    // A span row is about three times a request row (attributes, detail):
    // parts of a third as many rows hold about as many bytes.
    if (spans > 0
        && !readSpans(client, source, spanWhere, spanBatches, std::max<qint64>(1, rowsPerPart / 3), options, control,
                      result, &error))
        return stop(error);
    if (source.sampleOneIn > 1)
        store.notices.push_back({source.display(), 0,
                                 QStringLiteral("a sample: %1 of the %2 requests in the time range, one in %3 picked "
                                                "by a hash of the request id (%4); every figure is the sample's")
                                     .arg(grouped(total), grouped(population), QString::number(source.sampleOneIn),
                                          source.sampleSql(QStringLiteral("request_id")))});

    // Spans pushed before version 3 stay on the server: say so.
    if (spanSources.olderSpans > 0)
        store.notices.push_back(
            {source.display(), 0,
             QStringLiteral("%1 spans of these requests' workflows in %2 were pushed before Tracelane schema version "
                            "%3 and were not loaded: the window shows their workflows as requests; delete their rows "
                            "and push the file again for the workflows")
                 .arg(grouped(spanSources.olderSpans), source.spansTable())
                 .arg(TracelaneSchema::kSpanStoreVersion)});
    return result;
}

} // namespace TracelaneTableLoader
