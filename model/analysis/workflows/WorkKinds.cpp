#include "WorkKinds.h"

#include "SpanGraph.h"
#include "SpanTree.h"

#include <algorithm>
#include <array>

namespace {

void append(std::vector<WorkPiece> &out, WorkKind kind, qint64 begin, qint64 end)
{
    if (end <= begin)
        return;
    if (!out.empty() && out.back().kind == kind && out.back().end == begin) {
        out.back().end = end;
        return;
    }
    out.push_back({kind, begin, end});
}

} // namespace

namespace WorkKinds {

WorkKind ofSpan(const SpanGraph &graph, const SpanTree &tree, qint32 span)
{
    return workKindOfSpan(graph.category(span), graph.kind(span), !tree.children(span).empty());
}

qint64 firstTokenOf(const SpanGraph &graph, qint32 span)
{
    if (graph.firstToken(span) != kNoTime)
        return graph.firstToken(span);
    qint64 serverFirst = kNoTime;
    for (const auto &phase : graph.phases(span)) {
        if (phase.phase == Phase::Stream)
            return phase.begin;
        if (phase.phase == Phase::FirstDecode || phase.phase == Phase::NetworkToFirst)
            serverFirst = serverFirst == kNoTime ? phase.end : std::max(serverFirst, phase.end);
    }
    return serverFirst;
}

void split(const SpanGraph &graph, qint32 span, WorkKind kind, qint64 from, qint64 to, std::vector<WorkPiece> &out)
{
    if (to <= from)
        return;
    if (kind != WorkKind::ModelCall) {
        append(out, kind, from, to);
        return;
    }
    const auto phases = graph.phases(span);
    const qint64 first = firstTokenOf(graph, span);
    // At most seven phases: sort a copy by start (stamps that go backwards
    // were dropped by the builder, but a stream may start before the
    // server's first token when clocks differ).
    std::array<SpanGraph::PhaseInterval, kPhaseCount> sorted{};
    const size_t count = std::min(phases.size(), sorted.size());
    std::copy_n(phases.begin(), count, sorted.begin());
    std::sort(sorted.begin(), sorted.begin() + qsizetype(count),
              [](const auto &a, const auto &b) { return a.begin < b.begin; });

    bool afterPrefill = false; // the last phase that ended before the cursor was prefill
    // Time no phase covers: decode from the first token on; before it, the
    // rest of the wait for the first token when prefill is known to be over.
    const auto gap = [&](qint64 a, qint64 b) {
        if (b <= a)
            return;
        if (first != kNoTime && first < b) {
            if (first > a)
                append(out, afterPrefill ? WorkKind::FirstToken : WorkKind::ModelCall, a, first);
            append(out, WorkKind::Decode, std::max(a, first), b);
            return;
        }
        append(out, afterPrefill ? WorkKind::FirstToken : WorkKind::ModelCall, a, b);
    };
    qint64 cursor = from;
    for (size_t i = 0; i < count && cursor < to; ++i) {
        const auto &phase = sorted[i];
        if (phase.end <= cursor) {
            afterPrefill = phase.phase == Phase::Prefill;
            continue;
        }
        if (phase.begin >= to)
            break;
        if (phase.begin > cursor) {
            gap(cursor, phase.begin);
            cursor = phase.begin;
        }
        const qint64 end = std::min(phase.end, to);
        append(out, workKindOfPhase(phase.phase), cursor, end);
        afterPrefill = phase.phase == Phase::Prefill;
        cursor = end;
    }
    gap(cursor, to);
}

} // namespace WorkKinds
