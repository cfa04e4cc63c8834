// Loaders of benchmark outputs (AIPerf, LLMPerf) and workload traces (Azure,
// Mooncake): the real public files load, and our statistics reproduce the
// figures the tools themselves published for the same runs.

#include "analysis/requests/Metric.h"
#include "analysis/requests/MetricSummary.h"
#include "io/TraceFileLoader.h"
#include "io/WorkloadTraceLoaders.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace {

QString realdata(const QString &name)
{
    return QStringLiteral(TRACELANE_REALDATA_DIR "/") + name;
}

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/malformed/") + name;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-6 * qMax(1.0, std::abs(b));
}

MetricSummary summary(const TraceStore &store, Metric metric)
{
    return summariseMetric(metricColumnMs(store.requests, metric, Boundary::Client), metric, Boundary::Client);
}

} // namespace

class tst_BenchmarkLoaders : public QObject
{
    Q_OBJECT
private slots:
    void aiperfMatchesItsOwnAggregate_data();
    void aiperfMatchesItsOwnAggregate();
    void aiperfKeepsChunkTimesAndFailures();
    void llmperfMatchesItsOwnSummary();
    void azureTraces_data();
    void azureTraces();
    void mooncakePrefixReuse();
    void naiveDateTimes_data();
    void naiveDateTimes();
    void malformed_data();
    void malformed();
};

void tst_BenchmarkLoaders::aiperfMatchesItsOwnAggregate_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<QString>("tag");
    QTest::newRow("TTFT") << int(Metric::Ttft) << QStringLiteral("ttft");
    QTest::newRow("ITL") << int(Metric::Itl) << QStringLiteral("inter_token_latency");
    QTest::newRow("E2E = request latency") << int(Metric::E2e) << QStringLiteral("request_latency");
}

void tst_BenchmarkLoaders::aiperfMatchesItsOwnAggregate()
{
    QFETCH(int, metric);
    QFETCH(QString, tag);
    if (!QFile::exists(realdata(QStringLiteral("aiperf/profile_export.jsonl"))))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(realdata(QStringLiteral("aiperf/profile_export.jsonl")), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(result.store->format, QStringLiteral("aiperf-jsonl"));
    const QJsonObject expected = readJson(realdata(QStringLiteral("aiperf/profile_export_aiperf.json")))
                                     .value(QStringLiteral("records"))
                                     .toObject()
                                     .value(tag)
                                     .toObject();
    const auto ours = summary(*result.store, Metric(metric));
    QCOMPARE(ours.n, expected.value(QStringLiteral("count")).toInteger());
    for (const auto &[key, value] : {std::pair{"p50", ours.p50}, std::pair{"p90", ours.p90}, std::pair{"p95", ours.p95},
                                     std::pair{"p99", ours.p99}, std::pair{"avg", ours.mean},
                                     std::pair{"min", ours.min}, std::pair{"max", ours.max}}) {
        const double theirs = expected.value(QLatin1String(key)).toDouble();
        QVERIFY2(close(value, theirs),
                 qPrintable(QStringLiteral("%1 %2: ours %3, AIPerf %4")
                                .arg(tag, QLatin1String(key))
                                .arg(value, 0, 'g', 12)
                                .arg(theirs, 0, 'g', 12)));
    }
}

void tst_BenchmarkLoaders::aiperfKeepsChunkTimesAndFailures()
{
    if (!QFile::exists(realdata(QStringLiteral("aiperf/profile_export.jsonl"))))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(realdata(QStringLiteral("aiperf/profile_export.jsonl")), {});
    QVERIFY(result.ok());
    const auto &requests = result.store->requests;
    QCOMPARE(requests.rowCount(), 89);
    QCOMPARE(int(result.store->rejected.size()), 11);
    QVERIFY(
        result.store->rejected[0].reason.startsWith(QStringLiteral("request failed: 499 RequestCancellationError")));
    // One client event per streamed chunk (a chunk may carry several tokens):
    // the first is the first token, the last the end of the response.
    const auto &tokens = requests.clientTokens();
    QCOMPARE(tokens.rowCount(), requests.rowCount());
    // 21,626 chunks; three requests end with a closing chunk that carries no
    // token (one chunk more than output_sequence_length), left out.
    QCOMPARE(tokens.eventTotal(), quint64(21623));
    QCOMPARE(tokens.countFor(0), size_t(193));
    int closed = 0;
    for (qsizetype row = 0; row < requests.rowCount(); ++row) {
        const auto times = tokens.times(row);
        QVERIFY(qint64(times.size()) <= requests.outputTokens(row));
        const qint64 end = requests.stamp(row, Stamp::LastTokenClient);
        if (std::abs(times.back() - end) > 1000) {
            QVERIFY2(times.back() < end, qPrintable(requests.idText(row)));
            ++closed;
        }
        QCOMPARE(times.front(), requests.stamp(row, Stamp::FirstTokenClient));
    }
    QCOMPARE(closed, 3);
    // Failed requests are dated, so the load view can place them.
    for (const auto &rejected : result.store->rejected)
        QVERIFY(rejected.atNs > 1'759'522'000'000'000'000);
    QVERIFY(requests.attribute(QStringLiteral("worker_id")));
    QVERIFY(requests.attribute(QStringLiteral("reasoning_tokens"))->isNumeric());
}

void tst_BenchmarkLoaders::llmperfMatchesItsOwnSummary()
{
    const QString path = realdata(QStringLiteral("llmperf-leaderboard/individual/bedrock_70b.json"));
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const QJsonObject expected = readJson(realdata(QStringLiteral("llmperf-leaderboard/summary/bedrock_70b.json")));
    QCOMPARE(result.store->requests.rowCount(),
             expected.value(QStringLiteral("results_num_completed_requests")).toInteger());
    QCOMPARE(qint64(result.store->rejected.size()),
             expected.value(QStringLiteral("results_number_errors")).toInteger());
    const auto ttft = summary(*result.store, Metric::Ttft);
    const auto e2e = summary(*result.store, Metric::E2e);
    QVERIFY(close(ttft.p50 / 1000.0, expected.value(QStringLiteral("results_ttft_s_quantiles_p50")).toDouble()));
    QVERIFY(close(ttft.p95 / 1000.0, expected.value(QStringLiteral("results_ttft_s_quantiles_p95")).toDouble()));
    QVERIFY(close(ttft.p99 / 1000.0, expected.value(QStringLiteral("results_ttft_s_quantiles_p99")).toDouble()));
    QVERIFY(close(e2e.p50 / 1000.0,
                  expected.value(QStringLiteral("results_end_to_end_latency_s_quantiles_p50")).toDouble()));
    QVERIFY(close(e2e.p95 / 1000.0,
                  expected.value(QStringLiteral("results_end_to_end_latency_s_quantiles_p95")).toDouble()));
    QVERIFY(close(ttft.mean / 1000.0, expected.value(QStringLiteral("results_ttft_s_mean")).toDouble()));
    QVERIFY(!result.store->notices.empty());
    QVERIFY(result.store->notices.back().message.contains(QStringLiteral("no start times")));
}

void tst_BenchmarkLoaders::azureTraces_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rows");
    QTest::addColumn<qint64>("firstArrival");
    QTest::addColumn<QString>("workload");
    QTest::newRow("code") << "AzureLLMInferenceTrace_code.csv" << 8819 << Q_INT64_C(1700158623979960000)
                          << QStringLiteral("code");
    QTest::newRow("conversation") << "AzureLLMInferenceTrace_conv.csv" << 19366 << Q_INT64_C(1700158546680590000)
                                  << QStringLiteral("conv");
}

void tst_BenchmarkLoaders::azureTraces()
{
    QFETCH(QString, file);
    QFETCH(int, rows);
    QFETCH(qint64, firstArrival);
    QFETCH(QString, workload);
    const QString path = realdata(QStringLiteral("azure-llm-inference-2023/") + file);
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &requests = result.store->requests;
    QCOMPARE(requests.rowCount(), rows);
    QVERIFY(result.store->rejected.empty());
    QCOMPARE(requests.stamp(0, Stamp::ClientSend), firstArrival);
    QCOMPARE(requests.stamp(0, Stamp::FirstTokenClient), kNoTime);
    QCOMPARE(requests.attribute(QStringLiteral("workload"))->text(0), workload);
    for (qsizetype row = 1; row < requests.rowCount(); ++row)
        QVERIFY(requests.stamp(row, Stamp::ClientSend) >= requests.stamp(row - 1, Stamp::ClientSend));
    QCOMPARE(summary(*result.store, Metric::Ttft).n, 0);
}

void tst_BenchmarkLoaders::mooncakePrefixReuse()
{
    const QString path = realdata(QStringLiteral("mooncake/conversation_trace.jsonl"));
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &requests = result.store->requests;
    QCOMPARE(requests.rowCount(), 12031);
    const auto *cached = requests.attribute(QStringLiteral("cached_prefix"));
    const auto *reused = requests.attribute(QStringLiteral("reused_prefix_blocks"));
    QVERIFY(cached && reused);
    int cachedRows = 0;
    double reusedBlocks = 0.0;
    for (qsizetype row = 0; row < requests.rowCount(); ++row) {
        cachedRows += cached->text(row) == QLatin1String("true") ? 1 : 0;
        reusedBlocks += reused->number(row);
    }
    // Counted independently over the file with an unbounded set of seen blocks.
    QCOMPARE(cachedRows, 12030);
    QCOMPARE(reusedBlocks, 105710.0);
    QCOMPARE(requests.stamp(0, Stamp::ClientSend), 0);
    QCOMPARE(requests.promptTokens(0), 6758);
}

void tst_BenchmarkLoaders::naiveDateTimes_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("epoch") << QByteArray("1970-01-01 00:00:00") << true << Q_INT64_C(0);
    QTest::newRow("seven fractional digits")
        << QByteArray("2023-11-16 18:17:03.9799600") << true << Q_INT64_C(1700158623979960000);
    QTest::newRow("ISO T and Z") << QByteArray("2000-02-29T12:00:00.5Z") << true << Q_INT64_C(951825600500000000);
    QTest::newRow("before the epoch") << QByteArray("1969-12-31 23:59:59") << true << Q_INT64_C(-1000000000);
    QTest::newRow("month 13") << QByteArray("2023-13-01 00:00:00") << false << Q_INT64_C(0);
    QTest::newRow("no seconds") << QByteArray("2023-11-16 18:17") << false << Q_INT64_C(0);
    QTest::newRow("trailing text") << QByteArray("2023-11-16 18:17:03 UTC") << false << Q_INT64_C(0);
}

void tst_BenchmarkLoaders::naiveDateTimes()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, valid);
    QFETCH(qint64, ns);
    qint64 parsed = 0;
    QCOMPARE(WorkloadTraceLoaders::parseNaiveDateTime(std::string_view(text.constData(), size_t(text.size())), &parsed),
             valid);
    if (valid)
        QCOMPARE(parsed, ns);
}

void tst_BenchmarkLoaders::malformed_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("loaded");
    QTest::addColumn<QStringList>("reasons"); // "line|field|reason start" per rejected record
    QTest::newRow("AIPerf") << "aiperf-bad.jsonl" << 2
                            << QStringList{QStringLiteral("2||invalid JSON at column 51"),
                                           QStringLiteral("3|error|request failed: 500 ServerError: upstream failed"),
                                           QStringLiteral("4|ttft|no time to first token"),
                                           QStringLiteral("5|request_latency|timestamps are not monotonic")};
    QTest::newRow("LLMPerf") << "llmperf-bad.json" << 2
                             << QStringList{QStringLiteral("11|error_code|request failed (error_code -100)"),
                                            QStringLiteral("20|ttft_s|missing or non-numeric"),
                                            QStringLiteral("29|end_to_end_latency_s|timestamps are not monotonic")};
    QTest::newRow("LLMPerf truncated") << "llmperf-truncated.json" << 1
                                       << QStringList{QStringLiteral("11|error_code|request failed"),
                                                      QStringLiteral("20||invalid JSON on line 24 at column 9")};
    QTest::newRow("Azure") << "azure-bad.csv" << 2
                           << QStringList{QStringLiteral("3|TIMESTAMP|not a date and time"),
                                          QStringLiteral("4|ContextTokens|must be a whole number of tokens, got 12.5"),
                                          QStringLiteral("5||expected three columns"),
                                          QStringLiteral("6|GeneratedTokens|token counts must be positive, got -3")};
    QTest::newRow("Mooncake") << "mooncake-bad.jsonl" << 2
                              << QStringList{QStringLiteral("2|input_length|token counts must be positive, got -5"),
                                             QStringLiteral("3||invalid JSON at column 35"),
                                             QStringLiteral("4|input_length|missing")};
}

void tst_BenchmarkLoaders::malformed()
{
    QFETCH(QString, file);
    QFETCH(int, loaded);
    QFETCH(QStringList, reasons);
    const LoadResult result = TraceFileLoader::load(fixture(file), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(result.store->requests.rowCount(), loaded);
    QCOMPARE(int(result.store->rejected.size()), reasons.size());
    for (int i = 0; i < reasons.size(); ++i) {
        const auto parts = reasons[i].split(QLatin1Char('|'));
        const auto &rejected = result.store->rejected[size_t(i)];
        QCOMPARE(rejected.file, file);
        QCOMPARE(rejected.line, parts[0].toLongLong());
        QCOMPARE(rejected.field, parts[1]);
        QVERIFY2(rejected.reason.startsWith(parts[2]), qPrintable(rejected.reason));
    }
    LoadOptions strict;
    strict.strict = true;
    const LoadResult failed = TraceFileLoader::load(fixture(file), strict);
    QVERIFY(failed.fatalError.startsWith(QStringLiteral("strict mode: ") + file));
}

QTEST_GUILESS_MAIN(tst_BenchmarkLoaders)
#include "tst_benchmarkloaders.moc"
