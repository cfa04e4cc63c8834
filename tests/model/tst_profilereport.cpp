#include "analysis/requests/ProfileReport.h"
#include "io/TraceFileLoader.h"
#include "scenarios/SeedScenarios.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/") + name;
}

std::shared_ptr<TraceStore> load(const QString &path)
{
    LoadResult result = TraceFileLoader::load(path, LoadOptions{});
    if (!result.ok())
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(result.fatalError));
    return result.store;
}

// The seed profiler prints one decimal; compare at that precision.
void compareOneDecimal(double actual, double expected, const char *what)
{
    QVERIFY2(std::abs(actual - expected) < 0.05 + 1e-9,
             qPrintable(QStringLiteral("%1: %2 vs seed %3").arg(QLatin1String(what)).arg(actual).arg(expected)));
}

} // namespace

class tst_ProfileReport : public QObject
{
    Q_OBJECT
private slots:
    void seedBurstAcceptanceNumbers();
    void builtinBurstMatchesTheSeedsFile();
    void negativeControlIsRejected();
    void boundaries_data();
    void boundaries();
    void agreesWithSeedProfilerOutput_data();
    void agreesWithSeedProfilerOutput();
    void missingStampsBecomeResidual();
    void oneTokenAnswersHaveNoItl();
};

void tst_ProfileReport::seedBurstAcceptanceNumbers()
{
    const auto store = load(fixture(QStringLiteral("burst.jsonl")));
    const auto report
        = profileRequests(store->requests, Boundary::Client, QStringLiteral("burst"), QStringLiteral("replayed burst"));
    QCOMPARE(report.requests, 10);
    QCOMPARE(report.ttft.n, 10);
    QVERIFY(qFuzzyCompare(report.ttft.p50, 265.5));
    QVERIFY(qFuzzyCompare(report.ttft.p95, 659.5));
    QVERIFY(qFuzzyCompare(report.itl.p95, 22.0));
    QVERIFY(qFuzzyCompare(report.e2e.p95, 2067.5));
    QVERIFY(report.dominantTtftPhase.has_value());
    QCOMPARE(*report.dominantTtftPhase, Phase::Queue);
    QVERIFY(qFuzzyCompare(report.meanOf(Phase::Queue).meanMs, 151.7));
    QVERIFY(report.dominantE2ePhase.has_value());
    QCOMPARE(*report.dominantE2ePhase, Phase::Stream);
    QVERIFY(qFuzzyCompare(report.meanOf(Phase::Stream).meanMs, 1408.0));
    QCOMPARE(report.promptP50, 2048.0);
    QCOMPARE(report.outputP95, 65.0);
    QCOMPARE(report.ttftResidualMeanMs, 0.0);
}

void tst_ProfileReport::builtinBurstMatchesTheSeedsFile()
{
    // The CLI's built-in case is rebuilt in C++; it must be the seed's data.
    const LoadResult builtin = SeedScenarios::loadJsonl(SeedScenarios::burstJsonl(), QStringLiteral("burst.jsonl"));
    const auto file = load(fixture(QStringLiteral("burst.jsonl")));
    QVERIFY(builtin.ok());
    const auto &a = builtin.store->requests;
    const auto &b = file->requests;
    QCOMPARE(a.rowCount(), b.rowCount());
    for (qsizetype row = 0; row < a.rowCount(); ++row) {
        QCOMPARE(a.idText(row), b.idText(row));
        for (int s = 0; s < kStampCount; ++s)
            QCOMPARE(a.stamp(row, Stamp(s)), b.stamp(row, Stamp(s)));
    }
}

void tst_ProfileReport::negativeControlIsRejected()
{
    const LoadResult result
        = SeedScenarios::loadJsonl(SeedScenarios::negativeControlJsonl(), QStringLiteral("negative.jsonl"));
    QVERIFY(result.ok());
    QCOMPARE(result.store->requests.rowCount(), 0);
    QCOMPARE(int(result.store->rejected.size()), 1);
    QCOMPARE(result.store->rejected[0].field, QStringLiteral("prefill_end_ms"));
    QVERIFY(result.store->rejected[0].reason.startsWith(QStringLiteral("timestamps are not monotonic")));
}

void tst_ProfileReport::boundaries_data()
{
    QTest::addColumn<int>("boundary");
    QTest::addColumn<double>("p50");
    QTest::addColumn<double>("p95");
    QTest::addColumn<int>("dominant");
    // Burst TTFT at the server is queue + prefill + first decode = queue + 156;
    // at the engine it is a constant 156 ms, where prefill dominates.
    QTest::newRow("client") << int(Boundary::Client) << 265.5 << 659.5 << int(Phase::Queue);
    QTest::newRow("server") << int(Boundary::Server) << 67.5 + 156.0 << 461.5 + 156.0 << int(Phase::Queue);
    QTest::newRow("engine") << int(Boundary::Engine) << 156.0 << 156.0 << int(Phase::Prefill);
}

void tst_ProfileReport::boundaries()
{
    QFETCH(int, boundary);
    QFETCH(double, p50);
    QFETCH(double, p95);
    QFETCH(int, dominant);
    const auto store = load(fixture(QStringLiteral("burst.jsonl")));
    const auto report = profileRequests(store->requests, Boundary(boundary), QStringLiteral("burst"), {});
    QCOMPARE(report.ttft.boundary, Boundary(boundary));
    QVERIFY2(qFuzzyCompare(report.ttft.p50, p50), qPrintable(QString::number(report.ttft.p50)));
    QVERIFY2(qFuzzyCompare(report.ttft.p95, p95), qPrintable(QString::number(report.ttft.p95)));
    QCOMPARE(int(*report.dominantTtftPhase), dominant);
    // ITL and E2E are observed at the client whatever the chosen boundary.
    QCOMPARE(report.itl.boundary, Boundary::Client);
    QCOMPARE(report.e2e.boundary, Boundary::Client);
    QVERIFY(qFuzzyCompare(report.e2e.p95, 2067.5));
}

void tst_ProfileReport::agreesWithSeedProfilerOutput_data()
{
    QTest::addColumn<QString>("trace");
    QTest::newRow("seed burst") << QStringLiteral("burst");
    QTest::newRow("multi-class file") << QStringLiteral("multiclass");
}

void tst_ProfileReport::agreesWithSeedProfilerOutput()
{
    // *.seed-output.txt is what the seed's Python profiler printed for the
    // same file (python3 seed_profiler.py FILE), kept as a fixture.
    QFETCH(QString, trace);
    QFile expected(fixture(trace + QStringLiteral(".seed-output.txt")));
    QVERIFY(expected.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(expected.readAll());
    const auto number = [&](const QString &label) {
        const QRegularExpression pattern(QRegularExpression::escape(label) + QStringLiteral(R"(\s*([0-9.]+))"));
        const auto match = pattern.match(text);
        if (!match.hasMatch())
            qFatal("no '%s' in the seed output", qPrintable(label));
        return match.captured(1).toDouble();
    };
    const auto store = load(fixture(trace + QStringLiteral(".jsonl")));
    const auto report = profileRequests(store->requests, Boundary::Client, trace, {});
    compareOneDecimal(report.ttft.p50, number(QStringLiteral("p50 TTFT:")), "p50 TTFT");
    compareOneDecimal(report.ttft.p95, number(QStringLiteral("p95 TTFT:")), "p95 TTFT");
    compareOneDecimal(report.itl.p95, number(QStringLiteral("p95 ITL:")), "p95 ITL");
    compareOneDecimal(report.e2e.p95, number(QStringLiteral("p95 E2E:")), "p95 E2E");
    const QRegularExpression dominant(QStringLiteral(R"(Dominant (TTFT|E2E) phase: (\w+) \(([0-9.]+) ms mean\))"));
    auto it = dominant.globalMatch(text);
    int seen = 0;
    while (it.hasNext()) {
        const auto match = it.next();
        const auto phase
            = match.captured(1) == QLatin1String("TTFT") ? report.dominantTtftPhase : report.dominantE2ePhase;
        QVERIFY(phase.has_value());
        QCOMPARE(phaseKey(*phase), match.captured(2));
        compareOneDecimal(report.meanOf(*phase).meanMs, match.captured(3).toDouble(), "dominant phase mean");
        ++seen;
    }
    QCOMPARE(seen, 2);
    QVERIFY(text.contains(QStringLiteral("(%1 requests)").arg(report.requests)));
}

void tst_ProfileReport::missingStampsBecomeResidual()
{
    RequestTable table;
    RequestTable::Row row;
    row.id = "partial";
    row.promptTokens = 10;
    row.outputTokens = 5;
    row.stamps.fill(kNoTime);
    // Only client send, prefill start/end and the client tokens were observed.
    row.stamps[size_t(Stamp::ClientSend)] = 0;
    row.stamps[size_t(Stamp::PrefillStart)] = 100'000'000;
    row.stamps[size_t(Stamp::PrefillEnd)] = 130'000'000;
    row.stamps[size_t(Stamp::FirstTokenClient)] = 150'000'000;
    row.stamps[size_t(Stamp::LastTokenClient)] = 190'000'000;
    table.appendRow(row);
    table.finishRow();
    const auto report = profileRequests(table, Boundary::Client, QStringLiteral("partial"), {});
    QCOMPARE(report.ttft.p50, 150.0);
    QCOMPARE(report.meanOf(Phase::Prefill).n, 1);
    QCOMPARE(report.meanOf(Phase::Prefill).meanMs, 30.0);
    QCOMPARE(report.meanOf(Phase::Queue).n, 0);
    QCOMPARE(*report.dominantTtftPhase, Phase::Prefill);
    // 150 ms TTFT of which only 30 ms is an observed phase: 120 ms stays residual.
    QCOMPARE(report.ttftResidualMeanMs, 120.0);
    QCOMPARE(report.itl.p50, 10.0);
}

void tst_ProfileReport::oneTokenAnswersHaveNoItl()
{
    const QByteArray jsonl
        = R"({"request_id":"one","prompt_tokens":5,"output_tokens":1,"client_send_ms":0,"gateway_arrival_ms":1,)"
          R"("queue_enter_ms":2,"prefill_start_ms":3,"prefill_end_ms":4,"first_token_server_ms":5,)"
          R"("first_token_client_ms":6,"last_token_client_ms":6})"
          "\n"
          R"({"request_id":"two","prompt_tokens":5,"output_tokens":3,"client_send_ms":0,"gateway_arrival_ms":1,)"
          R"("queue_enter_ms":2,"prefill_start_ms":3,"prefill_end_ms":4,"first_token_server_ms":5,)"
          R"("first_token_client_ms":6,"last_token_client_ms":16})"
          "\n";
    const LoadResult result = SeedScenarios::loadJsonl(jsonl, QStringLiteral("itl.jsonl"));
    QVERIFY(result.ok());
    const auto report = profileRequests(result.store->requests, Boundary::Client, QStringLiteral("itl"), {});
    QCOMPARE(report.itl.n, 1);
    QCOMPARE(report.itl.p95, 5.0);
    QCOMPARE(report.ttft.n, 2);
}

QTEST_GUILESS_MAIN(tst_ProfileReport)
#include "tst_profilereport.moc"
