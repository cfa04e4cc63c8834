#pragma once

#include "StringArena.h"
#include "StringPool.h"

#include <QString>

#include <vector>

// Spans of agent workflows (retrieval, model calls, tools), column-wise.
// A row is one span; `parent` and dependency edges refer to rows.
class SpanTable
{
public:
    enum Flag : quint8 {
        NoFlags = 0,
        Orphan = 1 << 0,      // parent id given but not present in the trace
        Duplicate = 1 << 1,   // same span id seen before in this trace
        Error = 1 << 2,       // status says error
    };

    enum class EdgeKind : quint8 {
        Dependency,     // explicit: `to` cannot start before `from` finishes
        FollowsFrom,    // causal but non-blocking (Jaeger FOLLOWS_FROM, PRODUCER→CONSUMER)
        Link,           // OTLP link without a dependency meaning
    };

    struct Edge
    {
        qint32 from = -1;
        qint32 to = -1;
        EdgeKind kind = EdgeKind::Dependency;
    };

    // One attribute of one span: interned key, value as text plus its number
    // when numeric (NaN otherwise).
    struct Attribute
    {
        quint32 key = 0;
        quint32 value = 0;
        double number = 0.0;
    };

    struct Row
    {
        qint32 workflow = -1;
        qint32 parent = -1;
        qint64 start = 0;
        qint64 end = 0;
        std::string_view spanId;
        QString name;
        QString operation;   // gen_ai.operation.name or the format's own kind
        QString service;
        quint8 flags = NoFlags;
    };

    qsizetype rowCount() const { return m_spanIds.size(); }

    qint32 workflow(qsizetype row) const { return m_workflow[static_cast<size_t>(row)]; }
    qint32 parent(qsizetype row) const { return m_parent[static_cast<size_t>(row)]; }
    qint64 start(qsizetype row) const { return m_start[static_cast<size_t>(row)]; }
    qint64 end(qsizetype row) const { return m_end[static_cast<size_t>(row)]; }
    std::string_view spanId(qsizetype row) const { return m_spanIds.view(row); }
    const QString &name(qsizetype row) const { return m_strings.text(m_name[static_cast<size_t>(row)]); }
    const QString &operation(qsizetype row) const
    {
        return m_strings.text(m_operation[static_cast<size_t>(row)]);
    }
    const QString &service(qsizetype row) const { return m_strings.text(m_service[static_cast<size_t>(row)]); }
    quint8 flags(qsizetype row) const { return m_flags[static_cast<size_t>(row)]; }
    const std::vector<Edge> &edges() const { return m_edges; }

    // Attributes of `row` as [begin, end) into attributeRows().
    std::pair<size_t, size_t> attributeRange(qsizetype row) const
    {
        return {m_attributeBegin[static_cast<size_t>(row)], m_attributeBegin[static_cast<size_t>(row) + 1]};
    }
    const std::vector<Attribute> &attributeRows() const { return m_attributes; }
    const StringPool &strings() const { return m_strings; }

    qsizetype appendSpan(const Row &row)
    {
        if (m_attributeBegin.empty())
            m_attributeBegin.push_back(0);
        m_workflow.push_back(row.workflow);
        m_parent.push_back(row.parent);
        m_start.push_back(row.start);
        m_end.push_back(row.end);
        m_spanIds.append(row.spanId);
        m_name.push_back(m_strings.intern(row.name));
        m_operation.push_back(m_strings.intern(row.operation));
        m_service.push_back(m_strings.intern(row.service));
        m_flags.push_back(row.flags);
        m_attributeBegin.push_back(m_attributes.size());
        return rowCount() - 1;
    }

    // Adds an attribute to the most recently appended span.
    void appendAttribute(const QString &key, const QString &value, double number)
    {
        m_attributes.push_back({m_strings.intern(key), m_strings.intern(value), number});
        m_attributeBegin.back() = m_attributes.size();
    }

    void setParent(qsizetype row, qint32 parent) { m_parent[static_cast<size_t>(row)] = parent; }
    void addFlags(qsizetype row, quint8 flags) { m_flags[static_cast<size_t>(row)] |= flags; }
    void addEdge(const Edge &edge) { m_edges.push_back(edge); }

    size_t memoryBytes() const
    {
        return m_spanIds.memoryBytes()
            + (m_workflow.capacity() + m_parent.capacity()) * sizeof(qint32)
            + (m_start.capacity() + m_end.capacity()) * sizeof(qint64)
            + (m_name.capacity() + m_operation.capacity() + m_service.capacity()) * sizeof(quint32)
            + m_flags.capacity() + m_attributeBegin.capacity() * sizeof(size_t)
            + m_attributes.capacity() * sizeof(Attribute) + m_edges.capacity() * sizeof(Edge);
    }

private:
    std::vector<qint32> m_workflow;
    std::vector<qint32> m_parent;
    std::vector<qint64> m_start;
    std::vector<qint64> m_end;
    StringArena m_spanIds;
    std::vector<quint32> m_name;
    std::vector<quint32> m_operation;
    std::vector<quint32> m_service;
    std::vector<quint8> m_flags;
    std::vector<size_t> m_attributeBegin;
    std::vector<Attribute> m_attributes;
    std::vector<Edge> m_edges;
    StringPool m_strings;
};

// A workflow (one trace id) groups a contiguous range of spans and, once
// summarised, owns one row in the RequestTable so it slices like a request.
struct WorkflowTable
{
    StringArena traceIds;
    std::vector<qint32> firstSpan;
    std::vector<qint32> spanCount;
    std::vector<qint32> requestRow;   // -1 until summarised into a request lane

    qsizetype rowCount() const { return traceIds.size(); }
};
