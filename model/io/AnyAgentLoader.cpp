#include "AnyAgentLoader.h"

#include "IsoTime.h"
#include "JsonAttribute.h"
#include "SpanDocumentLoad.h"
#include "SpanId.h"
#include "SpanKindText.h"
#include "store/Utf8.h"

#include <charconv>

namespace {

using json = nlohmann::json;

using Utf8::fromStd;

// An id as any-agent writes it (a decimal JSON integer, kept as text when
// beyond 64 bits) or as OTel's to_json does ("0x" + hex).
bool readId(const json &value, int digits, std::string *out, QString *error)
{
    if (value.is_number_unsigned() || value.is_number_integer()) {
        return SpanId::fromDecimal(value.dump(), digits, out, error) == SpanId::Status::Ok;
    }
    if (!value.is_string()) {
        *error = QStringLiteral("must be an integer id, got %1").arg(QString::fromUtf8(value.type_name()));
        return false;
    }
    const std::string text = value.get<std::string>();
    if (text.starts_with("0x") || text.starts_with("0X")) {
        if (SpanId::fromHex(std::string_view(text).substr(2), digits, out) == SpanId::Status::Ok)
            return true;
        *error = QStringLiteral("%1 is not a hex id of at most %2 digits").arg(SpanId::describe(text)).arg(digits);
        return false;
    }
    return SpanId::fromDecimal(text, digits, out, error) == SpanId::Status::Ok;
}

bool readTime(const json &value, qint64 *ns, QString *error)
{
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<quint64>() > quint64(std::numeric_limits<qint64>::max())) {
            *error
                = QStringLiteral("time %1 ns does not fit in 64 bits (after the year 2262)").arg(fromStd(value.dump()));
            return false;
        }
        *ns = value.get<qint64>();
        return true;
    }
    if (value.is_string()) {
        const std::string text = value.get<std::string>();
        if (IsoTime::toNanoseconds(text, ns))
            return true;
        // A lossless big integer ends up here as its digits.
        const auto parsed = std::from_chars(text.data(), text.data() + text.size(), *ns);
        if (parsed.ec == std::errc() && parsed.ptr == text.data() + text.size())
            return true;
        *error = parsed.ec == std::errc::result_out_of_range
            ? QStringLiteral("time %1 ns does not fit in 64 bits (after the year 2262)").arg(fromStd(text))
            : QStringLiteral("%1 is neither integer nanoseconds nor an ISO-8601 time").arg(SpanId::describe(text));
        return false;
    }
    *error = value.is_null()
        ? QStringLiteral("missing")
        : QStringLiteral("must be integer nanoseconds, got %1").arg(QString::fromUtf8(value.type_name()));
    return false;
}

std::string lowerWord(std::string text)
{
    // "SpanKind.INTERNAL" and "StatusCode.ERROR" as well as "internal", "error".
    const auto dot = text.rfind('.');
    if (dot != std::string::npos)
        text = text.substr(dot + 1);
    for (char &c : text) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return text;
}

class AgentTraceReader
{
public:
    explicit AgentTraceReader(SpanTraceBuilder &builder)
        : m_builder(builder)
    { }

    void readSpan(const json &span, qint64 index)
    {
        SpanRecord &record = m_record;
        record.clear();
        const auto reject
            = [&](const QString &field, const QString &reason) { m_builder.rejectSpan(record, field, reason); };
        const QString where = QStringLiteral("spans[%1].").arg(index);
        if (!span.is_object()) {
            reject(where.chopped(1),
                   QStringLiteral("a span must be a JSON object, got %1").arg(QString::fromUtf8(span.type_name())));
            return;
        }
        if (!span.contains("context") || !span["context"].is_object()) {
            reject(where + QStringLiteral("context"), QStringLiteral("missing"));
            return;
        }
        const json &context = span["context"];
        QString error;
        for (const auto &[field, digits, out] : {std::tuple{"trace_id", SpanId::kTraceIdDigits, &record.traceId},
                                                 std::tuple{"span_id", SpanId::kSpanIdDigits, &record.spanId}}) {
            if (!context.contains(field) || context[field].is_null()) {
                reject(where + QStringLiteral("context.") + QLatin1String(field), QStringLiteral("missing"));
                return;
            }
            if (!readId(context[field], digits, out, &error)) {
                *out = context[field].is_string() ? context[field].get<std::string>() : context[field].dump();
                reject(where + QStringLiteral("context.") + QLatin1String(field), error);
                return;
            }
        }
        if (span.contains("parent") && span["parent"].is_object()) {
            const json &parent = span["parent"];
            if (parent.contains("span_id") && !parent["span_id"].is_null()
                && !readId(parent["span_id"], SpanId::kSpanIdDigits, &record.parentSpanId, &error)) {
                reject(where + QStringLiteral("parent.span_id"), error);
                return;
            }
        }
        if (span.contains("name") && span["name"].is_string())
            record.name = span["name"].get<std::string>();
        for (const auto &[field, out] : {std::pair{"start_time", &record.start}, std::pair{"end_time", &record.end}}) {
            if (!readTime(span.contains(field) ? span[field] : json(), out, &error)) {
                reject(where + QLatin1String(field), error);
                return;
            }
        }
        if (span.contains("kind") && span["kind"].is_string())
            record.kind = SpanKindText::kind(span["kind"].get<std::string>());
        if (span.contains("status") && span["status"].is_object()) {
            const json &status = span["status"];
            if (status.contains("status_code") && status["status_code"].is_string()) {
                const std::string code = lowerWord(status["status_code"].get<std::string>());
                record.status = code == "error" ? SpanStatus::Error : code == "ok" ? SpanStatus::Ok : SpanStatus::Unset;
            }
            if (status.contains("description") && status["description"].is_string())
                record.statusMessage = status["description"].get<std::string>();
        }
        if (span.contains("attributes"))
            JsonAttribute::readAll(span["attributes"], record.attributes);
        if (span.contains("events") && span["events"].is_array()) {
            for (const json &event : span["events"]) {
                if (!event.is_object())
                    continue;
                SpanEventRecord &out = record.events.add();
                if (event.contains("name") && event["name"].is_string())
                    out.name = event["name"].get<std::string>();
                qint64 time = 0;
                if (event.contains("timestamp") && readTime(event["timestamp"], &time, &error))
                    out.time = time;
                if (event.contains("attributes"))
                    JsonAttribute::readAll(event["attributes"], out.attributes);
            }
        }
        if (span.contains("links") && span["links"].is_array()) {
            for (const json &link : span["links"]) {
                if (!link.is_object() || !link.contains("context") || !link["context"].is_object())
                    continue;
                SpanLinkRecord &out = record.links.add();
                const json &target = link["context"];
                if (!target.contains("span_id")
                    || !readId(target["span_id"], SpanId::kSpanIdDigits, &out.spanId, &error)
                    || (target.contains("trace_id")
                        && !readId(target["trace_id"], SpanId::kTraceIdDigits, &out.traceId, &error))) {
                    record.links.pop();
                    continue;
                }
                if (out.traceId == record.traceId)
                    out.traceId.clear();
                if (link.contains("attributes"))
                    JsonAttribute::readAll(link["attributes"], out.attributes);
            }
        }
        record.resource = resourceOf(span);
        m_builder.addSpan(record);
    }

private:
    // Every span repeats its resource; each distinct one is registered once.
    qint32 resourceOf(const json &span)
    {
        if (!span.contains("resource") || !span["resource"].is_object() || !span["resource"].contains("attributes")) {
            return -1;
        }
        return m_resources.resource(span["resource"]["attributes"]);
    }

    SpanTraceBuilder &m_builder;
    SpanRecord m_record;
    JsonResourceCache m_resources{m_builder};
};

} // namespace

namespace AnyAgentLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    SpanDocumentLoad load(path, options, control, QStringLiteral("any-agent"),
                          {QStringLiteral("start_time"), QStringLiteral("end_time"), QStringLiteral("parent.span_id")});
    if (!load.read())
        return load.take();
    if (!load.document().parseLossless())
        return load.cancelled();
    const json &root = load.document().root();
    const json *spans = root.is_array()                                          ? &root
        : root.is_object() && root.contains("spans") && root["spans"].is_array() ? &root["spans"]
                                                                                 : nullptr;
    if (spans) {
        AgentTraceReader reader(load.builder());
        qint64 index = 0;
        for (const json &span : *spans)
            reader.readSpan(span, index++);
    } else if (!load.document().hadSyntaxError()) {
        load.builder().reject(load.document().firstLine(), QStringLiteral("spans"),
                              QStringLiteral("not an any-agent trace: expected {\"spans\": [...]} or a list of spans"));
    }
    return load.finish();
}

} // namespace AnyAgentLoader
