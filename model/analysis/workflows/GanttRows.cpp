#include "GanttRows.h"

#include "SpanGraph.h"
#include "SpanTree.h"

#include <algorithm>

namespace GanttRows {

std::vector<GanttRow> build(const SpanGraph &graph, const SpanTree &tree, const std::vector<quint8> &collapsed,
                            const std::vector<quint8> *keep)
{
    // With a filter, a span shows when it or a descendant is kept.
    std::vector<quint8> shown;
    if (keep) {
        shown = *keep;
        const auto &order = tree.preorder();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const qint32 parent = tree.parent(*it);
            if (parent >= 0 && shown[size_t(*it)] != 0)
                shown[size_t(parent)] = 1;
        }
    }
    const auto visible = [&](qint32 span) { return !keep || shown[size_t(span)] != 0; };
    const auto byStart
        = [&graph](qint32 a, qint32 b) { return std::pair(graph.start(a), a) < std::pair(graph.start(b), b); };

    std::vector<GanttRow> rows;
    std::vector<std::pair<qint32, qint32>> stack; // (span, depth)
    std::vector<qint32> scratch;
    const auto pushChildren = [&](std::span<const qint32> children, qint32 depth) {
        scratch.clear();
        for (const qint32 child : children) {
            if (visible(child))
                scratch.push_back(child);
        }
        std::sort(scratch.begin(), scratch.end(), byStart);
        for (auto it = scratch.rbegin(); it != scratch.rend(); ++it)
            stack.emplace_back(*it, depth);
    };
    pushChildren(tree.roots(), 0);
    while (!stack.empty()) {
        const auto [span, depth] = stack.back();
        stack.pop_back();
        const auto children = tree.children(span);
        const bool hasChildren = std::any_of(children.begin(), children.end(), visible);
        const bool expanded = collapsed.empty() || collapsed[size_t(span)] == 0;
        rows.push_back({span, depth, hasChildren, expanded});
        if (hasChildren && expanded)
            pushChildren(children, depth + 1);
    }
    return rows;
}

std::vector<quint8> pathWithAncestors(const SpanTree &tree, const std::vector<PathSection> &path)
{
    std::vector<quint8> keep(size_t(tree.spanCount()), 0);
    for (const auto &section : path) {
        for (qint32 span = section.span; span >= 0 && keep[size_t(span)] == 0; span = tree.parent(span))
            keep[size_t(span)] = 1;
    }
    return keep;
}

} // namespace GanttRows
