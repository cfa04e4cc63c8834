// The loaders real before/after pairs need (llm-d-benchmark's LMBench CSV,
// vLLM's benchmark_serving.py results) and the comparisons of those pairs:
// our statistics reproduce the figures the tools published, and the llm-d
// pair compares with its exact percentiles.

#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/requests/Metric.h"
#include "analysis/stats/Percentile.h"
#include "io/TraceFileLoader.h"
#include "report/ComparisonText.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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

QString vllm(const QString &rate)
{
    return realdata(
        QStringLiteral("vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_%1.json").arg(rate));
}

QString lmbench(const QString &setup)
{
    return realdata(QStringLiteral("llm-d-benchmark/%1-70b-2replicas/LMBench_sharegpt_output_1.csv").arg(setup));
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

double percentileOf(const TraceStore &store, Metric metric, double q)
{
    return Percentile::of(metricColumnMs(store.requests, metric, Boundary::Client), q);
}

} // namespace

class tst_CompareData : public QObject
{
    Q_OBJECT
private slots:
    void vllmBenchMatchesItsOwnSummary_data();
    void vllmBenchMatchesItsOwnSummary();
    void vllmBenchMalformed();
    void vllmFailuresAreDated();
    void lmbenchLoads();
    void lmbenchMalformed();
    void formatsAreDetected_data();
    void formatsAreDetected();
    void llmdPairCompared();
    void vllmRatesCompared();
};

void tst_CompareData::vllmBenchMatchesItsOwnSummary_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("Llama 70B, 1 req/s") << vllm(QStringLiteral("01"));
    QTest::newRow("Llama 70B, all at once") << vllm(QStringLiteral("inf"));
    QTest::newRow("DeepSeek V2.5, 16 req/s, stalls")
        << realdata(QStringLiteral("vllm-bench/serving_deepseek-ai-DeepSeek-V2.5_tp8_pp2_sharegpt_qps_16.json"));
}

void tst_CompareData::vllmBenchMatchesItsOwnSummary()
{
    QFETCH(QString, file);
    const LoadResult result = TraceFileLoader::load(file, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const TraceStore &store = *result.store;
    const QJsonObject oracle = readJson(file);
    QCOMPARE(store.format, QStringLiteral("vllm-bench-json"));
    QCOMPARE(store.requests.rowCount(), 200);
    QVERIFY(store.rejected.empty());
    // TTFT: vLLM's median and p99 are numpy's, which interpolate like the seed.
    QVERIFY(std::abs(percentileOf(store, Metric::Ttft, 0.5) - oracle[QStringLiteral("median_ttft_ms")].toDouble())
            < 1e-5);
    QVERIFY(std::abs(percentileOf(store, Metric::Ttft, 0.99) - oracle[QStringLiteral("p99_ttft_ms")].toDouble())
            < 1e-5);
    // Our ITL is the request's stream over its gaps: vLLM's TPOT, up to the
    // microseconds its latency adds after the last chunk.
    const auto itl = Percentile::finiteValues(metricColumnMs(store.requests, Metric::Itl, Boundary::Client));
    double mean = 0.0;
    for (const double value : itl)
        mean += value / double(itl.size());
    QVERIFY2(std::abs(mean - oracle[QStringLiteral("mean_tpot_ms")].toDouble()) < 1e-4,
             qPrintable(QString::number(mean)));
    // Every gap is kept as the client token timeline: vLLM's ITL figures
    // (over all gaps of all requests) come back from it.
    const TokenTimeline &tokens = store.requests.clientTokens();
    QVERIFY(!tokens.isEmpty());
    std::vector<double> gaps;
    qint64 outputTokens = 0;
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row) {
        QCOMPARE(qint64(tokens.countFor(row)), qint64(qMax(1, store.requests.outputTokens(row))));
        outputTokens += store.requests.outputTokens(row);
        const auto times = tokens.times(row);
        for (size_t i = 1; i < times.size(); ++i)
            gaps.push_back(double(times[i] - times[i - 1]) / 1e6);
        QCOMPARE(times.back(), store.requests.stamp(row, Stamp::LastTokenClient));
    }
    QCOMPARE(outputTokens, qint64(oracle[QStringLiteral("total_output_tokens")].toInt()));
    double gapMean = 0.0;
    for (const double gap : gaps)
        gapMean += gap / double(gaps.size());
    QVERIFY(std::abs(gapMean - oracle[QStringLiteral("mean_itl_ms")].toDouble()) < 1e-5);
    QVERIFY(std::abs(Percentile::of(gaps, 0.99) - oracle[QStringLiteral("p99_itl_ms")].toDouble()) < 1e-5);
    // No start_times in these (older) results: arrivals are unknown, and said so.
    bool said = false;
    for (const auto &notice : store.notices)
        said = said || notice.message.contains(QStringLiteral("arrivals are unknown"));
    QVERIFY(said);
    QCOMPARE(store.requests.stamp(0, Stamp::ClientSend), 0);
}

void tst_CompareData::vllmBenchMalformed()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("vllm-bench-bad.json")), {});
    QVERIFY(result.ok());
    const TraceStore &store = *result.store;
    QCOMPARE(store.requests.rowCount(), 3);
    QCOMPARE(store.rejected.size(), size_t(2));
    QCOMPARE(store.rejected[0].requestId, QStringLiteral("vllm-bench-3"));
    QCOMPARE(store.rejected[0].field, QStringLiteral("itls[2]"));
    QVERIFY(store.rejected[0].reason.contains(QStringLiteral("not monotonic: inter-token gap 2")));
    QCOMPARE(store.rejected[1].field, QStringLiteral("errors[3]"));
    QCOMPARE(store.rejected[1].reason, QStringLiteral("request failed: Connection reset by peer"));
    // Request 1: 50 ms to the first token, then 10, 20 and 10 ms.
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), 50'000'000);
    QCOMPARE(store.requests.stamp(0, Stamp::LastTokenClient), 90'000'000);
    QCOMPARE(store.requests.outputTokens(0), 4);
    QCOMPARE(store.requests.promptTokens(2), 50);
    QCOMPARE(store.requests.clientTokens().countFor(1), size_t(1)); // one token, no gaps

    const LoadResult truncated = TraceFileLoader::load(fixture(QStringLiteral("vllm-bench-truncated.json")), {});
    QVERIFY(!truncated.ok());
    QVERIFY2(truncated.fatalError.contains(QStringLiteral("vllm-bench-truncated.json:1: invalid JSON")),
             qPrintable(truncated.fatalError));

    LoadOptions strict;
    strict.strict = true;
    const LoadResult failed = TraceFileLoader::load(fixture(QStringLiteral("vllm-bench-bad.json")), strict);
    QVERIFY(!failed.ok());
    QVERIFY(failed.fatalError.startsWith(QStringLiteral("strict mode: vllm-bench-bad.json: request vllm-bench-3")));
}

void tst_CompareData::vllmFailuresAreDated()
{
    // A failed request keeps its send time when the result has start_times
    // (the load view counts it at that instant); a send time past the clock's
    // range is no date, not an overflow.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("failures.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"backend":"vllm","input_lens":[10,20,30],"output_lens":[2,0,0],"ttfts":[0.05,0.0,0.0],)"
               R"("itls":[[0.01],[],[]],"errors":["","Connection reset by peer","timeout"],)"
               R"("start_times":[100.0,100.25,1e300]})");
    file.close();
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const TraceStore &store = *result.store;
    QCOMPARE(store.requests.rowCount(), 1);
    QCOMPARE(store.rejected.size(), size_t(2));
    QCOMPARE(store.rejected[0].field, QStringLiteral("errors[1]"));
    QCOMPARE(store.rejected[0].atNs, qint64(100'250'000'000));
    QCOMPARE(store.rejected[1].field, QStringLiteral("errors[2]"));
    QCOMPARE(store.rejected[1].reason, QStringLiteral("request failed: timeout"));
    QCOMPARE(store.rejected[1].atNs, kNoTime);
    QCOMPARE(store.requests.stamp(0, Stamp::ClientSend), qint64(100'000'000'000));
    QVERIFY(store.arrivalsUnknown.isEmpty());

    // Without start_times the failures are undated and arrivals unknown.
    const LoadResult old = TraceFileLoader::load(fixture(QStringLiteral("vllm-bench-bad.json")), {});
    QCOMPARE(old.store->rejected[1].atNs, kNoTime);
    QVERIFY(old.store->arrivalsUnknown.contains(QStringLiteral("no start_times")));
}

void tst_CompareData::lmbenchLoads()
{
    const LoadResult result = TraceFileLoader::load(lmbench(QStringLiteral("llm-d")), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const TraceStore &store = *result.store;
    QCOMPARE(store.format, QStringLiteral("lmbench-csv"));
    QCOMPARE(store.requests.rowCount(), 246);
    QVERIFY(store.rejected.empty());
    // Row 1: 689 prompt and 275 output tokens, launched at 1746568209.0922427 s,
    // ttft 0.3330872058868408 s, finished at 1746568225.0217888 s (exact decimal ns).
    QCOMPARE(store.requests.promptTokens(0), 689);
    QCOMPARE(store.requests.outputTokens(0), 275);
    QCOMPARE(store.requests.stamp(0, Stamp::ClientSend), Q_INT64_C(1746568209092242700));
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), Q_INT64_C(1746568209092242700) + 333087206);
    QCOMPARE(store.requests.stamp(0, Stamp::LastTokenClient), Q_INT64_C(1746568225021788800));
    QCOMPARE(store.requests.sourceLine(0), 2);
    QVERIFY(std::abs(percentileOf(store, Metric::Ttft, 0.95) - 522.3764777183533) < 1e-6);
}

void tst_CompareData::lmbenchMalformed()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("lmbench-bad.csv")), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const TraceStore &store = *result.store;
    QCOMPARE(store.requests.rowCount(), 2);
    QCOMPARE(store.requests.promptTokens(0), 689); // written as 689.0
    QCOMPARE(store.requests.outputTokens(0), 275);
    QCOMPARE(store.requests.stamp(1, Stamp::ClientSend), Q_INT64_C(1746568208000000000)); // rows in any order
    QCOMPARE(store.rejected.size(), size_t(3));
    QCOMPARE(store.rejected[0].line, 3);
    QCOMPARE(store.rejected[0].field, QStringLiteral("prompt_tokens"));
    QCOMPARE(store.rejected[0].reason,
             QStringLiteral("must be a whole number of tokens, got 543.5")); // TokenCount's words
    QCOMPARE(store.rejected[1].line, 4);
    QCOMPARE(store.rejected[1].field, QStringLiteral("ttft"));
    QCOMPARE(store.rejected[1].reason, QStringLiteral("not a number of seconds: 'abc'"));
    QCOMPARE(store.rejected[2].line, 5);
    QCOMPARE(store.rejected[2].field, QStringLiteral("finish_time"));
    QVERIFY(store.rejected[2].reason.startsWith(QStringLiteral("timestamps are not monotonic")));

    const LoadResult header = TraceFileLoader::load(fixture(QStringLiteral("lmbench-no-launch.csv")), {});
    QVERIFY(!header.ok());
    QVERIFY2(header.fatalError.endsWith(QStringLiteral("not an LMBench CSV: the header lacks launch_time, "
                                                       "finish_time or generation_time")),
             qPrintable(header.fatalError));
}

void tst_CompareData::formatsAreDetected_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<int>("format");
    QTest::newRow("LMBench header") << QByteArray("prompt_tokens,generation_tokens,ttft,generation_time,launch_time,"
                                                  "finish_time\n1,2,0.1,1,5,6\n")
                                    << int(TraceFormat::LmbenchCsv);
    QTest::newRow("vLLM result, arrays early")
        << QByteArray("{\"date\": \"x\", \"ttfts\": [0.1]}") << int(TraceFormat::VllmBenchJson);
    QTest::newRow("vLLM result, arrays beyond the head")
        << QByteArray("{\"date\": \"x\", \"num_prompts\": 5, \"request_throughput\": 1.0, \"input_lens\": [")
        << int(TraceFormat::VllmBenchJson);
    QTest::newRow("seed record is not vLLM")
        << QByteArray("{\"request_id\": \"a\", \"prompt_tokens\": 3}") << int(TraceFormat::SeedJsonl);
}

void tst_CompareData::formatsAreDetected()
{
    QFETCH(QByteArray, head);
    QFETCH(int, format);
    QCOMPARE(int(detectTraceFormat(head)), format);
}

void tst_CompareData::llmdPairCompared()
{
    // The same 1 req/s ShareGPT schedule through plain vLLM (baseline) and
    // through llm-d (candidate): 252 and 246 completed requests.
    const LoadResult base = TraceFileLoader::load(lmbench(QStringLiteral("vllm")), {});
    const LoadResult cand = TraceFileLoader::load(lmbench(QStringLiteral("llm-d")), {});
    QVERIFY(base.ok() && cand.ok());
    ComparisonSpec spec;
    const auto samples = ComparisonSamples::prepare(ComparisonSide::whole(base.store, QStringLiteral("vLLM")),
                                                    ComparisonSide::whole(cand.store, QStringLiteral("llm-d")), spec);
    const TraceComparison comparison = TraceComparison::evaluate(*samples, spec);
    QVERIFY2(comparison.ok(), qPrintable(comparison.error));
    const auto &difference = comparison.overall.difference;
    QCOMPARE(difference.baseline.interval.n, 252);
    QCOMPARE(difference.candidate.interval.n, 246);
    // p95 TTFT with the seed's interpolation, computed independently in Python.
    QVERIFY(std::abs(difference.baseline.value - 638.0893707275391) < 1e-6);
    QVERIFY(std::abs(difference.candidate.value - 522.3764777183533) < 1e-6);
    QVERIFY(std::abs(difference.differenceMs - (522.3764777183533 - 638.0893707275391)) < 1e-6);
    QCOMPARE(difference.verdict, PercentileDifference::Verdict::Improved);
    QVERIFY(difference.upperMs < 0.0);
    // Same schedule, same prompts: the workload check finds nothing.
    QVERIFY2(comparison.workload.warnings().isEmpty(), qPrintable(comparison.workload.warnings().join(u'\n')));
    for (const auto &check : comparison.workload.checks)
        QVERIFY2(check.judged, qPrintable(check.key));
    // Client stamps only: no phase to check, so the rule says worked at the
    // target with the guardrails held, and names what it could not check.
    const ComparisonStopRule &rule = comparison.stopRule;
    QCOMPARE(rule.phase, ComparisonStopRule::Check::NotJudged);
    QCOMPARE(rule.outcome, ComparisonStopRule::Outcome::Worked);
    QCOMPARE(rule.guardrails[3].baseline, 0.0); // no rejected rows on either side
    QVERIFY(ComparisonText::report(comparison)
                .contains(QStringLiteral(
                    "Stop rule: THE CHANGE WORKED at the target, with the guardrails held; the suspected phase "
                    "was not checked")));
}

void tst_CompareData::vllmRatesCompared()
{
    // One model at 1 req/s against all 200 requests at once: ITL doubles, and
    // with no start times the workload check says arrivals are unknown.
    const LoadResult base = TraceFileLoader::load(vllm(QStringLiteral("01")), {});
    const LoadResult cand = TraceFileLoader::load(vllm(QStringLiteral("inf")), {});
    ComparisonSpec spec;
    spec.metric = Metric::Itl;
    const auto samples = ComparisonSamples::prepare(ComparisonSide::whole(base.store, QStringLiteral("1 req/s")),
                                                    ComparisonSide::whole(cand.store, QStringLiteral("inf")), spec);
    const TraceComparison comparison = TraceComparison::evaluate(*samples, spec);
    QVERIFY(comparison.ok());
    QCOMPARE(comparison.overall.difference.verdict, PercentileDifference::Verdict::Regressed);
    QCOMPARE(comparison.overall.difference.baseline.interval.n, 186); // 14 one-token answers have no ITL
    QCOMPARE(comparison.stopRule.outcome, ComparisonStopRule::Outcome::DidNotWork);
    QCOMPARE(comparison.workload.checks[0].key, QStringLiteral("arrival_rate"));
    QVERIFY(!comparison.workload.checks[0].judged);
    QCOMPARE(comparison.workload.checks[0].note, QStringLiteral("arrivals unknown on both sides (no start times)"));
}

QTEST_GUILESS_MAIN(tst_CompareData)
#include "tst_comparedata.moc"
