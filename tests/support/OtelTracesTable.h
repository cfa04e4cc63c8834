#pragma once

#include "clickhouse/ClickHouseClient.h"
#include "support/TestData.h"

#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

// The OpenTelemetry Collector's otel_traces table for tests: created from the
// ClickHouse exporter's own DDL (tests/data/realdata/opentelemetry-collector-contrib)
// and filled with an OTLP/JSON file's spans written the way the exporter
// writes them (every attribute value a string, lower-case hex ids, kind and
// status names, DateTime64(9) times, Events and Links as Nested columns).
namespace OtelTracesTable {

using nlohmann::json;

// pcommon.Value.AsString: strings as they are, numbers and bools as text,
// arrays and maps as JSON.
inline std::string exporterText(const json &value)
{
    if (value.contains("stringValue"))
        return value["stringValue"].get<std::string>();
    if (value.contains("intValue"))
        return value["intValue"].is_string() ? value["intValue"].get<std::string>() : value["intValue"].dump();
    if (value.contains("doubleValue"))
        return value["doubleValue"].dump();
    if (value.contains("boolValue"))
        return value["boolValue"].get<bool>() ? "true" : "false";
    if (value.contains("bytesValue"))
        return value["bytesValue"].get<std::string>();
    if (value.contains("arrayValue")) {
        json elements = json::array();
        for (const json &element : value["arrayValue"].value("values", json::array())) {
            if (element.contains("stringValue"))
                elements.push_back(element["stringValue"]);
            else
                elements.push_back(json::parse(exporterText(element), nullptr, false));
        }
        return elements.dump();
    }
    if (value.contains("kvlistValue")) {
        json object = json::object();
        for (const json &pair : value["kvlistValue"].value("values", json::array()))
            object[pair["key"].get<std::string>()] = exporterText(pair["value"]);
        return object.dump();
    }
    return {};
}

inline json exporterMap(const json &attributes)
{
    json map = json::object();
    for (const json &pair : attributes)
        map[pair["key"].get<std::string>()] = exporterText(pair.value("value", json::object()));
    return map;
}

inline std::string lowerHex(std::string text)
{
    for (char &c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

inline std::string kindName(const json &kind)
{
    static const char *const names[] = {"Unspecified", "Internal", "Server", "Client", "Producer", "Consumer"};
    if (kind.is_number_integer() && kind.get<int>() >= 0 && kind.get<int>() <= 5)
        return names[kind.get<int>()];
    if (kind.is_string()) {
        for (int i = 1; i <= 5; ++i) {
            std::string upper = std::string("SPAN_KIND_") + names[i];
            for (char &c : upper)
                c = char(std::toupper(static_cast<unsigned char>(c)));
            if (kind.get<std::string>() == upper)
                return names[i];
        }
    }
    return names[0];
}

inline std::string statusName(const json &status)
{
    const json code = status.value("code", json(0));
    if (code == json(2) || code == json("STATUS_CODE_ERROR"))
        return "Error";
    if (code == json(1) || code == json("STATUS_CODE_OK"))
        return "Ok";
    return "Unset";
}

inline qint64 nanos(const json &value)
{
    return value.is_string() ? std::stoll(value.get<std::string>()) : value.get<qint64>();
}

// One staging row per span of an OTLP/JSON document (times as Int64 ns; the
// INSERT … SELECT turns them into DateTime64(9)).
inline void appendRows(const json &document, std::string *rows)
{
    for (const json &resourceSpans : document.value("resourceSpans", json::array())) {
        const json resource
            = exporterMap(resourceSpans.value("resource", json::object()).value("attributes", json::array()));
        const std::string service = resource.value("service.name", std::string());
        for (const json &scopeSpans : resourceSpans.value("scopeSpans", json::array())) {
            const json scope = scopeSpans.value("scope", json::object());
            for (const json &span : scopeSpans.value("spans", json::array())) {
                json row;
                const qint64 start = nanos(span["startTimeUnixNano"]);
                row["Timestamp"] = start;
                row["TraceId"] = lowerHex(span["traceId"].get<std::string>());
                row["SpanId"] = lowerHex(span["spanId"].get<std::string>());
                row["ParentSpanId"] = lowerHex(span.value("parentSpanId", std::string()));
                row["TraceState"] = span.value("traceState", std::string());
                row["SpanName"] = span.value("name", std::string());
                row["SpanKind"] = kindName(span.value("kind", json(0)));
                row["ServiceName"] = service;
                row["ResourceAttributes"] = resource;
                row["ScopeName"] = scope.value("name", std::string());
                row["ScopeVersion"] = scope.value("version", std::string());
                row["SpanAttributes"] = exporterMap(span.value("attributes", json::array()));
                row["Duration"] = nanos(span["endTimeUnixNano"]) - start;
                row["StatusCode"] = statusName(span.value("status", json::object()));
                row["StatusMessage"] = span.value("status", json::object()).value("message", std::string());
                json times = json::array(), names = json::array(), eventAttributes = json::array();
                for (const json &event : span.value("events", json::array())) {
                    times.push_back(nanos(event["timeUnixNano"]));
                    names.push_back(event.value("name", std::string()));
                    eventAttributes.push_back(exporterMap(event.value("attributes", json::array())));
                }
                row["EventTimes"] = times;
                row["EventNames"] = names;
                row["EventAttributes"] = eventAttributes;
                json linkTraces = json::array(), linkSpans = json::array(), linkAttributes = json::array();
                for (const json &link : span.value("links", json::array())) {
                    linkTraces.push_back(lowerHex(link.value("traceId", std::string())));
                    linkSpans.push_back(lowerHex(link.value("spanId", std::string())));
                    linkAttributes.push_back(exporterMap(link.value("attributes", json::array())));
                }
                row["LinkTraceIds"] = linkTraces;
                row["LinkSpanIds"] = linkSpans;
                row["LinkAttributes"] = linkAttributes;
                *rows += row.dump() + '\n';
            }
        }
    }
}

// An OTLP/JSON file (one document, or one per line) as staging rows.
inline std::string rowsOf(const QString &path)
{
    std::ifstream file(path.toStdString());
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::string rows;
    const json whole = json::parse(text, nullptr, false);
    if (!whole.is_discarded()) {
        appendRows(whole, &rows);
        return rows;
    }
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos)
            end = text.size();
        const json line = json::parse(text.substr(begin, end - begin), nullptr, false);
        if (line.is_object())
            appendRows(line, &rows);
        begin = end + 1;
    }
    return rows;
}

inline const char *const kStaging
    = "Timestamp Int64, TraceId String, SpanId String, ParentSpanId String, TraceState String, "
      "SpanName String, SpanKind String, ServiceName String, ResourceAttributes Map(String, "
      "String), ScopeName String, ScopeVersion String, SpanAttributes Map(String, String), "
      "Duration UInt64, StatusCode String, StatusMessage String, EventTimes Array(Int64), "
      "EventNames Array(String), EventAttributes Array(Map(String, String)), LinkTraceIds "
      "Array(String), LinkSpanIds Array(String), LinkAttributes Array(Map(String, String))";

// Runs `sql` on the server at `port` (database `tracelane`); false with a
// warning naming the statement.
inline bool run(int port, const QString &sql, const QByteArray &data = {}, QByteArray *answer = nullptr)
{
    ClickHouseSource source;
    QString error;
    if (!ClickHouseSource::parse(QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?timeout=60").arg(port), &source,
                                 &error))
        qFatal("%s", qPrintable(error));
    const ClickHouseClient client(source);
    if (!client.run(sql, answer, &error, data)) {
        qWarning("%s\n%s", qPrintable(sql), qPrintable(error));
        return false;
    }
    return true;
}

// The exporter's table tracelane.`name` holding the spans of `rows` (rowsOf).
inline bool create(int port, const QString &name, const std::string &rows)
{
    QFile ddl(TestData::realdata(QStringLiteral("opentelemetry-collector-contrib/traces_table.sql")));
    if (!ddl.open(QIODevice::ReadOnly))
        return false;
    QString sql = QString::fromUtf8(ddl.readAll());
    // The exporter's placeholders, in order: table, cluster clause, engine, TTL.
    const QStringList parts
        = {QStringLiteral("tracelane.") + name, QString(), QStringLiteral("MergeTree()"), QString()};
    for (const QString &part : parts)
        sql.replace(sql.indexOf(QStringLiteral("%s")), 2, part);
    const QString staging = QStringLiteral("tracelane.staging_") + name;
    return run(port, sql)
        && run(port, QStringLiteral("CREATE TABLE %1 (%2) ENGINE = Memory").arg(staging, QString::fromLatin1(kStaging)))
        && run(port, QStringLiteral("INSERT INTO %1 FORMAT JSONEachRow").arg(staging), QByteArray::fromStdString(rows))
        && run(port,
               QStringLiteral(
                   "INSERT INTO tracelane.%1 (Timestamp, TraceId, SpanId, ParentSpanId, TraceState, SpanName, "
                   "SpanKind, ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, Duration, "
                   "StatusCode, StatusMessage, `Events.Timestamp`, `Events.Name`, `Events.Attributes`, "
                   "`Links.TraceId`, `Links.SpanId`, `Links.TraceState`, `Links.Attributes`) "
                   "SELECT fromUnixTimestamp64Nano(Timestamp), TraceId, SpanId, ParentSpanId, TraceState, "
                   "SpanName, SpanKind, ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, "
                   "Duration, StatusCode, StatusMessage, arrayMap(t -> fromUnixTimestamp64Nano(t), EventTimes), "
                   "EventNames, EventAttributes, LinkTraceIds, LinkSpanIds, arrayMap(x -> '', LinkTraceIds), "
                   "LinkAttributes FROM %2")
                   .arg(name, staging));
}

} // namespace OtelTracesTable
