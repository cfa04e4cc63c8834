// LiveStore: what a live session holds and shows — a trace shows once its
// root is in and the grace period passed (or, rootless, after the timeout),
// a trace split across export requests merges into one workflow, the
// rolling mode evicts the oldest by age or count and says how many went,
// resources repeated in every request are interned once, and rejections
// and refused requests reach the store's rejected records and notices;
// the capture written from the held spans reopens as the same spans.

#include "io/TraceFileLoader.h"
#include "live/LiveStore.h"

#include <QBuffer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>
#include <vector>

namespace {

constexpr qint64 kSecond = 1'000'000'000LL;
constexpr qint64 kBase = 1'790'000'000LL * kSecond; // a real epoch time, ns

SpanRecord span(const std::string &trace, const std::string &id, const std::string &parent, qint64 startMs,
                qint64 endMs, qint32 resource = 0)
{
    SpanRecord record;
    record.traceId = trace;
    record.spanId = id;
    record.parentSpanId = parent;
    record.name = parent.empty() ? "invoke_agent" : "chat gpt-4o";
    record.start = kBase + startMs * 1'000'000;
    record.end = kBase + endMs * 1'000'000;
    record.resource = resource;
    return record;
}

ExportBatch batchOf(std::vector<SpanRecord> spans, const std::string &service = "agent")
{
    ExportBatch batch;
    auto &resource = batch.resources.emplace_back();
    SpanAttribute &name = resource.add();
    name.key = "service.name";
    name.value.type = AttributeValue::Type::String;
    name.value.text = service;
    batch.spans = std::move(spans);
    return batch;
}

std::string traceId(int n)
{
    return QStringLiteral("%1").arg(n, 32, 16, QLatin1Char('0')).toStdString();
}

std::string spanId(int n)
{
    return QStringLiteral("%1").arg(n, 16, 16, QLatin1Char('0')).toStdString();
}

std::set<QString> ids(const TraceStore &store)
{
    std::set<QString> out;
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row)
        out.insert(store.requests.idText(row));
    return out;
}

// Each workflow's first and last stamp by its id.
std::map<QString, std::vector<qint64>> stampsById(const TraceStore &store)
{
    std::map<QString, std::vector<qint64>> stamps;
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row)
        stamps[store.requests.idText(row)]
            = {store.requests.stamp(row, Stamp::ClientSend), store.requests.stamp(row, Stamp::LastTokenClient)};
    return stamps;
}

} // namespace

class TestLiveStore : public QObject
{
    Q_OBJECT

private slots:
    void aTraceShowsOnceItsRootIsInAndTheGracePassed()
    {
        LiveStore live; // grace 1 s
        const ReceiveStats::Snapshot received;
        // The child ends first, so it arrives first (as exporters send).
        ExportBatch first = batchOf({span(traceId(1), spanId(2), spanId(1), 10, 900)});
        live.add(first, 0);
        QVERIFY(first.spans.empty()); // taken
        QCOMPARE(live.counts(0).workflowsPending, 1);
        auto store = live.snapshot(0, received);
        QCOMPARE(store->workflows.rowCount(), 0);
        QVERIFY(!live.changed(kSecond / 2, received));
        ExportBatch second = batchOf({span(traceId(1), spanId(1), {}, 0, 1000)});
        live.add(second, kSecond);
        QVERIFY(live.changed(kSecond, received));
        QCOMPARE(live.snapshot(kSecond + kSecond / 2, received)->workflows.rowCount(), 0); // grace not over
        QVERIFY(!live.changed(kSecond + kSecond / 2, received));
        QVERIFY(live.changed(2 * kSecond, received)); // the grace ended: a new snapshot is due
        store = live.snapshot(2 * kSecond, received);
        QCOMPARE(store->workflows.rowCount(), 1);
        QCOMPARE(store->spans.rowCount(), 2); // split across two requests, one workflow
        QCOMPARE(ids(*store), (std::set<QString>{QString::fromStdString(traceId(1))}));
        QCOMPARE(store->format, QStringLiteral("otlp-live"));
        QVERIFY(store->rejected.empty());
        QVERIFY(store->notices.empty());
        const LiveStore::Counts counts = live.counts(2 * kSecond);
        QCOMPARE(counts.spansHeld, 2);
        QCOMPARE(counts.workflowsHeld, 1);
        QCOMPARE(counts.workflowsPending, 0);
        // A late child joins its shown trace at the next snapshot.
        ExportBatch late = batchOf({span(traceId(1), spanId(3), spanId(1), 920, 990)});
        live.add(late, 3 * kSecond);
        store = live.snapshot(3 * kSecond, received);
        QCOMPARE(store->workflows.rowCount(), 1);
        QCOMPARE(store->spans.rowCount(), 3);
    }

    void aRootlessTraceShowsAfterTheTimeout()
    {
        LiveStore live;
        ExportBatch batch = batchOf({span(traceId(7), spanId(2), spanId(1), 10, 900)});
        live.add(batch, 0);
        const ReceiveStats::Snapshot received;
        QCOMPARE(live.snapshot(29 * kSecond, received)->workflows.rowCount(), 0);
        const auto store = live.snapshot(30 * kSecond, received);
        QCOMPARE(store->workflows.rowCount(), 1);
        QCOMPARE(store->spans.rowCount(), 1);
    }

    void rollingKeepsTheNewest_data()
    {
        QTest::addColumn<qint64>("maxAgeNs");
        QTest::addColumn<qint64>("maxWorkflows");
        QTest::addColumn<int>("evicted");
        QTest::newRow("by count: newest 2") << qint64(0) << qint64(2) << 2;
        QTest::newRow("by age: first seen in the last 150 s") << 150 * kSecond << qint64(0) << 1;
        QTest::newRow("both: the stricter wins") << 150 * kSecond << qint64(1) << 3;
        QTest::newRow("neither") << qint64(0) << qint64(0) << 0;
    }

    void rollingKeepsTheNewest()
    {
        QFETCH(qint64, maxAgeNs);
        QFETCH(qint64, maxWorkflows);
        QFETCH(int, evicted);
        LiveStore::Options options;
        options.graceNs = 0;
        options.rolling = {maxAgeNs, maxWorkflows};
        LiveStore live(options);
        // Four traces of two spans, first seen at 0, 60, 120 and 180 s.
        for (int i = 0; i < 4; ++i) {
            ExportBatch batch = batchOf({span(traceId(i + 1), spanId(2 * i + 2), spanId(2 * i + 1), 10, 90),
                                         span(traceId(i + 1), spanId(2 * i + 1), {}, 0, 100)});
            live.add(batch, i * 60 * kSecond);
        }
        const qint64 now = 200 * kSecond;
        QCOMPARE(live.evict(now), evicted);
        const auto store = live.snapshot(now, {});
        std::set<QString> expected;
        for (int i = evicted; i < 4; ++i)
            expected.insert(QString::fromStdString(traceId(i + 1)));
        QCOMPARE(ids(*store), expected);
        QCOMPARE(store->spans.rowCount(), 2 * (4 - evicted));
        const LiveStore::Counts counts = live.counts(now);
        QCOMPARE(counts.evictedWorkflows, evicted);
        QCOMPARE(counts.evictedSpans, 2 * evicted);
        QCOMPARE(counts.spansHeld, 2 * (4 - evicted));
        QCOMPARE(counts.workflowsHeld, 4 - evicted);
        if (evicted > 0) {
            QCOMPARE(
                store->notices.back().message,
                QStringLiteral("rolling mode: %1 older workflows (%2 spans) evicted").arg(evicted).arg(2 * evicted));
        } else {
            QVERIFY(store->notices.empty());
        }
        // An evicted trace that sends again starts afresh.
        if (evicted > 0) {
            ExportBatch again = batchOf({span(traceId(1), spanId(9), {}, 0, 100)});
            live.add(again, now);
            QCOMPARE(live.counts(now).workflowsHeld, 4 - evicted + 1);
        }
    }

    void resourcesRepeatedInEveryRequestAreInternedOnce()
    {
        LiveStore::Options options;
        options.graceNs = 0;
        LiveStore live(options);
        for (int i = 0; i < 50; ++i) {
            ExportBatch batch = batchOf({span(traceId(i + 1), spanId(i + 1), {}, 0, 100)}, i % 2 ? "tool" : "agent");
            live.add(batch, 0);
        }
        const auto store = live.snapshot(kSecond, {});
        QCOMPARE(store->workflows.rowCount(), 50);
        QCOMPARE(store->spans.resources().size(), size_t(2));
    }

    void theCaptureReopensAsTheSpansHeld()
    {
        LiveStore::Options options;
        options.graceNs = 0;
        LiveStore live(options);
        // Two traces from two services, one still waiting for its root, and
        // a late child of the first in a second request.
        ExportBatch first
            = batchOf({span(traceId(1), spanId(1), {}, 0, 900), span(traceId(2), spanId(3), spanId(2), 50, 80)});
        live.add(first, 0);
        ExportBatch second = batchOf({span(traceId(1), spanId(4), spanId(1), 100, 700)}, "tool");
        live.add(second, kSecond);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("capture.otlp.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QString error;
        QCOMPARE(live.writeCapture(file, &error, 2), qint64(3)); // every span held, complete or not
        file.close();
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll().count('\n'), 2); // 2 spans to a line

        const LoadResult reopened = TraceFileLoader::load(path, LoadOptions{});
        QVERIFY2(reopened.ok(), qPrintable(reopened.fatalError));
        const TraceStore &store = *reopened.store;
        const auto held = live.snapshot(kSecond * 100, {}); // everything, the rootless trace too
        QCOMPARE(store.spans.rowCount(), 3);
        QCOMPARE(ids(store), ids(*held));
        QCOMPARE(stampsById(store), stampsById(*held));
        QCOMPARE(stampsById(store).at(QString::fromStdString(traceId(1))),
                 (std::vector<qint64>{kBase, kBase + 900'000'000}));

        // A device that refuses the write: -1 and its reason.
        QBuffer readOnly;
        QVERIFY(readOnly.open(QIODevice::ReadOnly));
        QCOMPARE(live.writeCapture(readOnly, &error), qint64(-1));
        QVERIFY(!error.isEmpty());
    }

    void rejectionsAndRefusalsAreListed()
    {
        LiveStore::Options options;
        options.graceNs = 0;
        LiveStore live(options);
        ExportBatch batch = batchOf({span(traceId(1), spanId(1), {}, 0, 100)});
        batch.sequence = 3;
        batch.rejected.push_back(
            {traceId(1), "00ab", QStringLiteral("spanId"), QStringLiteral("must be 8 bytes, got 2")});
        live.add(batch, 0);
        ReceiveStats::Snapshot received;
        received.refusals[QStringLiteral("400")] = {2, QStringLiteral("malformed protobuf")};
        received.refusals[QStringLiteral("gRPC RESOURCE_EXHAUSTED")] = {1, QStringLiteral("queue full")};
        const auto store = live.snapshot(kSecond, received);
        QCOMPARE(store->workflows.rowCount(), 1);
        QCOMPARE(store->rejected.size(), size_t(1));
        QCOMPARE(store->rejected[0].toString(),
                 QStringLiteral("otlp-live:3: trace %1: span 00ab: field 'spanId': must be 8 bytes, got 2")
                     .arg(QString::fromStdString(traceId(1))));
        QCOMPARE(store->notices.size(), size_t(2));
        QCOMPARE(store->notices[0].message,
                 QStringLiteral("2 export request(s) refused whole with HTTP 400: malformed protobuf"));
        QCOMPARE(store->notices[1].message,
                 QStringLiteral("1 export request(s) refused whole with gRPC RESOURCE_EXHAUSTED: queue full"));
        QCOMPARE(live.counts(kSecond).rejectedSpans, 1);
        // A new refusal alone makes a new snapshot due.
        QVERIFY(!live.changed(kSecond, received));
        received.refusals[QStringLiteral("400")].count = 3;
        QVERIFY(live.changed(kSecond, received));
    }
};

QTEST_GUILESS_MAIN(TestLiveStore)
#include "tst_livestore.moc"
