#pragma once

#include "CriticalPath.h"

#include <vector>

class SpanGraph;
class SpanTree;

// One row of a span Gantt chart.
struct GanttRow
{
    qint32 span = -1;
    qint32 depth = 0;
    bool hasChildren = false;
    bool expanded = true;

    friend bool operator==(const GanttRow &, const GanttRow &) = default;
};

namespace GanttRows {

// The spans in display order: depth first, children by start time (ties in
// row order). A collapsed span's descendants are left out; with `keep`
// (1 per span to show), other spans are left out too unless they hold a kept
// one. Iterative, so a 100,000-deep chain is fine.
std::vector<GanttRow> build(const SpanGraph &graph, const SpanTree &tree, const std::vector<quint8> &collapsed,
                            const std::vector<quint8> *keep = nullptr);

// The "critical path only" filter: spans with a section on `path` and
// every ancestor of one.
std::vector<quint8> pathWithAncestors(const SpanTree &tree, const std::vector<PathSection> &path);

} // namespace GanttRows
