#include "analysis/load/ServiceLoad.h"
#include "store/RequestTable.h"

#include <QProcess>
#include <QTest>

#include <cmath>
#include <string>

namespace {

constexpr qint64 kMs = 1'000'000;

// A request seen at the client only: send, first token and last token (ms).
void addRequest(RequestTable &table, const std::string &id, double sendMs, double ttftMs, double e2eMs, int tokens)
{
    RequestTable::Row row;
    row.id = id;
    row.promptTokens = 100;
    row.outputTokens = tokens;
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = qint64(std::llround(sendMs * kMs));
    row.stamps[size_t(Stamp::FirstTokenClient)] = qint64(std::llround((sendMs + ttftMs) * kMs));
    row.stamps[size_t(Stamp::LastTokenClient)] = qint64(std::llround((sendMs + e2eMs) * kMs));
    table.appendRow(row);
    table.finishRow();
}

} // namespace

class tst_ServiceLoad : public QObject
{
    Q_OBJECT
private slots:
    void goodputCountsEachObjective();
    void steadyServiceSatisfiesLittlesLaw();
    void growingBacklogIsNotSteady();
    void burstIsNotJudged();
    void observedConcurrency_data();
    void observedConcurrency();
    void concurrencyTimeline();
    void cliPrintsGoodput();
};

void tst_ServiceLoad::goodputCountsEachObjective()
{
    RequestTable table;
    addRequest(table, "good", 0, 500, 500 + 9 * 50, 10); // TTFT 500, ITL 50
    addRequest(table, "slow-first", 100, 1500, 1500 + 9 * 50, 10);
    addRequest(table, "slow-stream", 200, 300, 300 + 9 * 100, 10);
    addRequest(table, "slow-both", 300, 2000, 2000 + 9 * 100, 10);
    addRequest(table, "one-token", 400, 200, 200, 1); // no gap to miss
    const Goodput result = ServiceLoad::goodput(table, Slo{1200.0, 80.0}, Boundary::Client, 3);
    QCOMPARE(result.completed, 5);
    QCOMPARE(result.good, 2);
    QCOMPARE(result.missedTtftOnly, 1);
    QCOMPARE(result.missedItlOnly, 1);
    QCOMPARE(result.missedBoth, 1);
    QCOMPARE(result.notJudged, 0);
    QCOMPARE(result.rejected, 3);
    // Window: 0 ms .. slow-both's end at 300 + 2900 = 3200 ms.
    QCOMPARE(result.windowSeconds, 3.2);
    QCOMPARE(result.goodputPerSecond, 2.0 / 3.2);
    QCOMPARE(result.throughputPerSecond, 5.0 / 3.2);
    QCOMPARE(result.goodOutputTokensPerSecond, 11.0 / 3.2);
    QCOMPARE(result.goodShare(), 0.4);
}

void tst_ServiceLoad::steadyServiceSatisfiesLittlesLaw()
{
    RequestTable table;
    for (int i = 0; i < 1000; ++i)
        addRequest(table, "r" + std::to_string(i), i * 100.0, 100.0, 2000.0, 20);
    const LittlesLawCheck check = ServiceLoad::littlesLaw(table);
    QCOMPARE(check.completed, 1000);
    QCOMPARE(check.windowSeconds, 101.9); // 0 .. 99.9 s + 2 s
    QCOMPARE(check.meanTimeInSystemSeconds, 2.0);
    QVERIFY(qFuzzyCompare(check.expectedInFlight, 1000.0 / 101.9 * 2.0));
    QCOMPARE(check.peakInFlight, 20);
    QVERIFY(check.steadinessJudged);
    QVERIFY(check.steady);
    QVERIFY(std::isnan(check.observedInFlight));
    QVERIFY(check.consistent);
}

void tst_ServiceLoad::growingBacklogIsNotSteady()
{
    // One FIFO server taking 125 ms per request while requests arrive every 100 ms.
    RequestTable table;
    double free = 0.0;
    for (int i = 0; i < 1000; ++i) {
        const double send = i * 100.0;
        const double start = qMax(send, free);
        free = start + 125.0;
        addRequest(table, "r" + std::to_string(i), send, start - send + 10.0, free - send, 10);
    }
    const LittlesLawCheck check = ServiceLoad::littlesLaw(table);
    QVERIFY(check.steadinessJudged);
    QVERIFY(!check.steady);
    // Each request waits 25 ms longer than the one before: the first quarter
    // stays about 3.3 s on average, the last about 21.9 s.
    QVERIFY2(
        check.lateTimeInSystemSeconds > 6.0 * check.earlyTimeInSystemSeconds,
        qPrintable(QStringLiteral("%1 vs %2").arg(check.lateTimeInSystemSeconds).arg(check.earlyTimeInSystemSeconds)));
    QVERIFY(check.completionRatePerSecond < 0.85 * check.arrivalRatePerSecond);
}

void tst_ServiceLoad::burstIsNotJudged()
{
    RequestTable table;
    for (int i = 0; i < 100; ++i)
        addRequest(table, "b" + std::to_string(i), i * 0.2, 2000.0, 9000.0, 10);
    const LittlesLawCheck check = ServiceLoad::littlesLaw(table);
    QVERIFY(!check.steadinessJudged);
    QVERIFY(!check.steady);
    QCOMPARE(check.peakInFlight, 100);
}

void tst_ServiceLoad::observedConcurrency_data()
{
    QTest::addColumn<double>("observed");
    QTest::addColumn<bool>("consistent");
    // Steady trace below: L = λW = 1000/101.9 × 2 ≈ 19.63.
    QTest::newRow("dashboard agrees") << 19.0 << true;
    QTest::newRow("dashboard shows a tenth") << 2.0 << false;
    QTest::newRow("dashboard shows double") << 40.0 << false;
}

void tst_ServiceLoad::observedConcurrency()
{
    QFETCH(double, observed);
    QFETCH(bool, consistent);
    RequestTable table;
    for (int i = 0; i < 1000; ++i)
        addRequest(table, "r" + std::to_string(i), i * 100.0, 100.0, 2000.0, 20);
    const LittlesLawCheck check = ServiceLoad::littlesLaw(table, observed);
    QCOMPARE(check.consistent, consistent);
    QVERIFY(qFuzzyCompare(check.relativeGap, (observed - check.expectedInFlight) / check.expectedInFlight));
}

void tst_ServiceLoad::concurrencyTimeline()
{
    RequestTable table;
    addRequest(table, "a", 0, 10, 400, 5);   // in flight 0..400 ms
    addRequest(table, "b", 100, 10, 100, 5); // 100..200 ms
    addRequest(table, "c", 250, 10, 150, 5); // 250..400 ms
    const ConcurrencyTimeline timeline = ServiceLoad::concurrency(table, 4);
    QCOMPARE(timeline.startNs, 0);
    QCOMPARE(timeline.binNs, 100 * kMs);
    QCOMPARE(timeline.arrivals, (std::vector<qint64>{1, 1, 1, 0}));
    QCOMPARE(timeline.maxInFlight, (std::vector<qint64>{1, 2, 2, 2}));
    QCOMPARE(timeline.meanInFlight, (std::vector<double>{1.0, 2.0, 1.5, 2.0}));
}

void tst_ServiceLoad::cliPrintsGoodput()
{
    QProcess cli;
    cli.start(QStringLiteral(TRACELANE_CLI_PATH),
              {QStringLiteral("goodput"), QStringLiteral("--slo-ttft"), QStringLiteral("600"),
               QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl")});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    // Burst TTFTs: 202 .. 718 ms; only 718 exceeds 600 ms; every ITL is 22 ms.
    QVERIFY2(out.contains(QStringLiteral("(90.0% of 10 completed requests met both)")), qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("Missed: TTFT only 1 | ITL only 0 | both 0")));
    QVERIFY(out.contains(QStringLiteral("Objectives: TTFT \u2264 600 ms [client boundary]")));

    QProcess bad;
    bad.start(QStringLiteral(TRACELANE_CLI_PATH),
              {QStringLiteral("goodput"), QStringLiteral("--slo-itl"), QStringLiteral("-3"),
               QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl")});
    QVERIFY(bad.waitForFinished(60'000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(
        QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("--slo-itl expects a positive number")));
}

QTEST_GUILESS_MAIN(tst_ServiceLoad)
#include "tst_serviceload.moc"
