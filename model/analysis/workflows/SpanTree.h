#pragma once

#include <QString>

#include <optional>
#include <span>
#include <vector>

class SpanGraph;

// The parent/child structure of a SpanGraph: children lists (row order),
// roots, a parents-before-children order and O(1) ancestry tests. Building
// it validates the graph: a self parent, a parent outside the graph, a
// parent cycle or a span ending before it starts is an error that names the
// spans, found without recursion and without looping.
class SpanTree
{
public:
    static std::optional<SpanTree> build(const SpanGraph &graph, QString *error);

    qint32 spanCount() const { return qint32(m_parent.size()); }
    qint32 parent(qint32 span) const { return m_parent[size_t(span)]; }
    std::span<const qint32> children(qint32 span) const
    {
        const auto begin = m_childBegin[size_t(span)];
        return {m_children.data() + begin, size_t(m_childBegin[size_t(span) + 1] - begin)};
    }
    std::span<const qint32> roots() const { return m_roots; }
    // Every span, each parent before its children (depth-first).
    const std::vector<qint32> &preorder() const { return m_preorder; }
    // True when `ancestor` is `span` itself or above it.
    bool contains(qint32 ancestor, qint32 span) const
    {
        const auto a = m_position[size_t(ancestor)];
        const auto s = m_position[size_t(span)];
        return s >= a && s < a + m_subtreeSize[size_t(ancestor)];
    }

    size_t memoryBytes() const;

private:
    std::vector<qint32> m_parent;
    std::vector<qint32> m_childBegin;
    std::vector<qint32> m_children;
    std::vector<qint32> m_roots;
    std::vector<qint32> m_preorder;
    std::vector<qint32> m_position; // index of each span in m_preorder
    std::vector<qint32> m_subtreeSize;
};

// "label (id abc)" for error messages.
QString describeSpan(const SpanGraph &graph, qint32 span);
