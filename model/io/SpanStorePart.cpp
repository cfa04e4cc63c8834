#include "SpanStorePart.h"

#include "WorkflowSummary.h"

#include <algorithm>
#include <bit>

namespace {

// Room for `size` items, growing by powers of two: appending a part a few
// times a second must not copy a column of every earlier row each time.
size_t roomFor(size_t size)
{
    return std::bit_ceil(std::max<size_t>(size, 1));
}

std::vector<SpanTable::AttributeInput>
attributeInputs(const SpanTable &table, const std::vector<SpanTable::Attribute> &attributes, quint32 begin, quint32 end)
{
    std::vector<SpanTable::AttributeInput> inputs;
    inputs.reserve(end - begin);
    for (quint32 i = begin; i < end; ++i) {
        const SpanTable::Attribute &attribute = attributes[i];
        inputs.push_back(
            {table.strings().view(attribute.key()), table.strings().view(attribute.value), attribute.isNumeric()});
    }
    return inputs;
}

// The part's resources and scopes begin with `into`'s: only the newer ones
// are added, so the spans' indices mean the same in both.
void appendShared(SpanTable &into, const SpanTable &part)
{
    Q_ASSERT(into.resources().size() <= part.resources().size());
    Q_ASSERT(into.scopes().size() <= part.scopes().size());
    const auto &shared = part.sharedAttributes();
    for (size_t r = into.resources().size(); r < part.resources().size(); ++r) {
        const SpanTable::AttributeRange range = part.resources()[r];
        into.appendResource(attributeInputs(part, shared, range.begin, range.end));
    }
    for (size_t s = into.scopes().size(); s < part.scopes().size(); ++s) {
        const SpanTable::Scope &scope = part.scopes()[s];
        into.appendScope(part.strings().view(scope.name), part.strings().view(scope.version),
                         attributeInputs(part, shared, scope.attributes.begin, scope.attributes.end));
    }
}

void appendSpans(SpanTable &into, const SpanTable &part, qint32 workflowBase)
{
    const auto rowBase = qint32(into.rowCount());
    const auto text = [&part](quint32 code) { return part.strings().view(code); };
    const auto offset = [](qint32 index, qint32 base) { return index < 0 ? -1 : index + base; };
    for (qsizetype row = 0; row < part.rowCount(); ++row) {
        SpanTable::Row span;
        span.workflow = offset(part.workflow(row), workflowBase);
        span.parent = offset(part.parent(row), rowBase);
        span.start = part.start(row);
        span.end = part.end(row);
        span.spanId = part.spanId(row);
        span.name = text(part.nameCode(row));
        span.operation = text(part.operationCode(row));
        span.service = text(part.serviceCode(row));
        span.kind = part.kind(row);
        span.category = part.category(row);
        span.status = part.status(row);
        span.flags = part.flags(row);
        span.inputTokens = part.inputTokens(row);
        span.outputTokens = part.outputTokens(row);
        span.resource = part.resource(row);
        span.scope = part.scope(row);
        span.sourceLine = part.sourceLine(row);
        into.appendSpan(span);
        const auto [first, last] = part.attributeRange(row);
        for (size_t i = first; i < last; ++i) {
            const SpanTable::Attribute &attribute = part.attributeRows()[i];
            into.appendAttribute(text(attribute.key()), text(attribute.value), attribute.isNumeric());
        }
        for (const SpanTable::Event &event : part.events(row)) {
            into.appendEvent(event.time, text(event.name));
            for (quint32 i = event.attributes.begin; i < event.attributes.end; ++i) {
                const SpanTable::Attribute &attribute = part.eventAttributes()[i];
                into.appendEventAttribute(text(attribute.key()), text(attribute.value), attribute.isNumeric());
            }
        }
        if (const SpanTable::ModelCall *call = part.modelCall(row))
            into.setModelCall(*call, part.tokenTimes(call->serverTokens), part.tokenTimes(call->clientTokens));
    }
    for (const SpanTable::Edge &edge : part.edges())
        into.addEdge({edge.from + rowBase, edge.to + rowBase, edge.kind});
    for (const SpanTable::ExternalLink &link : part.externalLinks())
        into.addExternalLink(link.span + rowBase, text(link.traceId), text(link.spanId), link.kind);
}

void appendWorkflows(WorkflowTable &into, const WorkflowTable &part, qint32 rowBase, qint32 requestBase)
{
    into.traceIds.reserve(qsizetype(roomFor(size_t(into.rowCount() + part.rowCount()))),
                          qsizetype(roomFor(into.traceIds.byteSize() + part.traceIds.byteSize())));
    into.traceIds.appendAll(part.traceIds);
    for (qsizetype w = 0; w < part.rowCount(); ++w) {
        const auto at = size_t(w);
        into.firstSpan.push_back(part.firstSpan[at] + rowBase);
        into.spanCount.push_back(part.spanCount[at]);
        into.rootSpan.push_back(part.rootSpan[at] < 0 ? -1 : part.rootSpan[at] + rowBase);
        into.requestRow.push_back(part.requestRow[at] < 0 ? -1 : part.requestRow[at] + requestBase);
    }
}

// `into` followed by `part`'s rows, as one timeline of `rows` rows (empty
// when neither has one).
TokenTimeline joinedTimeline(const TokenTimeline &into, const TokenTimeline &part, qsizetype base, qsizetype rows)
{
    // A copy of `into`'s events (see the README: only when some request has
    // token times; RequestTable cannot hand its timelines over yet).
    TokenTimeline joined;
    // reserve() sizes the encoded bytes at 4 an event: ask for the bytes both hold.
    const size_t bytes = into.encodedBytes() + part.encodedBytes();
    joined.reserve(rows, qint64(bytes / 4) + 1);
    if (into.rowCount() > 0)
        joined.appendAllFrom(into);
    joined.padTo(base);
    if (part.rowCount() > 0)
        joined.appendAllFrom(part);
    joined.padTo(rows);
    return joined;
}

// root_name is a column of every workflow or of none (WorkflowSummary): the
// side without it gets it, before anything is appended.
void matchRootNames(TraceStore &into, TraceStore &part)
{
    const bool intoNames = WorkflowSummary::hasRootNames(into);
    const bool partNames = WorkflowSummary::hasRootNames(part);
    if (partNames && !intoNames && into.workflows.rowCount() > 0)
        WorkflowSummary::addRootNames(into);
    if (intoNames && !partNames && part.workflows.rowCount() > 0)
        WorkflowSummary::addRootNames(part);
}

// A whole build adds root_name after every other class column; appending may
// have put a column the part brought first after it.
void rootNamesLast(RequestTable &requests)
{
    auto &columns = requests.mutableAttributes();
    const auto it = std::find_if(columns.begin(), columns.end(), [](const AttributeColumn &column) {
        return column.name() == QString(WorkflowSummary::kRootNameColumn);
    });
    if (it != columns.end())
        std::rotate(it, it + 1, columns.end());
}

void appendRequests(TraceStore &into, TraceStore &part)
{
    RequestTable &requests = into.requests;
    const qsizetype base = requests.rowCount();
    const qsizetype rows = base + part.requests.rowCount();
    const bool tokens = requests.serverTokens().rowCount() > 0 || part.requests.serverTokens().rowCount() > 0;
    TokenTimeline server;
    TokenTimeline client;
    if (tokens) {
        server = joinedTimeline(requests.serverTokens(), part.requests.serverTokens(), base, rows);
        client = joinedTimeline(requests.clientTokens(), part.requests.clientTokens(), base, rows);
    }
    requests.reserve(qsizetype(roomFor(size_t(rows))),
                     qsizetype(roomFor(requests.idBytes() + part.requests.idBytes())));
    for (AttributeColumn &column : requests.mutableAttributes())
        column.reserve(qsizetype(roomFor(size_t(rows))));
    requests.appendTable(std::move(part.requests), 0);
    rootNamesLast(requests);
    if (tokens)
        requests.setTokenTimelines(std::move(server), std::move(client));
}

} // namespace

namespace SpanStorePart {

void append(TraceStore &into, TraceStore &part)
{
    const auto rowBase = qint32(into.spans.rowCount());
    const auto workflowBase = qint32(into.workflows.rowCount());
    const auto requestBase = qint32(into.requests.rowCount());
    matchRootNames(into, part);
    appendShared(into.spans, part.spans);
    appendSpans(into.spans, part.spans, workflowBase);
    appendWorkflows(into.workflows, part.workflows, rowBase, requestBase);
    appendRequests(into, part);
    part.spans = SpanTable();
    part.workflows = WorkflowTable();
    part.requests = RequestTable();
}

} // namespace SpanStorePart
