#include "SpanGraphBuilder.h"

#include "store/TraceStore.h"

namespace {

void appendPhases(const SpanTable &spans, qsizetype row, SpanGraph *graph, qint64 *firstToken)
{
    const auto *call = spans.modelCall(row);
    if (!call)
        return;
    const auto &stamps = call->stamps;
    for (const Phase phase : kAllPhases) {
        const qint64 begin = stamps[size_t(phaseBegin(phase))];
        const qint64 end = stamps[size_t(phaseEnd(phase))];
        if (phase == Phase::Stream || begin == kNoTime || end == kNoTime || end < begin)
            continue;
        graph->appendPhase({phase, begin, end});
    }
    qint64 first = stamps[size_t(Stamp::FirstTokenClient)];
    qint64 last = stamps[size_t(Stamp::LastTokenClient)];
    const auto clientTokens = spans.tokenTimes(call->clientTokens);
    if (first == kNoTime && !clientTokens.empty())
        first = clientTokens.front();
    if (last == kNoTime && !clientTokens.empty())
        last = clientTokens.back();
    if (first == kNoTime)
        return;
    if (last == kNoTime || last < first)
        last = std::max(first, spans.end(row));
    graph->appendPhase({Phase::Stream, first, last});
    if (call->contentBearing)
        *firstToken = first;
}

} // namespace

SpanGraphBuilder::SpanGraphBuilder(const TraceStore &store)
    : m_store(store)
{
    const auto &spans = store.spans;
    const auto &edges = spans.edges();
    const auto workflows = size_t(store.workflows.rowCount());
    m_edgeBegin.assign(workflows + 1, 0);
    const auto workflowOf = [&spans](const SpanTable::Edge &edge) {
        return edge.to >= 0 && edge.to < spans.rowCount() ? spans.workflow(edge.to) : -1;
    };
    for (const auto &edge : edges) {
        const qint32 workflow = workflowOf(edge);
        if (workflow >= 0 && size_t(workflow) < workflows)
            ++m_edgeBegin[size_t(workflow) + 1];
    }
    for (size_t i = 1; i < m_edgeBegin.size(); ++i)
        m_edgeBegin[i] += m_edgeBegin[i - 1];
    m_edges.resize(size_t(m_edgeBegin.back()));
    std::vector<qint32> fill(m_edgeBegin.begin(), m_edgeBegin.end() - 1);
    for (size_t e = 0; e < edges.size(); ++e) {
        const qint32 workflow = workflowOf(edges[e]);
        if (workflow >= 0 && size_t(workflow) < workflows)
            m_edges[size_t(fill[size_t(workflow)]++)] = qint32(e);
    }
}

std::shared_ptr<SpanGraph> SpanGraphBuilder::build(qint32 workflow, Detail detail) const
{
    const bool full = detail == Detail::Full;
    const auto &spans = m_store.spans;
    const qint32 first = m_store.workflows.firstSpan[size_t(workflow)];
    const qint32 count = m_store.workflows.spanCount[size_t(workflow)];
    const auto local = [first, count](qint32 row) { return row >= first && row < first + count ? row - first : -1; };
    auto graph = std::make_shared<SpanGraph>();
    graph->reserve(count, full ? qint64(count) * 16 : 0);
    for (qint32 row = first; row < first + count; ++row) {
        SpanGraph::Span span;
        if (full) {
            span.id = spans.spanId(row);
            span.name = spans.name(row);
            span.operation = spans.operation(row);
        }
        span.category = spans.category(row);
        span.kind = spans.kind(row);
        span.parent = local(spans.parent(row));
        span.start = spans.start(row);
        span.end = spans.end(row);
        span.outputTokens = spans.outputTokens(row);
        span.sourceRow = row;
        if (span.parent >= 0)
            span.blocksParent
                = !(spans.kind(spans.parent(row)) == SpanKind::Producer && spans.kind(row) == SpanKind::Consumer);
        graph->appendSpan(span);
        qint64 firstToken = kNoTime;
        appendPhases(spans, row, graph.get(), &firstToken);
        if (firstToken != kNoTime)
            graph->setFirstToken(graph->spanCount() - 1, firstToken);
    }
    const auto &edges = spans.edges();
    for (qint32 i = m_edgeBegin[size_t(workflow)]; i < m_edgeBegin[size_t(workflow) + 1]; ++i) {
        const auto &edge = edges[size_t(m_edges[size_t(i)])];
        const qint32 from = local(edge.from);
        const qint32 to = local(edge.to);
        if (from < 0 || to < 0)
            continue;
        if (edge.kind == SpanTable::EdgeKind::Dependency)
            graph->addDependency({from, to, false});
        else if (edge.kind == SpanTable::EdgeKind::FollowsFrom && graph->parent(to) == from)
            graph->setBlocksParent(to, false);
    }
    return graph;
}
