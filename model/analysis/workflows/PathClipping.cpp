#include "PathClipping.h"

#include "SpanGraph.h"
#include "SpanTree.h"

#include <algorithm>

ClippedSpans clipToParents(const SpanGraph &graph, const SpanTree &tree)
{
    const auto n = size_t(graph.spanCount());
    ClippedSpans clipped;
    clipped.start.resize(n);
    clipped.end.resize(n);
    clipped.gatesParent.assign(n, 0);
    clipped.onPathTree.assign(n, 0);
    for (const qint32 span : tree.preorder()) {
        const auto i = size_t(span);
        qint64 start = graph.start(span);
        qint64 end = graph.end(span);
        const qint32 parent = tree.parent(span);
        bool gates = parent < 0;
        if (parent >= 0 && graph.blocksParent(span)) {
            const qint64 parentStart = clipped.start[size_t(parent)];
            const qint64 parentEnd = clipped.end[size_t(parent)];
            // Wholly before or after the parent: it cannot gate the parent.
            const bool outside = start >= parentEnd || (start < parentStart && end <= parentStart);
            if (!outside) {
                gates = true;
                start = std::max(start, parentStart);
                end = std::min(end, parentEnd);
            }
        }
        clipped.start[i] = start;
        clipped.end[i] = end;
        clipped.gatesParent[i] = gates ? 1 : 0;
        clipped.onPathTree[i] = gates && (parent < 0 || clipped.onPathTree[size_t(parent)] != 0) ? 1 : 0;
    }
    return clipped;
}
