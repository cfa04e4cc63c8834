#pragma once

#include "SpanRecord.h"

#include <QString>

#include <string>
#include <string_view>
#include <vector>

class SpanSink;

// The OTLP/JSON ExportTraceServiceRequest grammar as a state machine over
// JSON events (from JsonEventScanner or nlohmann SAX): resourceSpans →
// resource, scopeSpans → scope, spans → attributes, events, links, status.
// Each finished span goes to the builder, or is rejected with its field and
// reason; metrics and logs requests are skipped. Nothing here recurses:
// nesting lives on an explicit frame stack.
class OtlpSpanReader
{
public:
    OtlpSpanReader(SpanSink &builder, const qint64 *currentLine);

    // Starts a new top-level JSON value (a JSON Lines record or the document).
    // The first `skipSpans` span objects are read but not delivered: they
    // were delivered by an earlier attempt at the same record.
    void beginValue(qint64 skipSpans = 0);
    // Finishes the value, delivering spans still waiting for a resource.
    void endValue();

    // Spans delivered or rejected so far in the current value.
    qint64 spansEmitted() const { return m_emitted; }
    bool sawTraces() const { return m_sawTraces; }
    bool sawOtherSignal() const { return m_sawOtherSignal; }
    // A problem with the value's structure (not a single span), if any.
    const QString &structureField() const { return m_structureField; }
    const QString &structureError() const { return m_structureError; }

    // JSON events.
    bool startObject();
    bool endObject();
    bool startArray();
    bool endArray();
    bool key(std::string_view name);
    bool string(std::string_view text);
    bool number(std::string_view lexeme, bool integral);
    bool boolean(bool value);
    bool null();

private:
    enum class Context : quint8 {
        Top,     // before the root value
        Request, // {resourceSpans, resourceMetrics, ...}
        ResourceSpansList,
        ResourceSpans,
        Resource,
        ScopeSpansList,
        ScopeSpans,
        Scope,
        SpanList,
        Span,
        Status,
        EventList,
        Event,
        LinkList,
        Link,
        AttributeList, // [KeyValue] of a resource, scope, span, event or link
        KeyValue,      // {key, value}
        AnyValue,      // {stringValue | intValue | ... }
        ArrayValue,    // {values: [AnyValue]}
        ArrayValues,
        KvlistValue, // {values: [KeyValue]}
        KvlistValues,
        Skip, // a subtree we do not read
    };

    struct Frame
    {
        Context context;
        quint8 renderDepth = 0; // nesting inside an attribute's array/kvlist value
        bool produced = false;  // AnyValue/KeyValue: a value was read
    };

    struct PendingSpan
    {
        SpanRecord record;
        bool needsResource = false;
        bool needsScope = false;
    };

    Context context() const { return m_stack.back().context; }
    void push(Context context, quint8 renderDepth = 0) { m_stack.push_back({context, renderDepth, false}); }
    bool enterContainer(bool object);
    bool scalar(AttributeValue::Type type, std::string_view text);
    void spanScalar(AttributeValue::Type type, std::string_view text);
    void spanError(const QString &field, const QString &reason);
    void structureError(const QString &field, const QString &reason);
    void finishSpan();
    void finishResource();
    void finishScope();
    void flushPending();
    void deliver(const SpanRecord &record, const QString &field, const QString &reason);
    bool readTime(AttributeValue::Type type, std::string_view text, qint64 *ns, const QString &field);
    void anyValueScalar(AttributeValue::Type type, std::string_view text);
    void renderSeparator();

    SpanSink &m_builder;
    const qint64 *m_currentLine;
    std::vector<Frame> m_stack;
    std::string m_key;

    // Current resource and scope, and spans waiting for them when a producer
    // writes "scopeSpans" before "resource" (JSON objects are unordered).
    RecycledList<SpanAttribute> m_resourceAttributes;
    RecycledList<SpanAttribute> m_scopeAttributes;
    std::string m_scopeName;
    std::string m_scopeVersion;
    qint32 m_resource = -1;
    qint32 m_scope = -1;
    bool m_resourceDone = false;
    bool m_scopeDone = false;
    std::vector<PendingSpan> m_pending;

    SpanRecord m_span;
    QString m_spanErrorField;
    QString m_spanError;
    RecycledList<SpanAttribute> *m_attributeTarget = nullptr;
    SpanAttribute *m_attribute = nullptr; // the attribute being read
    std::vector<bool> m_renderFirst;      // per open array/kvlist: no element yet

    qint64 m_skipSpans = 0;
    qint64 m_emitted = 0;
    bool m_sawTraces = false;
    bool m_sawOtherSignal = false;
    QString m_structureField;
    QString m_structureError;
};
