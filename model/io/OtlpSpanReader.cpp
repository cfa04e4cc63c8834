#include "OtlpSpanReader.h"

#include "AttributeText.h"
#include "SpanId.h"
#include "SpanKindText.h"
#include "SpanSink.h"
#include "store/Utf8.h"

#include <charconv>

namespace {

using Utf8::fromStd;

bool isOneOf(std::string_view key, std::initializer_list<std::string_view> names)
{
    for (const auto name : names) {
        if (key == name)
            return true;
    }
    return false;
}

using Type = AttributeValue::Type;

QString jsonTypeName(Type type)
{
    switch (type) {
    case Type::String:
        return QStringLiteral("a string");
    case Type::Bool:
        return QStringLiteral("a boolean");
    case Type::Empty:
        return QStringLiteral("null");
    default:
        return QStringLiteral("a number");
    }
}

} // namespace

OtlpSpanReader::OtlpSpanReader(SpanSink &builder, const qint64 *currentLine)
    : m_builder(builder)
    , m_currentLine(currentLine)
{
    m_stack.reserve(32);
}

void OtlpSpanReader::beginValue(qint64 skipSpans)
{
    m_stack.clear();
    push(Context::Top);
    m_key.clear();
    m_pending.clear();
    m_resource = -1;
    m_scope = -1;
    m_resourceDone = false;
    m_scopeDone = false;
    m_attributeTarget = nullptr;
    m_attribute = nullptr;
    m_renderFirst.clear();
    m_skipSpans = skipSpans;
    m_emitted = 0;
    m_sawTraces = false;
    m_sawOtherSignal = false;
    m_structureField.clear();
    m_structureError.clear();
}

void OtlpSpanReader::endValue()
{
    // A value cut short (invalid JSON) may leave spans waiting for their
    // resource; they are still spans, so deliver them without it.
    m_resourceDone = true;
    m_scopeDone = true;
    for (auto &pending : m_pending)
        pending.needsResource = pending.needsScope = false;
    flushPending();
}

void OtlpSpanReader::structureError(const QString &field, const QString &reason)
{
    if (m_structureError.isEmpty()) {
        m_structureField = field;
        m_structureError = reason;
    }
}

void OtlpSpanReader::spanError(const QString &field, const QString &reason)
{
    if (m_spanError.isEmpty()) {
        m_spanErrorField = field;
        m_spanError = reason;
    }
}

// How the state machine moves.
//
// m_stack holds one Frame per open JSON object or array; its Context says
// what that container is in the OTLP grammar. key() only remembers the last
// key (m_key); the container that follows it is classified by
// enterContainer() from the parent's Context and that key, and pushed:
//
//   Top -> Request -> "resourceSpans": ResourceSpansList -> ResourceSpans
//     ResourceSpans -> "resource": Resource -> "attributes": AttributeList
//     ResourceSpans -> "scopeSpans": ScopeSpansList -> ScopeSpans
//       ScopeSpans -> "scope": Scope -> "attributes": AttributeList
//       ScopeSpans -> "spans": SpanList -> Span
//         Span -> "attributes" | "events" -> Event | "links" -> Link | "status"
//   AttributeList -> KeyValue -> "value": AnyValue
//     AnyValue -> "arrayValue": ArrayValue -> "values": ArrayValues -> AnyValue ...
//     AnyValue -> "kvlistValue": KvlistValue -> "values": KvlistValues -> KeyValue ...
//
// Anything else (unknown keys, a container of the wrong shape, other
// signals) pushes Skip, and everything inside a Skip is Skip too: it is
// consumed without being read. A wrong shape where a span field belongs
// marks the span (spanError; the span is rejected when it closes), one
// where the request's structure belongs marks the value (structureError).
// Scalars arrive through scalar(), which reads them according to the
// Context on top (span fields, status, attribute values, scope name).
//
// Closing a container pops its frame (endObject/endArray) and finishes
// what it was: a Resource or Scope registers its attributes with the sink,
// a Span is delivered. JSON objects are unordered, so a producer may write
// "scopeSpans" before "resource" (or "spans" before "scope"): a span that
// closes before its resource or scope is known waits in m_pending and is
// delivered when the Resource/Scope closes, or, without one, when its
// ResourceSpans/ScopeSpans closes (index -1), or at endValue().
//
// Array and kvlist attribute values are kept as JSON text: renderDepth
// counts how deep inside such a value a frame is (0 = the attribute
// itself), m_renderFirst holds one "no element yet" flag per open
// array/kvlist for the commas, and `produced` on a KeyValue/AnyValue frame
// says whether a value was seen (an element without one renders as null).

bool OtlpSpanReader::startObject()
{
    return enterContainer(true);
}

bool OtlpSpanReader::startArray()
{
    return enterContainer(false);
}

bool OtlpSpanReader::enterContainer(bool object)
{
    const Frame frame = m_stack.back();
    const std::string_view key = m_key;
    const auto expect = [&](bool wantObject, Context next, auto onWrongShape) {
        if (object == wantObject) {
            push(next, frame.renderDepth);
            return;
        }
        onWrongShape();
        push(Context::Skip);
    };
    const auto skip = [&] { push(Context::Skip); };
    const auto spanShape = [&](const char *what) {
        return [this, what, key] { spanError(fromStd(key), QStringLiteral("must be %1").arg(QLatin1String(what))); };
    };
    switch (frame.context) {
    case Context::Top:
        if (!object)
            structureError({}, QStringLiteral("an OTLP export request must be a JSON object, got an array"));
        push(object ? Context::Request : Context::Skip);
        return true;
    case Context::Request:
        if (key == "resourceSpans") {
            m_sawTraces = true;
            expect(false, Context::ResourceSpansList,
                   [&] { structureError(QStringLiteral("resourceSpans"), QStringLiteral("must be an array")); });
        } else {
            if (isOneOf(key, {"resourceMetrics", "resourceLogs", "resourceProfiles"}))
                m_sawOtherSignal = true;
            skip();
        }
        return true;
    case Context::ResourceSpansList:
        if (!object) {
            skip();
            return true;
        }
        push(Context::ResourceSpans);
        m_resourceAttributes.clear();
        m_resource = -1;
        m_resourceDone = false;
        return true;
    case Context::ResourceSpans:
        if (key == "resource")
            expect(true, Context::Resource, [] {});
        else if (key == "scopeSpans" || key == "instrumentationLibrarySpans")
            expect(false, Context::ScopeSpansList,
                   [&] { structureError(fromStd(key), QStringLiteral("must be an array")); });
        else
            skip();
        return true;
    case Context::Resource:
    case Context::Scope:
        if (key == "attributes" && !object) {
            m_attributeTarget = frame.context == Context::Resource ? &m_resourceAttributes : &m_scopeAttributes;
            push(Context::AttributeList);
        } else {
            skip();
        }
        return true;
    case Context::ScopeSpansList:
        if (!object) {
            skip();
            return true;
        }
        push(Context::ScopeSpans);
        m_scopeAttributes.clear();
        m_scopeName.clear();
        m_scopeVersion.clear();
        m_scope = -1;
        m_scopeDone = false;
        return true;
    case Context::ScopeSpans:
        if (key == "scope" || key == "instrumentationLibrary")
            expect(true, Context::Scope, [] {});
        else if (key == "spans")
            expect(false, Context::SpanList,
                   [&] { structureError(QStringLiteral("spans"), QStringLiteral("must be an array")); });
        else
            skip();
        return true;
    case Context::SpanList:
        if (!object) {
            skip();
            return true;
        }
        push(Context::Span);
        m_span.clear();
        m_span.line = m_currentLine ? *m_currentLine : 0;
        m_spanError.clear();
        m_spanErrorField.clear();
        return true;
    case Context::Span:
        if (key == "attributes") {
            m_attributeTarget = &m_span.attributes;
            expect(false, Context::AttributeList, spanShape("an array"));
        } else if (key == "events") {
            expect(false, Context::EventList, spanShape("an array"));
        } else if (key == "links") {
            expect(false, Context::LinkList, spanShape("an array"));
        } else if (key == "status") {
            expect(true, Context::Status, spanShape("an object"));
        } else if (isOneOf(
                       key,
                       {"traceId", "spanId", "parentSpanId", "name", "startTimeUnixNano", "endTimeUnixNano", "kind"})) {
            spanError(fromStd(key),
                      QStringLiteral("must be %1, got %2")
                          .arg(key == "kind" ? QStringLiteral("a number") : QStringLiteral("a string"),
                               object ? QStringLiteral("an object") : QStringLiteral("an array")));
            skip();
        } else {
            skip();
        }
        return true;
    case Context::EventList:
        if (!object) {
            skip();
            return true;
        }
        m_span.events.add();
        push(Context::Event);
        return true;
    case Context::LinkList:
        if (!object) {
            skip();
            return true;
        }
        m_span.links.add();
        push(Context::Link);
        return true;
    case Context::Event:
    case Context::Link:
        if (key == "attributes" && !object) {
            m_attributeTarget
                = frame.context == Context::Event ? &m_span.events.back().attributes : &m_span.links.back().attributes;
            push(Context::AttributeList);
        } else {
            skip();
        }
        return true;
    case Context::AttributeList:
        if (!object || !m_attributeTarget) {
            skip();
            return true;
        }
        m_attribute = &m_attributeTarget->add();
        push(Context::KeyValue);
        return true;
    case Context::KeyValue:
        if (key == "value" && object) {
            m_stack.back().produced = true;
            push(Context::AnyValue, frame.renderDepth);
        } else {
            skip();
        }
        return true;
    case Context::AnyValue:
        if (object && (key == "arrayValue" || key == "kvlistValue") && m_attribute) {
            const bool array = key == "arrayValue";
            m_stack.back().produced = true;
            auto &value = m_attribute->value;
            if (frame.renderDepth == 0) {
                value.type = array ? Type::Array : Type::Kvlist;
                value.text.clear();
                value.elements.clear();
            }
            value.text += array ? '[' : '{';
            m_renderFirst.push_back(true);
            push(array ? Context::ArrayValue : Context::KvlistValue, frame.renderDepth);
        } else {
            skip();
        }
        return true;
    case Context::ArrayValue:
    case Context::KvlistValue:
        if (key == "values" && !object)
            push(frame.context == Context::ArrayValue ? Context::ArrayValues : Context::KvlistValues,
                 frame.renderDepth);
        else
            skip();
        return true;
    case Context::ArrayValues:
    case Context::KvlistValues:
        if (!object || m_renderFirst.empty()) {
            skip();
            return true;
        }
        renderSeparator();
        push(frame.context == Context::ArrayValues ? Context::AnyValue : Context::KeyValue,
             quint8(frame.renderDepth + 1));
        return true;
    case Context::Status:
    case Context::Skip:
        skip();
        return true;
    }
    return true;
}

void OtlpSpanReader::renderSeparator()
{
    if (m_renderFirst.back())
        m_renderFirst.back() = false;
    else
        m_attribute->value.text += ',';
}

bool OtlpSpanReader::endObject()
{
    const Frame frame = m_stack.back();
    m_stack.pop_back();
    switch (frame.context) {
    case Context::Resource:
        finishResource();
        break;
    case Context::Scope:
        finishScope();
        break;
    case Context::ScopeSpans:
        // Spans of a scopeSpans without a "scope" keep scope -1.
        for (auto &pending : m_pending)
            pending.needsScope = false;
        m_scopeDone = true;
        flushPending();
        break;
    case Context::ResourceSpans:
        for (auto &pending : m_pending)
            pending.needsResource = false;
        m_resourceDone = true;
        flushPending();
        break;
    case Context::Span:
        finishSpan();
        break;
    case Context::KeyValue:
        if (frame.renderDepth == 0) {
            if (m_attribute && m_attribute->key.empty() && m_attributeTarget)
                m_attributeTarget->pop(); // a key-less attribute names nothing
            m_attribute = nullptr;
        } else if (!frame.produced && m_attribute) {
            m_attribute->value.text += "null";
        }
        break;
    case Context::AnyValue:
        if (frame.renderDepth > 0 && !frame.produced && m_attribute)
            m_attribute->value.text += "null";
        break;
    case Context::ArrayValue:
    case Context::KvlistValue:
        if (m_attribute && !m_renderFirst.empty()) {
            m_attribute->value.text += frame.context == Context::ArrayValue ? ']' : '}';
            m_renderFirst.pop_back();
        }
        break;
    default:
        break;
    }
    return true;
}

bool OtlpSpanReader::endArray()
{
    const Frame frame = m_stack.back();
    m_stack.pop_back();
    if (frame.context == Context::AttributeList)
        m_attributeTarget = nullptr;
    return true;
}

bool OtlpSpanReader::key(std::string_view name)
{
    m_key.assign(name);
    return true;
}

bool OtlpSpanReader::string(std::string_view text)
{
    return scalar(Type::String, text);
}

bool OtlpSpanReader::number(std::string_view lexeme, bool integral)
{
    return scalar(integral ? Type::Int : Type::Double, lexeme);
}

bool OtlpSpanReader::boolean(bool value)
{
    return scalar(Type::Bool, value ? "true" : "false");
}

bool OtlpSpanReader::null()
{
    return scalar(Type::Empty, {});
}

bool OtlpSpanReader::scalar(Type type, std::string_view text)
{
    const Frame &frame = m_stack.back();
    const std::string_view key = m_key;
    switch (frame.context) {
    case Context::Top:
        structureError({},
                       QStringLiteral("an OTLP export request must be a JSON object, got %1").arg(jsonTypeName(type)));
        break;
    case Context::Request:
        if (key == "resourceSpans" && type != Type::Empty) {
            m_sawTraces = true;
            structureError(QStringLiteral("resourceSpans"),
                           QStringLiteral("must be an array, got %1").arg(jsonTypeName(type)));
        } else if (isOneOf(key, {"resourceMetrics", "resourceLogs", "resourceProfiles"})) {
            m_sawOtherSignal = true;
        }
        break;
    case Context::ScopeSpans:
        if (key == "spans" && type != Type::Empty)
            structureError(QStringLiteral("spans"), QStringLiteral("must be an array, got %1").arg(jsonTypeName(type)));
        break;
    case Context::Scope:
        if (key == "name")
            m_scopeName.assign(text);
        else if (key == "version")
            m_scopeVersion.assign(text);
        break;
    case Context::Span:
        spanScalar(type, text);
        break;
    case Context::Status:
        if (key == "code")
            m_span.status = SpanKindText::status(text);
        else if (key == "message")
            m_span.statusMessage.assign(text);
        break;
    case Context::Event:
        if (key == "timeUnixNano") {
            qint64 time = kNoTime;
            if (readTime(type, text, &time, QStringLiteral("events.timeUnixNano")))
                m_span.events.back().time = time;
        } else if (key == "name") {
            m_span.events.back().name.assign(text);
        }
        break;
    case Context::Link: {
        auto &link = m_span.links.back();
        QString error;
        if (key == "traceId" && type == Type::String) {
            if (SpanId::fromOtlp(text, SpanId::kTraceIdDigits, &link.traceId, &error) != SpanId::Status::Ok)
                link.traceId.assign(text);
        } else if (key == "spanId" && type == Type::String) {
            if (SpanId::fromOtlp(text, SpanId::kSpanIdDigits, &link.spanId, &error) != SpanId::Status::Ok)
                link.spanId.assign(text);
        }
        break;
    }
    case Context::KeyValue:
        if (!m_attribute)
            break;
        if (key == "key") {
            if (frame.renderDepth == 0) {
                m_attribute->key.assign(text);
            } else {
                AttributeText::appendQuoted(m_attribute->value.text, text);
                m_attribute->value.text += ':';
            }
        } else if (key == "value" && type != Type::Empty) {
            // Not OTLP (a bare value instead of an AnyValue), but unambiguous.
            m_stack.back().produced = true;
            m_key = type == Type::String ? "stringValue" : type == Type::Bool ? "boolValue" : "doubleValue";
            anyValueScalar(type, text);
        }
        break;
    case Context::AnyValue:
    case Context::ArrayValues:
        anyValueScalar(type, text);
        break;
    default:
        break;
    }
    return true;
}

void OtlpSpanReader::spanScalar(Type type, std::string_view text)
{
    const std::string_view key = m_key;
    const QString field = fromStd(key);
    const bool isId = key == "traceId" || key == "spanId" || key == "parentSpanId";
    if (isId) {
        if (type == Type::Empty)
            return;
        const bool trace = key == "traceId";
        const int digits = trace ? SpanId::kTraceIdDigits : SpanId::kSpanIdDigits;
        std::string &out = trace ? m_span.traceId : key == "spanId" ? m_span.spanId : m_span.parentSpanId;
        if (type != Type::String) {
            out.assign(text); // keep the raw text for the message
            spanError(field, QStringLiteral("must be a string of hex digits, got %1").arg(jsonTypeName(type)));
            return;
        }
        QString error;
        const auto status = SpanId::fromOtlp(text, digits, &out, &error);
        if (status == SpanId::Status::Invalid) {
            out.assign(text); // keep the raw text for the message
            spanError(field, error);
        } else if (SpanId::isAllZero(out)) {
            if (key == "parentSpanId")
                out.clear(); // some exporters write zeros for "no parent"
            else
                spanError(field, QStringLiteral("an all-zero id is invalid"));
        }
        return;
    }
    if (key == "name") {
        if (type == Type::String)
            m_span.name.assign(text);
        else if (type != Type::Empty)
            spanError(field, QStringLiteral("must be a string, got %1").arg(jsonTypeName(type)));
    } else if (key == "kind") {
        if (type == Type::Bool)
            spanError(field, QStringLiteral("must be a number or a SPAN_KIND_* name, got a boolean"));
        else
            m_span.kind = SpanKindText::kind(text);
    } else if (key == "startTimeUnixNano") {
        readTime(type, text, &m_span.start, field);
    } else if (key == "endTimeUnixNano") {
        readTime(type, text, &m_span.end, field);
    } else if ((key == "attributes" || key == "events" || key == "links") && type != Type::Empty) {
        spanError(field, QStringLiteral("must be an array, got %1").arg(jsonTypeName(type)));
    } else if (key == "status" && type != Type::Empty) {
        spanError(field, QStringLiteral("must be an object, got %1").arg(jsonTypeName(type)));
    }
}

bool OtlpSpanReader::readTime(Type type, std::string_view text, qint64 *ns, const QString &field)
{
    if (type == Type::Empty)
        return false;
    if (type == Type::Bool) {
        spanError(field, QStringLiteral("must be an integer number of nanoseconds, got a boolean"));
        return false;
    }
    if (type == Type::Double) {
        spanError(field, QStringLiteral("must be an integer number of nanoseconds, got %1").arg(fromStd(text)));
        return false;
    }
    if (!text.empty() && text.front() == '-') {
        spanError(field, QStringLiteral("negative time %1 ns").arg(fromStd(text)));
        return false;
    }
    qint64 value = 0;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec == std::errc::result_out_of_range) {
        spanError(field, QStringLiteral("time %1 ns does not fit in 64 bits (after the year 2262)").arg(fromStd(text)));
        return false;
    }
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || text.empty()) {
        spanError(field, QStringLiteral("%1 is not an integer number of nanoseconds").arg(SpanId::describe(text)));
        return false;
    }
    *ns = value;
    return true;
}

void OtlpSpanReader::anyValueScalar(Type jsonType, std::string_view text)
{
    if (!m_attribute)
        return;
    Frame &frame = m_stack.back();
    AttributeValue parsed;
    const std::string_view key = m_key;
    if (frame.context == Context::ArrayValues) {
        // A bare scalar inside "values" (not wrapped in an AnyValue).
        parsed.type = jsonType == Type::Empty ? Type::Empty : jsonType;
        parsed.text.assign(text);
    } else if (key == "stringValue") {
        parsed.type = Type::String;
        parsed.text.assign(text);
    } else if (key == "intValue") {
        parsed.type = Type::Int;
        parsed.text.assign(text);
        const auto result = std::from_chars(text.data(), text.data() + text.size(), parsed.integer);
        if (result.ec == std::errc() && result.ptr == text.data() + text.size())
            parsed.number = double(parsed.integer);
        else
            parsed.type = Type::String; // not an integer after all: keep the text
    } else if (key == "doubleValue") {
        parsed.type = Type::Double;
        parsed.text.assign(text);
        if (!AttributeText::parseDouble(text, &parsed.number))
            parsed.type = Type::String;
    } else if (key == "boolValue") {
        parsed.type = Type::Bool;
        parsed.text.assign(text == "true" ? "true" : "false");
    } else if (key == "bytesValue") {
        parsed.type = Type::Bytes;
        parsed.text.assign(text);
    } else {
        return; // an unknown value kind names nothing we can show
    }
    if (frame.context == Context::AnyValue)
        frame.produced = true;
    auto &value = m_attribute->value;
    if (frame.renderDepth == 0) {
        value.type = parsed.type;
        value.text.swap(parsed.text);
        value.integer = parsed.integer;
        value.number = parsed.number;
        return;
    }
    // Inside an array or kvlist: render as JSON; keep scalar array elements.
    const bool element = frame.context == Context::ArrayValues
        || (m_stack.size() >= 2 && m_stack[m_stack.size() - 2].context == Context::ArrayValues);
    if (frame.context == Context::ArrayValues)
        renderSeparator();
    if (element && frame.renderDepth == 1)
        value.elements.push_back(parsed.text);
    if (parsed.type == Type::String || parsed.type == Type::Bytes)
        AttributeText::appendQuoted(value.text, parsed.text);
    else if (parsed.type == Type::Empty)
        value.text += "null";
    else
        value.text += parsed.text;
}

void OtlpSpanReader::finishResource()
{
    m_resource = m_builder.addResource(m_resourceAttributes);
    m_resourceDone = true;
    for (auto &pending : m_pending) {
        if (pending.needsResource) {
            pending.record.resource = m_resource;
            pending.needsResource = false;
        }
    }
    flushPending();
}

void OtlpSpanReader::finishScope()
{
    m_scope = m_builder.addScope(m_scopeName, m_scopeVersion, m_scopeAttributes);
    m_scopeDone = true;
    for (auto &pending : m_pending) {
        if (pending.needsScope) {
            pending.record.scope = m_scope;
            pending.needsScope = false;
        }
    }
    flushPending();
}

void OtlpSpanReader::finishSpan()
{
    if (m_span.traceId.empty())
        spanError(QStringLiteral("traceId"), QStringLiteral("missing"));
    if (m_span.spanId.empty())
        spanError(QStringLiteral("spanId"), QStringLiteral("missing"));
    if (m_span.start == kNoTime && m_spanError.isEmpty())
        spanError(QStringLiteral("startTimeUnixNano"), QStringLiteral("missing"));
    if (m_span.end == kNoTime && m_spanError.isEmpty())
        spanError(QStringLiteral("endTimeUnixNano"), QStringLiteral("missing"));
    if (!m_spanError.isEmpty()) {
        deliver(m_span, m_spanErrorField, m_spanError);
        return;
    }
    m_span.resource = m_resource;
    m_span.scope = m_scope;
    if (m_resourceDone && m_scopeDone) {
        deliver(m_span, {}, {});
        return;
    }
    m_pending.push_back({m_span, !m_resourceDone, !m_scopeDone});
}

void OtlpSpanReader::flushPending()
{
    size_t kept = 0;
    for (size_t i = 0; i < m_pending.size(); ++i) {
        if (m_pending[i].needsResource || m_pending[i].needsScope) {
            if (kept != i)
                m_pending[kept] = std::move(m_pending[i]);
            ++kept;
            continue;
        }
        deliver(m_pending[i].record, {}, {});
    }
    m_pending.resize(kept);
}

void OtlpSpanReader::deliver(const SpanRecord &record, const QString &field, const QString &reason)
{
    if (m_emitted++ < m_skipSpans)
        return; // an earlier attempt at this record already delivered it
    if (reason.isEmpty())
        m_builder.addSpan(record);
    else
        m_builder.rejectSpan(record, field, reason);
}
