#include "PathTree.h"

#include "store/TraceStore.h"

#include <algorithm>
#include <unordered_map>

namespace {

struct Building
{
    qint32 parent = -1;
    quint32 key = 0;
    qint64 selfNs[2] = {0, 0};
    qint64 onPath[2] = {0, 0};
    qint32 seenIn[2] = {-1, -1}; // last workflow counted, per group
};

} // namespace

QString PathTree::pathText(qint32 node, const QString &separator) const
{
    QStringList parts;
    for (qint32 at = node; at >= 0; at = m_nodes[size_t(at)].parent)
        parts.prepend(m_nodes[size_t(at)].key);
    return parts.join(separator);
}

PathTree PathTree::build(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                         std::span<const qint32> setRows, std::span<const qint32> restRows,
                         WorkflowPaths::Target target)
{
    PathTree tree;
    tree.m_target = target;
    tree.m_keyKind = keys.kind();
    std::vector<Building> building;
    std::unordered_map<quint64, qint32> nodeOf; // (parent node + 1) << 32 | key
    const auto intern = [&](qint32 parent, quint32 key) {
        const quint64 id = (quint64(quint32(parent + 1)) << 32) | key;
        const auto [it, inserted] = nodeOf.try_emplace(id, qint32(building.size()));
        if (inserted)
            building.push_back({parent, key});
        return it->second;
    };
    const SpanTable &spans = store.spans;
    std::vector<qint32> nodeOfSpan; // per span of the current workflow, -1 until known
    std::vector<qint32> chain;
    const auto add = [&](std::span<const qint32> rows, int group, qint64 *n) {
        for (const qint32 row : rows) {
            const qint32 w = paths.workflowOfRow(row);
            if (w < 0 || paths.total(target, w) < 0)
                continue;
            ++*n;
            const qint32 first = store.workflows.firstSpan[size_t(w)];
            nodeOfSpan.assign(size_t(store.workflows.spanCount[size_t(w)]), -1);
            for (const auto &section : paths.path(target, w)) {
                qint32 node = -1;
                if (section.row < 0) {
                    node = intern(-1, keys.idleKey());
                } else {
                    // Up to the nearest span whose node is known, then down.
                    chain.clear();
                    qint32 at = section.row;
                    while (at >= 0 && nodeOfSpan[size_t(at - first)] < 0) {
                        chain.push_back(at);
                        at = spans.parent(at);
                    }
                    node = at >= 0 ? nodeOfSpan[size_t(at - first)] : -1;
                    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                        node = intern(node, keys.keyOf(*it));
                        nodeOfSpan[size_t(*it - first)] = node;
                    }
                }
                building[size_t(node)].selfNs[group] += section.ns;
                // Count the workflow once on every node up to the root.
                for (qint32 up = node; up >= 0 && building[size_t(up)].seenIn[group] != w;
                     up = building[size_t(up)].parent) {
                    building[size_t(up)].seenIn[group] = w;
                    ++building[size_t(up)].onPath[group];
                }
            }
        }
    };
    add(setRows, 0, &tree.m_setN);
    add(restRows, 1, &tree.m_restN);

    // Totals bottom-up (children were interned after their parents).
    const size_t count = building.size();
    std::vector<qint64> total[2] = {std::vector<qint64>(count), std::vector<qint64>(count)};
    for (size_t i = count; i-- > 0;) {
        for (int g = 0; g < 2; ++g) {
            total[g][i] += building[i].selfNs[g];
            if (building[i].parent >= 0)
                total[g][size_t(building[i].parent)] += total[g][i];
        }
    }
    const auto mean = [](qint64 ns, qint64 n) { return n > 0 ? double(ns) / double(n) / 1e6 : 0.0; };
    // Children lists, ordered by the larger of the two means.
    std::vector<std::vector<qint32>> children(count + 1); // [count] holds the roots
    for (size_t i = 0; i < count; ++i)
        children[building[i].parent < 0 ? count : size_t(building[i].parent)].push_back(qint32(i));
    const auto weight = [&](qint32 i) {
        return std::max(mean(total[0][size_t(i)], tree.m_setN), mean(total[1][size_t(i)], tree.m_restN));
    };
    for (auto &list : children)
        std::stable_sort(list.begin(), list.end(), [&](qint32 a, qint32 b) { return weight(a) > weight(b); });
    // Depth-first, without recursion.
    std::vector<std::pair<qint32, qint32>> stack; // (building index, parent in the output)
    for (auto it = children[count].rbegin(); it != children[count].rend(); ++it)
        stack.emplace_back(*it, -1);
    while (!stack.empty()) {
        const auto [index, parent] = stack.back();
        stack.pop_back();
        const Building &b = building[size_t(index)];
        PathTreeNode node;
        node.parent = parent;
        node.depth = parent < 0 ? 0 : tree.m_nodes[size_t(parent)].depth + 1;
        node.key = keys.text(b.key);
        node.category = keys.category(b.key);
        node.setSelfNs = b.selfNs[0];
        node.restSelfNs = b.selfNs[1];
        node.setTotalNs = total[0][size_t(index)];
        node.restTotalNs = total[1][size_t(index)];
        node.setOnPath = b.onPath[0];
        node.restOnPath = b.onPath[1];
        node.setMeanMs = mean(node.setTotalNs, tree.m_setN);
        node.restMeanMs = mean(node.restTotalNs, tree.m_restN);
        node.setSelfMeanMs = mean(node.setSelfNs, tree.m_setN);
        node.restSelfMeanMs = mean(node.restSelfNs, tree.m_restN);
        node.hasChildren = !children[size_t(index)].empty();
        const auto self = qint32(tree.m_nodes.size());
        tree.m_nodes.push_back(std::move(node));
        const auto &below = children[size_t(index)];
        for (auto it = below.rbegin(); it != below.rend(); ++it)
            stack.emplace_back(*it, self);
    }
    return tree;
}
