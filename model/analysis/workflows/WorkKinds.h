#pragma once

#include "WorkKind.h"

#include <QtGlobal>

#include <vector>

class SpanGraph;
class SpanTree;

// A stretch of one span's time and what it was: [begin, end) in ns.
struct WorkPiece
{
    WorkKind kind = WorkKind::Other;
    qint64 begin = 0;
    qint64 end = 0;

    friend bool operator==(const WorkPiece &, const WorkPiece &) = default;
};

namespace WorkKinds {

// The kind of `span`'s own time as a whole (workKindOfSpan on the graph).
WorkKind ofSpan(const SpanGraph &graph, const SpanTree &tree, qint32 span);

// The instant a model call's first token is out: its first content token,
// else the start of its stream phase, else the end of its first-decode (or
// network-to-first) phase; kNoTime when its stamps do not say.
qint64 firstTokenOf(const SpanGraph &graph, qint32 span);

// Appends the pieces of [from, to) of `span`'s time to `out`, merging a
// piece into the last one when they touch and share the kind. A span of
// kind ModelCall is split by its phases: each phase is its kind; time no
// phase covers is decode from the first token on, first token between a
// prefill and the first token, and otherwise plain model call (what the
// stamps do not tell is never guessed into a phase). Other kinds are one
// piece.
void split(const SpanGraph &graph, qint32 span, WorkKind kind, qint64 from, qint64 to, std::vector<WorkPiece> &out);

} // namespace WorkKinds
