#include "OtlpProtobufDecoder.h"

#include "proto/otlp_trace.pb.h"

#include "io/AttributeText.h"
#include "io/SpanSink.h"

#include <QByteArray>

#include <limits>

namespace otlp = opentelemetry::proto::collector::trace::v1;

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

std::string toHex(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        out += kHexDigits[byte >> 4];
        out += kHexDigits[byte & 0x0F];
    }
    return out;
}

bool allZero(std::string_view bytes)
{
    for (const char c : bytes) {
        if (c != 0)
            return false;
    }
    return true;
}

std::string base64(std::string_view bytes)
{
    const QByteArray encoded = QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())).toBase64();
    return encoded.toStdString();
}

// Renders a value inside an array or kvlist as JSON, as OtlpSpanReader does.
void render(const otlp::AnyValue &value, std::string &out);

void renderKvlist(const otlp::KeyValueList &list, std::string &out)
{
    out += '{';
    bool first = true;
    for (const auto &entry : list.values()) {
        if (!first)
            out += ',';
        first = false;
        AttributeText::appendQuoted(out, entry.key());
        out += ':';
        if (entry.has_value())
            render(entry.value(), out);
        else
            out += "null";
    }
    out += '}';
}

void renderArray(const otlp::ArrayValue &array, std::string &out, std::vector<std::string> *elements)
{
    out += '[';
    bool first = true;
    for (const auto &element : array.values()) {
        if (!first)
            out += ',';
        first = false;
        const size_t begin = out.size();
        render(element, out);
        if (elements && element.value_case() != otlp::AnyValue::kArrayValue
            && element.value_case() != otlp::AnyValue::kKvlistValue) {
            // The element's own text, unquoted, as the JSON reader keeps it.
            switch (element.value_case()) {
            case otlp::AnyValue::kStringValue:
                elements->push_back(element.string_value());
                break;
            case otlp::AnyValue::kBytesValue:
                elements->push_back(base64(element.bytes_value()));
                break;
            default:
                elements->push_back(out.substr(begin));
                break;
            }
        }
    }
    out += ']';
}

void render(const otlp::AnyValue &value, std::string &out)
{
    switch (value.value_case()) {
    case otlp::AnyValue::kStringValue:
        AttributeText::appendQuoted(out, value.string_value());
        break;
    case otlp::AnyValue::kBoolValue:
        out += value.bool_value() ? "true" : "false";
        break;
    case otlp::AnyValue::kIntValue:
        out += std::to_string(value.int_value());
        break;
    case otlp::AnyValue::kDoubleValue:
        out += AttributeText::formatDouble(value.double_value());
        break;
    case otlp::AnyValue::kBytesValue:
        AttributeText::appendQuoted(out, base64(value.bytes_value()));
        break;
    case otlp::AnyValue::kArrayValue:
        renderArray(value.array_value(), out, nullptr);
        break;
    case otlp::AnyValue::kKvlistValue:
        renderKvlist(value.kvlist_value(), out);
        break;
    case otlp::AnyValue::VALUE_NOT_SET:
        out += "null";
        break;
    }
}

void readValue(const otlp::AnyValue &in, AttributeValue &value)
{
    using Type = AttributeValue::Type;
    switch (in.value_case()) {
    case otlp::AnyValue::kStringValue:
        value.type = Type::String;
        value.text = in.string_value();
        break;
    case otlp::AnyValue::kBoolValue:
        value.type = Type::Bool;
        value.text = in.bool_value() ? "true" : "false";
        break;
    case otlp::AnyValue::kIntValue:
        value.type = Type::Int;
        value.integer = in.int_value();
        value.number = double(in.int_value());
        value.text = std::to_string(in.int_value());
        break;
    case otlp::AnyValue::kDoubleValue:
        value.type = Type::Double;
        value.number = in.double_value();
        value.text = AttributeText::formatDouble(in.double_value());
        break;
    case otlp::AnyValue::kBytesValue:
        value.type = Type::Bytes;
        value.text = base64(in.bytes_value());
        break;
    case otlp::AnyValue::kArrayValue:
        value.type = Type::Array;
        renderArray(in.array_value(), value.text, &value.elements);
        break;
    case otlp::AnyValue::kKvlistValue:
        value.type = Type::Kvlist;
        renderKvlist(in.kvlist_value(), value.text);
        break;
    case otlp::AnyValue::VALUE_NOT_SET:
        break;
    }
}

void readAttributes(const google::protobuf::RepeatedPtrField<otlp::KeyValue> &in, RecycledList<SpanAttribute> &out)
{
    out.clear();
    for (const auto &entry : in) {
        if (entry.key().empty())
            continue; // a key-less attribute names nothing (as in the JSON reader)
        SpanAttribute &attribute = out.add();
        attribute.key = entry.key();
        if (entry.has_value())
            readValue(entry.value(), attribute.value);
    }
}

// Reads an id of exactly `bytes` bytes; an error names what is wrong.
QString readId(const std::string &in, size_t bytes, bool optional, std::string *out)
{
    out->clear();
    if (in.empty())
        return optional ? QString() : QStringLiteral("missing");
    if (in.size() != bytes) {
        *out = toHex(in); // kept for the message
        return QStringLiteral("must be %1 bytes, got %2").arg(bytes).arg(in.size());
    }
    if (allZero(in)) {
        if (optional)
            return {}; // some exporters write zeros for "no parent"
        *out = toHex(in);
        return QStringLiteral("an all-zero id is invalid");
    }
    *out = toHex(in);
    return {};
}

// Times are fixed64; past qint64 is after the year 2262, zero is unset.
QString readTime(quint64 in, qint64 *out)
{
    if (in == 0)
        return QStringLiteral("missing");
    if (in > quint64(std::numeric_limits<qint64>::max()))
        return QStringLiteral("time %1 ns does not fit in 64 bits (after the year 2262)").arg(in);
    *out = qint64(in);
    return {};
}

SpanKind kindOf(int value)
{
    return value >= 0 && value <= 5 ? static_cast<SpanKind>(value) : SpanKind::Unspecified;
}

SpanStatus statusOf(int code)
{
    return code == 2 ? SpanStatus::Error : code == 1 ? SpanStatus::Ok : SpanStatus::Unset;
}

void readSpan(const otlp::Span &in, SpanRecord &span, SpanSink &sink)
{
    QString field;
    QString reason;
    const auto fail = [&](const char *name, const QString &why) {
        if (reason.isEmpty() && !why.isEmpty()) {
            field = QLatin1String(name);
            reason = why;
        }
    };
    fail("traceId", readId(in.trace_id(), 16, false, &span.traceId));
    fail("spanId", readId(in.span_id(), 8, false, &span.spanId));
    fail("parentSpanId", readId(in.parent_span_id(), 8, true, &span.parentSpanId));
    span.name = in.name();
    span.kind = kindOf(in.kind());
    fail("startTimeUnixNano", readTime(in.start_time_unix_nano(), &span.start));
    fail("endTimeUnixNano", readTime(in.end_time_unix_nano(), &span.end));
    readAttributes(in.attributes(), span.attributes);
    for (const auto &inEvent : in.events()) {
        SpanEventRecord &event = span.events.add();
        if (inEvent.time_unix_nano() != 0) {
            qint64 time = kNoTime;
            fail("events.timeUnixNano", readTime(inEvent.time_unix_nano(), &time));
            event.time = time;
        }
        event.name = inEvent.name();
        readAttributes(inEvent.attributes(), event.attributes);
    }
    for (const auto &inLink : in.links()) {
        SpanLinkRecord &link = span.links.add();
        if (inLink.trace_id().size() == 16)
            link.traceId = toHex(inLink.trace_id());
        if (inLink.span_id().size() == 8)
            link.spanId = toHex(inLink.span_id());
        else if (!inLink.span_id().empty())
            fail("links.spanId", QStringLiteral("must be 8 bytes, got %1").arg(inLink.span_id().size()));
        readAttributes(inLink.attributes(), link.attributes);
    }
    if (in.has_status()) {
        span.status = statusOf(in.status().code());
        span.statusMessage = in.status().message();
    }
    if (reason.isEmpty())
        sink.addSpan(span);
    else
        sink.rejectSpan(span, field, reason);
}

} // namespace

namespace OtlpProtobufDecoder {

bool decode(std::string_view body, SpanSink &sink, qint64 line, QString *error)
{
    otlp::ExportTraceServiceRequest request;
    if (body.size() > size_t(std::numeric_limits<int>::max())
        || !request.ParseFromArray(body.data(), int(body.size()))) {
        *error = QStringLiteral("the body is not a valid protobuf ExportTraceServiceRequest (truncated, corrupt or "
                                "not protobuf)");
        return false;
    }
    RecycledList<SpanAttribute> attributes;
    SpanRecord span;
    for (const auto &resourceSpans : request.resource_spans()) {
        qint32 resource = -1;
        if (resourceSpans.has_resource()) {
            readAttributes(resourceSpans.resource().attributes(), attributes);
            resource = sink.addResource(attributes);
        }
        for (const auto &scopeSpans : resourceSpans.scope_spans()) {
            qint32 scope = -1;
            if (scopeSpans.has_scope()) {
                readAttributes(scopeSpans.scope().attributes(), attributes);
                scope = sink.addScope(scopeSpans.scope().name(), scopeSpans.scope().version(), attributes);
            }
            for (const auto &inSpan : scopeSpans.spans()) {
                span.clear();
                span.line = line;
                span.resource = resource;
                span.scope = scope;
                readSpan(inSpan, span, sink);
            }
        }
    }
    return true;
}

} // namespace OtlpProtobufDecoder
