#include "WorkflowSummary.h"

#include "io/TracelaneContract.h"

#include <QStringList>

#include <algorithm>
#include <limits>

namespace {

qint32 clampTokens(qint64 value)
{
    return qint32(qMin<qint64>(value, std::numeric_limits<qint32>::max()));
}

void setText(RequestTable &table, const QString &name, const QString &value)
{
    auto &column = table.attributeColumn(name, AttributeColumn::Kind::Categorical);
    column.padTo(table.rowCount() - 1);
    column.appendText(value);
}

void setNumber(RequestTable &table, const QString &name, double value)
{
    auto &column = table.attributeColumn(name, AttributeColumn::Kind::Numeric);
    column.padTo(table.rowCount() - 1);
    column.appendNumber(value);
}

// Client (or server) token times of the workflow's model calls: one segment
// per call, in order of its first token, so the time between two calls (a
// tool, the next prompt) is never taken for an inter-token gap.
void appendTokenTimes(const SpanTable &spans, qint32 first, qint32 count, bool client, TokenTimeline &timeline)
{
    std::vector<std::span<const qint64>> calls;
    for (qint32 row = first; row < first + count; ++row) {
        const auto *call = spans.modelCall(row);
        if (!call || (client && !call->contentBearing))
            continue;
        const auto times = spans.tokenTimes(client ? call->clientTokens : call->serverTokens);
        if (!times.empty())
            calls.push_back(times);
    }
    std::stable_sort(calls.begin(), calls.end(), [](const auto &a, const auto &b) { return a.front() < b.front(); });
    std::vector<TokenTimeline::Event> events;
    for (const auto &times : calls) {
        for (size_t i = 0; i < times.size(); ++i) {
            if (i > 0 && times[i] == times[i - 1]) {
                ++events.back().tokens; // tokens written with one time are one event
                continue;
            }
            events.push_back({times[i], 1, i == 0});
        }
    }
    if (!timeline.appendRow(events))
        timeline.appendEmptyRow(); // the contract reader refuses unordered lists already
}

} // namespace

namespace WorkflowSummary {

Usage tokenUsage(const SpanTable &spans, qint32 first, qint32 count)
{
    const auto hasUsage = [&](qint32 row) { return spans.inputTokens(row) >= 0 || spans.outputTokens(row) >= 0; };
    // Mark every ancestor of a span with usage as covered; a covered span's
    // usage is an aggregate of what its descendants already report.
    std::vector<bool> covered(size_t(count), false);
    for (qint32 row = first; row < first + count; ++row) {
        if (!hasUsage(row))
            continue;
        for (qint32 up = spans.parent(row); up >= 0 && !covered[size_t(up - first)]; up = spans.parent(up))
            covered[size_t(up - first)] = true;
    }
    Usage usage;
    for (qint32 row = first; row < first + count; ++row) {
        if (!hasUsage(row) || covered[size_t(row - first)])
            continue;
        usage.inputTokens += qMax(0, spans.inputTokens(row));
        usage.outputTokens += qMax(0, spans.outputTokens(row));
    }
    return usage;
}

qint64 firstContentToken(const SpanTable &spans, qint32 first, qint32 count, qint32 *modelCallRow)
{
    qint64 best = kNoTime;
    *modelCallRow = -1;
    for (qint32 row = first; row < first + count; ++row) {
        const auto *call = spans.modelCall(row);
        if (!call || !call->contentBearing)
            continue;
        qint64 time = call->stamps[size_t(Stamp::FirstTokenClient)];
        if (time == kNoTime) {
            const auto client = spans.tokenTimes(call->clientTokens);
            if (!client.empty())
                time = client.front();
        }
        if (time != kNoTime && (best == kNoTime || time < best)) {
            best = time;
            *modelCallRow = row;
        }
    }
    return best;
}

qint32 entrySpan(const TraceStore &store, qsizetype workflow)
{
    const qint32 first = store.workflows.firstSpan[size_t(workflow)];
    const qint32 count = store.workflows.spanCount[size_t(workflow)];
    const qint32 root = store.workflows.rootSpan[size_t(workflow)];
    if (root >= 0 || count == 0)
        return root;
    qint32 entry = first;
    for (qint32 row = first + 1; row < first + count; ++row) {
        if (store.spans.start(row) < store.spans.start(entry))
            entry = row;
    }
    return entry;
}

bool hasRootNames(const TraceStore &store)
{
    return store.requests.attributeIndex(QString(kRootNameColumn)) >= 0;
}

void addRootNames(TraceStore &store)
{
    // The root's name is then a class of its own (else it is workflow_type).
    const WorkflowTable &workflows = store.workflows;
    auto &column = store.requests.attributeColumn(QString(kRootNameColumn), AttributeColumn::Kind::Categorical);
    for (qsizetype w = 0; w < workflows.rowCount(); ++w) {
        column.padTo(workflows.requestRow[size_t(w)]);
        column.appendText(store.spans.name(entrySpan(store, w)));
    }
    column.padTo(store.requests.rowCount());
}

void summarise(TraceStore &store)
{
    const SpanTable &spans = store.spans;
    WorkflowTable &workflows = store.workflows;
    RequestTable &requests = store.requests;
    TokenTimeline server;
    TokenTimeline client;
    bool anyTokens = false;
    server.padTo(requests.rowCount());
    client.padTo(requests.rowCount());
    bool namedType = false; // some workflow's type comes from the contract, not its root's name
    for (qsizetype w = 0; w < workflows.rowCount(); ++w) {
        const qint32 first = workflows.firstSpan[size_t(w)];
        const qint32 count = workflows.spanCount[size_t(w)];
        const qint32 entry = entrySpan(store, w);
        qint64 end = std::numeric_limits<qint64>::min();
        int modelCalls = 0;
        int toolCalls = 0;
        bool error = false;
        QString model;
        for (qint32 row = first; row < first + count; ++row) {
            end = qMax(end, spans.end(row));
            error = error || (spans.flags(row) & SpanTable::Error);
            if (spans.category(row) == SpanCategory::ModelCall) {
                ++modelCalls;
                if (model.isEmpty())
                    model = spans.attributeText(row, "gen_ai.request.model");
            } else if (spans.category(row) == SpanCategory::Tool) {
                ++toolCalls;
            }
        }

        RequestTable::Row row;
        const std::string_view traceId = workflows.traceIds.view(w);
        row.id = traceId;
        const Usage usage = tokenUsage(spans, first, count);
        row.promptTokens = clampTokens(usage.inputTokens);
        row.outputTokens = clampTokens(usage.outputTokens);
        row.sourceLine = spans.sourceLine(entry);
        row.stamps.fill(kNoTime);
        row.stamps[size_t(Stamp::ClientSend)] = spans.start(entry);
        if (const auto *call = spans.modelCall(entry))
            row.stamps[size_t(Stamp::GatewayArrival)] = call->stamps[size_t(Stamp::GatewayArrival)];
        qint32 producer = -1;
        row.stamps[size_t(Stamp::FirstTokenClient)] = firstContentToken(spans, first, count, &producer);
        if (producer >= 0) {
            const auto &stamps = spans.modelCall(producer)->stamps;
            for (const Stamp stamp :
                 {Stamp::QueueEnter, Stamp::PrefillStart, Stamp::PrefillEnd, Stamp::FirstTokenServer}) {
                row.stamps[size_t(stamp)] = stamps[size_t(stamp)];
            }
        }
        row.stamps[size_t(Stamp::LastTokenClient)] = end;
        // Drop any stamp that would go back in time: its gap stays residual.
        qint64 previous = kNoTime;
        for (auto &stamp : row.stamps) {
            if (stamp == kNoTime)
                continue;
            if (previous != kNoTime && stamp < previous)
                stamp = kNoTime;
            else
                previous = stamp;
        }
        requests.appendRow(row);

        QString type = spans.attributeText(entry, TracelaneContract::kWorkflowTypeKey);
        namedType = namedType || !type.isEmpty();
        if (type.isEmpty())
            type = spans.name(entry);
        setText(requests, QStringLiteral("workflow_type"), type);
        setText(requests, QStringLiteral("service"), spans.service(entry));
        setText(requests, QStringLiteral("status"), error ? QStringLiteral("error") : QStringLiteral("ok"));
        if (!model.isEmpty())
            setText(requests, QStringLiteral("model"), model);
        setNumber(requests, QStringLiteral("span_count"), count);
        setNumber(requests, QStringLiteral("model_calls"), modelCalls);
        setNumber(requests, QStringLiteral("tool_calls"), toolCalls);
        requests.finishRow();
        workflows.requestRow[size_t(w)] = qint32(requests.rowCount() - 1);

        appendTokenTimes(spans, first, count, false, server);
        appendTokenTimes(spans, first, count, true, client);
        anyTokens = anyTokens || !server.isEmpty() || !client.isEmpty();
    }
    if (namedType)
        addRootNames(store);
    if (anyTokens && server.rowCount() == requests.rowCount()) {
        server.squeeze();
        client.squeeze();
        requests.setTokenTimelines(std::move(server), std::move(client));
    }
}

} // namespace WorkflowSummary
