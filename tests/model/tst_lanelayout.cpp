#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QTest>

#include <cmath>

namespace {

std::shared_ptr<TraceStore> loadFixture(const QString &name)
{
    const LoadResult result = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/") + name, {});
    return result.store;
}

QStringList slotIds(const LaneLayout &layout, const RequestTable &table)
{
    QStringList ids;
    for (qint64 slot = 0; slot < layout.slotCount(); ++slot)
        ids.append(layout.isHeader(slot) ? QStringLiteral("#") + layout.groups()[size_t(layout.groupAt(slot))].label
                                         : table.idText(layout.rowAt(slot)));
    return ids;
}

// One lane whose stamps are given in ms (NaN: not observed).
std::shared_ptr<TraceStore> storeWithStamps(const std::vector<std::array<double, kStampCount>> &lanes)
{
    auto store = std::make_shared<TraceStore>();
    int i = 0;
    for (const auto &ms : lanes) {
        const std::string id = "lane-" + std::to_string(i++);
        RequestTable::Row row;
        row.id = id;
        row.outputTokens = 2;
        for (int s = 0; s < kStampCount; ++s)
            row.stamps[size_t(s)] = std::isnan(ms[size_t(s)]) ? kNoTime : qint64(std::llround(ms[size_t(s)] * 1e6));
        store->requests.appendRow(row);
        store->requests.finishRow();
    }
    return store;
}

} // namespace

class tst_LaneLayout : public QObject
{
    Q_OBJECT
private slots:
    void order_data();
    void order();
    void grouping();
    void groupingByNumericAttribute();
    void scopeLaysOutOnlyThoseRows();
    void packedTimes();
    void missingFirstStampMovesTheOrigin();
    void cancelledBuildIsEmpty();
    void activityCountsCoverage_data();
    void activityCountsCoverage();
    void activityResidualForMissingStamp();
    void activityAlignedAxis();
    void activityClearReuses();
    void runsMatchFinishedValues_data();
    void runsMatchFinishedValues();
    void runsVisitOnlyWhereSegmentsChange();
};

void tst_LaneLayout::order_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("metric");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<bool>("descending");
    QTest::addColumn<QStringList>("ids");
    const int arrival = int(LaneOrder::Key::Arrival);
    const int byMetric = int(LaneOrder::Key::Metric);
    const int byAttribute = int(LaneOrder::Key::Attribute);
    const QString three = QStringLiteral("three-requests.jsonl");
    QTest::newRow("arrival") << three << arrival << 0 << QString() << false
                             << QStringList{QStringLiteral("r-a"), QStringLiteral("r-b"), QStringLiteral("r-c")};
    QTest::newRow("TTFT ascending") << three << byMetric << int(Metric::Ttft) << QString() << false
                                    << QStringList{QStringLiteral("r-c"), QStringLiteral("r-b"), QStringLiteral("r-a")};
    QTest::newRow("TTFT descending") << three << byMetric << int(Metric::Ttft) << QString() << true
                                     << QStringList{QStringLiteral("r-a"), QStringLiteral("r-b"),
                                                    QStringLiteral("r-c")};
    QTest::newRow("ITL descending, ties by arrival")
        << three << byMetric << int(Metric::Itl) << QString() << true
        << QStringList{QStringLiteral("r-c"), QStringLiteral("r-a"), QStringLiteral("r-b")};
    QTest::newRow("queue phase") << three << byMetric << int(phaseMetric(Phase::Queue)) << QString() << false
                                 << QStringList{QStringLiteral("r-b"), QStringLiteral("r-c"), QStringLiteral("r-a")};
    QTest::newRow("attribute region, ties by arrival")
        << three << byAttribute << 0 << QStringLiteral("region") << false
        << QStringList{QStringLiteral("r-a"), QStringLiteral("r-c"), QStringLiteral("r-b")};
    QTest::newRow("attribute region descending")
        << three << byAttribute << 0 << QStringLiteral("region") << true
        << QStringList{QStringLiteral("r-b"), QStringLiteral("r-a"), QStringLiteral("r-c")};
    QTest::newRow("burst by E2E descending, first five")
        << QStringLiteral("burst.jsonl") << byMetric << int(Metric::E2e) << QString() << true
        << QStringList{QStringLiteral("burst-10"), QStringLiteral("burst-09"), QStringLiteral("burst-08"),
                       QStringLiteral("burst-07"), QStringLiteral("burst-06")};
}

void tst_LaneLayout::order()
{
    QFETCH(QString, file);
    QFETCH(int, key);
    QFETCH(int, metric);
    QFETCH(QString, attribute);
    QFETCH(bool, descending);
    QFETCH(QStringList, ids);
    const auto store = loadFixture(file);
    LaneOrder order;
    order.key = static_cast<LaneOrder::Key>(key);
    order.metric = static_cast<Metric>(metric);
    order.attribute = attribute;
    order.descending = descending;
    const LaneLayout layout = LaneLayout::build(store->requests, order, nullptr);
    QCOMPARE(layout.slotCount(), store->requests.rowCount());
    QCOMPARE(slotIds(layout, store->requests).mid(0, ids.size()), ids);
    for (qint64 slot = 0; slot < layout.slotCount(); ++slot)
        QCOMPARE(layout.slotOf(layout.rowAt(slot)), slot);
}

void tst_LaneLayout::grouping()
{
    const auto store = loadFixture(QStringLiteral("three-requests.jsonl"));
    LaneOrder order;
    order.key = LaneOrder::Key::Metric;
    order.metric = Metric::Ttft;
    order.groupBy = QStringLiteral("region");
    const LaneLayout layout = LaneLayout::build(store->requests, order, nullptr);
    QCOMPARE(slotIds(layout, store->requests),
             (QStringList{QStringLiteral("#eu"), QStringLiteral("r-c"), QStringLiteral("r-a"), QStringLiteral("#us"),
                          QStringLiteral("r-b")}));
    QCOMPARE(layout.requestCount(), 3);
    QCOMPARE(layout.groups().size(), size_t(2));
    QCOMPARE(layout.groups()[0].laneCount, 2);
    QCOMPARE(layout.groups()[1].headerSlot, 3);
    QCOMPARE(layout.groupAt(2), 0);
    QCOMPARE(layout.groupAt(3), 1);
    QCOMPARE(layout.groupAt(4), 1);
    QVERIFY(layout.isHeader(0));
    QCOMPARE(layout.rowAt(3), -1);
    // A lane counter counts requests, not headers.
    const std::vector<qint64> before = {0, 0, 1, 2, 2, 3};
    for (qint64 slot = 0; slot <= 5; ++slot)
        QCOMPARE(layout.requestLanesBefore(slot), before[size_t(slot)]);
    QCOMPARE(layout.requestLanesBefore(99), 3);
    QCOMPARE(layout.requestLanesBefore(-1), 0);
}

void tst_LaneLayout::groupingByNumericAttribute()
{
    const auto store = loadFixture(QStringLiteral("multiclass.jsonl"));
    LaneOrder order;
    order.groupBy = QStringLiteral("tenant_tier");
    const LaneLayout layout = LaneLayout::build(store->requests, order, nullptr);
    QStringList labels;
    qint64 lanes = 0;
    for (const LaneGroup &group : layout.groups()) {
        labels.append(group.label);
        lanes += group.laneCount;
    }
    QCOMPARE(labels, (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
    QCOMPARE(lanes, 240);
    QCOMPARE(layout.slotCount(), 243);
}

void tst_LaneLayout::scopeLaysOutOnlyThoseRows()
{
    const auto store = loadFixture(QStringLiteral("burst.jsonl"));
    const RowSet scope = RowSet::fromRows({7, 2, 4});
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, &scope);
    QCOMPARE(slotIds(layout, store->requests),
             (QStringList{QStringLiteral("burst-03"), QStringLiteral("burst-05"), QStringLiteral("burst-08")}));
    QCOMPARE(layout.slotOf(0), -1);
    QCOMPARE(layout.slotOf(4), 1);
    // Bounds cover only the laid-out lanes: burst-03 sends at 3000 ms, burst-08 ends at 9..10 s.
    QCOMPARE(layout.traceBegin(), qint64(3'000'000'000));
}

void tst_LaneLayout::packedTimes()
{
    const auto store = loadFixture(QStringLiteral("three-requests.jsonl"));
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    QCOMPARE(layout.origin(1), qint64(1'000'000'000));
    QCOMPARE(layout.offsetMs(1, Stamp::PrefillStart), 200.0f);
    QCOMPARE(layout.offsetMs(1, Stamp::LastTokenClient), 2000.0f);
    QCOMPARE(layout.traceBegin(), qint64(0));
    QCOMPARE(layout.traceEnd(), qint64(4'000'000'000));
    QCOMPARE(layout.longestLaneNs(), qint64(2'000'000'000));
}

void tst_LaneLayout::missingFirstStampMovesTheOrigin()
{
    const double nan = std::nan("");
    const auto store = storeWithStamps({{nan, 10, 20, 30, 40, 50, 60, 70}});
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    QCOMPARE(layout.origin(0), qint64(10'000'000));
    QVERIFY(std::isnan(layout.offsetMs(0, Stamp::ClientSend)));
    QCOMPARE(layout.offsetMs(0, Stamp::GatewayArrival), 0.0f);
}

void tst_LaneLayout::cancelledBuildIsEmpty()
{
    const auto store = loadFixture(QStringLiteral("burst.jsonl"));
    const std::atomic<bool> cancelled{true};
    QVERIFY(LaneLayout::build(store->requests, LaneOrder{}, nullptr, &cancelled).isEmpty());
}

void tst_LaneLayout::activityCountsCoverage_data()
{
    QTest::addColumn<int>("bin");
    QTest::addColumn<int>("category");
    QTest::addColumn<float>("value");
    // r-a alone over [0, 2000) ms in 20 bins of 100 ms.
    QTest::newRow("network in fills bin 0") << 0 << int(Phase::NetworkIn) << 1.0f;
    QTest::newRow("gateway fills bin 1") << 1 << int(Phase::Gateway) << 1.0f;
    QTest::newRow("queue fills bins 2..5") << 4 << int(Phase::Queue) << 1.0f;
    QTest::newRow("no queue in bin 6") << 6 << int(Phase::Queue) << 0.0f;
    QTest::newRow("prefill bin 9") << 9 << int(Phase::Prefill) << 1.0f;
    QTest::newRow("stream bin 19") << 19 << int(Phase::Stream) << 1.0f;
    QTest::newRow("nothing residual") << 5 << int(LaneActivity::kResidual) << 0.0f;
}

void tst_LaneLayout::activityCountsCoverage()
{
    QFETCH(int, bin);
    QFETCH(int, category);
    QFETCH(float, value);
    const auto store = loadFixture(QStringLiteral("three-requests.jsonl"));
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity activity(20);
    activity.addLanes(layout, 0, 1, false, 0, 2'000'000'000);
    activity.finish();
    QCOMPARE(activity.laneCount(), 1);
    QCOMPARE(activity.value(bin, category), value);
    QCOMPARE(activity.total(bin), 1.0f);
}

void tst_LaneLayout::activityResidualForMissingStamp()
{
    // Queue enter unobserved: gateway and queue become one residual gap.
    const double nan = std::nan("");
    const auto store = storeWithStamps({{0, 10, nan, 30, 40, 50, 60, 70}});
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity activity(7);
    activity.addLanes(layout, 0, 1, false, 0, 70'000'000);
    activity.finish();
    QCOMPARE(activity.value(0, int(Phase::NetworkIn)), 1.0f);
    QCOMPARE(activity.value(1, LaneActivity::kResidual), 1.0f);
    QCOMPARE(activity.value(2, LaneActivity::kResidual), 1.0f);
    QCOMPARE(activity.value(1, int(Phase::Gateway)), 0.0f);
    QCOMPARE(activity.value(2, int(Phase::Queue)), 0.0f);
    QCOMPARE(activity.value(3, int(Phase::Prefill)), 1.0f);
}

void tst_LaneLayout::activityAlignedAxis()
{
    // Aligned: all three lanes start at 0. Bin 0 (first 100 ms): r-a and r-c
    // in network in, r-b half network in (50 ms) and half gateway.
    const auto store = loadFixture(QStringLiteral("three-requests.jsonl"));
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity activity(20);
    activity.addLanes(layout, 0, 3, true, 0, 2'000'000'000);
    activity.finish();
    QCOMPARE(activity.value(0, int(Phase::NetworkIn)), 2.5f);
    QCOMPARE(activity.value(0, int(Phase::Gateway)), 0.5f);
    QCOMPARE(activity.value(1, int(Phase::NetworkIn)), 1.0f); // r-c: 200 ms of network in
    QCOMPARE(activity.value(1, int(Phase::Gateway)), 1.0f);   // r-a
    QCOMPARE(activity.value(1, int(Phase::Queue)), 1.0f);     // r-b: queue from 100 to 200 ms
    QCOMPARE(activity.total(19), 3.0f);                       // every lane streams at the end
}

void tst_LaneLayout::activityClearReuses()
{
    const auto store = loadFixture(QStringLiteral("three-requests.jsonl"));
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity activity(40);
    activity.addLanes(layout, 0, 3, false, 0, 4'000'000'000);
    activity.finish();
    QCOMPARE(activity.total(15), 2.0f); // 1500..1600 ms: r-a streaming, r-b in prefill
    activity.clear();
    activity.addLanes(layout, 2, 3, false, 0, 4'000'000'000);
    activity.finish();
    QCOMPARE(activity.total(15), 0.0f);
    QCOMPARE(activity.total(39), 1.0f);
    QCOMPARE(activity.laneCount(), 1);
}

void tst_LaneLayout::runsMatchFinishedValues_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("bins");
    QTest::addColumn<bool>("aligned");
    QTest::addColumn<int>("lanes");   // from the first; 0: all
    QTest::addColumn<bool>("events"); // forEachRun visits only event bins
    const QString three = QStringLiteral("three-requests.jsonl");
    const QString many = QStringLiteral("multiclass.jsonl");
    QTest::newRow("three lanes, 40 bins: walks bins") << three << 40 << false << 0 << false;
    QTest::newRow("three lanes, 7 bins: events overflow") << three << 7 << false << 0 << false;
    QTest::newRow("three lanes, 4000 bins: walks events") << three << 4000 << false << 0 << true;
    QTest::newRow("three lanes aligned, 4000 bins: walks events") << three << 4000 << true << 0 << true;
    QTest::newRow("240 lanes aligned, 300 bins") << many << 300 << true << 0 << false;
    QTest::newRow("240 lanes absolute, 2000 bins") << many << 2000 << false << 0 << false;
    QTest::newRow("6 of 240 lanes aligned, 1600 bins: walks events") << many << 1600 << true << 6 << true;
    QTest::newRow("6 of 240 lanes absolute, 1600 bins: walks events") << many << 1600 << false << 6 << true;
    // Fewer events than bins, but the touched stretch is short: walk it.
    QTest::newRow("6 of 240 lanes absolute, 200 bins: walks bins") << many << 200 << false << 6 << false;
}

void tst_LaneLayout::runsMatchFinishedValues()
{
    // The run walk must give exactly what finish() gives, bin by bin, and
    // leave the accumulator clean for the next row.
    QFETCH(QString, file);
    QFETCH(int, bins);
    QFETCH(bool, aligned);
    QFETCH(int, lanes);
    QFETCH(bool, events);
    const auto store = loadFixture(file);
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    const qint64 slotEnd = lanes > 0 ? qint64(lanes) : layout.slotCount();
    const qint64 begin = aligned ? 0 : layout.traceBegin();
    const qint64 duration = aligned ? layout.longestLaneNs() : layout.traceEnd() - layout.traceBegin();
    LaneActivity reference(bins);
    reference.addLanes(layout, 0, slotEnd, aligned, begin, duration);
    reference.finish();
    LaneActivity runs(bins);
    for (int pass = 0; pass < 2; ++pass) {
        runs.addLanes(layout, 0, slotEnd, aligned, begin, duration);
        QCOMPARE(runs.walksEvents(), events);
        int expectedNext = runs.firstTouched();
        runs.forEachRun([&](int from, int to, const float *values) {
            QCOMPARE(from, expectedNext);
            expectedNext = to + 1;
            for (int bin = from; bin <= to; ++bin) {
                for (int c = 0; c < LaneActivity::kCategories; ++c)
                    QVERIFY(qAbs(values[c] - reference.value(bin, c)) < 1e-4f);
            }
        });
        QCOMPARE(expectedNext, runs.lastTouched() + 1);
        runs.clear();
    }
}

void tst_LaneLayout::runsVisitOnlyWhereSegmentsChange()
{
    // One lane, 700 bins of 0.1 ms, queue enter unobserved: six phases or
    // gaps of 100-200 bins each come back as a handful of runs.
    const double nan = std::nan("");
    const auto store = storeWithStamps({{0, 10, nan, 30, 40, 50, 60, 70}});
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity activity(700);
    activity.addLanes(layout, 0, 1, false, 0, 70'000'000);
    QVERIFY(activity.walksEvents());
    QStringList runs;
    int calls = 0;
    activity.forEachRun([&](int from, int to, const float *values) {
        ++calls;
        int category = -1;
        for (int c = 0; c < LaneActivity::kCategories; ++c) {
            if (values[c] > 0.0f) {
                QCOMPARE(category, -1); // one lane: one category at a time
                QCOMPARE(values[c], 1.0f);
                category = c;
            }
        }
        // Join neighbouring runs of the same category for the comparison.
        const QString name = category < 0         ? QStringLiteral("-")
            : category == LaneActivity::kResidual ? QStringLiteral("residual")
                                                  : phaseLabel(static_cast<Phase>(category));
        if (!runs.isEmpty() && runs.last().endsWith(QStringLiteral(" ") + name)) {
            const QString last = runs.takeLast();
            runs.append(last.section(QLatin1Char('-'), 0, 0) + QStringLiteral("-%1 ").arg(to) + name);
        } else {
            runs.append(QStringLiteral("%1-%2 ").arg(from).arg(to) + name);
        }
    });
    QCOMPARE(runs,
             (QStringList{QStringLiteral("0-99 Network in"), QStringLiteral("100-299 residual"),
                          QStringLiteral("300-399 Prefill"), QStringLiteral("400-499 First decode"),
                          QStringLiteral("500-599 Network to first token"), QStringLiteral("600-699 Stream")}));
    // 13 bins where a segment starts, ends or begins whole bins, plus the 6
    // stretches between them: 19 calls instead of 700 bins.
    QCOMPARE(calls, 19);
    activity.clear();
    // Clean for the next row: nothing left behind.
    activity.finish();
    for (int bin = 0; bin < 700; ++bin)
        QCOMPARE(activity.total(bin), 0.0f);
}

QTEST_GUILESS_MAIN(tst_LaneLayout)
#include "tst_lanelayout.moc"
