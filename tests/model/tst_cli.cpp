// Runs the tracelane-cli binary the way a script would.

#include "support/CliRun.h"
#include "support/TestData.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using TestData::fixture;

class tst_Cli : public QObject
{
    Q_OBJECT
private slots:
    void noArgumentsRunsBuiltinCases();
    void analysePrintsSeedReport();
    void analyseJsonHasEveryFigure();
    void boundaryOptionChangesTtft();
    void rejectedRecordsAreSummarised();
    void strictModeFails();
    void errors_data();
    void errors();
};

void tst_Cli::noArgumentsRunsBuiltinCases()
{
    const CliRun run = runCli({});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Scenario: bursty positive case (10 requests)")));
    QVERIFY(run.out.contains(QStringLiteral("p50 TTFT: 265.5 ms  [client boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("p95 TTFT: 659.5 ms  [client boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("p95 ITL:  22.0 ms/token  [client boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("p95 E2E:  2067.5 ms  [client boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("Dominant TTFT phase: queue (151.7 ms mean)")));
    QVERIFY(run.out.contains(QStringLiteral("Dominant E2E phase: stream (1408.0 ms mean)")));
    QVERIFY(run.out.contains(QStringLiteral("Negative control:\nrejected as expected: ")));
    QVERIFY(run.out.contains(QStringLiteral("field 'prefill_end_ms': timestamps are not monotonic")));
}

void tst_Cli::analysePrintsSeedReport()
{
    const CliRun run = runCli({QStringLiteral("analyse"), fixture(QStringLiteral("seed/multiclass.jsonl"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QStringLiteral("Scenario: multiclass.jsonl (240 requests)\n")));
    QVERIFY(run.out.contains(QStringLiteral("p50 TTFT: 169.1 ms  [client boundary, n=240]")));
    QVERIFY(run.out.contains(QStringLiteral("p95 E2E:  9135.2 ms  [client boundary, n=240]")));
    QVERIFY(run.out.contains(QStringLiteral("Rejected records: 0")));
}

void tst_Cli::analyseJsonHasEveryFigure()
{
    const CliRun run
        = runCli({QStringLiteral("analyse"), QStringLiteral("--json"), fixture(QStringLiteral("seed/burst.jsonl"))});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(json.value(QStringLiteral("requests")).toInt(), 10);
    QCOMPARE(json.value(QStringLiteral("boundary")).toString(), QStringLiteral("client"));
    QVERIFY(qFuzzyCompare(json.value(QStringLiteral("p95_ttft_ms")).toDouble(), 659.5));
    const QJsonObject ttft = json.value(QStringLiteral("ttft")).toObject();
    QCOMPARE(ttft.value(QStringLiteral("n")).toInt(), 10);
    QVERIFY(qFuzzyCompare(ttft.value(QStringLiteral("p50")).toDouble(), 265.5));
    QCOMPARE(ttft.value(QStringLiteral("max")).toDouble(), 718.0);
    const QJsonObject queue
        = json.value(QStringLiteral("phase_means_ms")).toObject().value(QStringLiteral("queue")).toObject();
    QVERIFY(qFuzzyCompare(queue.value(QStringLiteral("mean_ms")).toDouble(), 151.7));
    QCOMPARE(json.value(QStringLiteral("dominant_e2e_phase")).toObject().value(QStringLiteral("phase")).toString(),
             QStringLiteral("stream"));
    QCOMPARE(json.value(QStringLiteral("rejected_records")).toArray().size(), 0);
}

void tst_Cli::boundaryOptionChangesTtft()
{
    const CliRun run = runCli({QStringLiteral("analyse"), QStringLiteral("--boundary"), QStringLiteral("engine"),
                               fixture(QStringLiteral("seed/burst.jsonl"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("engine boundary (prefill start \u2192 first server token)")));
    QVERIFY(run.out.contains(QStringLiteral("p95 TTFT: 156.0 ms  [engine boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("p95 E2E:  2067.5 ms  [client boundary, n=10]")));
    QVERIFY(run.out.contains(QStringLiteral("Dominant TTFT phase: prefill (145.0 ms mean)  [engine boundary")));
}

void tst_Cli::rejectedRecordsAreSummarised()
{
    const CliRun run = runCli({QStringLiteral("analyse"), fixture(QStringLiteral("malformed/zero-tokens.jsonl"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Scenario: zero-tokens.jsonl (2 requests)")));
    QVERIFY(run.out.contains(QStringLiteral(
        "Rejected records: 2\n  zero-tokens.jsonl:2: request r-002: field 'output_tokens': token counts must be "
        "positive, got 0\n")));
}

void tst_Cli::strictModeFails()
{
    const CliRun run = runCli({QStringLiteral("analyse"), QStringLiteral("--strict"),
                               fixture(QStringLiteral("malformed/zero-tokens.jsonl"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.contains(QStringLiteral("strict mode: zero-tokens.jsonl:2: request r-002")), qPrintable(run.err));
}

void tst_Cli::errors_data()
{
    addCliErrorColumns();
    QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2
                                     << QStringLiteral("unknown command 'frobnicate'");
    QTest::newRow("analyse without file")
        << QStringList{QStringLiteral("analyse")} << 2 << QStringLiteral("expected exactly one FILE");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--bogus")} << 2
                                    << QStringLiteral("Unknown option 'bogus'");
    QTest::newRow("bad boundary") << QStringList{QStringLiteral("analyse"), QStringLiteral("--boundary"),
                                                 QStringLiteral("moon"), fixture(QStringLiteral("seed/burst.jsonl"))}
                                  << 2 << QStringLiteral("unknown boundary 'moon'");
    QTest::newRow("missing file") << QStringList{QStringLiteral("analyse"), QStringLiteral("/nonexistent.jsonl")} << 1
                                  << QStringLiteral("/nonexistent.jsonl: no such file");
    QTest::newRow("empty file") << QStringList{QStringLiteral("analyse"),
                                               fixture(QStringLiteral("malformed/empty.jsonl"))}
                                << 1 << QStringLiteral("the file is empty");
    QTest::newRow("nothing valid") << QStringList{QStringLiteral("analyse"),
                                                  fixture(QStringLiteral("malformed/utf16.jsonl"))}
                                   << 1 << QStringLiteral("UTF-16");
}

void tst_Cli::errors()
{
    const CliRun run = runCliErrorRow();
    if (QTest::currentTestFailed())
        return;
    QVERIFY(run.out.isEmpty());
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    if (exitCode == 2 && !message.contains(QLatin1String("boundary")))
        QVERIFY(run.err.contains(QStringLiteral("Usage:")));
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
