#pragma once

#include "store/SpanTable.h"

#include <vector>

// Orphans are spans whose parent id is not in their trace (the parent was
// never exported). Left as roots they hang beside the tree, so a critical
// path cannot pass through them and the span that really waited for them
// looks busy on its own. An orphan that lies inside the time of a span of
// the trace's tree is attached to the tightest such span (shortest, then
// latest-starting): the span that was open around it. Larger orphans go
// first, so an orphan inside another adopted orphan lands under it. Orphans
// outside every span of the tree (or in a trace without a real root) stay
// roots. Adopted spans keep the Orphan flag and gain Adopted; parent() is
// the adopter.
namespace OrphanAdoption {

struct Adoption
{
    qint32 row = -1;
    qint32 parent = -1;
};

// Rows [first, last) are one trace with parents resolved. Returns the
// adoptions made, in the order they were made. `truncated` is set when the
// trace has so many orphans and spans that placing them all would take
// quadratic time; the rest then stay roots.
std::vector<Adoption> adopt(SpanTable &table, qsizetype first, qsizetype last, bool *truncated);

} // namespace OrphanAdoption
