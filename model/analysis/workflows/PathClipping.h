#pragma once

#include <QtGlobal>

#include <vector>

class SpanGraph;
class SpanTree;

// Span times as the critical path sees them. A child that overflows its
// parent is clipped to the parent (a clock-skewed child cannot extend the
// parent's completion); a child wholly before or after its parent, or a
// non-blocking one (PRODUCER→CONSUMER, FOLLOWS_FROM), does not gate the
// parent at all and keeps its raw times. The SpanGraph is never changed.
struct ClippedSpans
{
    std::vector<qint64> start;
    std::vector<qint64> end;
    // 1 when the span's end counts towards its parent's completion.
    std::vector<quint8> gatesParent;
    // 1 when every span from here up to the root gates its parent: only
    // these can carry the workflow's critical path.
    std::vector<quint8> onPathTree;

    size_t memoryBytes() const
    {
        return (start.capacity() + end.capacity()) * sizeof(qint64) + gatesParent.capacity() + onPathTree.capacity();
    }
};

// Parents are clipped before their children (tree preorder), so a
// grandchild is clipped against its parent's clipped interval, as in Jaeger.
ClippedSpans clipToParents(const SpanGraph &graph, const SpanTree &tree);
