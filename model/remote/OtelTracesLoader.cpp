#include "OtelTracesLoader.h"

#include "PartFetch.h"
#include "clickhouse/ClickHouseClient.h"
#include "io/JsonAttribute.h"
#include "io/LoadControl.h"
#include "io/SpanDocumentLoad.h"
#include "io/SpanId.h"
#include "io/SpanKindText.h"
#include "io/SpanTraceBuilder.h"

#include <QLocale>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <string_view>

namespace {

// A count as people read it: 20,000,000.
QString grouped(qint64 count)
{
    return QLocale(QLocale::English).toString(count);
}

// The exporter's columns, in the order partSql selects them.
enum Column : int {
    TraceId,
    SpanIdColumn,
    ParentSpanId,
    SpanName,
    SpanKindColumn,
    ServiceName,
    ResourceAttributes,
    ScopeName,
    ScopeVersion,
    SpanAttributes,
    StartNs,
    Duration,
    StatusCode,
    StatusMessage,
    EventTimes,
    EventNames,
    EventAttributes,
    LinkTraceIds,
    LinkSpanIds,
    LinkAttributes,
    kColumns
};

const char *const kColumnNames[kColumns] = {
    "TraceId",           "SpanId",         "ParentSpanId",       "SpanName",
    "SpanKind",          "ServiceName",    "ResourceAttributes", "ScopeName",
    "ScopeVersion",      "SpanAttributes", "Timestamp",          "Duration",
    "StatusCode",        "StatusMessage",  "Events.Timestamp",   "Events.Name",
    "Events.Attributes", "Links.TraceId",  "Links.SpanId",       "Links.Attributes",
};

QString tableSql(const ClickHouseSource &source)
{
    return source.requestsTable();
}

// Traces with a span starting in [from, to) for which `where` holds (or
// every trace), in the URL's sample of traces when `sampled`.
QString whereSql(const ClickHouseSource &source, bool sampled = true)
{
    const QString sample = sampled ? source.sampleSql(QStringLiteral("TraceId")) : QString();
    QStringList bounds;
    if (source.from != ClickHouseSource::kNoBound)
        bounds << QStringLiteral("toUnixTimestamp64Nano(Timestamp) >= %1").arg(source.from);
    if (source.to != ClickHouseSource::kNoBound)
        bounds << QStringLiteral("toUnixTimestamp64Nano(Timestamp) < %1").arg(source.to);
    if (!source.where.isEmpty())
        bounds << QStringLiteral("(%1)").arg(source.where);
    if (const QString one = source.traceSql(QStringLiteral("TraceId")); !one.isEmpty())
        bounds << one;
    if (bounds.isEmpty())
        return sample.isEmpty() ? QStringLiteral("1") : sample;
    // The sample inside: the set of trace ids the server builds is N times smaller.
    if (!sample.isEmpty())
        bounds << sample;
    return QStringLiteral("TraceId IN (SELECT TraceId FROM %1 WHERE %2)")
        .arg(tableSql(source), bounds.join(QStringLiteral(" AND ")));
}

// Reads one fetched row into `span`; false with the column and reason when
// the row cannot be a span.
class RowReader
{
public:
    explicit RowReader(SpanTraceBuilder &builder)
        : m_builder(builder)
        , m_resources(builder, true)
    { }

    void read(std::string_view line, qint64 row)
    {
        m_span.clear();
        m_span.line = row;
        nlohmann::json fields = nlohmann::json::parse(line, nullptr, false);
        if (fields.is_discarded() || !fields.is_array() || fields.size() != kColumns) {
            m_builder.reject(row, QStringLiteral("row"),
                             QStringLiteral("not a row of the exporter's %1 columns (not valid JSON, or text that "
                                            "is not UTF-8)")
                                 .arg(kColumns));
            return;
        }
        QString column;
        QString reason;
        if (!fill(fields, &column, &reason)) {
            m_builder.rejectSpan(m_span, column, reason);
            return;
        }
        m_builder.addSpan(m_span);
    }

private:
    static const std::string &text(const nlohmann::json &value)
    {
        static const std::string empty;
        return value.is_string() ? value.get_ref<const std::string &>() : empty;
    }

    bool id(const nlohmann::json &value, int digits, std::string *out, Column column, QString *field, QString *reason)
    {
        QString problem;
        const SpanId::Status status = SpanId::fromOtlp(text(value), digits, out, &problem);
        if (status == SpanId::Status::Ok || (status == SpanId::Status::Empty && column == ParentSpanId))
            return true;
        *field = QString::fromLatin1(kColumnNames[column]);
        *reason = status == SpanId::Status::Empty ? QStringLiteral("empty") : problem;
        return false;
    }

    bool fill(const nlohmann::json &fields, QString *field, QString *reason)
    {
        for (const int column : {TraceId, SpanIdColumn, ParentSpanId, SpanName, SpanKindColumn, ServiceName, ScopeName,
                                 ScopeVersion, StatusCode, StatusMessage}) {
            if (!fields[column].is_string()) {
                *field = QString::fromLatin1(kColumnNames[column]);
                *reason = QStringLiteral("must be text");
                return false;
            }
        }
        if (!id(fields[TraceId], SpanId::kTraceIdDigits, &m_span.traceId, TraceId, field, reason)
            || !id(fields[SpanIdColumn], SpanId::kSpanIdDigits, &m_span.spanId, SpanIdColumn, field, reason)
            || !id(fields[ParentSpanId], SpanId::kSpanIdDigits, &m_span.parentSpanId, ParentSpanId, field, reason))
            return false;
        m_span.name = text(fields[SpanName]);
        m_span.kind = SpanKindText::kind(text(fields[SpanKindColumn]));
        m_span.service = text(fields[ServiceName]);
        m_span.status = SpanKindText::status(text(fields[StatusCode]));
        m_span.statusMessage = text(fields[StatusMessage]);
        if (!fields[StartNs].is_number_integer()) {
            *field = QString::fromLatin1(kColumnNames[StartNs]);
            *reason = QStringLiteral("not a time in ns");
            return false;
        }
        m_span.start = fields[StartNs].get<qint64>();
        if (!fields[Duration].is_number_unsigned()) {
            *field = QString::fromLatin1(kColumnNames[Duration]);
            *reason = QStringLiteral("not a whole number of ns");
            return false;
        }
        const auto duration = fields[Duration].get<quint64>();
        if (m_span.start > 0 && duration > quint64(std::numeric_limits<qint64>::max() - m_span.start)) {
            *field = QString::fromLatin1(kColumnNames[Duration]);
            *reason = QStringLiteral("%1 ns from the start passes the largest time").arg(duration);
            return false;
        }
        m_span.end = m_span.start + qint64(duration);
        if (!fields[ResourceAttributes].is_object() || !fields[SpanAttributes].is_object()) {
            *field = QString::fromLatin1(
                kColumnNames[fields[ResourceAttributes].is_object() ? SpanAttributes : ResourceAttributes]);
            *reason = QStringLiteral("must be a map");
            return false;
        }
        m_span.resource = m_resources.resource(fields[ResourceAttributes]);
        m_span.scope
            = m_resources.scope(nlohmann::json{{"name", fields[ScopeName]}, {"version", fields[ScopeVersion]}});
        readAttributes(fields[SpanAttributes], m_span.attributes);
        return events(fields, field, reason) && links(fields, field, reason);
    }

    // The exporter writes an array value as its JSON text ("[\"a\",\"b\"]"):
    // such a text is read back as the array (span-id lists, token times), a
    // number as the number, anything else as text.
    static void readAttributes(const nlohmann::json &map, RecycledList<SpanAttribute> &attributes)
    {
        const size_t first = attributes.size();
        JsonAttribute::readAll(map, attributes, true);
        for (size_t i = first; i < attributes.size(); ++i) {
            AttributeValue &value = attributes[i].value;
            if (value.type != AttributeValue::Type::String || value.text.size() < 2 || value.text.front() != '['
                || value.text.back() != ']')
                continue;
            const nlohmann::json array = nlohmann::json::parse(value.text, nullptr, false);
            if (!array.is_array())
                continue;
            value.type = AttributeValue::Type::Array;
            for (const nlohmann::json &element : array)
                value.elements.push_back(element.is_string() ? element.get<std::string>() : element.dump());
        }
    }

    static bool parallel(const nlohmann::json &fields, std::initializer_list<Column> columns, QString *field,
                         QString *reason)
    {
        const nlohmann::json &first = fields[*columns.begin()];
        for (const Column column : columns) {
            if (!fields[column].is_array() || fields[column].size() != first.size()) {
                *field = QString::fromLatin1(kColumnNames[column]);
                *reason = QStringLiteral("must be an array as long as %1")
                              .arg(QString::fromLatin1(kColumnNames[*columns.begin()]));
                return false;
            }
        }
        return true;
    }

    bool events(const nlohmann::json &fields, QString *field, QString *reason)
    {
        if (!parallel(fields, {EventTimes, EventNames, EventAttributes}, field, reason))
            return false;
        for (size_t i = 0; i < fields[EventTimes].size(); ++i) {
            const nlohmann::json &time = fields[EventTimes][i];
            if (!time.is_number_integer()) {
                *field = QStringLiteral("Events.Timestamp[%1]").arg(i);
                *reason = QStringLiteral("not a time in ns");
                return false;
            }
            SpanEventRecord &event = m_span.events.add();
            event.time = time.get<qint64>();
            event.name = text(fields[EventNames][i]);
            readAttributes(fields[EventAttributes][i], event.attributes);
        }
        return true;
    }

    bool links(const nlohmann::json &fields, QString *field, QString *reason)
    {
        if (!parallel(fields, {LinkTraceIds, LinkSpanIds, LinkAttributes}, field, reason))
            return false;
        for (size_t i = 0; i < fields[LinkTraceIds].size(); ++i) {
            SpanLinkRecord &link = m_span.links.add();
            QString problem;
            if (SpanId::fromOtlp(text(fields[LinkTraceIds][i]), SpanId::kTraceIdDigits, &link.traceId, &problem)
                    == SpanId::Status::Invalid
                || SpanId::fromOtlp(text(fields[LinkSpanIds][i]), SpanId::kSpanIdDigits, &link.spanId, &problem)
                    != SpanId::Status::Ok) {
                *field = QStringLiteral("Links[%1]").arg(i);
                *reason = problem.isEmpty() ? QStringLiteral("no span id") : problem;
                return false;
            }
            readAttributes(fields[LinkAttributes][i], link.attributes);
        }
        return true;
    }

    SpanTraceBuilder &m_builder;
    JsonResourceCache m_resources;
    SpanRecord m_span;
};

} // namespace

namespace OtelTracesLoader {

QString partSql(const ClickHouseSource &source, int part, int parts)
{
    QString where = whereSql(source);
    if (parts > 1)
        where += QStringLiteral(" AND cityHash64(TraceId) % %1 = %2").arg(parts).arg(part);
    return QStringLiteral(
               "SELECT TraceId, SpanId, ParentSpanId, toString(SpanName), toString(SpanKind), toString(ServiceName), "
               "ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, toUnixTimestamp64Nano(Timestamp), "
               "Duration, toString(StatusCode), StatusMessage, "
               "arrayMap(t -> toUnixTimestamp64Nano(t), `Events.Timestamp`), `Events.Name`, `Events.Attributes`, "
               "`Links.TraceId`, `Links.SpanId`, `Links.Attributes` "
               "FROM %1 WHERE %2 ORDER BY TraceId, Timestamp, SpanId "
               "SETTINGS output_format_json_quote_64bit_integers = 0 FORMAT JSONCompactEachRow")
        .arg(tableSql(source), where);
}

LoadResult load(const ClickHouseSource &source, const LoadOptions &options, LoadControl *control, qint64 spansPerPart)
{
    LoadResult result;
    TraceStore &store = *result.store;
    store.sourceFiles << source.display();
    store.format = QStringLiteral("otel-clickhouse");
    store.sampleOneIn = source.sampleOneIn;
    const ClickHouseClient client(source, [control] { return control && control->isCancelled(); });
    const auto stop = [&](const QString &error) { return PartFetch::stopped(std::move(result), control, error); };
    std::vector<QStringList> rows;
    QString error;
    const QString countSql = QStringLiteral("SELECT count() FROM %1 WHERE %2").arg(tableSql(source), whereSql(source));
    if (!client.select(countSql, &rows, &error, 1))
        return stop(error);
    const qint64 total = rows.empty() ? 0 : rows.front().first().toLongLong();
    // A sample is counted against the range it is drawn from.
    qint64 population = total;
    if (source.sampleOneIn > 1) {
        if (!client.select(
                QStringLiteral("SELECT count() FROM %1 WHERE %2").arg(tableSql(source), whereSql(source, false)), &rows,
                &error, 1))
            return stop(error);
        population = rows.empty() ? 0 : rows.front().first().toLongLong();
    }
    if (total == 0)
        return stop(
            population > 0 ? QStringLiteral("%1: none of the time range's %2 spans is in the sample")
                                 .arg(source.display(), grouped(population))
                : source.trace.isEmpty()
                ? QStringLiteral("%1: no spans in the time range").arg(source.display())
                : QStringLiteral("%1: no trace with id '%2' in the time range").arg(source.display(), source.trace));
    if (total > source.maxSpans) {
        // Traces differ in size, but one trace in N holds about one span in
        // N: the same margin as for requests.
        result.sampleThatFits = ClickHouseSource::sampleThatFits(population, source.maxSpans, source.sampleOneIn);
        const QString what = source.sampleOneIn > 1
            ? QStringLiteral("%1 spans in the 1-in-%2 sample of the time "
                             "range's %3")
                  .arg(grouped(total), QString::number(source.sampleOneIn), grouped(population))
            : QStringLiteral("%1 spans in the time range").arg(grouped(total));
        return stop(
            QStringLiteral("%1: %2, more than max_spans=%3; keep one trace in %4 with sample=%4, narrow the "
                           "range with from= and to=, or raise max_spans")
                .arg(source.display(), what, QString::number(source.maxSpans), QString::number(result.sampleThatFits)));
    }
    if (control)
        control->setTotalBytes(total);
    SpanTraceBuilder builder(
        store, source.display(),
        SpanFieldNames{QStringLiteral("Timestamp"), QStringLiteral("Duration"), QStringLiteral("ParentSpanId")});
    RowReader reader(builder);
    const int parts = int(std::max<qint64>(1, (total + spansPerPart - 1) / std::max<qint64>(1, spansPerPart)));
    std::vector<QString> sqls;
    sqls.reserve(size_t(parts));
    for (int part = 0; part < parts; ++part)
        sqls.push_back(partSql(source, part, parts));
    if (!PartFetch::readParts(
            client, sqls, result, options, control, QStringLiteral("row"),
            [&reader](std::string_view line, qint64 row) { reader.read(line, row); }, &error))
        return stop(error);
    builder.finish();
    if (source.sampleOneIn > 1)
        builder.notice(0,
                       QStringLiteral("a sample: %1 of the %2 spans in the time range, one trace in %3 picked by a "
                                      "hash of the trace id (%4); every figure is the sample's")
                           .arg(grouped(total), grouped(population), QString::number(source.sampleOneIn),
                                source.sampleSql(QStringLiteral("TraceId"))));
    return result;
}

} // namespace OtelTracesLoader
