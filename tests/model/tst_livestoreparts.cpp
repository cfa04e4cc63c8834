// LiveStore's snapshots grow by parts: a snapshot after the first is a kept
// store (one the views let go of) with the traces shown since appended
// (SpanStorePart), and it must equal, line for line, the store built whole
// from every shown span — spans and their attributes, events, model calls and
// token times, resources and scopes, edges and external links, orphans
// attached to the span enclosing them, the workflows' request rows and their
// class columns (root_name arriving with the first contract type half way),
// rejected records and notices. A late span joining a shown trace and the
// eviction of a shown trace build whole again; a snapshot someone still holds
// never changes under them.

#include "io/WorkflowSummary.h"
#include "live/LiveStore.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <vector>

namespace {

constexpr qint64 kMs = 1'000'000LL;
constexpr qint64 kSecond = 1000 * kMs;
constexpr qint64 kBase = 1'790'000'000LL * kSecond; // a real epoch time, ns
constexpr qint64 kStepNs = 250 * kMs;               // a refresh

std::string hexId(quint64 n, int digits)
{
    return QStringLiteral("%1").arg(n, digits, 16, QLatin1Char('0')).toStdString();
}

void addText(RecycledList<SpanAttribute> &attributes, const std::string &key, const std::string &value)
{
    SpanAttribute &attribute = attributes.add();
    attribute.key = key;
    attribute.value.type = AttributeValue::Type::String;
    attribute.value.text = value;
}

void addNumber(RecycledList<SpanAttribute> &attributes, const std::string &key, double value)
{
    SpanAttribute &attribute = attributes.add();
    attribute.key = key;
    attribute.value.type = AttributeValue::Type::Double;
    attribute.value.number = value;
    attribute.value.text = QString::number(value, 'g', 17).toStdString();
}

void addInt(RecycledList<SpanAttribute> &attributes, const std::string &key, qint64 value)
{
    SpanAttribute &attribute = attributes.add();
    attribute.key = key;
    attribute.value.type = AttributeValue::Type::Int;
    attribute.value.integer = value;
    attribute.value.number = double(value);
    attribute.value.text = std::to_string(value);
}

// Four token times 10 ms apart from `first`, as the contract's array attribute.
void addTimes(RecycledList<SpanAttribute> &attributes, const std::string &key, qint64 first)
{
    SpanAttribute &attribute = attributes.add();
    attribute.key = key;
    attribute.value.type = AttributeValue::Type::Array;
    for (int t = 0; t < 4; ++t)
        attribute.value.elements.push_back(std::to_string(first + t * 10 * kMs));
    attribute.value.text = "[...]";
}

// The spans of trace `n` (a mix of what live sessions send: vLLM request
// spans, agent workflows with model and tool calls, contract workflow types
// and token times, orphans, rootless traces, links inside and across traces,
// errors, several services and a scope). Times are ms after `startMs`.
std::vector<SpanRecord> traceSpans(int n, qint64 startMs, std::mt19937 &random)
{
    const std::string trace = hexId(quint64(n) + 1, 32);
    const auto id = [n](int k) { return hexId(quint64(n) * 16 + quint64(k) + 1, 16); };
    const auto ms = [startMs](qint64 at) { return kBase + (startMs + at) * kMs; };
    std::uniform_int_distribution<int> jitter(0, 400);
    const qint64 length = 500 + jitter(random);
    std::vector<SpanRecord> spans;
    const auto add = [&](int k, int parent, const std::string &name, qint64 from, qint64 to) -> SpanRecord & {
        SpanRecord &span = spans.emplace_back();
        span.traceId = trace;
        span.spanId = id(k);
        span.parentSpanId = parent < 0 ? std::string() : id(parent);
        span.name = name;
        span.start = ms(from);
        span.end = ms(to);
        span.resource = n % 5 == 4 ? 1 : 0;
        span.scope = n % 3 == 0 ? 0 : -1;
        return span;
    };
    switch (n % 7) {
    case 0: { // a vLLM request span
        SpanRecord &span = add(0, -1, "llm_request", 0, length);
        if (n >= 60) // the model class joins after root_name: a whole build still lists root_name last
            addText(span.attributes, "gen_ai.request.model", n % 2 ? "llama-3-8b" : "qwen-2-7b");
        addNumber(span.attributes, "gen_ai.latency.time_in_queue", 0.010 + 0.001 * (n % 13));
        addNumber(span.attributes, "gen_ai.latency.time_in_model_prefill", 0.050);
        addNumber(span.attributes, "gen_ai.latency.time_to_first_token", 0.080 + 0.002 * (n % 11));
        addNumber(span.attributes, "gen_ai.latency.e2e", double(length) / 1000.0);
        addInt(span.attributes, "gen_ai.usage.input_tokens", 100 + n);
        addInt(span.attributes, "gen_ai.usage.output_tokens", 20 + n % 50);
        break;
    }
    case 1:
    case 2: { // an agent: two model calls and a tool between them
        SpanRecord &root = add(0, -1, "invoke_agent", 0, length);
        addText(root.attributes, "gen_ai.operation.name", "invoke_agent");
        if (n % 7 == 2 && n >= 30) // contract types begin half way: root_name joins the classes then
            addText(root.attributes, "tracelane.workflow.type", n % 2 ? "planner" : "coder");
        for (const int call : {1, 3}) {
            SpanRecord &chat = add(call, 0, "chat gpt-4o", call * 50, call * 50 + 120);
            addText(chat.attributes, "gen_ai.operation.name", "chat");
            if (n >= 60)
                addText(chat.attributes, "gen_ai.request.model", "gpt-4o");
            addInt(chat.attributes, "gen_ai.usage.output_tokens", 10 + call);
            SpanEventRecord &event = chat.events.add();
            event.time = ms(call * 50 + 30);
            event.name = "gen_ai.content.chunk";
            addInt(event.attributes, "index", call);
            if (n % 7 == 2 && n >= 45) { // server token times (tokens timelines join then)
                addTimes(chat.attributes, "tracelane.tokens.server_unix_nano", ms(call * 50 + 40));
                addTimes(chat.attributes, "tracelane.tokens.client_unix_nano", ms(call * 50 + 45));
            }
        }
        SpanRecord &tool = add(2, 0, "execute_tool search", 200, 240);
        addText(tool.attributes, "gen_ai.operation.name", "execute_tool");
        SpanLinkRecord &link = tool.links.add(); // inside the trace: an edge
        link.spanId = id(1);
        break;
    }
    case 3: { // an orphan inside the tree (attached to the span enclosing it) and one outside it
        add(0, -1, "invoke_agent", 0, length);
        add(1, 9, "chat gpt-4o", 20, 100); // more than the 20 attachments listed in all
        if (n % 2)
            add(2, 10, "chat gpt-4o", length + 50, length + 80);
        break;
    }
    case 4: { // rootless: every span names a parent that never comes
        add(1, 12, "chat gpt-4o", 0, 80);
        add(2, 12, "execute_tool search", 90, 120);
        break;
    }
    case 5: { // a link to another trace: kept as an external link
        SpanRecord &root = add(0, -1, "invoke_agent", 0, length);
        SpanLinkRecord &link = root.links.add();
        link.traceId = hexId(quint64(n) + 1000, 32);
        link.spanId = hexId(77, 16);
        break;
    }
    default: { // an error
        SpanRecord &root = add(0, -1, "invoke_agent", 0, length);
        root.status = SpanStatus::Error;
        add(1, 0, "execute_tool shell", 10, 40).status = SpanStatus::Error;
        break;
    }
    }
    return spans;
}

ExportBatch batchOf(std::vector<SpanRecord> spans, int services)
{
    ExportBatch batch;
    for (int s = 0; s < services; ++s)
        addText(batch.resources.emplace_back(), "service.name", s == 0 ? "agent" : "vllm-" + std::to_string(s));
    ExportBatch::Scope &scope = batch.scopes.emplace_back();
    scope.name = "opentelemetry.instrumentation.openai";
    scope.version = "0.40";
    addText(scope.attributes, "library", "openai");
    for (SpanRecord &span : spans)
        span.resource = std::min(span.resource, services - 1);
    batch.spans = std::move(spans);
    return batch;
}

// A session's traffic, step by step (4 refreshes a second): each step starts
// a few traces; a trace's children go out in one export request and its root
// (which ends last) in the next, as exporters send them.
class Traffic
{
public:
    // `steps` steps start traces; the step after sends the last roots.
    Traffic(int tracesPerStep, int steps)
        : m_perStep(tracesPerStep)
        , m_steps(steps)
    { }

    // The batches of `step`: the same every time it is asked (two stores are fed alike).
    std::vector<ExportBatch> batches(int step) const
    {
        std::vector<ExportBatch> out;
        std::vector<SpanRecord> children;
        std::vector<SpanRecord> roots;
        for (int n = (step - 1) * m_perStep; n < (step + 1) * m_perStep; ++n) {
            if (n < 0)
                continue;
            std::mt19937 random(quint32(n) * 7919u + 17u);
            const bool thisStep = n >= step * m_perStep;
            if (thisStep && step >= m_steps)
                break;
            for (SpanRecord &span : traceSpans(n, (n / m_perStep) * 250, random)) {
                const bool root = span.parentSpanId.empty();
                if (thisStep && !root)
                    children.push_back(std::move(span));
                else if (!thisStep && root)
                    roots.push_back(std::move(span));
            }
        }
        // A second service from step 10 on: resources grow during the session.
        const int services = step >= 10 ? 2 : 1;
        out.push_back(batchOf(std::move(children), services));
        out.push_back(batchOf(std::move(roots), services));
        return out;
    }

private:
    int m_perStep;
    int m_steps;
};

QString attributeText(const SpanTable &spans, const SpanTable::Attribute &attribute)
{
    return QStringLiteral("%1%2=%3").arg(spans.text(attribute.key()),
                                         attribute.isNumeric() ? QStringLiteral("#") : QString(),
                                         spans.text(attribute.value));
}

QString rangeText(const SpanTable &spans, const std::vector<SpanTable::Attribute> &attributes, quint32 begin,
                  quint32 end)
{
    QStringList parts;
    for (quint32 i = begin; i < end; ++i)
        parts << attributeText(spans, attributes[i]);
    return parts.join(QLatin1Char(','));
}

QString timelineText(const TokenTimeline &timeline)
{
    QStringList rows;
    for (qsizetype row = 0; row < timeline.rowCount(); ++row) {
        QStringList events;
        timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
            events << QStringLiteral("%1x%2%3")
                          .arg(event.time)
                          .arg(event.tokens)
                          .arg(event.segmentStart ? QStringLiteral("s") : QString());
        });
        rows << events.join(QLatin1Char(' '));
    }
    return QStringLiteral("%1 rows: %2").arg(timeline.rowCount()).arg(rows.join(QLatin1Char('|')));
}

// Everything a view can read of `store`, as text: strings rather than
// interned codes, records sorted (a grown store lists the builder's notices
// and rejections part by part).
QStringList dump(const TraceStore &store)
{
    QStringList out;
    const SpanTable &spans = store.spans;
    for (qsizetype row = 0; row < spans.rowCount(); ++row) {
        QString line = QStringLiteral("span %1 wf=%2 parent=%3 %4..%5 id=%6 name=%7 op=%8 svc=%9")
                           .arg(row)
                           .arg(spans.workflow(row))
                           .arg(spans.parent(row))
                           .arg(spans.start(row))
                           .arg(spans.end(row))
                           .arg(spans.spanIdText(row), spans.name(row), spans.operation(row), spans.service(row));
        line += QStringLiteral(" kind=%1 cat=%2 status=%3 flags=%4 tokens=%5/%6 res=%7 scope=%8 line=%9")
                    .arg(int(spans.kind(row)))
                    .arg(int(spans.category(row)))
                    .arg(int(spans.status(row)))
                    .arg(spans.flags(row))
                    .arg(spans.inputTokens(row))
                    .arg(spans.outputTokens(row))
                    .arg(spans.resource(row))
                    .arg(spans.scope(row))
                    .arg(spans.sourceLine(row));
        const auto [first, last] = spans.attributeRange(row);
        line
            += QStringLiteral(" attrs[%1]").arg(rangeText(spans, spans.attributeRows(), quint32(first), quint32(last)));
        for (const SpanTable::Event &event : spans.events(row))
            line += QStringLiteral(" event %1@%2[%3]")
                        .arg(spans.text(event.name))
                        .arg(event.time)
                        .arg(rangeText(spans, spans.eventAttributes(), event.attributes.begin, event.attributes.end));
        if (const SpanTable::ModelCall *call = spans.modelCall(row)) {
            QStringList stamps;
            for (const qint64 stamp : call->stamps)
                stamps << QString::number(stamp);
            QStringList server;
            for (const qint64 time : spans.tokenTimes(call->serverTokens))
                server << QString::number(time);
            QStringList client;
            for (const qint64 time : spans.tokenTimes(call->clientTokens))
                client << QString::number(time);
            line += QStringLiteral(" call[%1 last=%2 content=%3 server=%4 client=%5]")
                        .arg(stamps.join(QLatin1Char(',')))
                        .arg(call->lastTokenServer)
                        .arg(call->contentBearing)
                        .arg(server.join(QLatin1Char(',')), client.join(QLatin1Char(',')));
        }
        out << line;
    }
    for (const auto &range : spans.resources())
        out << QStringLiteral("resource [%1]").arg(rangeText(spans, spans.sharedAttributes(), range.begin, range.end));
    for (const auto &scope : spans.scopes())
        out << QStringLiteral("scope %1 %2 [%3]")
                   .arg(spans.text(scope.name), spans.text(scope.version),
                        rangeText(spans, spans.sharedAttributes(), scope.attributes.begin, scope.attributes.end));
    for (const auto &edge : spans.edges())
        out << QStringLiteral("edge %1->%2 %3").arg(edge.from).arg(edge.to).arg(int(edge.kind));
    for (const auto &link : spans.externalLinks())
        out << QStringLiteral("external %1 %2/%3 %4")
                   .arg(link.span)
                   .arg(spans.text(link.traceId), spans.text(link.spanId))
                   .arg(int(link.kind));
    const WorkflowTable &workflows = store.workflows;
    for (qsizetype w = 0; w < workflows.rowCount(); ++w)
        out << QStringLiteral("workflow %1 first=%2 count=%3 root=%4 request=%5")
                   .arg(workflows.traceIdText(w))
                   .arg(workflows.firstSpan[size_t(w)])
                   .arg(workflows.spanCount[size_t(w)])
                   .arg(workflows.rootSpan[size_t(w)])
                   .arg(workflows.requestRow[size_t(w)]);
    const RequestTable &requests = store.requests;
    std::vector<const AttributeColumn *> columns; // in the table's order: the class dimensions' order
    for (const AttributeColumn &column : requests.attributes())
        columns.push_back(&column);
    for (const AttributeColumn *column : columns)
        out << QStringLiteral("column %1 numeric=%2 rows=%3")
                   .arg(column->name())
                   .arg(column->isNumeric())
                   .arg(column->rowCount());
    for (qsizetype row = 0; row < requests.rowCount(); ++row) {
        QStringList stamps;
        for (int s = 0; s < kStampCount; ++s)
            stamps << QString::number(requests.stamp(row, Stamp(s)));
        QStringList classes;
        for (const AttributeColumn *column : columns)
            classes << column->name() + QLatin1Char('=') + column->text(row);
        out << QStringLiteral("request %1 tokens=%2/%3 line=%4 [%5] {%6}")
                   .arg(requests.idText(row))
                   .arg(requests.promptTokens(row))
                   .arg(requests.outputTokens(row))
                   .arg(requests.sourceLine(row))
                   .arg(stamps.join(QLatin1Char(',')), classes.join(QLatin1Char(',')));
    }
    out << QStringLiteral("server tokens ") + timelineText(requests.serverTokens());
    out << QStringLiteral("client tokens ") + timelineText(requests.clientTokens());
    QStringList records;
    for (const RejectedRecord &record : store.rejected)
        records << QStringLiteral("rejected ") + record.toString();
    for (const LoadNotice &notice : store.notices)
        records << QStringLiteral("notice ") + notice.toString();
    records.sort();
    out << records;
    out << QStringLiteral("format %1 files %2").arg(store.format, store.sourceFiles.join(QLatin1Char(',')));
    return out;
}

// The first line where the two dumps differ, for a message that says where.
QString firstDifference(const QStringList &grown, const QStringList &whole)
{
    for (qsizetype i = 0; i < std::min(grown.size(), whole.size()); ++i) {
        if (grown[i] != whole[i])
            return QStringLiteral("line %1:\n grown: %2\n whole: %3").arg(i).arg(grown[i], whole[i]);
    }
    return QStringLiteral("grown has %1 lines, whole %2").arg(grown.size()).arg(whole.size());
}

struct Pair
{
    LiveStore grown;
    LiveStore whole;

    explicit Pair(LiveStore::Options options)
        : grown(options)
        , whole(wholeOptions(options))
    { }

    static LiveStore::Options wholeOptions(LiveStore::Options options)
    {
        options.growSnapshots = false;
        return options;
    }

    void add(const Traffic &traffic, int step, qint64 now)
    {
        for (LiveStore *store : {&grown, &whole}) {
            for (ExportBatch &batch : traffic.batches(step))
                store->add(batch, now);
        }
    }
};

qsizetype countFlag(const SpanTable &spans, SpanTable::Flag flag)
{
    qsizetype count = 0;
    for (qsizetype row = 0; row < spans.rowCount(); ++row)
        count += (spans.flags(row) & flag) != 0 ? 1 : 0;
    return count;
}

} // namespace

class TestLiveStoreParts : public QObject
{
    Q_OBJECT

private slots:
    void grownSnapshotsEqualWholeBuilds()
    {
        LiveStore::Options options;
        options.rootlessAfterNs = 3 * kSecond;
        Pair stores(options);
        const Traffic traffic(6, 40);
        int compared = 0;
        qint64 builtWhole = 0;
        std::shared_ptr<TraceStore> last;
        for (int step = 0; step < 56; ++step) { // the last traces shown 3 s (rootless) after step 40
            const qint64 now = step * kStepNs;
            if (step <= 40)
                stores.add(traffic, step, now);
            if (step == 20 || step == 32) { // a late span joins a trace shown long ago
                std::mt19937 random(5);
                SpanRecord late = traceSpans(step, 0, random).front();
                late.spanId = hexId(0xfeed + quint64(step), 16);
                late.parentSpanId = hexId(quint64(step) * 16 + 1, 16);
                late.name = "late retry";
                for (LiveStore *store : {&stores.grown, &stores.whole}) {
                    ExportBatch batch = batchOf({late}, 2);
                    store->add(batch, now);
                }
            }
            QCOMPARE(stores.grown.changed(now, {}), stores.whole.changed(now, {}));
            if (!stores.grown.changed(now, {}))
                continue;
            last.reset(); // the views let go of the one before
            last = stores.grown.snapshot(now, {});
            const QStringList grown = dump(*last);
            const QStringList whole = dump(*stores.whole.snapshot(now, {}));
            QVERIFY2(grown == whole,
                     qPrintable(QStringLiteral("step %1: %2").arg(step).arg(firstDifference(grown, whole))));
            ++compared;
            builtWhole += last->workflows.rowCount() > 0 ? 1 : 0;
        }
        QVERIFY(compared >= 30);
        // The first snapshot and one after each late span were built whole;
        // every other one grew.
        QCOMPARE(stores.grown.fullBuilds(), qint64(3));
        QCOMPARE(stores.whole.fullBuilds(), builtWhole);
        // What the comparison covered.
        QCOMPARE(last->workflows.rowCount(), 40 * 6);
        QVERIFY(WorkflowSummary::hasRootNames(*last));
        QVERIFY(last->requests.serverTokens().rowCount() == last->requests.rowCount());
        QVERIFY(last->requests.clientTokens().eventTotal() > 0);
        QVERIFY(!last->spans.edges().empty());
        QVERIFY(!last->spans.externalLinks().empty());
        QVERIFY(countFlag(last->spans, SpanTable::Adopted) > 0);
        QVERIFY(countFlag(last->spans, SpanTable::Orphan) > countFlag(last->spans, SpanTable::Adopted));
        QCOMPARE(last->spans.resources().size(), size_t(2));
        QVERIFY(!last->spans.modelCalls().empty());
        QCOMPARE(std::count_if(last->notices.begin(), last->notices.end(),
                               [](const LoadNotice &notice) {
                                   return notice.message.contains(QLatin1String("not in trace, attached to"));
                               }),
                 qsizetype(20));
        QVERIFY(countFlag(last->spans, SpanTable::Adopted) > 20);
    }

    void evictionsAndRejectionsBuildAlike()
    {
        LiveStore::Options options;
        options.rootlessAfterNs = 2 * kSecond;
        options.rolling.maxWorkflows = 50;
        Pair stores(options);
        const Traffic traffic(4, 40);
        int compared = 0;
        for (int step = 0; step < 40; ++step) {
            const qint64 now = step * kStepNs;
            stores.add(traffic, step, now);
            if (step % 5 == 0) {
                for (LiveStore *store : {&stores.grown, &stores.whole}) {
                    ExportBatch batch;
                    batch.sequence = step;
                    batch.rejected.push_back({hexId(9000 + quint64(step), 32), hexId(1, 16),
                                              QStringLiteral("endTimeUnixNano"), QStringLiteral("before the start")});
                    store->add(batch, now);
                }
            }
            QCOMPARE(stores.grown.evict(now), stores.whole.evict(now));
            if (!stores.grown.changed(now, {}))
                continue;
            const QStringList grown = dump(*stores.grown.snapshot(now, {}));
            const QStringList whole = dump(*stores.whole.snapshot(now, {}));
            QVERIFY2(grown == whole,
                     qPrintable(QStringLiteral("step %1: %2").arg(step).arg(firstDifference(grown, whole))));
            ++compared;
        }
        QVERIFY(compared >= 20);
        QVERIFY(stores.grown.counts(40 * kStepNs).evictedWorkflows > 0);
        QVERIFY(stores.grown.counts(40 * kStepNs).rejectedSpans == 8);
        // Growing still happened between evictions of shown traces.
        QVERIFY(stores.grown.fullBuilds() < compared);
    }

    void waitsForAStoreTheViewsStillHold()
    {
        LiveStore live;
        const Traffic traffic(5, 30);
        std::shared_ptr<TraceStore> older;
        std::shared_ptr<TraceStore> shown;
        int step = 0;
        for (; step < 12; ++step) { // traces shown, two stores in rotation
            for (ExportBatch &batch : traffic.batches(step))
                live.add(batch, step * kStepNs);
            shown = live.snapshot(step * kStepNs, {});
        }
        QVERIFY(shown->workflows.rowCount() > 0);
        QVERIFY(!live.waitForKeptStore()); // the one before is back in the pool
        const qint64 whole = live.fullBuilds();
        older = shown; // a background job still on it
        shown = live.snapshot(step * kStepNs, {});
        ++step;
        QVERIFY(live.waitForKeptStore()); // both held, none back: building now would be whole
        older.reset();                    // the job ends
        QVERIFY(!live.waitForKeptStore());
        for (ExportBatch &batch : traffic.batches(step))
            live.add(batch, step * kStepNs);
        shown = live.snapshot(step * kStepNs, {});
        QCOMPARE(live.fullBuilds(), whole); // grown from the one that came back
        live.dropGrowingStores();
        QVERIFY(!live.waitForKeptStore()); // nothing is kept any more: never wait
    }

    void releasedStoresAreFreedAndGrowingResumes()
    {
        LiveStore grown;
        LiveStore::Options wholeOptions;
        wholeOptions.growSnapshots = false;
        LiveStore whole(wholeOptions);
        const Traffic traffic(7, 30);
        std::shared_ptr<TraceStore> shown;
        const auto step = [&](int at) {
            const qint64 now = at * kStepNs;
            for (LiveStore *live : {&grown, &whole}) {
                for (ExportBatch &batch : traffic.batches(at))
                    live->add(batch, now);
            }
            shown = grown.snapshot(now, {});
            QCOMPARE(dump(*shown), dump(*whole.snapshot(now, {})));
        };
        int at = 0;
        for (; at < 10; ++at)
            step(at);
        QCOMPARE(grown.keptStores(), qsizetype(1)); // the snapshot before the one shown
        const qint64 builtWhole = grown.fullBuilds();
        grown.releaseKeptStores(); // paused, or idle
        QCOMPARE(grown.keptStores(), qsizetype(0));
        QVERIFY(!grown.waitForKeptStore()); // only the shown one is out: nothing to wait for
        step(at++);
        QCOMPARE(grown.fullBuilds(), builtWhole + 1); // nothing kept: built whole, and equal
        QCOMPARE(grown.keptStores(), qsizetype(1));   // the one shown before came back
        step(at++);
        step(at++);
        QCOMPARE(grown.fullBuilds(), builtWhole + 1); // growing again
    }

    void aHeldSnapshotNeverChanges()
    {
        std::shared_ptr<TraceStore> held;
        QStringList heldDump;
        {
            LiveStore live;
            const Traffic traffic(5, 30);
            for (int step = 0; step < 30; ++step) {
                const qint64 now = step * kStepNs;
                for (ExportBatch &batch : traffic.batches(step))
                    live.add(batch, now);
                if (!live.changed(now, {}))
                    continue;
                const auto snapshot = live.snapshot(now, {});
                if (!held && snapshot->workflows.rowCount() > 0) {
                    held = snapshot; // a view that never lets go
                    heldDump = dump(*held);
                }
            }
            QVERIFY(held);
            QCOMPARE(dump(*held), heldDump);
            QVERIFY(live.snapshot(30 * kStepNs, {})->workflows.rowCount() > held->workflows.rowCount());
            // The held one was never grown: the second snapshot was built
            // whole (nothing was kept yet), every later one grew from it.
            QCOMPARE(live.fullBuilds(), qint64(2));
            live.dropGrowingStores();
            QVERIFY(live.snapshot(31 * kStepNs, {})->workflows.rowCount() > 0);
            QCOMPARE(live.fullBuilds(), qint64(3)); // nothing kept any more
        }
        // The store is gone; the snapshot outlives it (and is freed by its
        // holder without a pool to go back to).
        QCOMPARE(dump(*held), heldDump);
        held.reset();
    }
};

QTEST_GUILESS_MAIN(TestLiveStoreParts)
#include "tst_livestoreparts.moc"
