#include "JaegerJsonLoader.h"

#include "AttributeText.h"
#include "LoadControl.h"
#include "SpanDocumentLoad.h"
#include "SpanId.h"
#include "SpanKindText.h"
#include "store/Utf8.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace {

using json = nlohmann::json;

using Utf8::fromStd;

QString typeName(const json &value)
{
    return QString::fromUtf8(value.type_name());
}

std::string textOf(const json &value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_null())
        return {};
    return value.dump();
}

// A tag or log field {key, type, value} as an attribute; Jaeger writes
// values as JSON strings, numbers or booleans whatever `type` says.
void readTag(const json &tag, SpanAttribute &attribute)
{
    attribute.key = tag.contains("key") ? textOf(tag["key"]) : std::string();
    const json *value = tag.contains("value") ? &tag["value"] : nullptr;
    auto &out = attribute.value;
    if (!value || value->is_null())
        return;
    out.text = textOf(*value);
    const std::string type = tag.contains("type") ? textOf(tag["type"]) : std::string();
    // NOLINTNEXTLINE(bugprone-branch-clone): a JSON bool and a tag typed "bool" read alike, at two places in the chain
    if (value->is_boolean()) {
        out.type = AttributeValue::Type::Bool;
    } else if (value->is_number_integer()) {
        out.type = AttributeValue::Type::Int;
        out.integer = value->is_number_unsigned() && value->get<quint64>() > quint64(std::numeric_limits<qint64>::max())
            ? std::numeric_limits<qint64>::max()
            : value->get<qint64>();
        out.number = value->get<double>();
    } else if (value->is_number()) {
        out.type = AttributeValue::Type::Double;
        out.number = value->get<double>();
        out.text = AttributeText::formatDouble(out.number);
    } else if (type == "int64" && AttributeText::parseCount(out.text, &out.integer)) {
        out.type = AttributeValue::Type::Int;
        out.number = double(out.integer);
    } else if (type == "float64" && AttributeText::parseDouble(out.text, &out.number)) {
        out.type = AttributeValue::Type::Double;
    } else if (type == "bool") {
        out.type = AttributeValue::Type::Bool;
    } else if (type == "binary") {
        out.type = AttributeValue::Type::Bytes;
    } else {
        out.type = AttributeValue::Type::String;
    }
}

// Jaeger times are µs; a JSON integer converts exactly.
bool readMicroseconds(const json &span, const char *field, qint64 *ns, QString *error)
{
    if (!span.contains(field) || span[field].is_null()) {
        *error = QStringLiteral("missing");
        return false;
    }
    const json &value = span[field];
    if (!value.is_number()) {
        *error = QStringLiteral("must be a number of microseconds, got %1").arg(typeName(value));
        return false;
    }
    constexpr qint64 kLimit = std::numeric_limits<qint64>::max() / 1000;
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<quint64>() > quint64(kLimit)) {
            *error = QStringLiteral("%1 µs does not fit in 64-bit nanoseconds (after the year 2262)")
                         .arg(fromStd(value.dump()));
            return false;
        }
        const qint64 us = value.get<qint64>();
        if (us > kLimit || us < -kLimit) {
            *error = QStringLiteral("%1 µs does not fit in 64-bit nanoseconds (after the year 2262)").arg(us);
            return false;
        }
        *ns = us * 1000;
        return true;
    }
    const double us = value.get<double>();
    if (!std::isfinite(us) || std::fabs(us) > double(kLimit)) {
        *error = QStringLiteral("%1 µs does not fit in 64-bit nanoseconds (after the year 2262)")
                     .arg(fromStd(value.dump()));
        return false;
    }
    *ns = std::llround(us * 1000.0);
    return true;
}

class JaegerTraceReader
{
public:
    JaegerTraceReader(SpanTraceBuilder &builder, LoadControl *control)
        : m_builder(builder)
        , m_control(control)
    { }

    void readTrace(const json &trace, qint64 index)
    {
        if (!trace.is_object()) {
            m_builder.reject(0, QStringLiteral("data[%1]").arg(index),
                             QStringLiteral("a trace must be a JSON object, got %1").arg(typeName(trace)));
            return;
        }
        std::string traceId;
        if (trace.contains("traceID") && trace["traceID"].is_string())
            SpanId::fromAnyText(trace["traceID"].get<std::string>(), SpanId::kTraceIdDigits, &traceId);
        readProcesses(trace);
        if (!trace.contains("spans") || !trace["spans"].is_array()) {
            m_builder.reject(0, QStringLiteral("spans"),
                             QStringLiteral("trace %1 has no spans array").arg(fromStd(traceId)));
            return;
        }
        qint64 position = 0;
        for (const json &span : trace["spans"]) {
            if (m_control && m_control->isCancelled())
                return;
            readSpan(span, traceId, position++);
        }
    }

private:
    void readProcesses(const json &trace)
    {
        m_processes.clear();
        if (!trace.contains("processes") || !trace["processes"].is_object())
            return;
        for (const auto &[id, process] : trace["processes"].items()) {
            m_attributes.clear();
            std::string service;
            if (process.is_object() && process.contains("serviceName"))
                service = textOf(process["serviceName"]);
            auto &name = m_attributes.add();
            name.key = "service.name";
            name.value.type = AttributeValue::Type::String;
            name.value.text = service;
            if (process.is_object() && process.contains("tags") && process["tags"].is_array()) {
                for (const json &tag : process["tags"]) {
                    if (tag.is_object())
                        readTag(tag, m_attributes.add());
                }
            }
            m_processes[id] = m_builder.addResource(m_attributes);
        }
    }

    void readSpan(const json &span, const std::string &traceId, qint64 index)
    {
        SpanRecord &record = m_record;
        record.clear();
        // No line numbers in a DOM: the field names the span by its position.
        const QString where = QStringLiteral("spans[%1]").arg(index);
        const auto reject = [&](const QString &field, const QString &reason) {
            m_builder.rejectSpan(record, field.isEmpty() ? where : where + QLatin1Char('.') + field, reason);
        };
        if (!span.is_object()) {
            record.traceId = traceId;
            reject({}, QStringLiteral("a span must be a JSON object, got %1").arg(typeName(span)));
            return;
        }
        record.traceId = traceId;
        if (span.contains("traceID") && span["traceID"].is_string())
            SpanId::fromAnyText(span["traceID"].get<std::string>(), SpanId::kTraceIdDigits, &record.traceId);
        if (!span.contains("spanID") || !span["spanID"].is_string() || span["spanID"].get<std::string>().empty()) {
            if (span.contains("spanID"))
                record.spanId = textOf(span["spanID"]);
            reject(QStringLiteral("spanID"),
                   span.contains("spanID")
                       ? QStringLiteral("must be a non-empty string, got %1").arg(typeName(span["spanID"]))
                       : QStringLiteral("missing"));
            return;
        }
        SpanId::fromAnyText(span["spanID"].get<std::string>(), SpanId::kSpanIdDigits, &record.spanId);
        if (span.contains("operationName"))
            record.name = textOf(span["operationName"]);
        QString error;
        if (!readMicroseconds(span, "startTime", &record.start, &error)) {
            reject(QStringLiteral("startTime"), error);
            return;
        }
        qint64 duration = 0;
        if (!readMicroseconds(span, "duration", &duration, &error)) {
            reject(QStringLiteral("duration"), error);
            return;
        }
        if (duration < 0) {
            reject(QStringLiteral("duration"), QStringLiteral("negative duration %1 µs").arg(duration / 1000));
            return;
        }
        if (record.start > std::numeric_limits<qint64>::max() - duration) {
            reject(QStringLiteral("duration"), QStringLiteral("the span would end after the year 2262"));
            return;
        }
        record.end = record.start + duration;
        if (span.contains("processID")) {
            const auto it = m_processes.find(textOf(span["processID"]));
            if (it != m_processes.end())
                record.resource = it->second;
        }
        if (span.contains("tags") && span["tags"].is_array()) {
            for (const json &tag : span["tags"]) {
                if (!tag.is_object())
                    continue;
                SpanAttribute &attribute = record.attributes.add();
                readTag(tag, attribute);
                if (attribute.key == "span.kind")
                    record.kind = SpanKindText::kind(attribute.value.text);
                else if ((attribute.key == "error" && attribute.value.text == "true")
                         || (attribute.key == "otel.status_code" && attribute.value.text == "ERROR"))
                    record.status = SpanStatus::Error;
                else if (attribute.key == "otel.status_code" && attribute.value.text == "OK"
                         && record.status != SpanStatus::Error)
                    record.status = SpanStatus::Ok;
            }
        }
        if (span.contains("logs") && span["logs"].is_array())
            readLogs(span["logs"], record);
        if (span.contains("references") && span["references"].is_array())
            readReferences(span["references"], record);
        m_builder.addSpan(record);
    }

    void readLogs(const json &logs, SpanRecord &record)
    {
        for (const json &log : logs) {
            if (!log.is_object())
                continue;
            SpanEventRecord &event = record.events.add();
            qint64 time = 0;
            QString error;
            if (readMicroseconds(log, "timestamp", &time, &error))
                event.time = time;
            if (!log.contains("fields") || !log["fields"].is_array())
                continue;
            for (const json &field : log["fields"]) {
                if (!field.is_object())
                    continue;
                SpanAttribute &attribute = event.attributes.add();
                readTag(field, attribute);
                if (attribute.key == "event" && event.name.empty())
                    event.name = attribute.value.text;
            }
        }
    }

    // The parent is the first CHILD_OF reference, else the first
    // FOLLOWS_FROM one (then a non-blocking edge marks it); any other
    // reference becomes a link.
    void readReferences(const json &references, SpanRecord &record)
    {
        const json *parent = nullptr;
        for (const char *wanted : {"CHILD_OF", "FOLLOWS_FROM"}) {
            for (const json &reference : references) {
                if (reference.is_object() && reference.contains("refType") && reference["refType"] == wanted
                    && reference.contains("spanID")) {
                    parent = &reference;
                    break;
                }
            }
            if (parent)
                break;
        }
        for (const json &reference : references) {
            if (!reference.is_object() || !reference.contains("spanID"))
                continue;
            std::string traceId;
            if (reference.contains("traceID") && reference["traceID"].is_string())
                SpanId::fromAnyText(reference["traceID"].get<std::string>(), SpanId::kTraceIdDigits, &traceId);
            std::string spanId;
            SpanId::fromAnyText(textOf(reference["spanID"]), SpanId::kSpanIdDigits, &spanId);
            const bool followsFrom = reference.contains("refType") && reference["refType"] == "FOLLOWS_FROM";
            if (&reference == parent) {
                record.parentSpanId = spanId;
                if (!followsFrom)
                    continue;
            }
            SpanLinkRecord &link = record.links.add();
            link.traceId = traceId == record.traceId ? std::string() : traceId;
            link.spanId = spanId;
            link.kind = followsFrom ? SpanLinkRecord::Kind::FollowsFrom : SpanLinkRecord::Kind::Link;
        }
    }

    SpanTraceBuilder &m_builder;
    LoadControl *m_control;
    SpanRecord m_record;
    RecycledList<SpanAttribute> m_attributes;
    std::unordered_map<std::string, qint32> m_processes;
};

} // namespace

namespace JaegerJsonLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    SpanDocumentLoad load(path, options, control, QStringLiteral("jaeger-json"),
                          {QStringLiteral("startTime"), QStringLiteral("duration"), QStringLiteral("references")});
    if (!load.read())
        return load.take();
    SpanTraceBuilder &builder = load.builder();
    const JsonDocumentFile &document = load.document();
    JaegerTraceReader reader(builder, control);
    // The query API wraps traces as {data: [...]}; the UI keeps a bare trace.
    // Each trace is read as soon as it is parsed and then dropped, so only one
    // trace's DOM exists at a time.
    qint64 index = 0;
    const bool parsed = load.document().parse([&](int depth, nlohmann::json &value) {
        if (depth == 2 && value.contains("spans")) {
            reader.readTrace(value, index++);
            return false;
        }
        return true;
    });
    if (!parsed)
        return load.cancelled();
    const nlohmann::json &root = document.root();
    if (root.is_object() && root.contains("spans")) {
        reader.readTrace(root, 0);
    } else if (root.is_array()) {
        for (const auto &trace : root)
            reader.readTrace(trace, index++);
    } else if (document.hadSyntaxError()) {
        // Traces before the error were read as they were parsed.
    } else if (!root.is_object() || !root.contains("data")) {
        builder.reject(document.firstLine(), {},
                       QStringLiteral("not a Jaeger trace: expected {\"data\": [...]} or a trace with spans"));
    } else if (root["data"].is_array() && index == 0 && !root["data"].empty()) {
        for (const auto &trace : root["data"])
            reader.readTrace(trace, index++);
    }
    if (root.is_object() && root.contains("errors") && root["errors"].is_array() && !root["errors"].empty())
        builder.notice(0, QStringLiteral("the query reported errors: %1").arg(fromStd(root["errors"].dump())));
    if (control && control->isCancelled())
        return load.cancelled();
    return load.finish();
}

} // namespace JaegerJsonLoader
