#pragma once

#include "SpanCategory.h"
#include "SpanKind.h"
#include "Stamp.h"
#include "StringArena.h"
#include "Utf8StringPool.h"
#include "WorkflowTable.h"

#include <QString>

#include <array>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

// Spans of agent workflows (retrieval, model calls, tools), column-wise.
// A row is one span; `parent`, edges and model calls refer to rows. The spans
// of one workflow (trace) occupy a contiguous range of rows, in the order the
// source listed them (see WorkflowTable). Strings are interned UTF-8.
class SpanTable
{
public:
    enum Flag : quint8 {
        NoFlags = 0,
        Orphan = 1 << 0,    // parent id given but not present in the trace
        Duplicate = 1 << 1, // same span id seen before in this trace
        Error = 1 << 2,     // status says error
        Adopted = 1 << 3,   // an orphan attached to the span enclosing it (parent() is that span)
    };

    enum class EdgeKind : quint8 {
        Dependency,  // explicit: `to` cannot start before `from` finishes
        FollowsFrom, // causal but non-blocking (Jaeger FOLLOWS_FROM, PRODUCER→CONSUMER)
        Link,        // OTLP link without a dependency meaning
    };

    struct Edge
    {
        qint32 from = -1;
        qint32 to = -1;
        EdgeKind kind = EdgeKind::Dependency;
    };

    // A link or reference to a span that is not in the file (another trace,
    // or an unexported span); kept so nothing is dropped silently.
    struct ExternalLink
    {
        qint32 span = -1;    // the span that carries the link
        quint32 traceId = 0; // interned, normalised
        quint32 spanId = 0;  // interned, normalised
        EdgeKind kind = EdgeKind::Link;
    };

    // One attribute: interned key and value text, 8 bytes. Whether the
    // source value was a number rides in the key's top bit; number() reads it
    // back from the exact text the source wrote.
    struct Attribute
    {
        static constexpr quint32 kNumeric = 0x8000'0000u;
        quint32 keyAndKind = 0;
        quint32 value = 0;

        quint32 key() const { return keyAndKind & ~kNumeric; }
        bool isNumeric() const { return (keyAndKind & kNumeric) != 0; }
    };

    // An attribute to append: text as the source wrote it.
    struct AttributeInput
    {
        std::string_view key;
        std::string_view value;
        bool numeric = false;
    };

    struct AttributeRange
    {
        quint32 begin = 0;
        quint32 end = 0;
    };

    // An OTLP span event (a log line inside a span).
    struct Event
    {
        qint64 time = 0;
        quint32 name = 0;
        AttributeRange attributes; // into eventAttributes()
    };

    // Instrumentation scope shared by many spans.
    struct Scope
    {
        quint32 name = 0;
        quint32 version = 0;
        AttributeRange attributes; // into sharedAttributes()
    };

    // What a model-call span knows about its own phases: the eight flat
    // stamps (kNoTime where unobserved) from the attribute contract or vLLM's
    // latency attributes, and per-token times for each side of the stream.
    struct ModelCall
    {
        qint32 span = -1;
        std::array<qint64, kStampCount> stamps{};
        qint64 lastTokenServer = kNoTime;
        bool contentBearing = true;  // false: its tokens are not user-visible
        AttributeRange serverTokens; // into tokenTimes()
        AttributeRange clientTokens;
    };

    // Everything one span row holds apart from its attributes and events.
    struct Row
    {
        qint32 workflow = -1;
        qint32 parent = -1;
        qint64 start = 0;
        qint64 end = 0;
        std::string_view spanId;
        std::string_view name;
        std::string_view operation; // gen_ai.operation.name or the format's own kind
        std::string_view service;
        SpanKind kind = SpanKind::Unspecified;
        SpanCategory category = SpanCategory::Other;
        SpanStatus status = SpanStatus::Unset;
        quint8 flags = NoFlags;
        qint32 inputTokens = -1; // -1: the span does not report usage
        qint32 outputTokens = -1;
        qint32 resource = -1;
        qint32 scope = -1;
        quint32 sourceLine = 0; // 1-based line in the source file, 0 if unknown
    };

    qsizetype rowCount() const { return m_spanIds.size(); }
    bool isEmpty() const { return m_spanIds.isEmpty(); }

    qint32 workflow(qsizetype row) const { return m_workflow[at(row)]; }
    qint32 parent(qsizetype row) const { return m_parent[at(row)]; }
    qint64 start(qsizetype row) const { return m_start[at(row)]; }
    qint64 end(qsizetype row) const { return m_end[at(row)]; }
    qint64 duration(qsizetype row) const { return end(row) - start(row); }
    std::string_view spanId(qsizetype row) const { return m_spanIds.view(row); }
    QString spanIdText(qsizetype row) const;
    QString name(qsizetype row) const { return m_strings.text(m_name[at(row)]); }
    QString operation(qsizetype row) const { return m_strings.text(m_operation[at(row)]); }
    QString service(qsizetype row) const { return m_strings.text(m_service[at(row)]); }
    std::string_view nameUtf8(qsizetype row) const { return m_strings.view(m_name[at(row)]); }
    // Interned codes (into strings()): equal texts, equal codes.
    quint32 nameCode(qsizetype row) const { return m_name[at(row)]; }
    quint32 operationCode(qsizetype row) const { return m_operation[at(row)]; }
    quint32 serviceCode(qsizetype row) const { return m_service[at(row)]; }
    std::string_view operationUtf8(qsizetype row) const { return m_strings.view(m_operation[at(row)]); }
    SpanKind kind(qsizetype row) const { return m_kind[at(row)]; }
    SpanCategory category(qsizetype row) const { return m_category[at(row)]; }
    SpanStatus status(qsizetype row) const { return m_status[at(row)]; }
    quint8 flags(qsizetype row) const { return m_flags[at(row)]; }
    qint32 inputTokens(qsizetype row) const { return m_inputTokens[at(row)]; }
    qint32 outputTokens(qsizetype row) const { return m_outputTokens[at(row)]; }
    quint32 sourceLine(qsizetype row) const { return m_sourceLine[at(row)]; }
    qint32 resource(qsizetype row) const { return m_resource[at(row)]; }
    qint32 scope(qsizetype row) const { return m_scope[at(row)]; }

    // Attributes of `row` as [begin, end) into attributeRows().
    std::pair<size_t, size_t> attributeRange(qsizetype row) const
    {
        return {m_attributeBegin[at(row)], m_attributeBegin[at(row) + 1]};
    }
    const std::vector<Attribute> &attributeRows() const { return m_attributes; }
    // The attribute `key` of `row`, or nullptr.
    const Attribute *findAttribute(qsizetype row, std::string_view key) const;
    // Its value as text; empty when absent.
    QString attributeText(qsizetype row, std::string_view key) const;
    // The value of a numeric attribute (NaN for text, booleans, arrays).
    double number(const Attribute &attribute) const;

    std::span<const Event> events(qsizetype row) const;
    const std::vector<Attribute> &eventAttributes() const { return m_eventAttributes; }

    const std::vector<AttributeRange> &resources() const { return m_resources; }
    const std::vector<Scope> &scopes() const { return m_scopes; }
    const std::vector<Attribute> &sharedAttributes() const { return m_sharedAttributes; }

    const std::vector<Edge> &edges() const { return m_edges; }
    const std::vector<ExternalLink> &externalLinks() const { return m_externalLinks; }

    // Model-call details of `row`, or nullptr when it has none.
    const ModelCall *modelCall(qsizetype row) const
    {
        const qint32 index = m_modelCall[at(row)];
        return index < 0 ? nullptr : &m_modelCalls[static_cast<size_t>(index)];
    }
    const std::vector<ModelCall> &modelCalls() const { return m_modelCalls; }
    std::span<const qint64> tokenTimes(AttributeRange range) const
    {
        return {m_tokenTimes.data() + range.begin, range.end - range.begin};
    }

    const Utf8StringPool &strings() const { return m_strings; }
    QString text(quint32 code) const { return m_strings.text(code); }

    // Building ------------------------------------------------------------
    qsizetype appendSpan(const Row &row);
    // Adds an attribute to the most recently appended span.
    void appendAttribute(std::string_view key, std::string_view value, bool numeric);
    void appendAttribute(const QString &key, const QString &value, bool numeric);
    // Adds an event (with attributes appended by appendEventAttribute) to the
    // most recently appended span.
    void appendEvent(qint64 time, std::string_view name);
    void appendEventAttribute(std::string_view key, std::string_view value, bool numeric);
    qint32 appendResource(std::span<const AttributeInput> attributes);
    qint32 appendScope(std::string_view name, std::string_view version, std::span<const AttributeInput> attributes);
    // Attaches model-call details to the most recently appended span.
    void setModelCall(ModelCall call, std::span<const qint64> serverTokens, std::span<const qint64> clientTokens);

    void setParent(qsizetype row, qint32 parent) { m_parent[at(row)] = parent; }
    void setWorkflow(qsizetype row, qint32 workflow) { m_workflow[at(row)] = workflow; }
    void addFlags(qsizetype row, quint8 flags) { m_flags[at(row)] |= flags; }
    void clearFlags(qsizetype row, quint8 flags) { m_flags[at(row)] = static_cast<quint8>(m_flags[at(row)] & ~flags); }
    void addEdge(const Edge &edge) { m_edges.push_back(edge); }
    void replaceEdges(std::vector<Edge> edges) { m_edges = std::move(edges); }
    void addExternalLink(qint32 span, std::string_view traceId, std::string_view spanId, EdgeKind kind);
    quint32 intern(std::string_view text) { return m_strings.intern(text); }

    // Puts the rows in a new order: row i of the result is row order[i] of
    // the table now. Rows missing from `order` are dropped. Parents, edges
    // and model calls follow their rows; references to dropped rows become
    // -1 (edges to them are removed).
    void reorder(const std::vector<qint32> &order);

    void reserve(qsizetype rows, qsizetype attributes);
    // Gives back the growth slack of every column once loading is done.
    void shrinkToFit();
    size_t memoryBytes() const;

private:
    // Every column with one entry a span (not the ids' arena, nor the range
    // offsets): reorder, reserve, shrinkToFit and memoryBytes all visit them
    // here, so a new column cannot be left out of one of them.
    template<typename Self, typename Visit> static void visitRowColumns(Self &self, Visit &&visit)
    {
        visit(self.m_workflow);
        visit(self.m_parent);
        visit(self.m_start);
        visit(self.m_end);
        visit(self.m_name);
        visit(self.m_operation);
        visit(self.m_service);
        visit(self.m_kind);
        visit(self.m_category);
        visit(self.m_status);
        visit(self.m_flags);
        visit(self.m_inputTokens);
        visit(self.m_outputTokens);
        visit(self.m_sourceLine);
        visit(self.m_resource);
        visit(self.m_scope);
        visit(self.m_modelCall);
    }
    // The other vectors: range offsets and what they index, shared tables.
    template<typename Self, typename Visit> static void visitOtherColumns(Self &self, Visit &&visit)
    {
        visit(self.m_attributeBegin);
        visit(self.m_attributes);
        visit(self.m_eventBegin);
        visit(self.m_events);
        visit(self.m_eventAttributes);
        visit(self.m_resources);
        visit(self.m_scopes);
        visit(self.m_sharedAttributes);
        visit(self.m_edges);
        visit(self.m_externalLinks);
        visit(self.m_modelCalls);
        visit(self.m_tokenTimes);
    }

    static size_t at(qsizetype row) { return static_cast<size_t>(row); }
    Attribute makeAttribute(std::string_view key, std::string_view value, bool numeric);

    std::vector<qint32> m_workflow;
    std::vector<qint32> m_parent;
    std::vector<qint64> m_start;
    std::vector<qint64> m_end;
    StringArena m_spanIds;
    std::vector<quint32> m_name;
    std::vector<quint32> m_operation;
    std::vector<quint32> m_service;
    std::vector<SpanKind> m_kind;
    std::vector<SpanCategory> m_category;
    std::vector<SpanStatus> m_status;
    std::vector<quint8> m_flags;
    std::vector<qint32> m_inputTokens;
    std::vector<qint32> m_outputTokens;
    std::vector<quint32> m_sourceLine;
    std::vector<qint32> m_resource;
    std::vector<qint32> m_scope;
    std::vector<qint32> m_modelCall;
    std::vector<quint32> m_attributeBegin; // rowCount() + 1 offsets
    std::vector<Attribute> m_attributes;
    std::vector<quint32> m_eventBegin; // rowCount() + 1 offsets
    std::vector<Event> m_events;
    std::vector<Attribute> m_eventAttributes;
    std::vector<AttributeRange> m_resources;
    std::vector<Scope> m_scopes;
    std::vector<Attribute> m_sharedAttributes;
    std::vector<Edge> m_edges;
    std::vector<ExternalLink> m_externalLinks;
    std::vector<ModelCall> m_modelCalls;
    std::vector<qint64> m_tokenTimes;
    Utf8StringPool m_strings;
};
