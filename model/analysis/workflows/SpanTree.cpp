#include "SpanTree.h"

#include "SpanGraph.h"

#include <QStringList>

namespace {

// Follows parent links from `start` (not reachable from any root) until a
// span repeats; that span lies on a cycle. Bounded by the span count.
QString describeParentCycle(const SpanGraph &graph, qint32 start)
{
    std::vector<quint8> seen(size_t(graph.spanCount()), 0);
    qint32 span = start;
    while (seen[size_t(span)] == 0) {
        seen[size_t(span)] = 1;
        span = graph.parent(span);
    }
    QStringList members;
    const qint32 first = span;
    do {
        if (members.size() < 6)
            members.append(describeSpan(graph, span));
        span = graph.parent(span);
    } while (span != first);
    if (members.size() == 6)
        members.append(QStringLiteral("…"));
    members.append(describeSpan(graph, first));
    return QStringLiteral("parent cycle: %1").arg(members.join(QStringLiteral(" → ")));
}

} // namespace

QString describeSpan(const SpanGraph &graph, qint32 span)
{
    const QString id = graph.idText(span);
    const QString label = graph.label(span);
    if (id.isEmpty() || id == label)
        return QStringLiteral("'%1' (#%2)").arg(label).arg(span);
    return QStringLiteral("'%1' (id %2)").arg(label, id);
}

std::optional<SpanTree> SpanTree::build(const SpanGraph &graph, QString *error)
{
    const qint32 n = graph.spanCount();
    SpanTree tree;
    tree.m_parent.resize(size_t(n));
    tree.m_childBegin.assign(size_t(n) + 1, 0);
    for (qint32 span = 0; span < n; ++span) {
        const qint32 parent = graph.parent(span);
        if (graph.end(span) < graph.start(span)) {
            *error = QStringLiteral("span %1 ends %2 ns before it starts")
                         .arg(describeSpan(graph, span))
                         .arg(graph.start(span) - graph.end(span));
            return std::nullopt;
        }
        if (parent == span) {
            *error = QStringLiteral("span %1 is its own parent").arg(describeSpan(graph, span));
            return std::nullopt;
        }
        if (parent < -1 || parent >= n) {
            *error = QStringLiteral("span %1 has parent index %2 outside the workflow (%3 spans)")
                         .arg(describeSpan(graph, span))
                         .arg(parent)
                         .arg(n);
            return std::nullopt;
        }
        tree.m_parent[size_t(span)] = parent;
        if (parent >= 0)
            ++tree.m_childBegin[size_t(parent) + 1];
        else
            tree.m_roots.push_back(span);
    }
    for (size_t i = 1; i < tree.m_childBegin.size(); ++i)
        tree.m_childBegin[i] += tree.m_childBegin[i - 1];
    tree.m_children.resize(size_t(tree.m_childBegin.back()));
    std::vector<qint32> fill(tree.m_childBegin.begin(), tree.m_childBegin.end() - 1);
    for (qint32 span = 0; span < n; ++span) {
        const qint32 parent = tree.m_parent[size_t(span)];
        if (parent >= 0)
            tree.m_children[size_t(fill[size_t(parent)]++)] = span;
    }

    // Depth-first preorder with an explicit stack: a 100,000-deep chain is fine.
    tree.m_preorder.reserve(size_t(n));
    std::vector<qint32> stack(tree.m_roots.rbegin(), tree.m_roots.rend());
    while (!stack.empty()) {
        const qint32 span = stack.back();
        stack.pop_back();
        tree.m_preorder.push_back(span);
        const auto kids = tree.children(span);
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            stack.push_back(*it);
    }
    if (qint32(tree.m_preorder.size()) != n) {
        // Some spans never hang below a root: their parent links loop.
        std::vector<quint8> reached(size_t(n), 0);
        for (const qint32 span : tree.m_preorder)
            reached[size_t(span)] = 1;
        qint32 unreached = 0;
        while (reached[size_t(unreached)] != 0)
            ++unreached;
        *error = describeParentCycle(graph, unreached);
        return std::nullopt;
    }
    tree.m_position.resize(size_t(n));
    for (qint32 i = 0; i < n; ++i)
        tree.m_position[size_t(tree.m_preorder[size_t(i)])] = i;
    tree.m_subtreeSize.assign(size_t(n), 1);
    for (auto it = tree.m_preorder.rbegin(); it != tree.m_preorder.rend(); ++it) {
        const qint32 parent = tree.m_parent[size_t(*it)];
        if (parent >= 0)
            tree.m_subtreeSize[size_t(parent)] += tree.m_subtreeSize[size_t(*it)];
    }
    return tree;
}

size_t SpanTree::memoryBytes() const
{
    return (m_parent.capacity() + m_childBegin.capacity() + m_children.capacity() + m_roots.capacity()
            + m_preorder.capacity() + m_position.capacity() + m_subtreeSize.capacity())
        * sizeof(qint32);
}
