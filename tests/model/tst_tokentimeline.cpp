// The delta-encoded per-token timeline: exact round trips, events carrying
// several tokens, segments, refused rows, merges and its size per token.

#include "store/TokenTimeline.h"

#include <QTest>

#include <random>

using Event = TokenTimeline::Event;

class tst_TokenTimeline : public QObject
{
    Q_OBJECT
private slots:
    void roundTripsExactTimes_data();
    void roundTripsExactTimes();
    void equalTimesBecomeOneEvent();
    void segmentsMayOverlapAndRestartGaps();
    void refusesTimesThatGoBackwards();
    void emptyRowsAndPadding();
    void appendRowFromCopiesRows();
    void appendAllFromKeepsEveryRow();
    void longRowsSpanManyWriteBlocks();
    void aboutFourBytesPerTokenAtTypicalGaps();
};

void tst_TokenTimeline::roundTripsExactTimes_data()
{
    QTest::addColumn<QList<qint64>>("times");
    QTest::newRow("one token") << QList<qint64>{1'700'000'000'123'456'789};
    QTest::newRow("steady 25 ms") << QList<qint64>{0, 25'000'000, 50'000'000, 75'000'000};
    QTest::newRow("negative epoch, 1 ns gaps") << QList<qint64>{-5, -4, -3, 0};
    QTest::newRow("one-second stall") << QList<qint64>{10, 20, 1'000'000'020, 1'000'000'030};
    QTest::newRow("gap of 2^60 ns") << QList<qint64>{0, qint64(1) << 60};
}

void tst_TokenTimeline::roundTripsExactTimes()
{
    QFETCH(QList<qint64>, times);
    TokenTimeline timeline;
    const std::vector<qint64> in(times.begin(), times.end());
    QVERIFY(timeline.appendRow(std::span<const qint64>(in)));
    QCOMPARE(timeline.rowCount(), 1);
    QCOMPARE(timeline.times(0), in);
    QCOMPARE(timeline.countFor(0), in.size());
    QCOMPARE(timeline.tokensFor(0), qint64(in.size()));
    QCOMPARE(timeline.firstTime(0), in.front());
}

void tst_TokenTimeline::equalTimesBecomeOneEvent()
{
    TokenTimeline timeline;
    const std::vector<qint64> in{100, 100, 100, 250, 400, 400};
    QVERIFY(timeline.appendRow(std::span<const qint64>(in)));
    const auto events = timeline.events(0);
    QCOMPARE(events.size(), size_t(3));
    QCOMPARE(events[0].time, qint64(100));
    QCOMPARE(events[0].tokens, 3);
    QCOMPARE(events[1].time, qint64(250));
    QCOMPARE(events[1].tokens, 1);
    QCOMPARE(events[2].tokens, 2);
    QCOMPARE(timeline.tokensFor(0), qint64(6));
    QCOMPARE(timeline.countFor(0), size_t(3));
}

void tst_TokenTimeline::segmentsMayOverlapAndRestartGaps()
{
    TokenTimeline timeline;
    // Two model calls; the second starts before the first one's last token.
    const std::vector<Event> in{
        {1000, 1, true}, {1100, 1, false}, {1500, 4, false}, {1200, 1, true}, {1300, 300, false}};
    QVERIFY(timeline.appendRow(std::span<const Event>(in)));
    const auto out = timeline.events(0);
    QCOMPARE(out.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        QCOMPARE(out[i].time, in[i].time);
        QCOMPARE(out[i].tokens, in[i].tokens);
        QCOMPARE(out[i].segmentStart, in[i].segmentStart);
    }
    QCOMPARE(timeline.tokensFor(0), qint64(307));
}

void tst_TokenTimeline::refusesTimesThatGoBackwards()
{
    TokenTimeline timeline;
    const std::vector<qint64> backwards{10, 30, 20};
    QVERIFY(!timeline.appendRow(std::span<const qint64>(backwards)));
    const std::vector<Event> segmentBeforeFirst{{1000, 1, true}, {900, 1, true}};
    QVERIFY(!timeline.appendRow(std::span<const Event>(segmentBeforeFirst)));
    const std::vector<Event> noTokens{{1000, 0, true}};
    QVERIFY(!timeline.appendRow(std::span<const Event>(noTokens)));
    QCOMPARE(timeline.rowCount(), 0); // nothing appended
    QCOMPARE(timeline.encodedBytes(), size_t(0));
}

void tst_TokenTimeline::emptyRowsAndPadding()
{
    TokenTimeline timeline;
    QVERIFY(timeline.isEmpty());
    timeline.padTo(3);
    QCOMPARE(timeline.rowCount(), 3);
    QVERIFY(timeline.isEmpty());
    const std::vector<qint64> in{5, 6};
    QVERIFY(timeline.appendRow(std::span<const qint64>(in)));
    QVERIFY(!timeline.isEmpty());
    QCOMPARE(timeline.countFor(1), size_t(0));
    QCOMPARE(timeline.firstTime(1), kNoTime);
    QCOMPARE(timeline.countFor(3), size_t(2));
    QCOMPARE(timeline.countFor(99), size_t(0));
    QCOMPARE(timeline.firstEventIndex(3), quint64(0));
    QCOMPARE(timeline.eventTotal(), quint64(2));
}

void tst_TokenTimeline::appendRowFromCopiesRows()
{
    TokenTimeline a;
    const std::vector<qint64> r0{1, 2, 3};
    const std::vector<qint64> r1{50, 50, 90};
    QVERIFY(a.appendRow(std::span<const qint64>(r0)));
    a.appendEmptyRow();
    QVERIFY(a.appendRow(std::span<const qint64>(r1)));
    TokenTimeline merged;
    merged.appendRowFrom(a, 2);
    merged.appendRowFrom(a, 1);
    merged.appendRowFrom(a, 0);
    QCOMPARE(merged.rowCount(), 3);
    QCOMPARE(merged.times(0), (std::vector<qint64>{50, 90}));
    QCOMPARE(merged.tokensFor(0), qint64(3));
    QCOMPARE(merged.countFor(1), size_t(0));
    QCOMPARE(merged.times(2), r0);
    QCOMPARE(merged.tokenTotal(), quint64(6));
}

void tst_TokenTimeline::appendAllFromKeepsEveryRow()
{
    TokenTimeline first;
    const std::vector<qint64> r0{1, 2, 3};
    const std::vector<qint64> r1{50, 50, 90};
    QVERIFY(first.appendRow(std::span<const qint64>(r0)));
    first.appendEmptyRow();
    TokenTimeline second;
    QVERIFY(second.appendRow(std::span<const qint64>(r1)));
    second.appendEmptyRow();
    QVERIFY(second.appendRow(std::span<const qint64>(r0)));

    TokenTimeline copied;
    copied.appendAllFrom(first);
    copied.appendAllFrom(second);
    TokenTimeline moved;
    moved.appendAllFrom(TokenTimeline(first)); // takes over the first part
    moved.appendAllFrom(TokenTimeline(second));
    for (const TokenTimeline *merged : {&copied, &moved}) {
        QCOMPARE(merged->rowCount(), 5);
        QCOMPARE(merged->times(0), r0);
        QCOMPARE(merged->countFor(1), size_t(0));
        QCOMPARE(merged->times(2), (std::vector<qint64>{50, 90}));
        QCOMPARE(merged->tokensFor(2), qint64(3));
        QCOMPARE(merged->countFor(3), size_t(0));
        QCOMPARE(merged->times(4), r0);
        QCOMPARE(merged->firstEventIndex(4), quint64(5));
        QCOMPARE(merged->eventTotal(), quint64(8));
        QCOMPARE(merged->tokenTotal(), quint64(9));
        QCOMPARE(merged->encodedBytes(), first.encodedBytes() + second.encodedBytes());
    }
}

void tst_TokenTimeline::longRowsSpanManyWriteBlocks()
{
    // Rows far longer than the encoder's write block, with gaps of every
    // varint length (1 to 9 bytes), decode to the exact times.
    std::vector<qint64> times;
    qint64 t = 1000; // 5,000 gaps add up to about 6.4e18 ns: still a qint64
    for (int i = 0; i < 5000; ++i) {
        times.push_back(t);
        t += qint64(1) << (i % 56);
    }
    TokenTimeline timeline;
    QVERIFY(timeline.appendRow(std::span<const qint64>(times)));
    QVERIFY(timeline.appendRow(std::span<const qint64>(times.data(), 700)));
    QCOMPARE(timeline.times(0), times);
    QCOMPARE(timeline.times(1), std::vector<qint64>(times.begin(), times.begin() + 700));
    timeline.squeeze();
    QCOMPARE(timeline.times(0), times);
}

void tst_TokenTimeline::aboutFourBytesPerTokenAtTypicalGaps()
{
    // 1,000 requests of 200 tokens, gaps 15-60 ms with ns jitter.
    std::mt19937_64 random(7);
    const auto gap = [&random] { return qint64(15'000'000 + random() % 45'000'001); };
    TokenTimeline timeline;
    std::vector<qint64> times(200);
    for (int r = 0; r < 1000; ++r) {
        qint64 t = 1'764'000'000'000'000'000 + qint64(r) * 7'300'000;
        for (auto &time : times) {
            time = t;
            t += gap();
        }
        QVERIFY(timeline.appendRow(std::span<const qint64>(times)));
    }
    timeline.squeeze();
    const double perToken = double(timeline.memoryBytes()) / 200'000.0;
    // 4 bytes of varint per gap under 67 ms, plus 32 bytes per row.
    QVERIFY2(perToken < 4.2, qPrintable(QString::number(perToken)));
    QVERIFY2(perToken > 4.0, qPrintable(QString::number(perToken)));
}

QTEST_GUILESS_MAIN(tst_TokenTimeline)
#include "tst_tokentimeline.moc"
